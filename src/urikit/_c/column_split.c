/* split() of urikit._columns: every row of a column scanned (scan.h), the components
 * asked for as string views into the input's data buffers, the host type and the port
 * number, and for a row that is not a reference its error (locate.h), all written with
 * the GIL released.
 *
 * With the URI grammar the rows are scanned by uk_scan_octets, which may read on after
 * a row into the rest of its data buffer (never past it) but answers for the row alone
 * (no octet >= 0x80 is in the URI grammar, as no non-ASCII character is); with the IRI
 * grammar by uk_scan_utf8, which decodes the UTF-8 sequences where a run meets them.
 */
#include "columns.h"

#include <string.h>

#include "arrow_inline.h"
#include "check.h"
#include "contracts.h"
#include "locate.h"
#include "scan.h"
#include "spans.h"
#include "text.h"

/* The code of the host s[0..n-1] (RFC 3986 §3.2.2, first-match-wins). */
static int8_t uk_host_code(const uint8_t *s, Py_ssize_t n)
{
    if (n > 0 && s[0] == '[') {
        return (s[1] == 'v' || s[1] == 'V') ? UK_HOST_IPVFUTURE : UK_HOST_IPV6;
    }
    return uk_is_ipv4(s, n) ? UK_HOST_IPV4 : UK_HOST_REG_NAME;
}

/* port = *DIGIT (RFC 3986 §3.2.3) as a number: 1, or 0 when it is above 65535, the
 * largest TCP or UDP port, which URI.port_number refuses. */
static int uk_port_value(const uint8_t *s, Py_ssize_t n, int64_t *value)
{
    Py_ssize_t i = 0;
    while (i < n && s[i] == '0') {
        i++;
    }
    int64_t v = 0;
    for (; i < n; i++) {
        v = v * 10 + (s[i] - '0');
        if (v > 65535) {
            return 0;
        }
    }
    *value = v;
    return 1;
}
/* The 8 by 8 bit matrix of x (bit 8 * j + k) transposed (to bit 8 * k + j): byte j
 * of the components defined in row j becomes byte k of the rows where component k is
 * defined. */
static inline uint64_t uk_transpose_bits(uint64_t x)
{
    uint64_t t = (x ^ (x >> 7)) & 0x00AA00AA00AA00AAULL;
    x ^= t ^ (t << 7);
    t = (x ^ (x >> 14)) & 0x0000CCCC0000CCCCULL;
    x ^= t ^ (t << 14);
    t = (x ^ (x >> 28)) & 0x00000000F0F0F0F0ULL;
    x ^= t ^ (t << 28);
    return x;
}

/* The views of the wanted components of row r (spans as scanned) at row i, one by
 * one; their bits (1 << component) in *defined.  0, or -1 when one does not fit a
 * view. */
static UK_COLD int uk_put_components_narrow(uint8_t *const *values, const int *want, int nwant,
                                         Py_ssize_t i, const uk_row *r,
                                         const ptrdiff_t spans[UK_SPANS], int64_t base,
                                         unsigned *defined)
{
    unsigned here = 0;
    int misfit = 0;
    for (int k = 0; k < nwant; k++) {
        int g = want[k];
        uint8_t *view = values[g] + i * UK_VIEW_SIZE;
        ptrdiff_t a = spans[2 * g];
        if (a < 0) {
            memset(view, 0, UK_VIEW_SIZE);
            continue;
        }
        here |= 1u << g;
        misfit |= uk_put_slice(view, r, a, spans[2 * g + 1], base);
    }
    *defined = here;
    return misfit;
}

#if UK_WIDE_VIEWS
/* The view of component g of the row s, spans a, b (-1, -1 when it is undefined), at
 * octet `at` of values, with bit g of *defined set when it is defined; `far` is the
 * second word of the view of a long string at the row's first octet. */
