/* map() of urikit._columns: one answer a row, answered in C where the compiled core's
 * operation answers (a row that is its own answer, its normal form, its target against a
 * base), and by a fallback, the scalar API, for every other row.
 *
 * The operations are those of urikit._contracts.ColumnOperation (UK_OP_* of
 * contracts.h).  The rows the kernel answers are scanned by uk_scan_octets, the URI
 * grammar over octets, so every row answered here is ASCII; the answers are string
 * views, of the row itself where it is its own answer, else of its text appended to
 * an extra data buffer.  The loop over the rows runs with the GIL released; the
 * fallback is called for the rows left to it afterwards, with the GIL held.
 */
#include "columns.h"

#include <string.h>

#include "arrow_inline.h"
#include "check.h"
#include "contracts.h"
#include "ops.h"
#include "scan.h"
#include "text.h"


/* One scheme of the registry whose rules (RFC 3986 §6.2.3) are not those of a scheme
 * the registry does not know: its lower-case name and its rules, read from its code in
 * urikit._seam.scheme_codes (uk_scheme_rules_of, ops.h). */
typedef struct {
    const char *name;
    Py_ssize_t n;
    uk_scheme_rules rules;
} uk_scheme;

/* The rules of the scheme s[0..n-1], without case (RFC 3986 §3.1): those of the table
 * (lower-case names, sorted), or of a scheme the registry does not know. */
static void uk_scheme_rules_in(const uk_scheme *table, Py_ssize_t count, const uint8_t *s,
                               Py_ssize_t n, uk_scheme_rules *rules)
{
    Py_ssize_t lo = 0, hi = count;
    while (lo < hi) {
        Py_ssize_t mid = lo + (hi - lo) / 2;
        const uk_scheme *e = &table[mid];
        Py_ssize_t common = e->n < n ? e->n : n;
        int order = 0;
        for (Py_ssize_t k = 0; k < common && order == 0; k++) {
            order = (int)uk_ascii_lower(s[k]) - (int)(uint8_t)e->name[k];
        }
        if (order == 0) {
            order = n < e->n ? -1 : n > e->n;
        }
        if (order == 0) {
            *rules = e->rules;
            return;
        }
        if (order < 0) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    uk_scheme_rules_of(0, rules);
}

/* Read the scheme table: a tuple of (name: bytes, code: int), sorted by name.  The
 * names stay owned by the tuple. */
static uk_scheme *uk_schemes_read(PyObject *tuple, Py_ssize_t *count)
{
    if (!PyTuple_Check(tuple)) {
        PyErr_SetString(PyExc_TypeError, "schemes must be a tuple");
        return NULL;
    }
    *count = PyTuple_GET_SIZE(tuple);
    uk_scheme *table = PyMem_Calloc((size_t)(*count > 0 ? *count : 1), sizeof(uk_scheme));
    if (table == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t k = 0; k < *count; k++) {
        uk_scheme *e = &table[k];
        long code;
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(tuple, k), "y#l;scheme: (name, code)", &e->name,
                              &e->n, &code)) {
            PyMem_Free(table);
            return NULL;
        }
        if (uk_scheme_rules_of(code, &e->rules) < 0) {
            PyErr_SetString(PyExc_ValueError, "scheme: the code is out of range");
            PyMem_Free(table);
            return NULL;
        }
    }
    return table;
}

/* The number of schemes map() remembers (uk_scheme_rules_seen). */
#define UK_SEEN 16

