/* Which of some characters a text holds, for the invisible-character check of
 * urikit.security.audit:
 *
 *     chars_in(text, chars, /)
 *
 * returns the characters of chars that text holds, in the order of chars: one pass
 * over text, each code unit looked up in a bitmap of the characters of the Basic
 * Multilingual Plane among chars (8 KiB), and one above it compared with those of
 * chars above it.  A search of the text for each character, which str's "in" makes,
 * reads all of it once for every character that it does not hold.
 */
#include "speedups.h"

#include <stdint.h>


/* Mark in seen the characters of s[0..n-1] that are in the bitmap of chars; astral
 * holds those of chars above U+FFFF (n_astral of them). */
#define UK_CHARS_MARK_OF(name, T)                                                           \
    static void name(const T *s, Py_ssize_t n, const uint8_t *bitmap, uint8_t *seen,       \
                     const Py_UCS4 *astral, Py_ssize_t n_astral, uint8_t *astral_seen)     \
    {                                                                                       \
        for (Py_ssize_t i = 0; i < n; i++) {                                                \
            Py_UCS4 c = s[i];                                                               \
            if (i > 0 && c == s[i - 1]) { /* a run of one character: marked once */        \
                continue;                                                                   \
            }                                                                               \
            if (c <= 0xFFFF) {                                                              \
                if (bitmap[c >> 3] & (1u << (c & 7))) {                                     \
                    seen[c >> 3] |= (uint8_t)(1u << (c & 7));                               \
                }                                                                           \
                continue;                                                                   \
            }                                                                               \
            for (Py_ssize_t k = 0; k < n_astral; k++) {                                     \
                astral_seen[k] |= astral[k] == c;                                           \
            }                                                                               \
        }                                                                                   \
    }

UK_CHARS_MARK_OF(uk_chars_mark_ucs1, Py_UCS1)
UK_CHARS_MARK_OF(uk_chars_mark_ucs2, Py_UCS2)
UK_CHARS_MARK_OF(uk_chars_mark_ucs4, Py_UCS4)

/* At most this many characters of chars above U+FFFF. */
#define UK_CHARS_ASTRAL 64

PyDoc_STRVAR(chars_in_doc,
             "chars_in(text, chars, /)\n--\n\n"
             "The characters of chars that text holds, in the order of chars, found in\n"
             "one pass over text (chars may hold at most 64 characters above U+FFFF).");

static PyObject *chars_in(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 2 || !PyUnicode_Check(args[0]) || !PyUnicode_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "chars_in() takes two str");
        return NULL;
    }
    PyObject *text = args[0], *chars = args[1];
    Py_ssize_t n_chars = PyUnicode_GET_LENGTH(chars);
    uint8_t *maps = PyMem_Calloc(2, 8192); /* the bitmap of chars, and of those seen */
    if (maps == NULL) {
        return PyErr_NoMemory();
    }
    uint8_t *bitmap = maps, *seen = maps + 8192;
    Py_UCS4 astral[UK_CHARS_ASTRAL];
    uint8_t astral_seen[UK_CHARS_ASTRAL] = {0};
    Py_ssize_t n_astral = 0;
    for (Py_ssize_t k = 0; k < n_chars; k++) {
        Py_UCS4 c = PyUnicode_READ_CHAR(chars, k);
        if (c <= 0xFFFF) {
            bitmap[c >> 3] |= (uint8_t)(1u << (c & 7));
        } else if (n_astral < UK_CHARS_ASTRAL) {
            astral[n_astral++] = c;
        } else {
            PyMem_Free(maps);
            PyErr_SetString(PyExc_ValueError, "chars_in() takes at most 64 astral chars");
            return NULL;
        }
    }
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    switch (PyUnicode_KIND(text)) {
    case PyUnicode_1BYTE_KIND:
        uk_chars_mark_ucs1(data, n, bitmap, seen, astral, 0, astral_seen);
        break;
    case PyUnicode_2BYTE_KIND:
        uk_chars_mark_ucs2(data, n, bitmap, seen, astral, 0, astral_seen);
        break;
    default:
        uk_chars_mark_ucs4(data, n, bitmap, seen, astral, n_astral, astral_seen);
        break;
    }
    Py_UCS4 *found = PyMem_Malloc((size_t)(n_chars > 0 ? n_chars : 1) * sizeof(Py_UCS4));
    if (found == NULL) {
        PyMem_Free(maps);
        return PyErr_NoMemory();
    }
    Py_ssize_t count = 0, astral_index = 0;
    for (Py_ssize_t k = 0; k < n_chars; k++) {
        Py_UCS4 c = PyUnicode_READ_CHAR(chars, k);
        int held = c <= 0xFFFF ? (seen[c >> 3] >> (c & 7)) & 1 : astral_seen[astral_index++];
        if (held) {
            found[count++] = c;
        }
    }
    PyObject *answer = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, found, count);
    PyMem_Free(found);
    PyMem_Free(maps);
    return answer;
}

PyMethodDef uk_chars_methods[] = {
    {"chars_in", (PyCFunction)(void (*)(void))chars_in, METH_FASTCALL, chars_in_doc},
    {NULL, NULL, 0, NULL},
};
