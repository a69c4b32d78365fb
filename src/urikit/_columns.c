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
 * With the URI grammar the rows are scanned by uk8_scan_within (_columns_scan.h), the
 * scanner of _speedups_scan.h over a table of the 256 octets, which may read on after
 * a row into the rest of its data buffer (never past it) but answers for the row
 * alone.
 *
 * The answers are filled into new buffers made by the caller's allocate(size),
 * which Python hands to Arrow unchanged: bitmaps of validity and of booleans (bit i
 * of byte i / 8, least significant bit first), int8 and int64 values, string views
 * (Arrow "string_view": 16 bytes per row, strings of at most 12 octets inline,
 * longer ones as a prefix, a data buffer index and an offset), and int32 offsets
 * with their data (Arrow "string").  The views of components point into the input's
 * data buffers, so nothing of a component is copied.  The loops over the rows touch
 * no Python object and run with the GIL released; map() takes it back for the rows
 * it leaves to its fallback.  scatter() fills a column that is null but for a few
 * rows given with their values (the explanations of the rows that are not
 * references), reading those values with the GIL held.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdlib.h>
#include <string.h>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

#include "_columns_plain.h"
#include "_columns_scan.h"
#include "_speedups_ops.h"

/* UK_COLD: a function for the rare cases, kept out of the loops that call it so that
 * they stay small; UK_NOINLINE: a function compiled on its own. */
#if defined(__GNUC__) || defined(__clang__)
#define UK_COLD __attribute__((noinline, cold))
#define UK_NOINLINE __attribute__((noinline))
#else
#define UK_COLD
#define UK_NOINLINE
#endif

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
    const uint8_t *limit; /* the end of the buffer that holds the octets */
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

static inline int column_is_null(const uk_column *c, Py_ssize_t i)
{
    if (!c->has_validity) {
        return 0;
    }
    Py_ssize_t bit = c->offset + i;
    return !((((const uint8_t *)c->validity.buf)[bit >> 3] >> (bit & 7)) & 1);
}

/* Row i of a non-null slot into r; 0 on success, -1 when the offsets or views point
 * outside the data (no exception is set: see fail()). */
static inline int column_row(const uk_column *c, Py_ssize_t i, uk_row *r)
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
            r->limit = v + UK_VIEW_SIZE;
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
        r->limit = (const uint8_t *)c->data[buffer].buf + c->data[buffer].len;
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
    r->limit = (const uint8_t *)c->data[0].buf + c->data[0].len;
    return 0;
bad:
    (void)i;
    return -1;
}

/* What went wrong in a loop over rows that runs without the GIL. */
enum { UK_FINE = 0, UK_BAD_ROW = 1, UK_NO_FIT = 2, UK_NO_MEMORY = 3 };

/* The exception for a failure of row `row`; returns NULL. */
static PyObject *fail(int failure, Py_ssize_t row)
{
    if (failure == UK_BAD_ROW) {
        PyErr_Format(PyExc_ValueError, "column: row %zd points outside its data", row);
    } else if (failure == UK_NO_FIT) {
        PyErr_SetString(PyExc_OverflowError, "a string or offset does not fit a string view");
    } else {
        PyErr_NoMemory();
    }
    return NULL;
}

/* --- output buffers --------------------------------------------------------------- */

/* An output buffer: an object made by the caller's allocate(size), with the buffer
 * protocol and writable (a pyarrow Buffer from pyarrow.allocate_buffer, so that its
 * memory comes from Arrow's pool), held while the rows are written. */
typedef struct {
    PyObject *obj;
    Py_buffer view;
    int held;
} uk_out;

/* A new output of size octets, zeroed when `zero`; its octets, or NULL with an
 * exception set. */
static uint8_t *out_new(uk_out *o, PyObject *allocate, Py_ssize_t size, int zero)
{
    o->obj = PyObject_CallFunction(allocate, "n", size);
    if (o->obj == NULL) {
        return NULL;
    }
    if (PyObject_GetBuffer(o->obj, &o->view, PyBUF_WRITABLE) < 0) {
        return NULL;
    }
    o->held = 1;
    if (o->view.len < size) {
        PyErr_SetString(PyExc_ValueError, "allocate() gave a buffer shorter than asked");
        return NULL;
    }
    if (zero && size > 0) {
        memset(o->view.buf, 0, (size_t)size);
    }
    return (uint8_t *)o->view.buf;
}

/* Map in the pages of buf[0..size-1] before they are written, with one call to the
 * kernel rather than a page fault a page (Linux 5.14 and later; elsewhere, or when
 * the kernel refuses, the pages fault in as they are written).  Runs without the
 * GIL. */
static void out_prefault(uint8_t *buf, Py_ssize_t size)
{
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
    long page = sysconf(_SC_PAGESIZE);
    if (page <= 0 || size < 64 * (Py_ssize_t)page) {
        return;
    }
    uintptr_t mask = (uintptr_t)page - 1;
    uintptr_t from = ((uintptr_t)buf + mask) & ~mask;
    uintptr_t to = ((uintptr_t)buf + (uintptr_t)size) & ~mask;
    if (to > from) {
        (void)madvise((void *)from, to - from, MADV_POPULATE_WRITE);
    }
#else
    (void)buf;
    (void)size;
#endif
}

static void out_release(uk_out *o)
{
    if (o->held) {
        PyBuffer_Release(&o->view);
        o->held = 0;
    }
    Py_CLEAR(o->obj);
}

/* A growing array of row numbers, filled without the GIL. */
typedef struct {
    Py_ssize_t *rows;
    Py_ssize_t n, capacity;
} uk_rows;

static UK_COLD int rows_grow(uk_rows *r)
{
    Py_ssize_t capacity = r->capacity ? 2 * r->capacity : 16;
    Py_ssize_t *grown = PyMem_RawRealloc(r->rows, (size_t)capacity * sizeof(Py_ssize_t));
    if (grown == NULL) {
        return -1;
    }
    r->rows = grown;
    r->capacity = capacity;
    return 0;
}

static int rows_append(uk_rows *r, Py_ssize_t row)
{
    if (r->n == r->capacity && rows_grow(r) < 0) {
        return -1;
    }
    r->rows[r->n++] = row;
    return 0;
}