/* The state of map() over its rows. */
typedef struct {
    const uk_column *c;
    int operation, invalid_is_null, strict;
    const uint8_t *against; /* for UK_OP_RESOLVE: the base, an absolute URI */
    Py_ssize_t against_n;
    ptrdiff_t against_spans[UK_SPANS];
    const uk_column *bases; /* for UK_OP_RESOLVE_EACH: a base a row */
    const uint8_t *last_base; /* the last base read, its length, spans and whether the
                               * kernel reads it */
    Py_ssize_t last_base_n;
    ptrdiff_t last_base_spans[UK_SPANS];
    int last_base_found;
    const uk_scheme *table;
    Py_ssize_t count;
    struct {
        uint64_t key; /* a scheme as a row spells it (uk_octets_key), its length (0: none) */
        Py_ssize_t n;
        uk_scheme_rules rules;
    } seen[UK_SEEN]; /* schemes looked up in the table (uk_scheme_rules_seen) */
    int64_t base;
    int32_t extra_index;
    uint8_t *validity, *views;
    uk_extra extra;
    uk_rows slow; /* the rows left to fallback */
    Py_ssize_t fast, failed_row;
} uk_map;

/* The view of the answer of row i, s[0..n-1] appended to the extra buffer from
 * octet at on; 0, or a failure. */
static int uk_put_extra(uk_map *m, Py_ssize_t i, int64_t at)
{
    /* the buffer is NULL until an answer has an octet: an empty first answer */
    const uint8_t *s = m->extra.s == NULL ? (const uint8_t *)"" : m->extra.s + at;
    Py_ssize_t n = m->extra.n - at;
    uint8_t *view = m->views + i * UK_VIEW_SIZE;
    if (n <= UK_VIEW_INLINE) {
        uk_put_view(view, s, n, -1, 0, s);
        m->extra.n = at; /* inline: nothing of it stays in the buffer */
        return UK_FINE;
    }
    return uk_put_view(view, s, n, m->extra_index, at, s) < 0 ? UK_NO_FIT : UK_FINE;
}

/* The first n octets of s[0..7], 1 <= n <= 8, as a word (the others zero). */
static inline uint64_t uk_octets_key(const uint8_t *s, Py_ssize_t n)
{
    uint64_t key;
    memcpy(&key, s, 8);
    if (n >= 8) {
        return key;
    }
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return key & ~(UINT64_MAX >> (8 * n));
#else
    return key & (((uint64_t)1 << (8 * n)) - 1);
#endif
}

/* uk_scheme_rules_in() of the scheme s[0..n-1] of a row whose buffer ends at limit,
 * remembering the schemes of at most 8 octets looked up: the rows of a column mostly
 * share a few ("http", "https", "ftp", "file", "mailto", ...).  A scheme has its
 * entry of uk_map.seen by its length and its first and last octets. */
static void uk_scheme_rules_seen(uk_map *m, const uint8_t *s, Py_ssize_t n,
                                 const uint8_t *limit, uk_scheme_rules *rules)
{
    if (n > 8 || limit - s < 8) {
        uk_scheme_rules_in(m->table, m->count, s, n, rules);
        return;
    }
    unsigned k = ((unsigned)n + s[0] + 8u * s[n - 1]) % UK_SEEN;
    uint64_t key = uk_octets_key(s, n);
    if (m->seen[k].n == n && m->seen[k].key == key) {
        *rules = m->seen[k].rules;
        return;
    }
    uk_scheme_rules_in(m->table, m->count, s, n, rules);
    m->seen[k].key = key;
    m->seen[k].n = n;
    m->seen[k].rules = *rules;
}

/* What uk_normal_form() answers for a row that is its own answer. */
#define UK_ITSELF ((ptrdiff_t)-3)

/* The normal form of the URI-reference r (spans as scanned) at the syntax rung (RFC 3986
 * §6.2.2) or the scheme rung (§6.2.3, with the rules of the registry's table), written by
 * uk_normalize_ucs1 into the extra buffer after its end: its length, or -1 when only
 * the scalar API answers, or -2 when out of memory, or UK_ITSELF when the row is
 * plainly its own normal form (nothing written).  The buffer's end does not move. */
