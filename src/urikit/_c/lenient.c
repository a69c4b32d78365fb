/* The character repairs of the lenient reading (urikit.lenient) in one call.
 *
 * urikit.lenient._encode_all calls it for the text between the delimiters and prefix it has taken off:
 *
 *     lenient_encode(body, iri, delimited, host_end, first_hash, limit, /)
 *
 * returns (repaired, runs, rest).  repaired is body with every repair made: a "[" or
 * "]" at or after host_end as "%5B" or "%5D" (RFC 3986 §3.2.2), a "#" after first_hash
 * (-1: none) as "%23" (§3.5), a "%" that starts no triplet as "%25" (§2.1), with
 * delimited the white space removed (Appendix C), and every other character outside
 * the (i)query class (§3.4, RFC 3987 §2.2) as the triplets of its UTF-8 octets, hex in
 * upper case (§2.1, §2.5).  runs lists (code, start, end) of the first limit runs of
 * each code, in the order of body; a run is a maximal stretch of characters of one
 * code, but for codes 7 and 8, one character each.  rest lists (code, start, end,
 * count) for each code with more runs than limit: from the start of the first run
 * not listed to the end of the last, and the number of characters in those runs.
 * The codes are those of urikit._contracts.LENIENT_CODES (UK_L_* of contracts.h), in
 * the order of urikit.lenient._classify for a forbidden character: bidi formatting (RFC
 * 3987 §4.1), white space (Python's str.isspace), controls (C0, DEL, C1), backslash,
 * other non-ASCII, other ASCII ("<", "^", ...); then a "%" that starts no triplet, a "#"
 * after the first, a "[" or "]" outside the authority's host, and white space inside
 * delimiters.
 *
 * For a body that holds a lone surrogate, which UTF-8 cannot encode (RFC 3629 §3), it
 * returns the position of the first instead.  Linear time: two passes over body (the
 * length of the result, then the result), each reading a code unit a bounded number
 * of times.
 */
#include "speedups.h"

#include <string.h>

#include "check.h"
#include "classes.h"
#include "contracts.h"
#include "text.h"


/* What a character is to lenient_encode besides a code of contracts.h: kept as it is,
 * or a lone surrogate, which no repair can encode. */
enum { UK_L_KEPT = -1, UK_L_SURROGATE = -2 };

/* A non-ASCII code point met: its code and, for one encoded, its triplets. */
typedef struct {
    Py_UCS4 c; /* 0: no code point yet */
    int code;
    int n; /* the number of characters of its triplets */
    Py_UCS1 triplets[12];
} uk_wide_seen;

/* A code of the ASCII table: "%", "#", "[" and "]", whose code depends on where they
 * stand or on what follows them. */
enum { UK_L_PLACED = -3 };

/* What one lenient_encode call reads: the code of each ASCII character (UK_L_PLACED
 * for "%#[]"), and the non-ASCII code points met, by their low bits (the few that
 * hostile text repeats are classified and encoded once). */
typedef struct {
    Py_ssize_t n;
    int iri, delimited;
    Py_ssize_t host_end, first_hash;
    signed char ascii[128];
    uk_wide_seen seen[64];
} uk_lenient;

/* The triplets of the UTF-8 octets of c (RFC 3986 §2.1: hex in upper case) into out;
 * their number of characters. */
static int uk_triplets(Py_UCS4 c, Py_UCS1 out[12])
{
    uint8_t octets[4];
    int count = uk_utf8_encode(c, octets);
    for (int k = 0; k < count; k++) {
        out[3 * k] = '%';
        out[3 * k + 1] = uk_upper_hex(octets[k] >> 4);
        out[3 * k + 2] = uk_upper_hex(octets[k] & 0xF);
    }
    return 3 * count;
}

/* The code of an ASCII character that is not one of "%#[]" (urikit.lenient._classify):
 * UK_L_KEPT for a member of the (i)query class (RFC 3986 §3.4). */
static int uk_lenient_ascii_code(const uk_lenient *l, Py_UCS4 c)
{
    if (uk_ascii_class[c] & UK_QUERY) {
        return UK_L_KEPT;
    }
    if (Py_UNICODE_ISSPACE(c)) {
        return l->delimited ? UK_L_EMBEDDED_WHITESPACE : UK_L_WHITESPACE;
    }
    if (c < 0x20 || c == 0x7F) {
        return UK_L_CONTROL;
    }
    return c == '\\' ? UK_L_BACKSLASH : UK_L_FORBIDDEN_CHARACTER;
}

/* Fill l->ascii. */
static void uk_lenient_init(uk_lenient *l)
{
    for (Py_UCS4 c = 0; c < 0x80; c++) {
        int placed = c == '%' || c == '#' || c == '[' || c == ']';
        l->ascii[c] = (signed char)(placed ? UK_L_PLACED : uk_lenient_ascii_code(l, c));
    }
}

