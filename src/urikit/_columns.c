/* urikit._columns: the scanner of _speedups_scan.h over Arrow columns of strings.
 *
 * A column is described by a tuple (kind, length, offset, validity, offsets, data)
 * of the Arrow C data interface layouts: kind 0 is "string" (int32 offsets), 1
 * "large_string" (int64 offsets), 2 "string_view" (16-byte views); validity is the
 * validity bitmap or None; offsets is the offsets or views buffer; data is a tuple
 * of the data buffers (one for kinds 0 and 1).  Any object with the buffer protocol
 * serves as a buffer.  Arrow strings are UTF-8: with the URI grammar the 1-byte
 * scanner reads the octets directly (no octet >= 0x80 is in the grammar, as no
 * non-ASCII character is); with the IRI grammar a row with non-ASCII octets is
 * decoded to code points first and its spans are mapped back to octet offsets.
 *
 * The answers are filled into new buffers, which Python hands to Arrow unchanged:
 * bitmaps of validity and of booleans (bit i of byte i / 8, least significant bit
 * first), int8 and int64 values, and string views (Arrow "string_view": 16 bytes
 * per row, strings of at most 12 octets inline, longer ones as a prefix, a data
 * buffer index and an offset).  The views of components point into the input's
 * data buffers, so nothing of a component is copied.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdlib.h>
#include <string.h>

#include "_speedups_scan.h"

enum { UK_KIND_STRING = 0, UK_KIND_LARGE = 1, UK_KIND_VIEW = 2 };

/* The bits of the mask of split(): the 8 components, in the order of the spans,
 * then the host type and the port number. */
enum { UK_OUT_COMPONENTS = 8, UK_OUT_HOST_TYPE = 8, UK_OUT_PORT_NUMBER = 9 };

/* The codes of host_type: the order of HOST_TYPES in arrow.py. */
enum { UK_HOST_IPV4 = 0, UK_HOST_IPV6 = 1, UK_HOST_IPVFUTURE = 2, UK_HOST_REG_NAME = 3 };

#define UK_VIEW_SIZE 16
#define UK_VIEW_INLINE 12

/* --- columns ------------------------------------------------------------------------ */

typedef struct {
    int kind;
    Py_ssize_t length;
    Py_ssize_t offset;
    int has_validity;
    Py_buffer validity;
    Py_buffer offsets;
    Py_ssize_t ndata;
    Py_buffer *data;
} uk_column;

/* One row: its octets s[0..n-1], and where they are: data buffer `buffer` at octet
 * `at`, or buffer -1 when they are inline in a view. */
typedef struct {
    const uint8_t *s;
    Py_ssize_t n;
    int32_t buffer;
    int64_t at;
} uk_row;

static void column_release(uk_column *c)
{
    if (c->has_validity) {
        PyBuffer_Release(&c->validity);
        c->has_validity = 0;
    }
    if (c->offsets.obj != NULL) {
        PyBuffer_Release(&c->offsets);
    }
    if (c->data != NULL) {
        for (Py_ssize_t k = 0; k < c->ndata; k++) {
            if (c->data[k].obj != NULL) {
                PyBuffer_Release(&c->data[k]);
            }
        }
        PyMem_Free(c->data);
        c->data = NULL;
    }
}

static int column_fail(uk_column *c, const char *message)
{
    column_release(c);
    PyErr_SetString(PyExc_ValueError, message);
    return -1;
}

/* Read the column tuple into c, checking that every buffer is large enough for
 * the rows it describes; 0 on success, -1 with an exception set. */