static ptrdiff_t uk_normal_form(uk_map *m, const uk_row *r, const ptrdiff_t spans[UK_SPANS])
{
    uk_scheme_rules rules, *at_scheme_level = NULL;
    if (m->operation == UK_OP_NORMALIZE_SCHEME) {
        if (spans[UK_G_SCHEME] >= 0) {
            uk_scheme_rules_seen(m, r->s + spans[UK_G_SCHEME],
                              spans[UK_G_SCHEME + 1] - spans[UK_G_SCHEME], r->limit, &rules);
        } else {
            uk_scheme_rules_of(0, &rules);
        }
        at_scheme_level = &rules;
    }
    if (uk_plainly_normal_octets(r->s, r->n, r->limit, spans, at_scheme_level)) {
        return UK_ITSELF;
    }
    if (uk_extra_reserve(&m->extra, UK_NORMALIZE_CAPACITY(r->n)) < 0) {
        return -2;
    }
    ptrdiff_t normal_spans[UK_SPANS];
    ptrdiff_t n = uk_normalize_ucs1(r->s, spans, at_scheme_level, m->extra.s + m->extra.n,
                                    normal_spans);
    UK_ASSERT(n <= UK_NORMALIZE_CAPACITY(r->n));
    return n;
}

/* The target of the URI-reference r (spans as scanned) against the absolute URI
 * b[0..nb-1] with the spans bs (RFC 3986 §5.2.2-§5.2.4, the compiled core's
 * uk_transform_references, the one urikit.resolve uses), written into the extra
 * buffer after its end: its length, or -2 when out of memory.  The buffer's end does
 * not move. */
static ptrdiff_t uk_target_of(uk_map *m, const uint8_t *b, Py_ssize_t nb,
                              const ptrdiff_t bs[UK_SPANS], const uk_row *r,
                              const ptrdiff_t spans[UK_SPANS])
{
    if (uk_extra_reserve(&m->extra, UK_RESOLVE_CAPACITY(nb, r->n)) < 0) {
        return -2;
    }
    ptrdiff_t target_spans[UK_SPANS];
    ptrdiff_t n = uk_transform_references_ucs1(b, bs, r->s, spans, m->strict,
                                               m->extra.s + m->extra.n, target_spans);
    UK_ASSERT(n >= 0 && n <= UK_RESOLVE_CAPACITY(nb, r->n));
    return n;
}

/* For UK_OP_RESOLVE_EACH, the base of row i, read into m->last_base (its octets,
 * length and spans): 1 when it is an absolute URI that the kernel reads; 0 when it is
 * null (the answer is null); -1 when the scalar API answers; -2 when its row cannot be
 * read.  A base equal to the last one read (the links of one page, in a link table) is
 * not scanned again. */
static int uk_base_of_row(uk_map *m, const uk_octet_table *t, Py_ssize_t i)
{
    if (uk_column_is_null(m->bases, i)) {
        return 0;
    }
    uk_row b;
    if (uk_column_row(m->bases, i, &b) < 0) {
        return -2;
    }
    if (m->last_base == NULL || b.n != m->last_base_n ||
        memcmp(b.s, m->last_base, (size_t)b.n) != 0) {
        m->last_base_found = uk_scan_octets(t, b.s, b.n, b.s + b.n, m->last_base_spans) &&
                             m->last_base_spans[UK_G_SCHEME] >= 0;
        m->last_base = b.s;
        m->last_base_n = b.n;
    }
    return m->last_base_found ? 1 : -1;
}

/* The answer of the URI-reference r (spans as scanned) by the operation of m: its
 * length, written into the extra buffer after its end, or UK_ITSELF when the row is its
 * own answer, or -1 when only the scalar API answers, or -2 when out of memory. */
static ptrdiff_t uk_answer(uk_map *m, const uk_row *r, const ptrdiff_t spans[UK_SPANS])
{
    switch (m->operation) {
    case UK_OP_ITSELF:
        return UK_ITSELF;
    case UK_OP_NORMALIZE_SYNTAX:
    case UK_OP_NORMALIZE_SCHEME:
        return uk_normal_form(m, r, spans);
    case UK_OP_RESOLVE:
        return uk_target_of(m, m->against, m->against_n, m->against_spans, r, spans);
    case UK_OP_RESOLVE_EACH:
        return uk_target_of(m, m->last_base, m->last_base_n, m->last_base_spans, r, spans);
    default:
        return -1;
    }
}