/* The rows as a new list of int, or NULL with an exception set. */
static PyObject *rows_list(const uk_rows *r)
{
    PyObject *list = PyList_New(r->n);
    if (list == NULL) {
        return NULL;
    }
    for (Py_ssize_t k = 0; k < r->n; k++) {
        PyObject *row = PyLong_FromSsize_t(r->rows[k]);
        if (row == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, k, row);
    }
    return list;
}

static inline void set_bit(uint8_t *bits, Py_ssize_t i)
{
    bits[i >> 3] |= (uint8_t)(1u << (i & 7));
}

/* The view of s[0..n-1] (Arrow's string_view layout): the length, then the octets
 * when at most 12, zero-padded, else the first 4 octets, the data buffer `buffer`
 * and the offset `at` in it.  0, or -1 (no exception set) when n or at does not fit
 * a view; the 16 octets are written whole either way.  `limit` is the end of the
 * memory that may be read from s on: with 12 octets there, a short string is read
 * as two words and the octets after it masked off. */
static inline int put_view(uint8_t *view, const uint8_t *s, Py_ssize_t n, int32_t buffer,
                           int64_t at, const uint8_t *limit)
{
    uint64_t first, second;
    if (n <= UK_VIEW_INLINE) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        if (limit - s >= UK_VIEW_INLINE) {
            /* keep[k]: the k first octets of a little-endian word */
            static const uint64_t keep[9] = {
                0, 0xFF, 0xFFFF, 0xFFFFFF, 0xFFFFFFFF, 0xFFFFFFFFFF, 0xFFFFFFFFFFFF,
                0xFFFFFFFFFFFFFF, UINT64_MAX,
            };
            uint64_t low;
            uint32_t high;
            memcpy(&low, s, 8);
            memcpy(&high, s + 8, 4);
            low &= keep[n < 8 ? n : 8];
            high &= (uint32_t)keep[n > 8 ? n - 8 : 0];
            first = (uint64_t)(uint32_t)n | (low << 32);
            second = (low >> 32) | ((uint64_t)high << 32);
            memcpy(view, &first, 8);
            memcpy(view + 8, &second, 8);
            return 0;
        }
#endif
        uint8_t out[UK_VIEW_SIZE] = {0};
        int32_t length = (int32_t)n;
        memcpy(out, &length, 4);
        for (Py_ssize_t k = 0; k < n; k++) {
            out[4 + k] = s[k];
        }
        memcpy(view, out, UK_VIEW_SIZE);
        return 0;
    }
    int32_t length = (int32_t)n, offset = (int32_t)at;
    memcpy(view, &length, 4);
    memcpy(view + 4, s, 4);
    memcpy(view + 8, &buffer, 4);
    memcpy(view + 12, &offset, 4);
    return (uint64_t)n > INT32_MAX || (uint64_t)at > INT32_MAX ? -1 : 0;
}

/* The view of r->s[a..b-1], a slice of row r, into the same data buffer; for kinds
 * 0 and 1 the output's buffer 0 is the input's data from octet `base` on. */
static inline int put_slice(uint8_t *view, const uk_row *r, Py_ssize_t a, Py_ssize_t b,
                            int64_t base)
{
    return put_view(view, r->s + a, b - a, r->buffer, r->at + a - base, r->limit);
}

/* A growing buffer of octets, for strings that are not slices of the input. */
typedef struct {
    uint8_t *s;
    Py_ssize_t n, capacity;
} uk_extra;

/* Room for n more octets after e->s[0..e->n-1]; 0, or -1 when out of memory. */
static int extra_reserve(uk_extra *e, Py_ssize_t n)
{
    if (e->n + n > e->capacity) {
        Py_ssize_t capacity = e->capacity ? e->capacity : 4096;
        while (capacity < e->n + n) {
            capacity *= 2;
        }
        uint8_t *grown = PyMem_RawRealloc(e->s, (size_t)capacity);
        if (grown == NULL) {
            return -1;
        }
        e->s = grown;
        e->capacity = capacity;
    }
    return 0;
}