static inline void uk_put_component_wide(uint8_t *values, Py_ssize_t at, const uint8_t *s,
                                      uint64_t far, ptrdiff_t a, ptrdiff_t b, unsigned g,
                                      unsigned *defined)
{
    uint8_t *view = values + at;
    if (a < 0) {
        memset(view, 0, UK_VIEW_SIZE);
        return;
    }
    *defined |= 1u << g;
    uk_put_view_wide(view, s + a, b - a, far + ((uint64_t)a << 32));
}
#endif

/* uk_put_components_narrow, with uk_put_view_wide when the row allows it; mask has bit g
 * for each component g in want. */
static inline int uk_put_components(uint8_t *const *values, const int *want, int nwant,
                                 unsigned mask, Py_ssize_t i, const uk_row *r,
                                 const ptrdiff_t spans[UK_SPANS], int64_t base,
                                 unsigned *defined)
{
#if UK_WIDE_VIEWS
    if (uk_row_is_wide(r, base)) {
        unsigned here = 0;
        const uint8_t *s = r->s;
        uint64_t far = (uint32_t)r->buffer | (((uint64_t)r->at - (uint64_t)base) << 32);
        Py_ssize_t at = i * UK_VIEW_SIZE;
        /* one call a component, so that each is compiled with its number known */
#define UK_PUT_WIDE(g)                                                                     \
    if (mask & (1u << (g))) {                                                              \
        uk_put_component_wide(values[g], at, s, far, spans[2 * (g)], spans[2 * (g) + 1], (g), \
                           &here);                                                         \
    }
        UK_PUT_WIDE(0)
        UK_PUT_WIDE(1)
        UK_PUT_WIDE(2)
        UK_PUT_WIDE(3)
        UK_PUT_WIDE(4)
        UK_PUT_WIDE(5)
        UK_PUT_WIDE(6)
        UK_PUT_WIDE(7)
#undef UK_PUT_WIDE
        *defined = here;
        return 0;
    }
#else
    (void)mask;
#endif
    return uk_put_components_narrow(values, want, nwant, i, r, spans, base, defined);
}

/* The views of the wanted components of row i, when it is null or not a reference. */
static UK_COLD void uk_put_nulls(uint8_t *const *values, const int *want, int nwant, Py_ssize_t i)
{
    for (int k = 0; k < nwant; k++) {
        memset(values[want[k]] + i * UK_VIEW_SIZE, 0, UK_VIEW_SIZE);
    }
}

/* The failure of a row that is not a reference, as the locator says it. */
typedef struct {
    Py_ssize_t row;
    ptrdiff_t position; /* in characters */
    unsigned reason;    /* an explanation, or uk_loc_explanations() for a non-ASCII one */
    unsigned rule;      /* an explanation */
} uk_error;

/* A growing array of the errors of a split, filled without the GIL. */
typedef struct {
    uk_error *errors;
    Py_ssize_t n, capacity;
} uk_errors;

static UK_COLD int uk_errors_append(uk_errors *e, const uk_error *error)
{
    if (e->n == e->capacity) {
        Py_ssize_t capacity = e->capacity ? 2 * e->capacity : 64;
        uk_error *grown = PyMem_RawRealloc(e->errors, (size_t)capacity * sizeof(uk_error));
        if (grown == NULL) {
            return -1;
        }
        e->errors = grown;
        e->capacity = capacity;
    }
    e->errors[e->n++] = *error;
    return 0;
}

/* The outputs of split() while its rows are scanned without the GIL. */
typedef struct {
    uint8_t *validity, *ok;
    uint8_t *bits[UK_OUT_PORT_NUMBER + 1];
    uint8_t *values[UK_OUT_PORT_NUMBER + 1];
    int want[UK_COMPONENTS]; /* the components asked for, in order */
    int nwant;
    int explain; /* the errors of the rows that are not references are asked for */
    uk_rows invalid, overflow;
    uk_errors errors;
    uk_rows unexplained; /* invalid rows the locator cannot explain: not UTF-8 */
    Py_ssize_t failed_row;
} uk_split;