/* The code of the code point c > U+007F (urikit.lenient._classify): white space inside
 * delimiters is removed, a lone surrogate cannot be encoded, a member of the IRI's
 * iquery is kept (RFC 3987 §2.2). */
static int uk_lenient_classify(const uk_lenient *l, Py_UCS4 c)
{
    const uk_ext query = UK_IRI_QUERY_EXT;
    const uk_ext bidi = UK_BIDI_EXT;
    if (l->delimited && Py_UNICODE_ISSPACE(c)) {
        return UK_L_EMBEDDED_WHITESPACE;
    }
    if (c >= 0xD800 && c <= 0xDFFF) {
        return UK_L_SURROGATE;
    }
    if (l->iri && uk_in_ranges(c, query)) {
        return UK_L_KEPT;
    }
    if (uk_in_ranges(c, bidi)) {
        return UK_L_BIDI_FORMATTING;
    }
    if (Py_UNICODE_ISSPACE(c)) {
        return UK_L_WHITESPACE;
    }
    return c < 0xA0 ? UK_L_CONTROL : UK_L_NON_ASCII;
}

/* What l knows of the code point c > U+007F, learnt on first meeting it. */
static inline const uk_wide_seen *uk_lenient_wide(uk_lenient *l, Py_UCS4 c)
{
    uk_wide_seen *e = &l->seen[c & 63];
    if (e->c != c) {
        e->c = c;
        e->code = uk_lenient_classify(l, c);
        e->n = e->code >= 0 && e->code != UK_L_EMBEDDED_WHITESPACE ? uk_triplets(c, e->triplets) : 0;
    }
    return e;
}

/* The code of "%", "#", "[" or "]" at i, of which c2 and c3 follow it (0 past the end). */
static inline int uk_lenient_placed(const uk_lenient *l, Py_ssize_t i, Py_UCS4 c, Py_UCS4 c2,
                                    Py_UCS4 c3)
{
    switch (c) {
    case '%':
        return uk_ascii_is(c2, UK_HEXDIG) && uk_ascii_is(c3, UK_HEXDIG) ? UK_L_KEPT : UK_L_BARE_PERCENT;
    case '#':
        return l->first_hash >= 0 && i > l->first_hash ? UK_L_EXTRA_HASH : UK_L_KEPT;
    default: /* "[" or "]" */
        return i >= l->host_end ? UK_L_BRACKET : UK_L_KEPT;
    }
}

/* The runs of each code: the first `limit` as (code, start, end) in runs, the others
 * summed up in rest. */
typedef struct {
    PyObject *runs;
    Py_ssize_t limit;
    Py_ssize_t count[UK_L_CODES];
    Py_ssize_t rest_start[UK_L_CODES], rest_end[UK_L_CODES], rest_chars[UK_L_CODES];
} uk_lenient_runs;

/* Append (code, start, end) to the runs listed. */
static int uk_lenient_listed(uk_lenient_runs *r, int code, Py_ssize_t start, Py_ssize_t end)
{
    PyObject *run = Py_BuildValue("(inn)", code, start, end);
    if (run == NULL) {
        return -1;
    }
    int failed = PyList_Append(r->runs, run);
    Py_DECREF(run);
    return failed;
}

/* Record a run of code from start to end: listed while its code has had fewer than
 * limit, else summed up in the rest. */
static inline int uk_lenient_run(uk_lenient_runs *r, int code, Py_ssize_t start,
                                 Py_ssize_t end)
{
    if (r->count[code]++ < r->limit) {
        return uk_lenient_listed(r, code, start, end);
    }
    if (r->count[code] == r->limit + 1) {
        r->rest_start[code] = start;
    }
    r->rest_end[code] = end;
    r->rest_chars[code] += end - start;
    return 0;
}

/* The rest of lenient_encode's answer: its list of (code, start, end, count). */
static PyObject *uk_lenient_rest(const uk_lenient_runs *r)
{
    PyObject *rest = PyList_New(0);
    for (int code = 0; rest != NULL && code < UK_L_CODES; code++) {
        if (r->count[code] <= r->limit) {
            continue;
        }
        PyObject *item = Py_BuildValue("(innn)", code, r->rest_start[code], r->rest_end[code],
                                       r->rest_chars[code]);
        if (item == NULL || PyList_Append(rest, item) < 0) {
            Py_XDECREF(item);
            Py_CLEAR(rest);
            break;
        }
        Py_DECREF(item);
    }
    return rest;
}

#define UK_CHAR Py_UCS1
#define UK_FN(name) name##_ucs1
#include "lenient_steps.inc"
#undef UK_CHAR
#undef UK_FN

