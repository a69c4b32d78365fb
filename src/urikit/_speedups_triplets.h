/* The runs of percent-encoded triplets of a text, for urikit.security.triplets.
 *
 * Included once by _speedups.c, after _speedups_ops.h:
 *
 *     triplet_runs(text, start, end, wanted, /)
 *
 * returns a list of (start, end, octets), in order, for the maximal runs of
 * consecutive triplets (pct-encoded = "%" HEXDIG HEXDIG, RFC 3986 §2.1) of
 * text[start:end]; with wanted (bytes), only the runs that hold a triplet of one of
 * its octets.  octets are the octets the triplets encode.  A HEXDIG is no "%", so triplets cannot overlap and
 * the runs read from the left are the only ones.  One pass: every code unit is
 * read once, or twice for a "%" that begins no triplet.
 *
 *     triplet_find(text, start, end, wanted, /)
 *
 * returns the index of the first triplet of text[start:end] of one of the octets of
 * wanted (bytes), or -1, reading no further.
 */

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
    static int name(const T *s, Py_ssize_t start, Py_ssize_t end, const uint8_t *wanted,   \
                    PyObject *list, uk_octets *o)                                           \
    {                                                                                       \
        Py_ssize_t i = start;                                                               \
        while ((i = next(s, i, end)) >= 0) {                                                \
            Py_ssize_t j = i, n = 0;                                                        \
            int octet, held = 0; /* whether the run holds a wanted octet */                 \
            while (end - j >= 3 && (octet = UK_TRIPLET_OCTET(s, j)) >= 0) {                 \
                if (uk_octets_room(o, n) < 0) {                                             \
                    return -1;                                                              \
                }                                                                           \
                o->s[n++] = (char)octet;                                                    \
                held |= wanted[octet];                                                      \
                j += 3;                                                                     \
            }                                                                               \
            if (j == i) { /* a "%" that begins no triplet */                                \
                i++;                                                                        \
                continue;                                                                   \
            }                                                                               \
            if (held && uk_triplet_run_append(list, i, j, o, n) < 0) {                      \
                return -1;                                                                  \
            }                                                                               \
            i = j;                                                                          \
        }                                                                                   \
        return 0;                                                                           \
    }

/* The first triplet of s[start..end-1] of an octet in wanted, for one width of code
 * unit T (next as for the runs): its index, or -1.  Triplets are read as the runs
 * are, from the left. */
#define UK_TRIPLET_FIND_OF(name, T, next)                                                   \
    static Py_ssize_t name(const T *s, Py_ssize_t start, Py_ssize_t end,                   \
                           const uint8_t *wanted)                                           \
    {                                                                                       \
        Py_ssize_t i = start;                                                               \
        while ((i = next(s, i, end)) >= 0) {                                                \
            int octet = UK_TRIPLET_OCTET(s, i);                                             \
            if (octet >= 0 && wanted[octet]) {                                              \
                return i;                                                                   \
            }                                                                               \
            i += octet >= 0 ? 3 : 1;                                                        \
        }                                                                                   \
        return -1;                                                                          \
    }

UK_TRIPLET_FIND_OF(uk_triplet_find_ucs1, Py_UCS1, uk_next_percent_ucs1)
UK_TRIPLET_FIND_OF(uk_triplet_find_ucs2, Py_UCS2, uk_next_percent_ucs2)
UK_TRIPLET_FIND_OF(uk_triplet_find_ucs4, Py_UCS4, uk_next_percent_ucs4)

UK_TRIPLET_RUNS_OF(uk_triplet_runs_ucs1, Py_UCS1, uk_next_percent_ucs1)
UK_TRIPLET_RUNS_OF(uk_triplet_runs_ucs2, Py_UCS2, uk_next_percent_ucs2)
UK_TRIPLET_RUNS_OF(uk_triplet_runs_ucs4, Py_UCS4, uk_next_percent_ucs4)