static int column_read(PyObject *spec, uk_column *c)
{
    memset(c, 0, sizeof(*c));
    PyObject *validity, *offsets, *data;
    if (!PyArg_ParseTuple(spec, "innOOO!;column: (kind, length, offset, validity, offsets, data)",
                          &c->kind, &c->length, &c->offset, &validity, &offsets,
                          &PyTuple_Type, &data)) {
        return -1;
    }
    if (c->kind < UK_KIND_STRING || c->kind > UK_KIND_VIEW || c->length < 0 ||
        c->offset < 0) {
        PyErr_SetString(PyExc_ValueError, "column: bad kind, length or offset");
        return -1;
    }
    Py_ssize_t rows = c->offset + c->length;
    if (validity != Py_None) {
        if (PyObject_GetBuffer(validity, &c->validity, PyBUF_SIMPLE) < 0) {
            return -1;
        }
        c->has_validity = 1;
        if (c->validity.len < (rows + 7) / 8) {
            return column_fail(c, "column: the validity bitmap is too short");
        }
    }
    if (PyObject_GetBuffer(offsets, &c->offsets, PyBUF_SIMPLE) < 0) {
        column_release(c);
        return -1;
    }
    Py_ssize_t need = c->kind == UK_KIND_STRING  ? (rows + 1) * 4
                      : c->kind == UK_KIND_LARGE ? (rows + 1) * 8
                                                 : rows * UK_VIEW_SIZE;
    if (c->offsets.len < need) {
        return column_fail(c, "column: the offsets or views buffer is too short");
    }
    c->ndata = PyTuple_GET_SIZE(data);
    if (c->kind != UK_KIND_VIEW && c->ndata != 1) {
        return column_fail(c, "column: a string column has one data buffer");
    }
    c->data = PyMem_Calloc((size_t)(c->ndata > 0 ? c->ndata : 1), sizeof(Py_buffer));
    if (c->data == NULL) {
        column_release(c);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t k = 0; k < c->ndata; k++) {
        if (PyObject_GetBuffer(PyTuple_GET_ITEM(data, k), &c->data[k], PyBUF_SIMPLE) < 0) {
            column_release(c);
            return -1;
        }
    }
    return 0;
}

static int column_is_null(const uk_column *c, Py_ssize_t i)
{
    if (!c->has_validity) {
        return 0;
    }
    Py_ssize_t bit = c->offset + i;
    return !((((const uint8_t *)c->validity.buf)[bit >> 3] >> (bit & 7)) & 1);
}

/* Row i of a non-null slot into r; 0 on success, -1 with ValueError when the
 * offsets or views point outside the data. */
static int column_row(const uk_column *c, Py_ssize_t i, uk_row *r)
{
    Py_ssize_t slot = c->offset + i;
    if (c->kind == UK_KIND_VIEW) {
        const uint8_t *v = (const uint8_t *)c->offsets.buf + slot * UK_VIEW_SIZE;
        int32_t n;
        memcpy(&n, v, 4);
        if (n < 0) {
            goto bad;
        }
        r->n = n;
        if (n <= UK_VIEW_INLINE) {
            r->s = v + 4;
            r->buffer = -1;
            r->at = 0;
            return 0;
        }
        int32_t buffer, at;
        memcpy(&buffer, v + 8, 4);
        memcpy(&at, v + 12, 4);
        if (buffer < 0 || buffer >= c->ndata || at < 0 || at + (int64_t)n > c->data[buffer].len) {
            goto bad;
        }
        r->s = (const uint8_t *)c->data[buffer].buf + at;
        r->buffer = buffer;
        r->at = at;
        return 0;
    }
    int64_t start, end;
    if (c->kind == UK_KIND_STRING) {
        int32_t pair[2];
        memcpy(pair, (const uint8_t *)c->offsets.buf + slot * 4, 8);
        start = pair[0];
        end = pair[1];
    } else {
        memcpy(&start, (const uint8_t *)c->offsets.buf + slot * 8, 8);
        memcpy(&end, (const uint8_t *)c->offsets.buf + slot * 8 + 8, 8);
    }
    if (start < 0 || end < start || end > c->data[0].len) {
        goto bad;
    }
    r->s = (const uint8_t *)c->data[0].buf + start;
    r->n = (Py_ssize_t)(end - start);
    r->buffer = 0;
    r->at = start;
    return 0;
bad:
    PyErr_Format(PyExc_ValueError, "column: row %zd points outside its data", i);
    return -1;
}

/* --- output buffers --------------------------------------------------------------- */