/* The host type and port number of row i, when asked for: UK_FINE or UK_NO_MEMORY. */
static UK_NOINLINE int uk_put_numbers(uk_split *o, Py_ssize_t i, const uk_row *r,
                                      const ptrdiff_t spans[UK_SPANS])
{
    uint8_t *type_values = o->values[UK_OUT_HOST_TYPE];
    uint8_t *port_values = o->values[UK_OUT_PORT_NUMBER];
    ptrdiff_t host = spans[UK_G_HOST], port = spans[UK_G_PORT];
    if (type_values != NULL && host >= 0) {
        uk_set_bit(o->bits[UK_OUT_HOST_TYPE], i);
        type_values[i] = (uint8_t)uk_host_code(r->s + host, spans[UK_G_HOST + 1] - host);
    }
    if (port_values != NULL && port >= 0 && spans[UK_G_PORT + 1] > port) {
        int64_t number;
        if (uk_port_value(r->s + port, spans[UK_G_PORT + 1] - port, &number)) {
            uk_set_bit(o->bits[UK_OUT_PORT_NUMBER], i);
            memcpy(port_values + i * 8, &number, 8);
        } else if (uk_rows_append(&o->overflow, i) < 0) {
            return UK_NO_MEMORY;
        }
    }
    return UK_FINE;
}

/* Row i, r, is not a reference: remember it, and with o->explain where and why (the
 * locator's answer, as URI(text) raises it from C).  UK_FINE or UK_NO_MEMORY. */
static UK_COLD int uk_refused(uk_split *o, Py_ssize_t i, const uk_row *r, int iri)
{
    if (uk_rows_append(&o->invalid, i) < 0) {
        return UK_NO_MEMORY;
    }
    if (!o->explain) {
        return UK_FINE;
    }
    uk_failure failure;
    /* a row that is not UTF-8 is explained by its first ill-formed octet, in Python */
    if (!uk_utf8_valid(r->s, r->n) || uk_locate_utf8(r->s, r->n, iri, &failure) <= 0) {
        return uk_rows_append(&o->unexplained, i) < 0 ? UK_NO_MEMORY : UK_FINE;
    }
    UK_ASSERT(failure.position >= 0 && failure.position <= r->n);
    uk_error error = {i, failure.position, failure.explanation, failure.explanation};
    if (failure.non_ascii) {
        error.reason = uk_loc_explanations();
    }
    return uk_errors_append(&o->errors, &error) < 0 ? UK_NO_MEMORY : UK_FINE;
}

/* Scan every row of c into o: UK_FINE, or the failure, with its row in o->failed_row.
 * Touches no Python object, so it runs with the GIL released.  The bitmaps of
 * validity, ok and the components are written a byte (8 rows) at a time. */
