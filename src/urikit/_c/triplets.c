/* The runs of percent-encoded triplets of a text, for urikit.security.triplets:
 *
 *     triplet_runs(text, start, end, /)
 *
 * returns a list of (start, end, octets), in order, for the maximal runs of
 * consecutive triplets (pct-encoded = "%" HEXDIG HEXDIG, RFC 3986 §2.1) of
 * text[start:end].  octets are the octets the triplets encode.  A HEXDIG is no "%", so
 * triplets cannot overlap and the runs read from the left are the only ones.  One
 * pass: every code unit is read once, or twice for a "%" that begins no triplet.
 *
 *     triplet_concerns(text, start, end, /)
 *
 * returns the runs as triplet_runs does, only those that hold a triplet of a control
 * (%00-%1F, %7F) or whose octets are not UTF-8 (RFC 3629 §4): the runs that the
 * checks of encoded octets report (RFC 3986 §7.2, §7.3).  The octets of a run are
 * read as UTF-8 one at a time, and stored only for a run in the answer.
 *
 *     triplet_find(text, start, end, wanted, then=None, /)
 *
 * returns the index of the first triplet of text[start:end] of one of the octets of
 * wanted (bytes), or -1, reading no further; with then (bytes), the first such
 * triplet that a triplet of one of its octets follows, or an ASCII character that is
 * one ("%25" then "2" or "%32": a "%2" once decoded).  When the halves of the octets
 * wanted are written with at most four HEXDIG characters each (".", "%" are %2E,
 * %2e, %25), 1-byte text is read 16 code units a step, and only a "%" followed by
 * two of them is tested as a triplet.
 */
#include "speedups.h"

#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <emmintrin.h>
#define UK_TRIPLET_SIMD 1
#else
#define UK_TRIPLET_SIMD 0
#endif

/* The value of each octet as a HEXDIG (RFC 3986 §2.1, either case), -1 for the others. */
static const int8_t uk_hexdig_value[256] = {
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
     0,  1,  2,  3,  4,  5,  6,  7,  8,  9, -1, -1, -1, -1, -1, -1,
    -1, 10, 11, 12, 13, 14, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, 10, 11, 12, 13, 14, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
};

/* The value of the code unit c as a HEXDIG, or -1. */
static inline int uk_hexdig_of(Py_UCS4 c)
{
    return c < 256 ? uk_hexdig_value[c] : -1;
}

/* The octet of the triplet at s[i] (i + 2 < n), or a negative number when s[i..i+2] is
 * none: -1 times 16 is negative, and so is anything or -1. */
#define UK_TRIPLET_OCTET(s, i)                                                              \
    ((s)[i] == '%' ? (uk_hexdig_of((s)[(i) + 1]) * 16 | uk_hexdig_of((s)[(i) + 2])) : -1)

/* The octets of a run as they are read: a buffer that grows, used again for each. */
typedef struct {
    char *s;
    Py_ssize_t capacity;
} uk_octets;