/* A new bytes object of size octets, all zero. */
static PyObject *zeroed(Py_ssize_t size)
{
    PyObject *b = PyBytes_FromStringAndSize(NULL, size);
    if (b != NULL) {
        memset(PyBytes_AS_STRING(b), 0, (size_t)size);
    }
    return b;
}

/* A new bytes object of size octets, not initialized: every octet is written. */
static PyObject *unset(Py_ssize_t size)
{
    return PyBytes_FromStringAndSize(NULL, size);
}

static uint8_t *octets(PyObject *b)
{
    return (uint8_t *)PyBytes_AS_STRING(b);
}

static void set_bit(uint8_t *bits, Py_ssize_t i)
{
    bits[i >> 3] |= (uint8_t)(1u << (i & 7));
}

/* The view of s[0..n-1]: inline when short, else in data buffer `buffer` at
 * `at`; 0, or -1 with OverflowError when n or at do not fit a view. */
static int put_view(uint8_t *view, const uint8_t *s, Py_ssize_t n, int32_t buffer, int64_t at)
{
    if (n > INT32_MAX || (n > UK_VIEW_INLINE && (at < 0 || at > INT32_MAX))) {
        PyErr_SetString(PyExc_OverflowError, "a string or offset does not fit a string view");
        return -1;
    }
    int32_t length = (int32_t)n;
    memcpy(view, &length, 4);
    if (n <= UK_VIEW_INLINE) {
        memset(view + 4, 0, UK_VIEW_INLINE);
        memcpy(view + 4, s, (size_t)n);
        return 0;
    }
    int32_t offset = (int32_t)at;
    memcpy(view + 4, s, 4);
    memcpy(view + 8, &buffer, 4);
    memcpy(view + 12, &offset, 4);
    return 0;
}

/* The view of r->s[a..b-1], a slice of row r, into the same data buffer; for kinds
 * 0 and 1 the output's buffer 0 is the input's data from octet `base` on. */
static int put_slice(uint8_t *view, const uk_row *r, Py_ssize_t a, Py_ssize_t b, int64_t base)
{
    return put_view(view, r->s + a, b - a, r->buffer, r->at + a - base);
}

/* A growing buffer of octets, for strings that are not slices of the input. */
typedef struct {
    uint8_t *s;
    Py_ssize_t n, capacity;
} uk_extra;