PyDoc_STRVAR(triplet_runs_doc,
             "triplet_runs(text, start, end, wanted, /)\n--\n\n"
             "The maximal runs of percent-encoded triplets of text[start:end] (RFC 3986\n"
             "§2.1), as a list of (start, end, octets) in order; with wanted (bytes),\n"
             "only the runs that hold a triplet of one of its octets.  start and end\n"
             "are clamped to the text as in slicing.");

PyDoc_STRVAR(triplet_find_doc,
             "triplet_find(text, start, end, wanted, /)\n--\n\n"
             "The index of the first percent-encoded triplet of text[start:end] (RFC 3986\n"
             "§2.1) of one of the octets of wanted (bytes), or -1.  start and end are\n"
             "clamped to the text as in slicing.");

/* The arguments of triplet_runs and triplet_find: the text, start and end clamped
 * to it, and the octets wanted (all with None); 0, or -1 with an exception set. */
static int uk_triplet_args(const char *name, PyObject *const *args, Py_ssize_t nargs,
                           int none_ok, Py_ssize_t *start, Py_ssize_t *end, uint8_t wanted[256])
{
    if (nargs != 4 || !PyUnicode_Check(args[0]) || !PyLong_Check(args[1]) ||
        !PyLong_Check(args[2]) || !(PyBytes_Check(args[3]) || (none_ok && args[3] == Py_None))) {
        PyErr_Format(PyExc_TypeError, "%s() takes a str, two ints and %s", name,
                     none_ok ? "bytes or None" : "bytes");
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
    memset(wanted, args[3] == Py_None, 256);
    if (args[3] != Py_None) {
        const uint8_t *octets = (const uint8_t *)PyBytes_AS_STRING(args[3]);
        for (Py_ssize_t k = 0; k < PyBytes_GET_SIZE(args[3]); k++) {
            wanted[octets[k]] = 1;
        }
    }
    return 0;
}

static PyObject *triplet_runs(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    Py_ssize_t start, end;
    uint8_t wanted[256]; /* whether a run with the octet is in the answer */
    if (uk_triplet_args("triplet_runs", args, nargs, 1, &start, &end, wanted) < 0) {
        return NULL;
    }
    PyObject *text = args[0], *list = PyList_New(0);
    if (list == NULL) {
        return NULL;
    }
    int failed = 0;
    const void *data = PyUnicode_DATA(text);
    uk_octets octets = {NULL, 0};
    if (end > start) {
        switch (PyUnicode_KIND(text)) {
        case PyUnicode_1BYTE_KIND:
            failed = uk_triplet_runs_ucs1(data, start, end, wanted, list, &octets);
            break;
        case PyUnicode_2BYTE_KIND:
            failed = uk_triplet_runs_ucs2(data, start, end, wanted, list, &octets);
            break;
        default:
            failed = uk_triplet_runs_ucs4(data, start, end, wanted, list, &octets);
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

static PyObject *triplet_find(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    Py_ssize_t start, end, found = -1;
    uint8_t wanted[256];
    if (uk_triplet_args("triplet_find", args, nargs, 0, &start, &end, wanted) < 0) {
        return NULL;
    }
    const void *data = PyUnicode_DATA(args[0]);
    if (end > start) {
        switch (PyUnicode_KIND(args[0])) {
        case PyUnicode_1BYTE_KIND:
            found = uk_triplet_find_ucs1(data, start, end, wanted);
            break;
        case PyUnicode_2BYTE_KIND:
            found = uk_triplet_find_ucs2(data, start, end, wanted);
            break;
        default:
            found = uk_triplet_find_ucs4(data, start, end, wanted);
            break;
        }
    }
    return PyLong_FromSsize_t(found);
}

#define UK_TRIPLET_METHODS                                                                  \
    {"triplet_runs", (PyCFunction)(void (*)(void))triplet_runs, METH_FASTCALL,              \
     triplet_runs_doc},                                                                     \
    {"triplet_find", (PyCFunction)(void (*)(void))triplet_find, METH_FASTCALL,              \
     triplet_find_doc}