static UK_NOINLINE int uk_split_rows(const uk_column *c, int iri, int64_t base, uk_split *o)
{
    uk_octet_table table;
    uk_octet_table_init(&table);
    ptrdiff_t spans[UK_SPANS];
    int failure = UK_FINE;
    int numbers = o->values[UK_OUT_HOST_TYPE] != NULL || o->values[UK_OUT_PORT_NUMBER] != NULL;
    uint8_t *values[UK_COMPONENTS];
    int want[UK_COMPONENTS], nwant = o->nwant;
    memcpy(values, o->values, sizeof(values));
    memcpy(want, o->want, sizeof(want));
    unsigned mask = 0;
    for (int k = 0; k < nwant; k++) {
        mask |= 1u << want[k];
    }
    Py_ssize_t length = c->length;
    for (Py_ssize_t block = 0; block < length && failure == UK_FINE; block += 8) {
        Py_ssize_t stop = length - block < 8 ? length : block + 8;
        unsigned valid_bits = 0, ok_bits = 0;
        uint64_t defined = 0; /* byte j: the components defined in row block + j */
        for (Py_ssize_t i = block; i < stop; i++) {
            unsigned bit = 1u << (i - block);
            if (uk_column_is_null(c, i)) {
                uk_put_nulls(values, want, nwant, i);
                continue;
            }
            valid_bits |= bit;
            uk_row r;
            if (uk_column_row(c, i, &r) < 0) {
                failure = UK_BAD_ROW;
                o->failed_row = i;
                break;
            }
            int found = iri ? uk_scan_utf8(r.s, r.n, spans)
                            : table.scan(&table, r.s, r.n, r.limit, spans);
            if (!found) {
                if ((failure = uk_refused(o, i, &r, iri)) != UK_FINE) {
                    break;
                }
                uk_put_nulls(values, want, nwant, i);
                continue;
            }
            ok_bits |= bit;
            UK_ASSERT(uk_spans_in_order(spans, r.n));
            unsigned here = 0;
            if (nwant > 0 &&
                uk_put_components(values, want, nwant, mask, i, &r, spans, base, &here) < 0) {
                failure = UK_NO_FIT;
                o->failed_row = i;
                break;
            }
            defined |= (uint64_t)here << (8 * (i - block));
            if (numbers && (failure = uk_put_numbers(o, i, &r, spans)) != UK_FINE) {
                break;
            }
        }
        o->validity[block >> 3] = (uint8_t)valid_bits;
        o->ok[block >> 3] = (uint8_t)ok_bits;
        if (nwant > 0) {
            uint64_t by_component = uk_transpose_bits(defined);
            for (int k = 0; k < nwant; k++) {
                int g = want[k];
                o->bits[g][block >> 3] = (uint8_t)(by_component >> (8 * g));
            }
        }
    }
    return failure;
}

/* The text of an error's reason or rule. */
static const char *uk_error_text(const uk_error *error, int rule)
{
    if (rule) {
        return uk_loc_rule(error->rule);
    }
    return error->reason < uk_loc_explanations() ? uk_loc_reason(error->reason)
                                                 : uk_loc_non_ascii_reason();
}

/* Into offsets (n + 1 int32) and data, the Arrow "string" column of n rows that holds
 * the reason (or with rule, the rule) of each error at its row, and is empty elsewhere;
 * the rows of the errors ascend. */
static void uk_put_error_texts(const uk_errors *e, Py_ssize_t n, int rule, uint8_t *offsets,
                               uint8_t *data)
{
    int32_t end = 0;
    Py_ssize_t next = 0; /* the first row whose offset is not written */
    for (Py_ssize_t k = 0; k <= e->n; k++) {
        Py_ssize_t row = k < e->n ? e->errors[k].row : n;
        UK_ASSERT(row >= next && row <= n);
        for (Py_ssize_t i = next; i <= row; i++) {
            memcpy(offsets + i * 4, &end, 4);
        }
        if (k < e->n) {
            const char *text = uk_error_text(&e->errors[k], rule);
            size_t size = strlen(text);
            memcpy(data + end, text, size);
            end += (int32_t)size;
            next = row + 1;
        }
    }
}

/* The error output of split(), a tuple (bits, positions, reason offsets, reasons, rule
 * offsets, rules, unexplained): the bitmap of the rows explained, their int64 positions
 * (in characters), the Arrow "string" columns of their reasons and rules, and the list
 * of the invalid rows the locator could not explain; None when every row is null or a
 * reference.  NULL with an exception set. */