/* Room for one more octet at o->s[n]; 0, or -1 with an exception set. */
static int uk_octets_room(uk_octets *o, Py_ssize_t n)
{
    if (n < o->capacity) {
        return 0;
    }
    Py_ssize_t capacity = o->capacity < 64 ? 64 : 2 * o->capacity;
    char *grown = PyMem_Realloc(o->s, (size_t)capacity);
    if (grown == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    o->s = grown;
    o->capacity = capacity;
    return 0;
}

/* Append (start, end, the n octets of o) to list; 0, or -1 with an exception set. */
static int uk_triplet_run_append(PyObject *list, Py_ssize_t start, Py_ssize_t end,
                                 const uk_octets *o, Py_ssize_t n)
{
    PyObject *item = Py_BuildValue("(nny#)", start, end, o->s, n);
    if (item == NULL) {
        return -1;
    }
    int failed = PyList_Append(list, item);
    Py_DECREF(item);
    return failed;
}

/* The first "%" of s[i..end-3], or -1, for one width of code unit T: in 1-byte text
 * found by memchr, unless s[i] is one (a run of "%" takes no call a character). */
#define UK_NEXT_PERCENT_OF(name, T)                                                         \
    static inline Py_ssize_t name(const T *s, Py_ssize_t i, Py_ssize_t end)                 \
    {                                                                                       \
        if (sizeof(T) == 1 && end - i >= 3 && s[i] != '%') {                                \
            const T *p = memchr(s + i, '%', (size_t)(end - i - 2));                         \
            return p == NULL ? -1 : p - s;                                                  \
        }                                                                                   \
        while (end - i >= 3 && s[i] != '%') {                                               \
            i++;                                                                            \
        }                                                                                   \
        return end - i >= 3 ? i : -1;                                                       \
    }

UK_NEXT_PERCENT_OF(uk_next_percent_ucs1, Py_UCS1)
UK_NEXT_PERCENT_OF(uk_next_percent_ucs2, Py_UCS2)
UK_NEXT_PERCENT_OF(uk_next_percent_ucs4, Py_UCS4)

/* The runs of s[start..end-1] into list, for one width of code unit T, each found from
 * its "%" by next; 0, or -1 with an exception set.  The octets of a run are written as
 * its triplets are read. */
#define UK_TRIPLET_RUNS_OF(name, T, next)                                                   \
    static int name(const T *s, Py_ssize_t start, Py_ssize_t end, PyObject *list,          \
                    uk_octets *o)                                                           \
    {                                                                                       \
        Py_ssize_t i = start;                                                               \
        while ((i = next(s, i, end)) >= 0) {                                                \
            Py_ssize_t j = i, n = 0;                                                        \
            int octet;                                                                      \
            while (end - j >= 3 && (octet = UK_TRIPLET_OCTET(s, j)) >= 0) {                 \
                if (n == o->capacity && uk_octets_room(o, n) < 0) {                         \
                    return -1;                                                              \
                }                                                                           \
                o->s[n++] = (char)octet;                                                    \
                j += 3;                                                                     \
            }                                                                               \
            if (j == i) { /* a "%" that begins no triplet */                                \
                i++;                                                                        \
                continue;                                                                   \
            }                                                                               \
            if (uk_triplet_run_append(list, i, j, o, n) < 0) {                              \
                return -1;                                                                  \
            }                                                                               \
            i = j;                                                                          \
        }                                                                                   \
        return 0;                                                                           \
    }

/* A reading of octets as UTF-8 (RFC 3629 §4: UTF8-octets, no overlong form, no
 * surrogate, nothing above U+10FFFF), an octet at a time: need, the continuation
 * octets still to come, and low..high, the range of the next one; bad once an octet
 * breaks the rules.  The octets read are UTF-8 when neither bad nor need is left. */
typedef struct {
    int need, bad;
    uint8_t low, high;
} uk_utf8_reading;

static inline void uk_utf8_read(uk_utf8_reading *u, uint8_t c)
{
    if (u->need > 0) {
        u->bad |= c < u->low || c > u->high;
        u->need--;
        u->low = 0x80;
        u->high = 0xBF;
    } else if (c < 0x80) {
        return;
    } else if (c >= 0xC2 && c <= 0xDF) {
        u->need = 1;
    } else if (c >= 0xE0 && c <= 0xEF) {
        u->need = 2;
        u->low = c == 0xE0 ? 0xA0 : 0x80;  /* %xE0 %xA0-BF UTF8-tail */
        u->high = c == 0xED ? 0x9F : 0xBF; /* %xED %x80-9F UTF8-tail */
    } else if (c >= 0xF0 && c <= 0xF4) {
        u->need = 3;
        u->low = c == 0xF0 ? 0x90 : 0x80;  /* %xF0 %x90-BF 2( UTF8-tail ) */
        u->high = c == 0xF4 ? 0x8F : 0xBF; /* %xF4 %x80-8F 2( UTF8-tail ) */
    } else {
        u->bad = 1;
    }
}

/* The runs of s[start..end-1] that hold a triplet of a control or whose octets are not
 * UTF-8 into list, for one width of code unit T (runs, the function above for that
 * width, reads one again for its octets); 0, or -1 with an exception set.  The octets
 * of the other runs are only read. */
#define UK_TRIPLET_CONCERNS_OF(name, T, next, runs)                                         \
    static int name(const T *s, Py_ssize_t start, Py_ssize_t end, PyObject *list,          \
                    uk_octets *o)                                                           \
    {                                                                                       \
        Py_ssize_t i = start;                                                               \
        while ((i = next(s, i, end)) >= 0) {                                                \
            Py_ssize_t j = i;                                                               \
            int octet, control = 0;                                                         \
            uk_utf8_reading u = {0, 0, 0x80, 0xBF};                                         \
            while (end - j >= 3 && (octet = UK_TRIPLET_OCTET(s, j)) >= 0) {                 \
                control |= octet < 0x20 || octet == 0x7F;                                   \
                uk_utf8_read(&u, (uint8_t)octet);                                           \
                j += 3;                                                                     \
            }                                                                               \
            if (j == i) { /* a "%" that begins no triplet */                                \
                i++;                                                                        \
                continue;                                                                   \
            }                                                                               \
            if ((control || u.bad || u.need > 0) && runs(s, i, j, list, o) < 0) {           \
                return -1;                                                                  \
            }                                                                               \
            i = j;                                                                          \
        }                                                                                   \
        return 0;                                                                           \
    }

/* Is s[q] (q <= end), with then not NULL, a triplet of an octet in then or an ASCII
 * character that is one, for one width of code unit T?  (Always, with then NULL.) */
#define UK_TRIPLET_THEN_OF(name, T)                                                         \
    static inline int name(const T *s, Py_ssize_t q, Py_ssize_t end, const uint8_t *then)  \
    {                                                                                       \
        if (then == NULL) {                                                                 \
            return 1;                                                                       \
        }                                                                                   \
        if (q >= end) {                                                                     \
            return 0;                                                                       \
        }                                                                                   \
        int octet = end - q >= 3 ? UK_TRIPLET_OCTET(s, q) : -1;                             \
        return octet >= 0 ? then[octet] : s[q] < 0x80 && then[s[q]];                        \
    }

UK_TRIPLET_THEN_OF(uk_triplet_then_ucs1, Py_UCS1)
UK_TRIPLET_THEN_OF(uk_triplet_then_ucs2, Py_UCS2)
UK_TRIPLET_THEN_OF(uk_triplet_then_ucs4, Py_UCS4)

/* The first triplet of s[start..end-1] of an octet in wanted that then follows (see
 * above), for one width of code unit T (next as for the runs): its index, or -1.
 * Triplets are read as the runs are, from the left. */
#define UK_TRIPLET_FIND_OF(name, T, next, follows)                                          \
    static Py_ssize_t name(const T *s, Py_ssize_t start, Py_ssize_t end,                   \
                           const uint8_t *wanted, const uint8_t *then)                      \
    {                                                                                       \
        Py_ssize_t i = start;                                                               \
        while ((i = next(s, i, end)) >= 0) {                                                \
            int octet = UK_TRIPLET_OCTET(s, i);                                             \
            if (octet >= 0 && wanted[octet] && follows(s, i + 3, end, then)) {              \
                return i;                                                                   \
            }                                                                               \
            i += octet >= 0 ? 3 : 1;                                                        \
        }                                                                                   \
        return -1;                                                                          \
    }

UK_TRIPLET_FIND_OF(uk_triplet_find_ucs1, Py_UCS1, uk_next_percent_ucs1, uk_triplet_then_ucs1)
UK_TRIPLET_FIND_OF(uk_triplet_find_ucs2, Py_UCS2, uk_next_percent_ucs2, uk_triplet_then_ucs2)
UK_TRIPLET_FIND_OF(uk_triplet_find_ucs4, Py_UCS4, uk_next_percent_ucs4, uk_triplet_then_ucs4)

/* The HEXDIG characters, in both cases, of the high (shift 4) or low (shift 0) half of
 * the octets in wanted into chars, up to four, the last repeated to fill them: their
 * number, or 5 for more. */
static int uk_triplet_digits(const uint8_t wanted[256], int shift, uint8_t chars[4])
{
    static const char upper[] = "0123456789ABCDEF", lower[] = "0123456789abcdef";
    int seen[16] = {0}, count = 0;
    for (int octet = 0; octet < 256; octet++) {
        seen[(octet >> shift) & 15] |= wanted[octet];
    }
    for (int half = 0; half < 16; half++) {
        for (int c = 0; seen[half] && c < (half < 10 ? 1 : 2); c++) {
            if (count == 4) {
                return 5;
            }
            chars[count++] = (uint8_t)(c == 0 ? upper[half] : lower[half]);
        }
    }
    for (int k = count; count > 0 && k < 4; k++) {
        chars[k] = chars[count - 1];
    }
    return count;
}

#if UK_TRIPLET_SIMD
/* The octets of x equal to one of the first n (1 to 4) of chars (each in every octet),
 * as a mask. */
static inline __m128i uk_triplet_any_of(__m128i x, const __m128i chars[4], int n)
{
    __m128i found = _mm_cmpeq_epi8(x, chars[0]);
    if (n > 1) {
        found = _mm_or_si128(found, _mm_cmpeq_epi8(x, chars[1]));
    }
    if (n > 2) {
        found = _mm_or_si128(found, _mm_or_si128(_mm_cmpeq_epi8(x, chars[2]),
                                                 _mm_cmpeq_epi8(x, chars[3])));
    }
    return found;
}
#endif

/* uk_triplet_find_ucs1 where every wanted triplet is "%", one of high and one of low
 * (the HEXDIG of its halves): 16 code units a step, compared with "%", and the 16
 * after the first and after the second with high and low; each "%" so followed is
 * tested as a triplet, in order (a "%" begins a triplet or none, whatever comes
 * before it). */
static Py_ssize_t uk_triplet_find_by_halves(const Py_UCS1 *s, Py_ssize_t start,
                                            Py_ssize_t end, const uint8_t *wanted,
                                            const uint8_t *then, const uint8_t high[4],
                                            int n_high, const uint8_t low[4], int n_low)
{
    Py_ssize_t i = start;
#if UK_TRIPLET_SIMD
    const __m128i percent = _mm_set1_epi8('%');
    __m128i highs[4], lows[4];
    for (int k = 0; k < 4; k++) {
        highs[k] = _mm_set1_epi8((char)high[k]);
        lows[k] = _mm_set1_epi8((char)low[k]);
    }
    while (end - i >= 18) { /* the triplets at i..i+15 end before end */
        __m128i at = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(s + i)), percent);
        __m128i led =
            uk_triplet_any_of(_mm_loadu_si128((const __m128i *)(s + i + 1)), highs, n_high);
        unsigned found = (unsigned)_mm_movemask_epi8(_mm_and_si128(at, led));
        if (found != 0) { /* the low halves, only where a "%" and a high half are */
            __m128i ends =
                uk_triplet_any_of(_mm_loadu_si128((const __m128i *)(s + i + 2)), lows, n_low);
            found &= (unsigned)_mm_movemask_epi8(ends);
        }
        while (found != 0) {
            Py_ssize_t p = i + __builtin_ctz(found);
            int octet = UK_TRIPLET_OCTET(s, p);
            if (octet >= 0 && wanted[octet] && uk_triplet_then_ucs1(s, p + 3, end, then)) {
                return p;
            }
            found &= found - 1;
        }
        i += 16;
    }