/* The rows map() answers itself, without the GIL: a view of the row when it is its
 * own answer, its answer in the extra buffer, null for a row that is not a reference
 * when invalid_is_null; every other row goes to m->slow.  Every row gets a view, zero
 * where it has no answer yet. */
static int uk_map_rows(uk_map *m)
{
    uk_octet_table t;
    uk_octet_table_init(&t);
    ptrdiff_t spans[UK_SPANS];
    const uk_column *c = m->c;
    for (Py_ssize_t i = 0; i < c->length; i++) {
        uint8_t *view = m->views + i * UK_VIEW_SIZE;
        if (uk_column_is_null(c, i)) {
            memset(view, 0, UK_VIEW_SIZE);
            continue;
        }
        uk_row r;
        if (uk_column_row(c, i, &r) < 0) {
            m->failed_row = i;
            return UK_BAD_ROW;
        }
        ptrdiff_t answer = -1; /* the length of the row's answer, UK_ITSELF, or -1: fallback */
        int base = 1;
        if (m->operation == UK_OP_RESOLVE_EACH) {
            base = uk_base_of_row(m, &t, i);
            if (base == -2) {
                m->failed_row = i;
                return UK_BAD_ROW;
            }
            if (base == 0) { /* a null base: a null answer */
                memset(view, 0, UK_VIEW_SIZE);
                m->fast++;
                continue;
            }
        }
        if (m->operation != UK_OP_SCALAR && base == 1) {
            if (t.scan(&t, r.s, r.n, r.limit, spans)) {
                answer = uk_answer(m, &r, spans);
                if (answer == -2) {
                    return UK_NO_MEMORY;
                }
            } else if (m->invalid_is_null) {
                memset(view, 0, UK_VIEW_SIZE);
                m->fast++;
                continue;
            }
        }
        if (answer < 0 && answer != UK_ITSELF) {
            memset(view, 0, UK_VIEW_SIZE); /* until the fallback answers */
            if (uk_rows_append(&m->slow, i) < 0) {
                return UK_NO_MEMORY;
            }
            continue;
        }
        int64_t at = m->extra.n;
        if (answer == UK_ITSELF || (answer == r.n && memcmp(m->extra.s + at, r.s, (size_t)r.n) == 0)) {
            if (uk_put_row(view, &r, m->base) < 0) { /* the row is its answer */
                m->failed_row = i;
                return UK_NO_FIT;
            }
        } else {
            UK_ASSERT(answer >= 0);
            m->extra.n += answer;
            int failure = uk_put_extra(m, i, at);
            if (failure != UK_FINE) {
                m->failed_row = i;
                return failure;
            }
        }
        m->fast++;
        uk_set_bit(m->validity, i);
    }
    return UK_FINE;
}

/* The answers of fallback(index, text) for the rows of m->slow, appended to the extra
 * buffer with the GIL held: 0, or -1 with an exception set. */