static int extra_append(uk_extra *e, const uint8_t *s, Py_ssize_t n)
{
    if (e->n + n > e->capacity) {
        Py_ssize_t capacity = e->capacity ? e->capacity : 4096;
        while (capacity < e->n + n) {
            capacity *= 2;
        }
        uint8_t *grown = PyMem_Realloc(e->s, (size_t)capacity);
        if (grown == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        e->s = grown;
        e->capacity = capacity;
    }
    memcpy(e->s + e->n, s, (size_t)n);
    e->n += n;
    return 0;
}

/* --- scanning UTF-8 ------------------------------------------------------------------- */

/* The code points of a non-ASCII row and the octet offset of each (with the end). */
typedef struct {
    uint32_t *points;
    Py_ssize_t *at;
    Py_ssize_t capacity;
} uk_scratch;

static void scratch_release(uk_scratch *w)
{
    PyMem_Free(w->points);
    PyMem_Free(w->at);
    w->points = NULL;
    w->at = NULL;
}

/* UTF-8 (RFC 3629 §4): the code point at s[*i..n-1], advancing *i; -1 on an
 * ill-formed sequence (overlong forms, surrogates, beyond U+10FFFF, truncation). */
static int32_t utf8_next(const uint8_t *s, Py_ssize_t n, Py_ssize_t *i)
{
    uint32_t c = s[*i];
    int more;
    uint32_t least;
    if (c < 0x80) {
        (*i)++;
        return (int32_t)c;
    } else if (c >= 0xC2 && c <= 0xDF) {
        more = 1, least = 0x80, c &= 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        more = 2, least = 0x800, c &= 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        more = 3, least = 0x10000, c &= 0x07;
    } else {
        return -1;
    }
    if (n - *i <= more) {
        return -1;
    }
    for (int k = 1; k <= more; k++) {
        uint8_t t = s[*i + k];
        if ((t & 0xC0) != 0x80) {
            return -1;
        }
        c = (c << 6) | (t & 0x3F);
    }
    if (c < least || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) {
        return -1;
    }
    *i += more + 1;
    return (int32_t)c;
}

/* uk_scan over the UTF-8 octets s[0..n-1], with spans as octet offsets: 1 on a
 * match, 0 when the row is not a reference (or not UTF-8), -1 on MemoryError. */
static int scan_utf8(const uint8_t *s, Py_ssize_t n, int iri, ptrdiff_t spans[UK_SPANS],
                     uk_scratch *w)
{
    if (!iri) {
        return uk_scan_ucs1(s, n, 0, spans);
    }
    Py_ssize_t ascii = 0;
    while (ascii < n && s[ascii] < 0x80) {
        ascii++;
    }
    if (ascii == n) {
        return uk_scan_ucs1(s, n, 1, spans);
    }
    if (n + 1 > w->capacity) {
        PyMem_Free(w->points);
        PyMem_Free(w->at);
        w->points = PyMem_Malloc((size_t)(n + 1) * sizeof(uint32_t));
        w->at = PyMem_Malloc((size_t)(n + 1) * sizeof(Py_ssize_t));
        if (w->points == NULL || w->at == NULL) {
            scratch_release(w);
            w->capacity = 0;
            PyErr_NoMemory();
            return -1;
        }
        w->capacity = n + 1;
    }
    Py_ssize_t count = 0;
    for (Py_ssize_t i = 0; i < n;) {
        w->at[count] = i;
        int32_t c = utf8_next(s, n, &i);
        if (c < 0) {
            return 0;
        }
        w->points[count++] = (uint32_t)c;
    }
    w->at[count] = n;
    if (!uk_scan_ucs4(w->points, count, 1, spans)) {
        return 0;
    }
    for (int k = 0; k < UK_SPANS; k++) {
        if (spans[k] >= 0) {
            spans[k] = w->at[spans[k]];
        }
    }
    return 1;
}

/* --- split ------------------------------------------------------------------------ */

/* The code of the host s[0..n-1] (RFC 3986 §3.2.2, first-match-wins). */
static int8_t host_code(const uint8_t *s, Py_ssize_t n)
{
    if (n > 0 && s[0] == '[') {
        return (s[1] == 'v' || s[1] == 'V') ? UK_HOST_IPVFUTURE : UK_HOST_IPV6;
    }
    return uk_ipv4_ucs1(s, 0, n) ? UK_HOST_IPV4 : UK_HOST_REG_NAME;
}

/* port = *DIGIT (RFC 3986 §3.2.3) as a number: 1, or 0 when it is above 65535, the
 * largest TCP or UDP port, which URI.port_number refuses. */
static int port_value(const uint8_t *s, Py_ssize_t n, int64_t *value)
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

PyDoc_STRVAR(split_doc,
             "split(column, iri, mask, base, /)\n--\n\n"
             "Scan each row of column as an URI-reference (an IRI-reference with iri).\n"
             "Returns (status, validity, ok, invalid, outputs): status has one octet per\n"
             "row, 0 null, 1 a reference, 2 not one; validity and ok are bitmaps of the\n"
             "non-null rows and of the references; invalid counts the rows of status 2.\n"
             "outputs[k] is None unless bit k of mask is set: for k < 8 (bitmap, views)\n"
             "of component k; for 8 (bitmap, int8 codes) of the host type; for 9 (bitmap,\n"
             "int64 values, overflows) of the port number, overflows the rows whose port\n"
             "is above 65535.  Views of components point into data buffer 0 from\n"
             "octet base on (kinds 0 and 1) or into the input's own data buffers.");

static PyObject *split(PyObject *module, PyObject *args)
{
    (void)module;
    PyObject *spec;
    int iri;
    unsigned int mask;
    long long base;
    if (!PyArg_ParseTuple(args, "OpIL:split", &spec, &iri, &mask, &base)) {
        return NULL;
    }
    uk_column c;
    if (column_read(spec, &c) < 0) {
        return NULL;
    }
    if (c.kind == UK_KIND_VIEW) {
        base = 0;
    }
    Py_ssize_t n = c.length, bitmap = (n + 7) / 8;
    PyObject *status = zeroed(n), *validity = zeroed(bitmap), *ok = zeroed(bitmap);
    PyObject *outputs = PyTuple_New(UK_OUT_PORT_NUMBER + 1);
    PyObject *bits[UK_OUT_PORT_NUMBER + 1] = {NULL};
    PyObject *values[UK_OUT_PORT_NUMBER + 1] = {NULL};
    PyObject *overflows = PyList_New(0);
    PyObject *result = NULL;
    uk_scratch w = {NULL, NULL, 0};
    if (status == NULL || validity == NULL || ok == NULL || outputs == NULL ||
        overflows == NULL) {
        goto done;
    }
    for (int k = 0; k <= UK_OUT_PORT_NUMBER; k++) {
        if (!(mask & (1u << k))) {
            continue;
        }
        Py_ssize_t width = k < UK_OUT_COMPONENTS ? UK_VIEW_SIZE : k == UK_OUT_HOST_TYPE ? 1 : 8;
        bits[k] = zeroed(bitmap);
        values[k] = k < UK_OUT_COMPONENTS ? unset(n * width) : zeroed(n * width);
        if (bits[k] == NULL || values[k] == NULL) {
            goto done;
        }
    }
    Py_ssize_t invalid = 0;
    ptrdiff_t spans[UK_SPANS];
    for (Py_ssize_t i = 0; i < n; i++) {
        if (column_is_null(&c, i)) {
            for (int k = 0; k < UK_OUT_COMPONENTS; k++) {
                if (values[k] != NULL) {
                    memset(octets(values[k]) + i * UK_VIEW_SIZE, 0, UK_VIEW_SIZE);
                }
            }
            continue;
        }
        set_bit(octets(validity), i);
        uk_row r;
        if (column_row(&c, i, &r) < 0) {
            goto done;
        }
        int found = scan_utf8(r.s, r.n, iri, spans, &w);
        if (found == 0) {
            for (int k = 0; k < UK_SPANS; k++) {
                spans[k] = -1;
            }
        }
        if (found < 0) {
            goto done;
        }
        for (int k = 0; k < UK_OUT_COMPONENTS; k++) {
            if (values[k] == NULL) {
                continue;
            }
            if (spans[2 * k] < 0) {
                memset(octets(values[k]) + i * UK_VIEW_SIZE, 0, UK_VIEW_SIZE);
                continue;
            }
            set_bit(octets(bits[k]), i);
            if (put_slice(octets(values[k]) + i * UK_VIEW_SIZE, &r, spans[2 * k],
                          spans[2 * k + 1], base) < 0) {
                goto done;
            }
        }
        if (!found) {
            octets(status)[i] = 2;
            invalid++;
            continue;
        }
        octets(status)[i] = 1;
        set_bit(octets(ok), i);
        ptrdiff_t host = spans[UK_G_HOST], port = spans[UK_G_PORT];
        if (values[UK_OUT_HOST_TYPE] != NULL && host >= 0) {
            set_bit(octets(bits[UK_OUT_HOST_TYPE]), i);
            octets(values[UK_OUT_HOST_TYPE])[i] =
                (uint8_t)host_code(r.s + host, spans[UK_G_HOST + 1] - host);
        }
        if (values[UK_OUT_PORT_NUMBER] != NULL && port >= 0 && spans[UK_G_PORT + 1] > port) {
            int64_t number;
            if (port_value(r.s + port, spans[UK_G_PORT + 1] - port, &number)) {
                set_bit(octets(bits[UK_OUT_PORT_NUMBER]), i);
                memcpy(octets(values[UK_OUT_PORT_NUMBER]) + i * 8, &number, 8);
            } else {
                PyObject *row = PyLong_FromSsize_t(i);
                if (row == NULL || PyList_Append(overflows, row) < 0) {
                    Py_XDECREF(row);
                    goto done;
                }
                Py_DECREF(row);
            }
        }
    }
    for (int k = 0; k <= UK_OUT_PORT_NUMBER; k++) {
        PyObject *item;
        if (values[k] == NULL) {
            item = Py_NewRef(Py_None);
        } else if (k == UK_OUT_PORT_NUMBER) {
            item = PyTuple_Pack(3, bits[k], values[k], overflows);
        } else {
            item = PyTuple_Pack(2, bits[k], values[k]);
        }
        if (item == NULL) {
            goto done;
        }
        PyTuple_SET_ITEM(outputs, k, item);
    }
    result = Py_BuildValue("(OOOnO)", status, validity, ok, invalid, outputs);
done:
    scratch_release(&w);
    column_release(&c);
    for (int k = 0; k <= UK_OUT_PORT_NUMBER; k++) {
        Py_XDECREF(bits[k]);
        Py_XDECREF(values[k]);
    }
    Py_XDECREF(status);
    Py_XDECREF(validity);
    Py_XDECREF(ok);
    Py_XDECREF(outputs);
    Py_XDECREF(overflows);
    return result;
}

/* --- map ------------------------------------------------------------------------------ */

/* What normalization needs of one scheme of the registry. */
typedef struct {
    const char *name;
    Py_ssize_t n;
    long default_port; /* -1: none */
    int flags;
} uk_scheme;

enum { UK_SCHEME_SPECIAL = 1, UK_SCHEME_ROOTED = 2 };

static int is_hex_lower(uint8_t c)
{
    return c >= 'a' && c <= 'f';
}

static int hex_value(uint8_t c)
{
    return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}

static const uk_scheme *scheme_find(const uk_scheme *table, Py_ssize_t count, const uint8_t *s,
                                    Py_ssize_t n)
{
    Py_ssize_t lo = 0, hi = count;
    while (lo < hi) {
        Py_ssize_t mid = lo + (hi - lo) / 2;
        const uk_scheme *e = &table[mid];
        Py_ssize_t common = e->n < n ? e->n : n;
        int order = memcmp(s, e->name, (size_t)common);
        if (order == 0) {
            order = n < e->n ? -1 : n > e->n;
        }
        if (order == 0) {
            return e;
        }
        if (order < 0) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    return NULL;
}

/* Is the URI s (spans as scanned) already in normal form at rank 1 (§6.2.2) or 2
 * (§6.2.3)?  1 when it is; 2 when it is once "/" is put at *root (an empty path
 * after an authority, for a scheme whose empty path is "/"); 0 when unsure, and
 * the full algorithm decides.  Sure only for: a lower-case scheme without rules
 * of its own; no triplet that §6.2.2.1 or §6.2.2.2 rewrites (lower-case hex, or an
 * unreserved octet); no "/." anywhere (so no dot-segment, §6.2.2.3); a reg-name
 * host without upper case or "%"; at rank 2 a port with no leading zero that is
 * not the default one (§6.2.3). */
static int already_normal(const uint8_t *s, Py_ssize_t n, const ptrdiff_t *spans, int rank,
                          const uk_scheme *table, Py_ssize_t count, Py_ssize_t *root)
{
    ptrdiff_t scheme_end = spans[UK_G_SCHEME + 1];
    if (spans[UK_G_SCHEME] < 0) {
        return 0;
    }
    for (ptrdiff_t i = 0; i < scheme_end; i++) {
        if (s[i] >= 'A' && s[i] <= 'Z') {
            return 0;
        }
    }
    const uk_scheme *scheme = scheme_find(table, count, s, scheme_end);
    if (scheme != NULL && (scheme->flags & UK_SCHEME_SPECIAL)) {
        return 0;
    }
    for (Py_ssize_t i = scheme_end; i < n; i++) {
        if (s[i] == '%') {
            /* a valid reference: every "%" starts a triplet */
            uint8_t hi = s[i + 1], lo = s[i + 2];
            if (is_hex_lower(hi) || is_hex_lower(lo) ||
                uk_ascii_is((uint32_t)(hex_value(hi) * 16 + hex_value(lo)), UK_UNRESERVED)) {
                return 0;
            }
        } else if (s[i] == '/' && i + 1 < n && s[i + 1] == '.') {
            return 0;
        }
    }
    if (spans[UK_G_AUTHORITY] < 0) {
        return 1;
    }
    for (ptrdiff_t i = spans[UK_G_HOST]; i < spans[UK_G_HOST + 1]; i++) {
        if ((s[i] >= 'A' && s[i] <= 'Z') || s[i] == '%' || s[i] == '[') {
            return 0;
        }
    }
    if (rank < 2) {
        return 1;
    }
    ptrdiff_t port = spans[UK_G_PORT], port_end = spans[UK_G_PORT + 1];
    if (port >= 0) {
        if (port == port_end || s[port] == '0') {
            return 0;
        }
        if (scheme != NULL && scheme->default_port >= 0 && port_end - port <= 9) {
            long value = 0;
            for (ptrdiff_t i = port; i < port_end; i++) {
                value = value * 10 + (s[i] - '0');
            }
            if (value == scheme->default_port) {
                return 0;
            }
        }
    }
    if (spans[UK_G_PATH] == spans[UK_G_PATH + 1] && scheme != NULL &&
        (scheme->flags & UK_SCHEME_ROOTED)) {
        *root = spans[UK_G_PATH];
        return 2;
    }
    return 1;
}

/* Read the scheme table: a tuple of (name: bytes, default_port: int, flags: int),
 * sorted by name.  The names stay owned by the tuple. */
static uk_scheme *schemes_read(PyObject *tuple, Py_ssize_t *count)
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
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(tuple, k), "y#li;scheme: (name, port, flags)",
                              &e->name, &e->n, &e->default_port, &e->flags)) {
            PyMem_Free(table);
            return NULL;
        }
    }
    return table;
}