#else
    (void)high;
    (void)n_high;
    (void)low;
    (void)n_low;
#endif
    return uk_triplet_find_ucs1(s, i, end, wanted, then);
}

UK_TRIPLET_RUNS_OF(uk_triplet_runs_ucs1, Py_UCS1, uk_next_percent_ucs1)
UK_TRIPLET_RUNS_OF(uk_triplet_runs_ucs2, Py_UCS2, uk_next_percent_ucs2)
UK_TRIPLET_RUNS_OF(uk_triplet_runs_ucs4, Py_UCS4, uk_next_percent_ucs4)

UK_TRIPLET_CONCERNS_OF(uk_triplet_concerns_ucs1, Py_UCS1, uk_next_percent_ucs1,
                       uk_triplet_runs_ucs1)
UK_TRIPLET_CONCERNS_OF(uk_triplet_concerns_ucs2, Py_UCS2, uk_next_percent_ucs2,
                       uk_triplet_runs_ucs2)
UK_TRIPLET_CONCERNS_OF(uk_triplet_concerns_ucs4, Py_UCS4, uk_next_percent_ucs4,
                       uk_triplet_runs_ucs4)

PyDoc_STRVAR(triplet_runs_doc,
             "triplet_runs(text, start, end, /)\n--\n\n"
             "The maximal runs of percent-encoded triplets of text[start:end] (RFC 3986\n"
             "§2.1), as a list of (start, end, octets) in order.  start and end are\n"
             "clamped to the text as in slicing.");