#define UK_CHAR Py_UCS2
#define UK_FN(name) name##_ucs2
#include "lenient_steps.inc"
#undef UK_CHAR
#undef UK_FN

#define UK_CHAR Py_UCS4
#define UK_FN(name) name##_ucs4
#include "lenient_steps.inc"
#undef UK_CHAR
#undef UK_FN

PyDoc_STRVAR(lenient_encode_doc,
             "lenient_encode(body, iri, delimited, host_end, first_hash, limit, /)\n--\n\n"
             "body with the character repairs of urikit.lenient made (RFC 3986 §2.1, §3.2.2,\n"
             "§3.5, Appendix C; RFC 3987 §4.1), with the first limit runs of each code as\n"
             "(code, start, end) and the rest of each code as (code, start, end, count).");

static PyObject *lenient_encode(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 6 || !PyUnicode_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError,
                        "lenient_encode() takes a str, two bools and three ints");
        return NULL;
    }
    uk_lenient l;
    memset(&l, 0, sizeof(l));
    l.n = PyUnicode_GET_LENGTH(args[0]);
    l.iri = PyObject_IsTrue(args[1]);
    l.delimited = PyObject_IsTrue(args[2]);
    l.host_end = PyLong_AsSsize_t(args[3]);
    l.first_hash = PyLong_AsSsize_t(args[4]);
    Py_ssize_t limit = PyLong_AsSsize_t(args[5]);
    if (l.iri < 0 || l.delimited < 0 || PyErr_Occurred()) {
        return NULL;
    }
    uk_lenient_init(&l);
    uk_lenient_runs r = {.limit = limit < 0 ? 0 : limit};
    r.runs = PyList_New(0);
    if (r.runs == NULL) {
        return NULL;
    }
    int kind = PyUnicode_KIND(args[0]);
    const void *s = PyUnicode_DATA(args[0]);
    Py_ssize_t length;
    Py_UCS4 widest = 0x7F;
    switch (kind) {
    case PyUnicode_1BYTE_KIND:
        length = uk_lenient_measure_ucs1(&l, s, &r, &widest);
        break;
    case PyUnicode_2BYTE_KIND:
        length = uk_lenient_measure_ucs2(&l, s, &r, &widest);
        break;
    default:
        length = uk_lenient_measure_ucs4(&l, s, &r, &widest);
        break;
    }
    if (length < 0) {
        Py_DECREF(r.runs);
        return length == -1 ? NULL : PyLong_FromSsize_t(-length - 2);
    }
    /* the result, written straight into the str when it is octets or as wide as body,
     * else in the width of body and then narrowed by PyUnicode_FromKindAndData */
    PyObject *repaired = PyUnicode_New(length, widest);
    if (repaired != NULL && PyUnicode_KIND(repaired) != PyUnicode_1BYTE_KIND &&
        PyUnicode_KIND(repaired) != kind) {
        Py_CLEAR(repaired);
        void *out = PyMem_Malloc((size_t)(length > 0 ? length : 1) * (size_t)kind);
        if (out == NULL) {
            Py_DECREF(r.runs);
            return PyErr_NoMemory();
        }
        uk_lenient_write_ucs4(&l, s, out, length, 0); /* the only wider body */
        repaired = PyUnicode_FromKindAndData(kind, out, length);
        PyMem_Free(out);
    } else if (repaired != NULL) {
        void *out = PyUnicode_DATA(repaired);
        int narrow = PyUnicode_KIND(repaired) == PyUnicode_1BYTE_KIND;
        switch (kind) {
        case PyUnicode_1BYTE_KIND:
            uk_lenient_write_ucs1(&l, s, out, length, 1);
            break;
        case PyUnicode_2BYTE_KIND:
            uk_lenient_write_ucs2(&l, s, out, length, narrow);
            break;
        default:
            uk_lenient_write_ucs4(&l, s, out, length, narrow);
            break;
        }
    }
    if (repaired == NULL) {
        Py_DECREF(r.runs);
        return NULL;
    }
    PyObject *rest = uk_lenient_rest(&r);
    if (rest == NULL) {
        Py_DECREF(repaired);
        Py_DECREF(r.runs);
        return NULL;
    }
    PyObject *result = PyTuple_Pack(3, repaired, r.runs, rest);
    Py_DECREF(repaired);
    Py_DECREF(r.runs);
    Py_DECREF(rest);
    return result;
}

PyMethodDef uk_lenient_methods[] = {
    {"lenient_encode", (PyCFunction)(void (*)(void))lenient_encode, METH_FASTCALL,
     lenient_encode_doc},
    {NULL, NULL, 0, NULL},
};