static PyObject *uk_error_output(const uk_split *o, Py_ssize_t n, PyObject *allocate)
{
    if (o->invalid.n == 0) {
        return Py_NewRef(Py_None);
    }
    Py_ssize_t sizes[2] = {0, 0};
    for (Py_ssize_t k = 0; k < o->errors.n; k++) {
        for (int rule = 0; rule < 2; rule++) {
            sizes[rule] += (Py_ssize_t)strlen(uk_error_text(&o->errors.errors[k], rule));
        }
    }
    if (sizes[0] > INT32_MAX || sizes[1] > INT32_MAX) {
        PyErr_SetString(PyExc_OverflowError, "the errors do not fit int32 offsets");
        return NULL;
    }
    uk_out outs[6];
    memset(outs, 0, sizeof(outs));
    PyObject *result = NULL, *unexplained = NULL;
    uint8_t *bits = uk_out_new(&outs[0], allocate, (n + 7) / 8, 1);
    uint8_t *positions = bits == NULL ? NULL : uk_out_new(&outs[1], allocate, n * 8, 0);
    uint8_t *texts[4] = {NULL, NULL, NULL, NULL};
    for (int k = 0; positions != NULL && k < 4; k++) {
        texts[k] = uk_out_new(&outs[2 + k], allocate, k % 2 ? sizes[k / 2] : (n + 1) * 4, 0);
        if (texts[k] == NULL) {
            break;
        }
    }
    if (texts[3] != NULL) {
        /* every page of these is written: mapped in by one call, not a fault a page */
        uk_out_prefault(positions, n * 8);
        uk_out_prefault(texts[0], (n + 1) * 4);
        uk_out_prefault(texts[2], (n + 1) * 4);
        for (Py_ssize_t k = 0; k < o->errors.n; k++) {
            const uk_error *error = &o->errors.errors[k];
            int64_t position = error->position;
            uk_set_bit(bits, error->row);
            memcpy(positions + error->row * 8, &position, 8);
        }
        uk_put_error_texts(&o->errors, n, 0, texts[0], texts[1]);
        uk_put_error_texts(&o->errors, n, 1, texts[2], texts[3]);
        unexplained = uk_rows_list(&o->unexplained);
        if (unexplained != NULL) {
            result = PyTuple_Pack(7, outs[0].obj, outs[1].obj, outs[2].obj, outs[3].obj,
                                  outs[4].obj, outs[5].obj, unexplained);
        }
    }
    Py_XDECREF(unexplained);
    for (int k = 0; k < 6; k++) {
        uk_out_release(&outs[k]);
    }
    return result;
}

PyDoc_STRVAR(uk_column_split_doc,
             "split(column, iri, mask, base, allocate, /)\n--\n\n"
             "Scan each row of column as an URI-reference (an IRI-reference with iri).\n"
             "Returns (validity, ok, invalid, outputs): validity and ok are bitmaps of\n"
             "the non-null rows and of the references; invalid lists the rows that are\n"
             "not references.  outputs[k] is None unless bit k of mask is set (k of\n"
             "urikit._contracts.ColumnOutput): for a component (bitmap, views); for\n"
             "HOST_TYPE (bitmap, int8 codes); for PORT_NUMBER (bitmap, int64 values,\n"
             "overflows), overflows the rows whose port is above 65535; for ERROR\n"
             "(bitmap, int64 positions, reason offsets, reasons, rule offsets, rules,\n"
             "unexplained): the error of each row that is not a reference, as URIError\n"
             "gives it, but for the rows listed in unexplained (not UTF-8); None when\n"
             "every row is null or a reference.  Views of\n"
             "components point into data buffer 0 from octet base on (kinds 0 and 1) or\n"
             "into the input's own data buffers.  Every buffer is made by allocate(size),\n"
             "which returns a writable object with the buffer protocol.  The rows are\n"
             "scanned with the GIL released.");

/* The outputs of split(): validity, ok, then (bits, values) for each but the error. */
enum { UK_SPLIT_OUTS = 2 + 2 * UK_OUT_ERROR };