PyDoc_STRVAR(triplet_concerns_doc,
             "triplet_concerns(text, start, end, /)\n--\n\n"
             "The maximal runs of percent-encoded triplets of text[start:end] (RFC 3986\n"
             "§2.1) that hold a triplet of a control (%00-%1F, %7F) or whose octets are\n"
             "not UTF-8 (RFC 3629 §4), as a list of (start, end, octets) in order.\n"
             "start and end are clamped to the text as in slicing.");

PyDoc_STRVAR(triplet_find_doc,
             "triplet_find(text, start, end, wanted, then=None, /)\n--\n\n"
             "The index of the first percent-encoded triplet of text[start:end] (RFC 3986\n"
             "§2.1) of one of the octets of wanted (bytes), or -1; with then (bytes),\n"
             "only such a triplet that a triplet of one of its octets follows, or an\n"
             "ASCII character that is one.  start and end are clamped to the text as in\n"
             "slicing.");

/* The octets of bytes (a bytes object) as a table: 1 for each of them, 0 for others. */
static void uk_octet_table(PyObject *bytes, uint8_t table[256])
{
    memset(table, 0, 256);
    const uint8_t *octets = (const uint8_t *)PyBytes_AS_STRING(bytes);
    for (Py_ssize_t k = 0; k < PyBytes_GET_SIZE(bytes); k++) {
        table[octets[k]] = 1;
    }
}