PyDoc_STRVAR(map_doc,
             "map(column, rank, schemes, fallback, base, /)\n--\n\n"
             "A string view column with one answer per row: null for a null row; for a\n"
             "row that is an URI-reference and needs nothing at rank (0: itself; 1, 2:\n"
             "already normal at the syntax or scheme rung, RFC 3986 §6.2.2, §6.2.3, with\n"
             "schemes the registry's table) a view of the row, or of the row with \"/\" put\n"
             "after its authority; for every other row fallback(index, text), a str or\n"
             "None.  rank -1 calls fallback for every non-null row.  Returns (validity,\n"
             "views, extra, fast): views point into the input's data buffers (from base\n"
             "on) or into extra, the data buffer after them; fast counts the rows\n"
             "answered without fallback.");

static PyObject *map(PyObject *module, PyObject *args)
{
    (void)module;
    PyObject *spec, *schemes, *fallback;
    int rank;
    long long base;
    if (!PyArg_ParseTuple(args, "OiOOL:map", &spec, &rank, &schemes, &fallback, &base)) {
        return NULL;
    }
    if (!PyCallable_Check(fallback)) {
        PyErr_SetString(PyExc_TypeError, "fallback must be callable");
        return NULL;
    }
    Py_ssize_t count;
    uk_scheme *table = schemes_read(schemes, &count);
    if (table == NULL) {
        return NULL;
    }
    uk_column c;
    if (column_read(spec, &c) < 0) {
        PyMem_Free(table);
        return NULL;
    }
    if (c.kind == UK_KIND_VIEW) {
        base = 0;
    }
    int32_t extra_index = c.kind == UK_KIND_VIEW ? (int32_t)c.ndata : 1;
    Py_ssize_t n = c.length;
    PyObject *validity = zeroed((n + 7) / 8), *views = zeroed(n * UK_VIEW_SIZE);
    PyObject *result = NULL;
    uk_extra extra = {NULL, 0, 0};
    Py_ssize_t fast = 0;
    if (validity == NULL || views == NULL) {
        goto done;
    }
    ptrdiff_t spans[UK_SPANS];
    for (Py_ssize_t i = 0; i < n; i++) {
        if (column_is_null(&c, i)) {
            continue;
        }
        uk_row r;
        if (column_row(&c, i, &r) < 0) {
            goto done;
        }
        uint8_t *view = octets(views) + i * UK_VIEW_SIZE;
        Py_ssize_t root = 0;
        int sure = 0;
        if (rank >= 0 && uk_scan_ucs1(r.s, r.n, 0, spans)) {
            sure = rank == 0 ? 1 : already_normal(r.s, r.n, spans, rank, table, count, &root);
        }
        if (sure == 1) {
            if (put_slice(view, &r, 0, r.n, base) < 0) {
                goto done;
            }
        } else if (sure == 2) {
            uint8_t inline_text[UK_VIEW_INLINE];
            int64_t at = extra.n;
            if (r.n + 1 <= UK_VIEW_INLINE) {
                memcpy(inline_text, r.s, (size_t)root);
                inline_text[root] = '/';
                memcpy(inline_text + root + 1, r.s + root, (size_t)(r.n - root));
                if (put_view(view, inline_text, r.n + 1, -1, 0) < 0) {
                    goto done;
                }
            } else if (extra_append(&extra, r.s, root) < 0 ||
                       extra_append(&extra, (const uint8_t *)"/", 1) < 0 ||
                       extra_append(&extra, r.s + root, r.n - root) < 0 ||
                       put_view(view, extra.s + at, r.n + 1, extra_index, at) < 0) {
                goto done;
            }
        } else {
            PyObject *text = PyUnicode_DecodeUTF8((const char *)r.s, r.n, "replace");
            if (text == NULL) {
                goto done;
            }
            PyObject *answer = PyObject_CallFunction(fallback, "nN", i, text);
            if (answer == NULL) {
                goto done;
            }
            if (answer == Py_None) {
                Py_DECREF(answer);
                continue;
            }
            Py_ssize_t size;
            const char *utf8 = PyUnicode_Check(answer) ? PyUnicode_AsUTF8AndSize(answer, &size)
                                                       : NULL;
            if (utf8 == NULL) {
                if (!PyErr_Occurred()) {
                    PyErr_Format(PyExc_TypeError, "fallback returned %.200s, not str or None",
                                 Py_TYPE(answer)->tp_name);
                }
                Py_DECREF(answer);
                goto done;
            }
            int64_t at = extra.n;
            int failed = size > UK_VIEW_INLINE &&
                         extra_append(&extra, (const uint8_t *)utf8, size) < 0;
            if (!failed) {
                const uint8_t *from = size > UK_VIEW_INLINE ? extra.s + at : (const uint8_t *)utf8;
                failed = put_view(view, from, size, extra_index, at) < 0;
            }
            Py_DECREF(answer);
            if (failed) {
                goto done;
            }
            set_bit(octets(validity), i);
            continue;
        }
        fast++;
        set_bit(octets(validity), i);
    }
    PyObject *extra_bytes = PyBytes_FromStringAndSize((const char *)extra.s, extra.n);
    if (extra_bytes != NULL) {
        result = Py_BuildValue("(OONn)", validity, views, extra_bytes, fast);
    }
done:
    PyMem_Free(extra.s);
    PyMem_Free(table);
    column_release(&c);
    Py_XDECREF(validity);
    Py_XDECREF(views);
    return result;
}

/* --- the module ----------------------------------------------------------------------- */

static PyMethodDef columns_methods[] = {
    {"split", split, METH_VARARGS, split_doc},
    {"map", map, METH_VARARGS, map_doc},
    {NULL, NULL, 0, NULL},
};

/* The module keeps no state, so it is safe in every interpreter.  map() calls back
 * into Python, so it relies on the GIL, as any caller of Python code does. */
static PyModuleDef_Slot columns_slots[] = {
#if PY_VERSION_HEX >= 0x030C0000
    {Py_mod_multiple_interpreters, Py_MOD_PER_INTERPRETER_GIL_SUPPORTED},
#endif
    {0, NULL},
};

PyDoc_STRVAR(columns_doc, "The compiled kernels of urikit.arrow: split() and map().");

static struct PyModuleDef columns_module = {
    PyModuleDef_HEAD_INIT,
    "urikit._columns",
    columns_doc,
    0,
    columns_methods,
    columns_slots,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC PyInit__columns(void)
{
    return PyModuleDef_Init(&columns_module);
}