static PyObject *uk_column_split(PyObject *module, PyObject *args)
{
    (void)module;
    PyObject *spec, *allocate;
    int iri;
    unsigned int mask;
    long long base;
    if (!PyArg_ParseTuple(args, "OpILO:split", &spec, &iri, &mask, &base, &allocate)) {
        return NULL;
    }
    uk_column c;
    if (uk_column_read(spec, &c) < 0) {
        return NULL;
    }
    if (c.kind == UK_KIND_VIEW) {
        base = 0;
    }
    Py_ssize_t n = c.length, bitmap = (n + 7) / 8;
    uk_out outs[UK_SPLIT_OUTS];
    memset(outs, 0, sizeof(outs));
    PyObject *outputs = NULL, *invalid = NULL, *overflows = NULL, *result = NULL;
    uk_split o;
    memset(&o, 0, sizeof(o));
    o.explain = (mask >> UK_OUT_ERROR) & 1;
    if ((o.validity = uk_out_new(&outs[0], allocate, bitmap, 1)) == NULL ||
        (o.ok = uk_out_new(&outs[1], allocate, bitmap, 1)) == NULL) {
        goto done;
    }
    for (int k = 0; k < UK_OUT_ERROR; k++) {
        if (!(mask & (1u << k))) {
            continue;
        }
        Py_ssize_t width = k < UK_COMPONENTS ? UK_VIEW_SIZE : k == UK_OUT_HOST_TYPE ? 1 : 8;
        o.bits[k] = uk_out_new(&outs[2 + 2 * k], allocate, bitmap, 1);
        o.values[k] = o.bits[k] == NULL ? NULL
                                        : uk_out_new(&outs[3 + 2 * k], allocate, n * width,
                                                     k >= UK_COMPONENTS);
        if (o.values[k] == NULL) {
            goto done;
        }
        if (k < UK_COMPONENTS) {
            o.want[o.nwant++] = k;
        }
    }
    int failure;
    Py_BEGIN_ALLOW_THREADS
    for (int k = 0; k < o.nwant; k++) {
        uk_out_prefault(o.values[o.want[k]], n * UK_VIEW_SIZE);
    }
    failure = uk_split_rows(&c, iri, base, &o);
    Py_END_ALLOW_THREADS
    if (failure != UK_FINE) {
        uk_column_failure(failure, o.failed_row);
        goto done;
    }
    outputs = PyTuple_New(UK_OUTPUTS);
    invalid = uk_rows_list(&o.invalid);
    overflows = uk_rows_list(&o.overflow);
    if (outputs == NULL || invalid == NULL || overflows == NULL) {
        goto done;
    }
    for (int k = 0; k < UK_OUTPUTS; k++) {
        PyObject *item;
        if (!(mask & (1u << k))) {
            item = Py_NewRef(Py_None);
        } else if (k == UK_OUT_ERROR) {
            item = uk_error_output(&o, n, allocate);
        } else if (k == UK_OUT_PORT_NUMBER) {
            item = PyTuple_Pack(3, outs[2 + 2 * k].obj, outs[3 + 2 * k].obj, overflows);
        } else {
            item = PyTuple_Pack(2, outs[2 + 2 * k].obj, outs[3 + 2 * k].obj);
        }
        if (item == NULL) {
            goto done;
        }
        PyTuple_SET_ITEM(outputs, k, item);
    }
    result = PyTuple_Pack(4, outs[0].obj, outs[1].obj, invalid, outputs);
done:
    PyMem_RawFree(o.invalid.rows);
    PyMem_RawFree(o.overflow.rows);
    PyMem_RawFree(o.unexplained.rows);
    PyMem_RawFree(o.errors.errors);
    uk_column_release(&c);
    for (int k = 0; k < UK_SPLIT_OUTS; k++) {
        uk_out_release(&outs[k]);
    }
    Py_XDECREF(outputs);
    Py_XDECREF(invalid);
    Py_XDECREF(overflows);
    return result;
}

PyMethodDef uk_split_methods[] = {
    {"split", uk_column_split, METH_VARARGS, uk_column_split_doc},
    {NULL, NULL, 0, NULL},
};