/* The arguments of triplet_runs, triplet_concerns and triplet_find: the text, start
 * and end clamped to it, and when wanted is not NULL the octets wanted, a fourth; 0,
 * or -1 with an exception set. */
static int uk_triplet_args(const char *name, PyObject *const *args, Py_ssize_t nargs,
                           Py_ssize_t *start, Py_ssize_t *end, uint8_t *wanted)
{
    if (nargs != (wanted == NULL ? 3 : 4) || !PyUnicode_Check(args[0]) ||
        !PyLong_Check(args[1]) || !PyLong_Check(args[2]) ||
        (wanted != NULL && !PyBytes_Check(args[3]))) {
        PyErr_Format(PyExc_TypeError, "%s() takes %s", name,
                     wanted == NULL ? "a str and two ints" : "a str, two ints and bytes");
        return -1;
    }
    Py_ssize_t n = PyUnicode_GET_LENGTH(args[0]);
    *start = PyLong_AsSsize_t(args[1]);
    *end = PyLong_AsSsize_t(args[2]);
    if ((*start == -1 || *end == -1) && PyErr_Occurred()) {
        return -1;
    }
    *start = *start < 0 ? (*start + n < 0 ? 0 : *start + n) : (*start > n ? n : *start);
    *end = *end < 0 ? (*end + n < 0 ? 0 : *end + n) : (*end > n ? n : *end);
    if (wanted != NULL) {
        uk_octet_table(args[3], wanted);
    }
    return 0;
}

/* The runs of text[start:end] into a new list: all of them, or with concerns those of
 * a control or not UTF-8; NULL with an exception set. */