static int uk_map_fallback(uk_map *m, PyObject *fallback)
{
    for (Py_ssize_t k = 0; k < m->slow.n; k++) {
        Py_ssize_t i = m->slow.rows[k];
        uk_row r;
        if (uk_column_row(m->c, i, &r) < 0) { /* read without failure before */
            uk_column_failure(UK_BAD_ROW, i);
            return -1;
        }
        /* a row that is not UTF-8 is given as its octets */
        PyObject *text = uk_utf8_valid(r.s, r.n)
                             ? PyUnicode_DecodeUTF8((const char *)r.s, r.n, NULL)
                             : PyBytes_FromStringAndSize((const char *)r.s, r.n);
        if (text == NULL) {
            return -1;
        }
        PyObject *answer = PyObject_CallFunction(fallback, "nN", i, text);
        if (answer == NULL) {
            return -1;
        }
        if (answer == Py_None) {
            Py_DECREF(answer);
            continue;
        }
        Py_ssize_t size;
        const char *utf8 = PyUnicode_Check(answer) ? PyUnicode_AsUTF8AndSize(answer, &size) : NULL;
        if (utf8 == NULL) {
            if (!PyErr_Occurred()) {
                PyErr_Format(PyExc_TypeError, "fallback returned %.200s, not str or None",
                             Py_TYPE(answer)->tp_name);
            }
            Py_DECREF(answer);
            return -1;
        }
        int64_t at = m->extra.n;
        int failure = uk_extra_append(&m->extra, (const uint8_t *)utf8, size) < 0
                          ? UK_NO_MEMORY
                          : uk_put_extra(m, i, at);
        Py_DECREF(answer);
        if (failure != UK_FINE) {
            uk_column_failure(failure, i);
            return -1;
        }
        uk_set_bit(m->validity, i);
    }
    return 0;
}

PyDoc_STRVAR(uk_column_map_doc,
             "map(column, operation, fallback, base, allocate, /, *, schemes=(),\n"
             "    invalid_is_null=False, against=None, strict=True, bases=None)\n--\n\n"
             "A string view column with one answer per row: null for a null row; for a\n"
             "row that is an URI-reference, the answer of operation (a\n"
             "urikit._contracts.ColumnOperation) when the kernel gives it: ITSELF the\n"
             "row; NORMALIZE_SYNTAX, NORMALIZE_SCHEME its normal form (RFC 3986 §6.2.2,\n"
             "§6.2.3) with the rules of schemes, a tuple of (lower-case name: bytes,\n"
             "code), sorted by name, of the registry's schemes with a nonzero code in\n"
             "urikit._seam.scheme_codes; RESOLVE its target against the ASCII absolute\n"
             "URI against (bytes; RFC 3986 §5.2, strict as in resolve); RESOLVE_EACH\n"
             "against the row of the column bases (a column spec of the same length;\n"
             "null where the base is null, fallback's where it is no absolute URI).\n"
             "Null for a row that is not one when invalid_is_null; for every other row\n"
             "fallback(index, text), a str or None (for every non-null row with SCALAR); text is\n"
             "a str, or bytes for a row that is not UTF-8.\n"
             "Returns (validity, views, extra, fast): views point into the input's data\n"
             "buffers (from base on) or into extra, the data buffer after them; fast\n"
             "counts the rows answered without fallback.  validity and views are made by\n"
             "allocate(size).  The rows the kernel answers are read with the GIL\n"
             "released.");