static int extra_append(uk_extra *e, const uint8_t *s, Py_ssize_t n)
{
    if (extra_reserve(e, n) < 0) {
        return -1;
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
    PyMem_RawFree(w->points);
    PyMem_RawFree(w->at);
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
 * match, 0 when the row is not a reference (or not UTF-8), -1 when out of memory
 * (with no exception set: this runs without the GIL).  scan_iri reads the IRI
 * grammar; scan_utf8 reads row r in either, with the URI grammar by uk8_scan_within,
 * which may read on after the row up to the end of its buffer. */
static UK_COLD int scan_iri(const uint8_t *s, Py_ssize_t n, ptrdiff_t spans[UK_SPANS],
                            uk_scratch *w)
{
    Py_ssize_t ascii = 0;
    while (ascii < n && s[ascii] < 0x80) {
        ascii++;
    }
    if (ascii == n) {
        return uk_scan_ucs1(s, n, 1, spans);
    }
    if (n + 1 > w->capacity) {
        PyMem_RawFree(w->points);
        PyMem_RawFree(w->at);
        w->points = PyMem_RawMalloc((size_t)(n + 1) * sizeof(uint32_t));
        w->at = PyMem_RawMalloc((size_t)(n + 1) * sizeof(Py_ssize_t));
        if (w->points == NULL || w->at == NULL) {
            scratch_release(w);
            w->capacity = 0;
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

static inline int scan_utf8(const uk8_table *t, const uk_row *r, int iri,
                            ptrdiff_t spans[UK_SPANS], uk_scratch *w)
{
    return iri ? scan_iri(r->s, r->n, spans, w) : uk8_scan_within(t, r->s, r->n, r->limit, spans);
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

/* The outputs of split() while its rows are scanned without the GIL. */
typedef struct {
    uint8_t *validity, *ok;
    uint8_t *bits[UK_OUT_PORT_NUMBER + 1];
    uint8_t *values[UK_OUT_PORT_NUMBER + 1];
    int want[UK_OUT_COMPONENTS]; /* the components asked for, in order */
    int nwant;
    uk_rows invalid, overflow;
    Py_ssize_t failed_row;
} uk_split;

/* The 8 by 8 bit matrix of x (bit 8 * j + k) transposed (to bit 8 * k + j): byte j
 * of the components defined in row j becomes byte k of the rows where component k is
 * defined. */
static inline uint64_t transpose_bits(uint64_t x)
{
    uint64_t t = (x ^ (x >> 7)) & 0x00AA00AA00AA00AAULL;
    x ^= t ^ (t << 7);
    t = (x ^ (x >> 14)) & 0x0000CCCC0000CCCCULL;
    x ^= t ^ (t << 14);
    t = (x ^ (x >> 28)) & 0x00000000F0F0F0F0ULL;
    x ^= t ^ (t << 28);
    return x;
}

#if defined(__x86_64__) || defined(_M_X64)
#include <emmintrin.h>
#define UK_WIDE_VIEWS 1
/* The octets read to write a view from s on (put_view_wide). */
#define UK_VIEW_READ 16

/* For a string of k octets, k = min(n, 13): the octets of its view taken from the
 * 16 read at its start and moved 4 up, past the length: the string (up to 12
 * octets), or for a string longer than 12 its first 4, the prefix. */
#define UK_KEPT(m, j) ((j) < (m) ? 0xFF : 0)
#define UK_KEEP(m)                                                                          \
    {0, 0, 0, 0, UK_KEPT(m, 0), UK_KEPT(m, 1), UK_KEPT(m, 2), UK_KEPT(m, 3), UK_KEPT(m, 4), \
     UK_KEPT(m, 5), UK_KEPT(m, 6), UK_KEPT(m, 7), UK_KEPT(m, 8), UK_KEPT(m, 9),             \
     UK_KEPT(m, 10), UK_KEPT(m, 11)}
static _Alignas(16) const uint8_t keep_view[14][UK_VIEW_SIZE] = {
    UK_KEEP(0), UK_KEEP(1), UK_KEEP(2),  UK_KEEP(3),  UK_KEEP(4),  UK_KEEP(5),  UK_KEEP(6),
    UK_KEEP(7), UK_KEEP(8), UK_KEEP(9), UK_KEEP(10), UK_KEEP(11), UK_KEEP(12), UK_KEEP(4),
};
#undef UK_KEEP
#undef UK_KEPT

/* The view of s[0..n-1] as put_view writes it, for 0 <= n <= INT32_MAX when 16
 * octets can be read from s on; `far` is the second word of the view of a string
 * longer than 12 (its data buffer, then its offset).  Without branches on n. */
static inline void put_view_wide(uint8_t *view, const uint8_t *s, ptrdiff_t n, uint64_t far)
{
    size_t k = n < UK_VIEW_INLINE + 1 ? (size_t)n : UK_VIEW_INLINE + 1;
    uint64_t long_string = 0 - (uint64_t)(n > UK_VIEW_INLINE); /* all ones or none */
    __m128i octets = _mm_slli_si128(_mm_loadu_si128((const __m128i *)s), 4);
    octets = _mm_and_si128(octets, _mm_load_si128((const __m128i *)keep_view[k]));
    __m128i words = _mm_set_epi64x((long long)(far & long_string), (long long)(uint32_t)n);
    _mm_storeu_si128((__m128i *)view, _mm_or_si128(octets, words));
}
#elif defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define UK_WIDE_VIEWS 1
#define UK_VIEW_READ 12
/* For a string of k octets, k = min(n, 13): the octets kept of the first 8 and of
 * the next 4 read from its start (a string longer than 12 keeps its first 4 as the
 * prefix). */
static const uint64_t keep_first[14] = {
    0, 0xFF, 0xFFFF, 0xFFFFFF, 0xFFFFFFFF, 0xFFFFFFFFFF, 0xFFFFFFFFFFFF, 0xFFFFFFFFFFFFFF,
    UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX,
};
static const uint32_t keep_next[14] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFFFF, 0xFFFFFF, 0xFFFFFFFF, 0,
};

/* The view of s[0..n-1] as put_view writes it, for 0 <= n <= INT32_MAX when 12
 * octets can be read from s on; `far` is the second word of the view of a string
 * longer than 12 (its data buffer, then its offset).  Without branches on n. */
static inline void put_view_wide(uint8_t *view, const uint8_t *s, ptrdiff_t n, uint64_t far)
{
    size_t k = n < UK_VIEW_INLINE + 1 ? (size_t)n : UK_VIEW_INLINE + 1;
    uint64_t low;
    uint32_t high;
    memcpy(&low, s, 8);
    memcpy(&high, s + 8, 4);
    low &= keep_first[k];
    uint64_t first = (uint64_t)(uint32_t)n | (low << 32);
    uint64_t near = (low >> 32) | ((uint64_t)(high & keep_next[k]) << 32);
    uint64_t long_string = 0 - (uint64_t)(n > UK_VIEW_INLINE); /* all ones or none */
    uint64_t second = (far & long_string) | (near & ~long_string);
    memcpy(view, &first, 8);
    memcpy(view + 8, &second, 8);
}
#else
#define UK_WIDE_VIEWS 0
#define UK_VIEW_READ 12
#endif

/* Whether the views of every slice of row r can be written by put_view_wide:
 * UK_VIEW_READ octets can be read after the row, and every offset from base fits an
 * int32. */
static inline int row_is_wide(const uk_row *r, int64_t base)
{
    if (!UK_WIDE_VIEWS || r->limit - (r->s + r->n) < UK_VIEW_READ || r->at < base ||
        r->n > INT32_MAX) {
        return 0;
    }
    return (uint64_t)r->at - (uint64_t)base <= (uint64_t)(INT32_MAX - r->n);
}

/* The view of the whole row r, as put_slice writes it: 0, or -1 when it does not fit. */
static inline int put_row(uint8_t *view, const uk_row *r, int64_t base)
{
#if UK_WIDE_VIEWS
    if (row_is_wide(r, base)) {
        put_view_wide(view, r->s, r->n,
                      (uint32_t)r->buffer | (((uint64_t)r->at - (uint64_t)base) << 32));
        return 0;
    }
#endif
    return put_slice(view, r, 0, r->n, base);
}

/* The views of the wanted components of row r (spans as scanned) at row i, one by
 * one; their bits (1 << component) in *defined.  0, or -1 when one does not fit a
 * view. */
static UK_COLD int put_components_narrow(uint8_t *const *values, const int *want, int nwant,
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
        misfit |= put_slice(view, r, a, spans[2 * g + 1], base);
    }
    *defined = here;
    return misfit;
}

#if UK_WIDE_VIEWS
/* The view of component g of the row s, spans a, b (-1, -1 when it is undefined), at
 * octet `at` of values, with bit g of *defined set when it is defined; `far` is the
 * second word of the view of a long string at the row's first octet. */
static inline void put_component_wide(uint8_t *values, Py_ssize_t at, const uint8_t *s,
                                      uint64_t far, ptrdiff_t a, ptrdiff_t b, unsigned g,
                                      unsigned *defined)
{
    uint8_t *view = values + at;
    if (a < 0) {
        memset(view, 0, UK_VIEW_SIZE);
        return;
    }
    *defined |= 1u << g;
    put_view_wide(view, s + a, b - a, far + ((uint64_t)a << 32));
}
#endif

/* put_components_narrow, with put_view_wide when the row allows it; mask has bit g
 * for each component g in want. */
static inline int put_components(uint8_t *const *values, const int *want, int nwant,
                                 unsigned mask, Py_ssize_t i, const uk_row *r,
                                 const ptrdiff_t spans[UK_SPANS], int64_t base,
                                 unsigned *defined)
{
#if UK_WIDE_VIEWS
    if (row_is_wide(r, base)) {
        unsigned here = 0;
        const uint8_t *s = r->s;
        uint64_t far = (uint32_t)r->buffer | (((uint64_t)r->at - (uint64_t)base) << 32);
        Py_ssize_t at = i * UK_VIEW_SIZE;
        /* one call a component, so that each is compiled with its number known */
#define UK_PUT_WIDE(g)                                                                     \
    if (mask & (1u << (g))) {                                                              \
        put_component_wide(values[g], at, s, far, spans[2 * (g)], spans[2 * (g) + 1], (g), \
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
    return put_components_narrow(values, want, nwant, i, r, spans, base, defined);
}

/* The views of the wanted components of row i, when it is null or not a reference. */
static UK_COLD void put_nulls(uint8_t *const *values, const int *want, int nwant, Py_ssize_t i)
{
    for (int k = 0; k < nwant; k++) {
        memset(values[want[k]] + i * UK_VIEW_SIZE, 0, UK_VIEW_SIZE);
    }
}

/* The host type and port number of row i, when asked for: UK_FINE or UK_NO_MEMORY. */
static UK_NOINLINE int put_numbers(uk_split *o, Py_ssize_t i, const uk_row *r,
                                   const ptrdiff_t spans[UK_SPANS])
{
    uint8_t *type_values = o->values[UK_OUT_HOST_TYPE];
    uint8_t *port_values = o->values[UK_OUT_PORT_NUMBER];
    ptrdiff_t host = spans[UK_G_HOST], port = spans[UK_G_PORT];
    if (type_values != NULL && host >= 0) {
        set_bit(o->bits[UK_OUT_HOST_TYPE], i);
        type_values[i] = (uint8_t)host_code(r->s + host, spans[UK_G_HOST + 1] - host);
    }
    if (port_values != NULL && port >= 0 && spans[UK_G_PORT + 1] > port) {
        int64_t number;
        if (port_value(r->s + port, spans[UK_G_PORT + 1] - port, &number)) {
            set_bit(o->bits[UK_OUT_PORT_NUMBER], i);
            memcpy(port_values + i * 8, &number, 8);
        } else if (rows_append(&o->overflow, i) < 0) {
            return UK_NO_MEMORY;
        }
    }
    return UK_FINE;
}

/* Scan every row of c into o: UK_FINE, or the failure, with its row in o->failed_row.
 * Touches no Python object, so it runs with the GIL released.  The bitmaps of
 * validity, ok and the components are written a byte (8 rows) at a time. */
static UK_NOINLINE int split_rows(const uk_column *c, int iri, int64_t base, uk_split *o)
{
    uk8_table table;
    uk8_table_init(&table);
    uk_scratch w = {NULL, NULL, 0};
    ptrdiff_t spans[UK_SPANS];
    int failure = UK_FINE;
    int numbers = o->values[UK_OUT_HOST_TYPE] != NULL || o->values[UK_OUT_PORT_NUMBER] != NULL;
    uint8_t *values[UK_OUT_COMPONENTS];
    int want[UK_OUT_COMPONENTS], nwant = o->nwant;
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
            if (column_is_null(c, i)) {
                put_nulls(values, want, nwant, i);
                continue;
            }
            valid_bits |= bit;
            uk_row r;
            if (column_row(c, i, &r) < 0) {
                failure = UK_BAD_ROW;
                o->failed_row = i;
                break;
            }
            int found = scan_utf8(&table, &r, iri, spans, &w);
            if (found <= 0) {
                if (found < 0 || rows_append(&o->invalid, i) < 0) {
                    failure = UK_NO_MEMORY;
                    break;
                }
                put_nulls(values, want, nwant, i);
                continue;
            }
            ok_bits |= bit;
            unsigned here = 0;
            if (nwant > 0 &&
                put_components(values, want, nwant, mask, i, &r, spans, base, &here) < 0) {
                failure = UK_NO_FIT;
                o->failed_row = i;
                break;
            }
            defined |= (uint64_t)here << (8 * (i - block));
            if (numbers && (failure = put_numbers(o, i, &r, spans)) != UK_FINE) {
                break;
            }
        }
        o->validity[block >> 3] = (uint8_t)valid_bits;
        o->ok[block >> 3] = (uint8_t)ok_bits;
        if (nwant > 0) {
            uint64_t by_component = transpose_bits(defined);
            for (int k = 0; k < nwant; k++) {
                int g = want[k];
                o->bits[g][block >> 3] = (uint8_t)(by_component >> (8 * g));
            }
        }
    }
    scratch_release(&w);
    return failure;
}

PyDoc_STRVAR(split_doc,
             "split(column, iri, mask, base, allocate, /)\n--\n\n"
             "Scan each row of column as an URI-reference (an IRI-reference with iri).\n"
             "Returns (validity, ok, invalid, outputs): validity and ok are bitmaps of\n"
             "the non-null rows and of the references; invalid lists the rows that are\n"
             "not references.  outputs[k] is None unless bit k of mask is set: for k < 8\n"
             "(bitmap, views) of component k; for 8 (bitmap, int8 codes) of the host\n"
             "type; for 9 (bitmap, int64 values, overflows) of the port number,\n"
             "overflows the rows whose port is above 65535.  Views of components\n"
             "point into data buffer 0 from octet base on (kinds 0 and 1) or into the\n"
             "input's own data buffers.  Every buffer is made by allocate(size), which\n"
             "returns a writable object with the buffer protocol.  The rows are scanned\n"
             "with the GIL released.");

/* The outputs of split(): validity, ok, then (bits, values) for each of the 10. */
enum { UK_SPLIT_OUTS = 2 + 2 * (UK_OUT_PORT_NUMBER + 1) };

static PyObject *split(PyObject *module, PyObject *args)
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
    if (column_read(spec, &c) < 0) {
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
    if ((o.validity = out_new(&outs[0], allocate, bitmap, 1)) == NULL ||
        (o.ok = out_new(&outs[1], allocate, bitmap, 1)) == NULL) {
        goto done;
    }
    for (int k = 0; k <= UK_OUT_PORT_NUMBER; k++) {
        if (!(mask & (1u << k))) {
            continue;
        }
        Py_ssize_t width = k < UK_OUT_COMPONENTS ? UK_VIEW_SIZE : k == UK_OUT_HOST_TYPE ? 1 : 8;
        o.bits[k] = out_new(&outs[2 + 2 * k], allocate, bitmap, 1);
        o.values[k] = o.bits[k] == NULL ? NULL
                                        : out_new(&outs[3 + 2 * k], allocate, n * width,
                                                  k >= UK_OUT_COMPONENTS);
        if (o.values[k] == NULL) {
            goto done;
        }
        if (k < UK_OUT_COMPONENTS) {
            o.want[o.nwant++] = k;
        }
    }
    int failure;
    Py_BEGIN_ALLOW_THREADS
    for (int k = 0; k < o.nwant; k++) {
        out_prefault(o.values[o.want[k]], n * UK_VIEW_SIZE);
    }
    failure = split_rows(&c, iri, base, &o);
    Py_END_ALLOW_THREADS
    if (failure != UK_FINE) {
        fail(failure, o.failed_row);
        goto done;
    }
    outputs = PyTuple_New(UK_OUT_PORT_NUMBER + 1);
    invalid = rows_list(&o.invalid);
    overflows = rows_list(&o.overflow);
    if (outputs == NULL || invalid == NULL || overflows == NULL) {
        goto done;
    }
    for (int k = 0; k <= UK_OUT_PORT_NUMBER; k++) {
        PyObject *item, *bits = outs[2 + 2 * k].obj, *values = outs[3 + 2 * k].obj;
        if (values == NULL) {
            item = Py_NewRef(Py_None);
        } else if (k == UK_OUT_PORT_NUMBER) {
            item = PyTuple_Pack(3, bits, values, overflows);
        } else {
            item = PyTuple_Pack(2, bits, values);
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
    column_release(&c);
    for (int k = 0; k < UK_SPLIT_OUTS; k++) {
        out_release(&outs[k]);
    }
    Py_XDECREF(outputs);
    Py_XDECREF(invalid);
    Py_XDECREF(overflows);
    return result;
}

/* --- scatter -------------------------------------------------------------------------- */

PyDoc_STRVAR(scatter_doc,
             "scatter(n, rows, values, text, allocate, /)\n--\n\n"
             "The buffers of an Arrow column of n rows, null but at rows (a list of\n"
             "ascending row numbers), where it holds values (a list as long as rows):\n"
             "with text, (validity, int32 offsets, data) of \"string\" for values of str,\n"
             "else (validity, values) of \"int64\" for values of int.  A null row is\n"
             "empty (its octets of values are zero).  Every buffer is made by\n"
             "allocate(size).");

static PyObject *scatter(PyObject *module, PyObject *args)
{
    (void)module;
    Py_ssize_t n;
    PyObject *row_list, *value_list, *allocate;
    int text;
    if (!PyArg_ParseTuple(args, "nO!O!pO:scatter", &n, &PyList_Type, &row_list, &PyList_Type,
                          &value_list, &text, &allocate)) {
        return NULL;
    }
    if (n < 0 || n >= PY_SSIZE_T_MAX / 8) {
        PyErr_SetString(PyExc_ValueError, "scatter: n is out of range");
        return NULL;
    }
    /* Tuples of the lists, so that the values stay as they are while allocate() runs. */
    PyObject *rows = PySequence_Tuple(row_list);
    PyObject *values = rows == NULL ? NULL : PySequence_Tuple(value_list);
    Py_ssize_t *at = NULL, total = 0;
    uk_out outs[3];
    memset(outs, 0, sizeof(outs));
    PyObject *result = NULL;
    if (values == NULL) {
        goto done;
    }
    Py_ssize_t count = PyTuple_GET_SIZE(rows);
    if (PyTuple_GET_SIZE(values) != count) {
        PyErr_SetString(PyExc_ValueError, "scatter: rows and values differ in length");
        goto done;
    }
    at = PyMem_Calloc((size_t)(count > 0 ? count : 1), sizeof(Py_ssize_t));
    if (at == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    /* The rows, checked, and with text the length of all the values in UTF-8. */
    for (Py_ssize_t k = 0; k < count; k++) {
        at[k] = PyLong_AsSsize_t(PyTuple_GET_ITEM(rows, k));
        if (at[k] == -1 && PyErr_Occurred()) {
            goto done;
        }
        if (at[k] < 0 || at[k] >= n || (k > 0 && at[k] <= at[k - 1])) {
            PyErr_SetString(PyExc_ValueError, "scatter: rows are not ascending rows of n");
            goto done;
        }
        if (text) {
            Py_ssize_t size;
            PyObject *value = PyTuple_GET_ITEM(values, k);
            if (!PyUnicode_Check(value)) {
                PyErr_SetString(PyExc_TypeError, "scatter: with text, values are str");
                goto done;
            }
            if (PyUnicode_AsUTF8AndSize(value, &size) == NULL) {
                goto done;
            }
            total += size;
            if (total > INT32_MAX) {
                PyErr_SetString(PyExc_OverflowError,
                                "scatter: the values do not fit int32 offsets");
                goto done;
            }
        }
    }
    uint8_t *validity = out_new(&outs[0], allocate, (n + 7) / 8, 1);
    if (validity == NULL) {
        goto done;
    }
    for (Py_ssize_t k = 0; k < count; k++) {
        set_bit(validity, at[k]);
    }
    if (!text) {
        uint8_t *numbers = out_new(&outs[1], allocate, n * 8, 1);
        if (numbers == NULL) {
            goto done;
        }
        for (Py_ssize_t k = 0; k < count; k++) {
            int64_t number = PyLong_AsLongLong(PyTuple_GET_ITEM(values, k));
            if (number == -1 && PyErr_Occurred()) {
                goto done;
            }
            memcpy(numbers + at[k] * 8, &number, 8);
        }
        result = PyTuple_Pack(2, outs[0].obj, outs[1].obj);
        goto done;
    }
    uint8_t *offsets = out_new(&outs[1], allocate, (n + 1) * 4, 0);
    uint8_t *data = offsets == NULL ? NULL : out_new(&outs[2], allocate, total, 0);
    if (data == NULL) {
        goto done;
    }
    /* offsets[i] is where row i starts: the end of the values of the rows before it. */
    int32_t end = 0;
    Py_ssize_t next = 0; /* the first row whose offset is not written */
    for (Py_ssize_t k = 0; k <= count; k++) {
        Py_ssize_t row = k < count ? at[k] : n;
        for (Py_ssize_t i = next; i <= row; i++) {
            memcpy(offsets + i * 4, &end, 4);
        }
        if (k < count) {
            Py_ssize_t size; /* the UTF-8 cached with the str when it was counted */
            const char *utf8 = PyUnicode_AsUTF8AndSize(PyTuple_GET_ITEM(values, k), &size);
            if (size > 0) {
                memcpy(data + end, utf8, (size_t)size);
            }
            end += (int32_t)size;
            next = row + 1;
        }
    }
    result = PyTuple_Pack(3, outs[0].obj, outs[1].obj, outs[2].obj);
done:
    PyMem_Free(at);
    Py_XDECREF(rows);
    Py_XDECREF(values);
    for (int k = 0; k < 3; k++) {
        out_release(&outs[k]);
    }
    return result;
}

/* --- map ------------------------------------------------------------------------------ */

/* One scheme of the registry whose rules (RFC 3986 §6.2.3) are not those of a scheme
 * the registry does not know: its lower-case name and its rules, read from its code in
 * urikit._fast.scheme_codes (uk_scheme_rules_of, _speedups_ops.h). */
typedef struct {
    const char *name;
    Py_ssize_t n;
    uk_scheme_rules rules;
} uk_scheme;

/* The rules of the scheme s[0..n-1], without case (RFC 3986 §3.1): those of the table
 * (lower-case names, sorted), or of a scheme the registry does not know. */
static void scheme_rules(const uk_scheme *table, Py_ssize_t count, const uint8_t *s,
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

/* The ranks of map() that resolve each row against one base, or against the row of
 * a column of bases (RFC 3986 §5.2). */
enum { UK_RANK_RESOLVE = 3, UK_RANK_RESOLVE_EACH = 4 };

/* The number of schemes map() remembers (scheme_rules_seen). */
#define UK_SEEN 16

/* The state of map() over its rows. */
typedef struct {
    const uk_column *c;
    int rank, invalid_is_null, strict;
    const uint8_t *against; /* at UK_RANK_RESOLVE: the base, an absolute URI */
    Py_ssize_t against_n;
    ptrdiff_t against_spans[UK_SPANS];
    const uk_column *bases; /* at UK_RANK_RESOLVE_EACH: a base a row */
    const uint8_t *last_base; /* the last base read, its length, spans and whether the
                               * kernel reads it */
    Py_ssize_t last_base_n;
    ptrdiff_t last_base_spans[UK_SPANS];
    int last_base_found;
    const uk_scheme *table;
    Py_ssize_t count;
    struct {
        uint64_t key; /* a scheme as a row spells it (octets_key), its length (0: none) */
        Py_ssize_t n;
        uk_scheme_rules rules;
    } seen[UK_SEEN];  /* schemes looked up in the table (scheme_rules_seen) */
    int64_t base;
    int32_t extra_index;
    uint8_t *validity, *views;
    uk_extra extra;
    uk_rows slow; /* the rows left to fallback */
    Py_ssize_t fast, failed_row;
} uk_map;

/* The view of the answer of row i, s[0..n-1] appended to the extra buffer from
 * octet at on; 0, or a failure. */
static int put_extra(uk_map *m, Py_ssize_t i, int64_t at)
{
    const uint8_t *s = m->extra.s + at;
    Py_ssize_t n = m->extra.n - at;
    uint8_t *view = m->views + i * UK_VIEW_SIZE;
    if (n <= UK_VIEW_INLINE) {
        put_view(view, s, n, -1, 0, s);
        m->extra.n = at; /* inline: nothing of it stays in the buffer */
        return UK_FINE;
    }
    return put_view(view, s, n, m->extra_index, at, s) < 0 ? UK_NO_FIT : UK_FINE;
}

/* The first n octets of s[0..7], 1 <= n <= 8, as a word (the others zero). */
static inline uint64_t octets_key(const uint8_t *s, Py_ssize_t n)
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

/* scheme_rules() of the scheme s[0..n-1] of a row whose buffer ends at limit,
 * remembering the schemes of at most 8 octets looked up: the rows of a column mostly
 * share a few ("http", "https", "ftp", "file", "mailto", ...).  A scheme has its
 * entry of uk_map.seen by its length and its first and last octets. */
static void scheme_rules_seen(uk_map *m, const uint8_t *s, Py_ssize_t n, const uint8_t *limit,
                              uk_scheme_rules *rules)
{
    if (n > 8 || limit - s < 8) {
        scheme_rules(m->table, m->count, s, n, rules);
        return;
    }
    unsigned k = ((unsigned)n + s[0] + 8u * s[n - 1]) % UK_SEEN;
    uint64_t key = octets_key(s, n);
    if (m->seen[k].n == n && m->seen[k].key == key) {
        *rules = m->seen[k].rules;
        return;
    }
    scheme_rules(m->table, m->count, s, n, rules);
    m->seen[k].key = key;
    m->seen[k].n = n;
    m->seen[k].rules = *rules;
}

/* What normal_form() answers for a row that is its own answer. */
#define UK_ITSELF ((ptrdiff_t)-3)

/* The normal form of the URI-reference r (spans as scanned) at rank 1 (syntax, RFC 3986
 * §6.2.2) or 2 (scheme, §6.2.3, with the rules of the registry's table), written by
 * uk_normalize_ucs1 into the extra buffer after its end: its length, or -1 when only
 * the scalar API answers, or -2 when out of memory, or UK_ITSELF when the row is
 * plainly its own normal form (nothing written).  The buffer's end does not move. */
static ptrdiff_t normal_form(uk_map *m, const uk_row *r, const ptrdiff_t spans[UK_SPANS])
{
    uk_scheme_rules rules, *at_scheme_level = NULL;
    if (m->rank >= 2) {
        if (spans[UK_G_SCHEME] >= 0) {
            scheme_rules_seen(m, r->s + spans[UK_G_SCHEME],
                              spans[UK_G_SCHEME + 1] - spans[UK_G_SCHEME], r->limit, &rules);
        } else {
            uk_scheme_rules_of(0, &rules);
        }
        at_scheme_level = &rules;
    }
    if (uk8_plainly_normal(r->s, r->n, r->limit, spans, at_scheme_level)) {
        return UK_ITSELF;
    }
    if (extra_reserve(&m->extra, uk_normalize_capacity(r->n)) < 0) {
        return -2;
    }
    ptrdiff_t normal_spans[UK_SPANS];
    return uk_normalize_ucs1(r->s, spans, at_scheme_level, m->extra.s + m->extra.n,
                             normal_spans);
}

/* The target of the URI-reference r (spans as scanned) against the absolute URI
 * b[0..nb-1] with the spans bs (RFC 3986 §5.2.2-§5.2.4, the compiled core's
 * uk_transform_references, the one urikit.resolve uses), written into the extra
 * buffer after its end: its length, or -2 when out of memory.  The buffer's end does
 * not move. */
static ptrdiff_t target_of(uk_map *m, const uint8_t *b, Py_ssize_t nb,
                           const ptrdiff_t bs[UK_SPANS], const uk_row *r,
                           const ptrdiff_t spans[UK_SPANS])
{
    if (extra_reserve(&m->extra, uk_resolve_capacity(nb, r->n)) < 0) {
        return -2;
    }
    ptrdiff_t target_spans[UK_SPANS];
    return uk_transform_references_ucs1(b, bs, r->s, spans, m->strict, m->extra.s + m->extra.n,
                                        target_spans);
}

/* At UK_RANK_RESOLVE_EACH, the base of row i, read into m->last_base (its octets,
 * length and spans): 1 when it is an absolute URI that the kernel reads; 0 when it
 * is null (the answer is null); -1 when the scalar API answers; -2 when its row
 * cannot be read.  A base equal to the last one read (the links of one page, in a
 * link table) is not scanned again. */
static int base_of_row(uk_map *m, const uk8_table *t, Py_ssize_t i)
{
    if (column_is_null(m->bases, i)) {
        return 0;
    }
    uk_row b;
    if (column_row(m->bases, i, &b) < 0) {
        return -2;
    }
    if (m->last_base == NULL || b.n != m->last_base_n ||
        memcmp(b.s, m->last_base, (size_t)b.n) != 0) {
        m->last_base_found = uk8_scan(t, b.s, b.n, m->last_base_spans) &&
                             m->last_base_spans[UK_G_SCHEME] >= 0;
        m->last_base = b.s;
        m->last_base_n = b.n;
    }
    return m->last_base_found ? 1 : -1;
}

/* The rows map() answers itself, without the GIL: a view of the row when it is its
 * own answer, its normal form in the extra buffer, null for a row that is not a
 * reference when invalid_is_null; every other row goes to m->slow.  Every row gets a
 * view, zero where it has no answer yet.  The 1-byte scanner reads the URI grammar,
 * so every row answered here is ASCII. */
static int map_rows(uk_map *m)
{
    uk8_table t;
    uk8_table_init(&t);
    ptrdiff_t spans[UK_SPANS];
    const uk_column *c = m->c;
    for (Py_ssize_t i = 0; i < c->length; i++) {
        uint8_t *view = m->views + i * UK_VIEW_SIZE;
        if (column_is_null(c, i)) {
            memset(view, 0, UK_VIEW_SIZE);
            continue;
        }
        uk_row r;
        if (column_row(c, i, &r) < 0) {
            m->failed_row = i;
            return UK_BAD_ROW;
        }
        ptrdiff_t normal = -1; /* the length of the row's answer, or -1: fallback */
        int base = 1;
        if (m->rank == UK_RANK_RESOLVE_EACH) {
            base = base_of_row(m, &t, i);
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
        if (m->rank >= 0 && base == 1) {
            if (uk8_scan_within(&t, r.s, r.n, r.limit, spans)) {
                switch (m->rank) {
                case 0:
                    normal = r.n;
                    break;
                case UK_RANK_RESOLVE:
                    normal = target_of(m, m->against, m->against_n, m->against_spans, &r, spans);
                    break;
                case UK_RANK_RESOLVE_EACH:
                    normal = target_of(m, m->last_base, m->last_base_n, m->last_base_spans, &r,
                                       spans);
                    break;
                default:
                    normal = normal_form(m, &r, spans);
                    break;
                }
                if (normal == -2) {
                    return UK_NO_MEMORY;
                }
            } else if (m->invalid_is_null) {
                memset(view, 0, UK_VIEW_SIZE);
                m->fast++;
                continue;
            }
        }
        if (normal < 0 && normal != UK_ITSELF) {
            memset(view, 0, UK_VIEW_SIZE); /* until the fallback answers */
            if (rows_append(&m->slow, i) < 0) {
                return UK_NO_MEMORY;
            }
            continue;
        }
        int64_t at = m->extra.n;
        if (m->rank == 0 || normal == UK_ITSELF ||
            (normal == r.n && memcmp(m->extra.s + at, r.s, (size_t)r.n) == 0)) {
            if (put_row(view, &r, m->base) < 0) { /* the row is its answer */
                m->failed_row = i;
                return UK_NO_FIT;
            }
        } else {
            m->extra.n += normal;
            int failure = put_extra(m, i, at);
            if (failure != UK_FINE) {
                m->failed_row = i;
                return failure;
            }
        }
        m->fast++;
        set_bit(m->validity, i);
    }
    return UK_FINE;
}

PyDoc_STRVAR(map_doc,
             "map(column, rank, schemes, fallback, base, allocate, invalid_is_null,\n"
             "    against=None, strict=True, bases=None, /)\n--\n\n"
             "A string view column with one answer per row: null for a null row; for a\n"
             "row that is an URI-reference, at rank 0 a view of the row, at rank 1 or 2\n"
             "its normal form at the syntax or scheme rung (RFC 3986 §6.2.2, §6.2.3) by\n"
             "the compiled operation, when it answers, at rank 3 its target against the\n"
             "ASCII absolute URI against (bytes; RFC 3986 §5.2, strict as in resolve), at\n"
             "rank 4 against the row of the column bases (a column spec of the same\n"
             "length; null where the base is null, fallback's where it is no absolute\n"
             "URI): a view of the row when it is its own answer, else the text in the\n"
             "extra buffer.  schemes is a tuple of\n"
             "(lower-case name: bytes, code), sorted by name, of the registry's schemes\n"
             "with a nonzero code in urikit._fast.scheme_codes.  Null for\n"
             "a row that is not one when invalid_is_null; for every other row\n"
             "fallback(index, text), a str or None.  rank -1 calls fallback for every\n"
             "non-null row.  Returns (validity, views, extra, fast): views point into the\n"
             "input's data buffers (from base on) or into extra, the data buffer after\n"
             "them; fast counts the rows answered without fallback.  validity and views\n"
             "are made by allocate(size).  The rows the kernel answers are read with the\n"
             "GIL released.");

static PyObject *map(PyObject *module, PyObject *args)
{
    (void)module;
    PyObject *spec, *schemes, *fallback, *allocate;
    PyObject *bases_spec = Py_None;
    int rank, invalid_is_null, strict = 1;
    long long base;
    const char *against = NULL;
    Py_ssize_t against_n = 0;
    if (!PyArg_ParseTuple(args, "OiOOLOp|z#pO:map", &spec, &rank, &schemes, &fallback, &base,
                          &allocate, &invalid_is_null, &against, &against_n, &strict,
                          &bases_spec)) {
        return NULL;
    }
    if (rank == UK_RANK_RESOLVE_EACH && bases_spec == Py_None) {
        PyErr_SetString(PyExc_ValueError, "at rank 4, bases is a column");
        return NULL;
    }
    if (!PyCallable_Check(fallback)) {
        PyErr_SetString(PyExc_TypeError, "fallback must be callable");
        return NULL;
    }
    uk_map m;
    memset(&m, 0, sizeof(m));
    if (rank == UK_RANK_RESOLVE) {
        uk8_table t;
        uk8_table_init(&t);
        if (against == NULL ||
            !uk8_scan(&t, (const uint8_t *)against, against_n, m.against_spans) ||
            m.against_spans[UK_G_SCHEME] < 0) {
            PyErr_SetString(PyExc_ValueError, "at rank 3, against is an absolute URI");
            return NULL;
        }
        m.against = (const uint8_t *)against;
        m.against_n = against_n;
    }
    m.strict = strict;
    m.table = schemes_read(schemes, &m.count);
    if (m.table == NULL) {
        return NULL;
    }
    uk_column c, bases;
    memset(&bases, 0, sizeof(bases));
    if (column_read(spec, &c) < 0) {
        PyMem_Free((void *)m.table);
        return NULL;
    }
    if (rank == UK_RANK_RESOLVE_EACH) {
        if (column_read(bases_spec, &bases) < 0) {
            column_release(&c);
            PyMem_Free((void *)m.table);
            return NULL;
        }
        if (bases.length != c.length) {
            PyErr_SetString(PyExc_ValueError, "bases and column differ in length");
            column_release(&bases);
            column_release(&c);
            PyMem_Free((void *)m.table);
            return NULL;
        }
        m.bases = &bases;
    }
    m.c = &c;
    m.rank = rank;
    m.invalid_is_null = invalid_is_null;
    m.base = c.kind == UK_KIND_VIEW ? 0 : base;
    m.extra_index = c.kind == UK_KIND_VIEW ? (int32_t)c.ndata : 1;
    Py_ssize_t n = c.length;
    uk_out validity = {NULL, {0}, 0}, views = {NULL, {0}, 0};
    PyObject *result = NULL;
    if ((m.validity = out_new(&validity, allocate, (n + 7) / 8, 1)) == NULL ||
        (m.views = out_new(&views, allocate, n * UK_VIEW_SIZE, 0)) == NULL) {
        goto done;
    }
    out_prefault(m.views, n * UK_VIEW_SIZE); /* every view is written by map_rows */
    int failure;
    Py_BEGIN_ALLOW_THREADS
    failure = map_rows(&m);
    Py_END_ALLOW_THREADS
    if (failure != UK_FINE) {
        fail(failure, m.failed_row);
        goto done;
    }
    for (Py_ssize_t k = 0; k < m.slow.n; k++) {
        Py_ssize_t i = m.slow.rows[k];
        uk_row r;
        if (column_row(&c, i, &r) < 0) { /* read without failure before */
            fail(UK_BAD_ROW, i);
            goto done;
        }
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
        const char *utf8 =
            PyUnicode_Check(answer) ? PyUnicode_AsUTF8AndSize(answer, &size) : NULL;
        if (utf8 == NULL) {
            if (!PyErr_Occurred()) {
                PyErr_Format(PyExc_TypeError, "fallback returned %.200s, not str or None",
                             Py_TYPE(answer)->tp_name);
            }
            Py_DECREF(answer);
            goto done;
        }
        int64_t at = m.extra.n;
        failure = extra_append(&m.extra, (const uint8_t *)utf8, size) < 0 ? UK_NO_MEMORY
                                                                          : put_extra(&m, i, at);
        Py_DECREF(answer);
        if (failure != UK_FINE) {
            fail(failure, i);
            goto done;
        }
        set_bit(m.validity, i);
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
        column_release(&bases);
    }
    column_release(&c);
    out_release(&validity);
    out_release(&views);
    return result;
}

/* --- the module ----------------------------------------------------------------------- */

static PyMethodDef columns_methods[] = {
    {"split", split, METH_VARARGS, split_doc},
    {"scatter", scatter, METH_VARARGS, scatter_doc},
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

PyDoc_STRVAR(columns_doc, "The compiled kernels of urikit.arrow: split(), scatter() and map().");

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