static PyObject *uk_triplet_list(PyObject *text, Py_ssize_t start, Py_ssize_t end, int concerns)
{
    PyObject *list = PyList_New(0);
    if (list == NULL) {
        return NULL;
    }
    int failed = 0;
    const void *data = PyUnicode_DATA(text);
    uk_octets octets = {NULL, 0};
    if (end > start) {
        switch (PyUnicode_KIND(text)) {
        case PyUnicode_1BYTE_KIND:
            failed = concerns ? uk_triplet_concerns_ucs1(data, start, end, list, &octets)
                              : uk_triplet_runs_ucs1(data, start, end, list, &octets);
            break;
        case PyUnicode_2BYTE_KIND:
            failed = concerns ? uk_triplet_concerns_ucs2(data, start, end, list, &octets)
                              : uk_triplet_runs_ucs2(data, start, end, list, &octets);
            break;
        default:
            failed = concerns ? uk_triplet_concerns_ucs4(data, start, end, list, &octets)
                              : uk_triplet_runs_ucs4(data, start, end, list, &octets);
            break;
        }
    }
    PyMem_Free(octets.s);
    if (failed < 0) {
        Py_DECREF(list);
        return NULL;
    }
    return list;
}

/* triplet_runs, or with concerns triplet_concerns (named name), on its arguments. */
static PyObject *uk_triplet_call(const char *name, PyObject *const *args, Py_ssize_t nargs,
                                 int concerns)
{
    Py_ssize_t start, end;
    if (uk_triplet_args(name, args, nargs, &start, &end, NULL) < 0) {
        return NULL;
    }
    return uk_triplet_list(args[0], start, end, concerns);
}

static PyObject *triplet_runs(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    return uk_triplet_call("triplet_runs", args, nargs, 0);
}

static PyObject *triplet_concerns(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    return uk_triplet_call("triplet_concerns", args, nargs, 1);
}

static PyObject *triplet_find(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    Py_ssize_t start, end, found = -1;
    uint8_t wanted[256], then_table[256], high[4], low[4];
    const uint8_t *then = NULL; /* what must follow the triplet, when not NULL */
    if (nargs == 5 && args[4] != Py_None) {
        if (!PyBytes_Check(args[4])) {
            PyErr_SetString(PyExc_TypeError, "triplet_find() takes then as bytes or None");
            return NULL;
        }
        uk_octet_table(args[4], then_table);
        then = then_table;
    }
    if (uk_triplet_args("triplet_find", args, nargs == 5 ? 4 : nargs, &start, &end, wanted) < 0) {
        return NULL;
    }
    const void *data = PyUnicode_DATA(args[0]);
    if (end > start) {
        switch (PyUnicode_KIND(args[0])) {
        case PyUnicode_1BYTE_KIND: {
            int highs = uk_triplet_digits(wanted, 4, high);
            int lows = uk_triplet_digits(wanted, 0, low);
            if (highs == 0) { /* no octet wanted */
                break;
            }
            found = highs <= 4 && lows <= 4
                        ? uk_triplet_find_by_halves(data, start, end, wanted, then, high, highs,
                                                    low, lows)
                        : uk_triplet_find_ucs1(data, start, end, wanted, then);
            break;
        }
        case PyUnicode_2BYTE_KIND:
            found = uk_triplet_find_ucs2(data, start, end, wanted, then);
            break;
        default:
            found = uk_triplet_find_ucs4(data, start, end, wanted, then);
            break;
        }
    }
    return PyLong_FromSsize_t(found);
}

PyMethodDef uk_triplet_methods[] = {
    {"triplet_runs", (PyCFunction)(void (*)(void))triplet_runs, METH_FASTCALL,
     triplet_runs_doc},
    {"triplet_concerns", (PyCFunction)(void (*)(void))triplet_concerns, METH_FASTCALL,
     triplet_concerns_doc},
    {"triplet_find", (PyCFunction)(void (*)(void))triplet_find, METH_FASTCALL,
     triplet_find_doc},
    {NULL, NULL, 0, NULL},
};