static PyObject *uk_column_map(PyObject *module, PyObject *args, PyObject *kwargs)
{
    (void)module;
    static char *keywords[] = {"", "", "", "", "", "schemes", "invalid_is_null", "against",
                               "strict", "bases", NULL};
    PyObject *spec, *fallback, *allocate, *schemes = NULL, *against = Py_None;
    PyObject *bases_spec = Py_None;
    int operation, invalid_is_null = 0, strict = 1;
    long long base;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OiOLO|$OpOpO:map", keywords, &spec,
                                     &operation, &fallback, &base, &allocate, &schemes,
                                     &invalid_is_null, &against, &strict, &bases_spec)) {
        return NULL;
    }
    if (operation < 0 || operation >= UK_OPERATIONS) {
        PyErr_Format(PyExc_ValueError, "map: no operation %d", operation);
        return NULL;
    }
    if (operation == UK_OP_RESOLVE_EACH && bases_spec == Py_None) {
        PyErr_SetString(PyExc_ValueError, "map: RESOLVE_EACH takes a column of bases");
        return NULL;
    }
    if (against != Py_None && !PyBytes_Check(against)) {
        PyErr_SetString(PyExc_TypeError, "map: against must be bytes or None");
        return NULL;
    }
    if (!PyCallable_Check(fallback)) {
        PyErr_SetString(PyExc_TypeError, "fallback must be callable");
        return NULL;
    }
    uk_map m;
    memset(&m, 0, sizeof(m));
    if (operation == UK_OP_RESOLVE) {
        uk_octet_table t;
        uk_octet_table_init(&t);
        const uint8_t *b = against == Py_None ? NULL : (const uint8_t *)PyBytes_AS_STRING(against);
        Py_ssize_t nb = against == Py_None ? 0 : PyBytes_GET_SIZE(against);
        if (b == NULL || !uk_scan_octets(&t, b, nb, b + nb, m.against_spans) ||
            m.against_spans[UK_G_SCHEME] < 0) {
            PyErr_SetString(PyExc_ValueError, "map: RESOLVE takes an absolute URI, against");
            return NULL;
        }
        m.against = b;
        m.against_n = nb;
    }
    m.strict = strict;
    PyObject *empty = NULL;
    if (schemes == NULL) {
        schemes = empty = PyTuple_New(0);
        if (empty == NULL) {
            return NULL;
        }
    }
    m.table = uk_schemes_read(schemes, &m.count);
    Py_XDECREF(empty);
    if (m.table == NULL) {
        return NULL;
    }
    uk_column c, bases;
    memset(&bases, 0, sizeof(bases));
    if (uk_column_read(spec, &c) < 0) {
        PyMem_Free((void *)m.table);
        return NULL;
    }
    if (operation == UK_OP_RESOLVE_EACH) {
        if (uk_column_read(bases_spec, &bases) < 0) {
            uk_column_release(&c);
            PyMem_Free((void *)m.table);
            return NULL;
        }
        if (bases.length != c.length) {
            PyErr_SetString(PyExc_ValueError, "bases and column differ in length");
            uk_column_release(&bases);
            uk_column_release(&c);
            PyMem_Free((void *)m.table);
            return NULL;
        }
        m.bases = &bases;
    }
    m.c = &c;
    m.operation = operation;
    m.invalid_is_null = invalid_is_null;
    m.base = c.kind == UK_KIND_VIEW ? 0 : base;
    m.extra_index = c.kind == UK_KIND_VIEW ? (int32_t)c.ndata : 1;
    Py_ssize_t n = c.length;
    uk_out validity = {NULL, {0}, 0}, views = {NULL, {0}, 0};
    PyObject *result = NULL;
    if ((m.validity = uk_out_new(&validity, allocate, (n + 7) / 8, 1)) == NULL ||
        (m.views = uk_out_new(&views, allocate, n * UK_VIEW_SIZE, 0)) == NULL) {
        goto done;
    }
    uk_out_prefault(m.views, n * UK_VIEW_SIZE); /* every view is written by uk_map_rows */
    int failure;
    Py_BEGIN_ALLOW_THREADS
    failure = uk_map_rows(&m);
    Py_END_ALLOW_THREADS
    if (failure != UK_FINE) {
        uk_column_failure(failure, m.failed_row);
        goto done;
    }
    if (uk_map_fallback(&m, fallback) < 0) {
        goto done;
    }
    PyObject *extra_bytes = PyBytes_FromStringAndSize((const char *)m.extra.s, m.extra.n);
    if (extra_bytes != NULL) {
        result = Py_BuildValue("(OONn)", validity.obj, views.obj, extra_bytes, m.fast);
    }
done:
    PyMem_RawFree(m.extra.s);
    PyMem_RawFree(m.slow.rows);
    PyMem_Free((void *)m.table);
    if (m.bases != NULL) {
        uk_column_release(&bases);
    }
    uk_column_release(&c);
    uk_out_release(&validity);
    uk_out_release(&views);
    return result;
}

PyMethodDef uk_map_methods[] = {
    {"map", (PyCFunction)(void (*)(void))uk_column_map, METH_VARARGS | METH_KEYWORDS,
     uk_column_map_doc},
    {NULL, NULL, 0, NULL},
};
