/* The Python functions over the RFC operations (ops.h, percent.h): resolution,
 * normalization and percent-encoding.
 *
 * urikit._seam offers them in place of the readable functions, which answer where a
 * function returns None:
 *
 *     resolve(cls, base, ref, strict, /)   the target of ref against base (RFC 3986
 *                                          §5.2.2), an instance of cls built from the
 *                                          spans of the operation (no second scan); both
 *                                          texts read by cls._iri's grammar; None when
 *                                          either is not a reference or base has no
 *                                          scheme.  cls None: the target's text.
 *     normalize(cls, text, schemes, /)     the normal form of text (§6.2.2, and §6.2.3
 *                                          when schemes is a dict, not None), an instance
 *                                          of cls; None when text is not a reference or
 *                                          only the readable path can answer.  cls None:
 *                                          the text, read as an IRI (the text of a value
 *                                          already read), and text itself when normal.
 *                                          schemes maps each lower-case scheme name to
 *                                          its code (ops.h, contracts.h).
 *     normalize_in(registry, codes, codes_of, cls, text, level, given, /)
 *                                          normalize(cls, text, ...) at level "scheme"
 *                                          (with codes when given is registry, else
 *                                          codes_of(given)) or "syntax"; None at any
 *                                          other level
 *     remove_dot_segments(path, /)         §5.2.4
 *     percent_decode(text, /)              the triplets decoded, the octets read as
 *                                          UTF-8 (§2.1, §2.5); None when a "%" starts no
 *                                          triplet, the octets are not UTF-8 or text holds
 *                                          a lone surrogate
 *     percent_encode(text, keep, encoded, /)
 *                                          every character outside keep (128 octets, the
 *                                          ASCII characters kept) as triplets of its UTF-8
 *                                          octets; with encoded, triplets are kept (hex in
 *                                          upper case); None for a lone surrogate
 */
#include "speedups.h"

#include <string.h>

#include "ops.h"
#include "percent.h"
#include "text.h"


/* The class argument: None, or a subclass of Reference; -1 with an error otherwise, 1
 * for a class (its grammar in *iri), 0 for None. */
static int uk_class_argument(uk_state *st, PyObject *cls, const char *name, int *iri)
{
    if (cls == Py_None) {
        return 0;
    }
    if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, st->reference_type)) {
        PyErr_Format(PyExc_TypeError, "%s() argument 1 must be a Reference class or None", name);
        return -1;
    }
    *iri = uk_class_iri((PyTypeObject *)cls, st);
    return *iri < 0 ? -1 : 1;
}

/* The text and spans as cls, or as the str itself when cls is None; steals text. */
static PyObject *uk_result(PyObject *cls, PyObject *text, const ptrdiff_t spans[UK_SPANS])
{
    if (text == NULL || cls == Py_None) {
        return text;
    }
    PyObject *result = uk_instance((PyTypeObject *)cls, text, spans);
    Py_DECREF(text);
    return result;
}

/* A buffer of n code units of size unit: on the stack when small, else PyMem. */
typedef struct {
    void *data;
    int heap;
    uint32_t stack[256];
} uk_buffer;

static void *uk_buffer_get(uk_buffer *buffer, ptrdiff_t n, int unit)
{
    if ((size_t)n * (size_t)unit <= sizeof buffer->stack) {
        buffer->heap = 0;
        buffer->data = buffer->stack;
    } else {
        buffer->heap = 1;
        buffer->data = PyMem_Malloc((size_t)n * (size_t)unit);
        if (buffer->data == NULL) {
            PyErr_NoMemory();
        }
    }
    return buffer->data;
}

static void uk_buffer_free(uk_buffer *buffer)
{
    if (buffer->heap) {
        PyMem_Free(buffer->data);
    }
}

static int uk_check_str(PyObject *value, const char *name, int position)
{
    if (!PyUnicode_Check(value)) {
        PyErr_Format(PyExc_TypeError, "%s() argument %d must be str, not %.200s", name, position,
                     Py_TYPE(value)->tp_name);
        return -1;
    }
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(value) < 0) {
        return -1;
    }
#endif
    return 0;
}

static int uk_check_nargs(const char *name, Py_ssize_t nargs, Py_ssize_t expected)
{
    if (nargs != expected) {
        PyErr_Format(PyExc_TypeError, "%s() takes exactly %zd arguments (%zd given)", name,
                     expected, nargs);
        return -1;
    }
    return 0;
}

/* --- resolution (RFC 3986 §5.2) ------------------------------------------------------ */

PyDoc_STRVAR(ops_resolve_doc,
             "resolve(cls, base, ref, strict, /)\n--\n\n"
             "The target of ref against the absolute base (RFC 3986 §5.2.2), an instance of\n"
             "cls (a Reference class, whose _iri selects the grammar), or its text when cls\n"
             "is None (URI grammar); None when base or ref is not a reference or base has\n"
             "no scheme.  strict=False ignores a scheme of ref equal to base's.");

static PyObject *ops_resolve(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    uk_state *st = PyModule_GetState(module);
    if (uk_check_nargs("resolve", nargs, 4) < 0) {
        return NULL;
    }
    PyObject *cls = args[0], *base = args[1], *ref = args[2];
    int iri = 0;
    if (uk_class_argument(st, cls, "resolve", &iri) < 0 || uk_check_str(base, "resolve", 2) < 0 ||
        uk_check_str(ref, "resolve", 3) < 0) {
        return NULL;
    }
    int strict = PyObject_IsTrue(args[3]);
    if (strict < 0) {
        return NULL;
    }
    ptrdiff_t bs[UK_SPANS], rs[UK_SPANS], ts[UK_SPANS];
    int found = uk_scan_text(base, iri, bs);
    if (found <= 0 || bs[UK_G_SCHEME] < 0) {
        return found < 0 ? NULL : Py_NewRef(Py_None);
    }
    found = uk_scan_text(ref, iri, rs);
    if (found <= 0) {
        return found < 0 ? NULL : Py_NewRef(Py_None);
    }
    ptrdiff_t nb = PyUnicode_GET_LENGTH(base), nr = PyUnicode_GET_LENGTH(ref);
    int kind = PyUnicode_KIND(base);
    const void *b = PyUnicode_DATA(base), *r = PyUnicode_DATA(ref);
    Py_UCS4 *wide_b = NULL, *wide_r = NULL;
    if (PyUnicode_KIND(ref) != kind) { /* both as UCS4 */
        kind = PyUnicode_4BYTE_KIND;
        wide_b = PyUnicode_AsUCS4Copy(base);
        wide_r = wide_b == NULL ? NULL : PyUnicode_AsUCS4Copy(ref);
        if (wide_r == NULL) {
            PyMem_Free(wide_b);
            return NULL;
        }
        b = wide_b;
        r = wide_r;
    }
    uk_buffer buffer;
    void *out = uk_buffer_get(&buffer, UK_RESOLVE_CAPACITY(nb, nr), kind);
    PyObject *text = NULL;
    if (out != NULL) {
        ptrdiff_t n;
        switch (kind) {
        case PyUnicode_1BYTE_KIND:
            n = uk_transform_references_ucs1(b, bs, r, rs, strict, out, ts);
            break;
        case PyUnicode_2BYTE_KIND:
            n = uk_transform_references_ucs2(b, bs, r, rs, strict, out, ts);
            break;
        default:
            n = uk_transform_references_ucs4(b, bs, r, rs, strict, out, ts);
            break;
        }
        text = PyUnicode_FromKindAndData(kind, out, n);
        uk_buffer_free(&buffer);
    }
    PyMem_Free(wide_b);
    PyMem_Free(wide_r);
    return uk_result(cls, text, ts);
}

PyDoc_STRVAR(ops_remove_dot_segments_doc,
             "remove_dot_segments(path, /)\n--\n\n"
             "path without its \".\" and \"..\" segments (RFC 3986 §5.2.4).");

static PyObject *ops_remove_dot_segments(PyObject *module, PyObject *path)
{
    (void)module;
    if (uk_check_str(path, "remove_dot_segments", 1) < 0) {
        return NULL;
    }
    ptrdiff_t n = PyUnicode_GET_LENGTH(path);
    int kind = PyUnicode_KIND(path);
    uk_buffer buffer;
    void *p = uk_buffer_get(&buffer, n, kind);
    if (p == NULL) {
        return NULL;
    }
    memcpy(p, PyUnicode_DATA(path), (size_t)n * (size_t)kind);
    switch (kind) {
    case PyUnicode_1BYTE_KIND:
        n = uk_remove_dot_segments_ucs1(p, n);
        break;
    case PyUnicode_2BYTE_KIND:
        n = uk_remove_dot_segments_ucs2(p, n);
        break;
    default:
        n = uk_remove_dot_segments_ucs4(p, n);
        break;
    }
    PyObject *result = PyUnicode_FromKindAndData(kind, p, n);
    uk_buffer_free(&buffer);
    return result;
}

/* --- normalization (RFC 3986 §6.2.2, §6.2.3) ------------------------------------------ */

/* What schemes (a dict, see above) says of the scheme s[start..end-1]: 0 and *rules, or
 * -1 with an error. */
static int uk_scheme_lookup(PyObject *schemes, int kind, const void *s, ptrdiff_t start,
                            ptrdiff_t end, uk_scheme_rules *rules)
{
    uk_scheme_rules_of(0, rules); /* a scheme the registry does not know */
    if (start < 0) {
        return 0;
    }
    PyObject *name = PyUnicode_New(end - start, 127);
    if (name == NULL) {
        return -1;
    }
    Py_UCS1 *chars = PyUnicode_1BYTE_DATA(name);
    for (ptrdiff_t i = start; i < end; i++) {
        chars[i - start] = (Py_UCS1)uk_ascii_lower(PyUnicode_READ(kind, s, i));
    }
    PyObject *code = PyDict_GetItemWithError(schemes, name);
    Py_DECREF(name);
    if (code == NULL) {
        return PyErr_Occurred() ? -1 : 0;
    }
    long value = PyLong_AsLong(code);
    if (value == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (uk_scheme_rules_of(value, rules) < 0) {
        PyErr_SetString(PyExc_ValueError, "normalize(): a scheme code is out of range");
        return -1;
    }
    return 0;
}

PyDoc_STRVAR(ops_normalize_doc,
             "normalize(cls, text, schemes, /)\n--\n\n"
             "The normal form of the reference text (RFC 3986 §6.2.2, and §6.2.3 with the\n"
             "dict schemes: lower-case name -> its code in urikit._seam.scheme_codes), an\n"
             "instance of cls, or with cls None its text (read as an\n"
             "IRI, text itself when it is normal); None when text is not a reference or\n"
             "only the readable path can answer.");

/* normalize(cls, text, schemes) once its arguments are checked (schemes a dict or None). */
static PyObject *uk_normalize_call(uk_state *st, PyObject *cls, PyObject *text, PyObject *schemes)
{
    int iri = 1;
    if (uk_class_argument(st, cls, "normalize", &iri) < 0 ||
        uk_check_str(text, "normalize", 2) < 0) {
        return NULL;
    }
    ptrdiff_t sp[UK_SPANS], ts[UK_SPANS];
    int found = uk_scan_text(text, iri, sp);
    if (found <= 0) {
        return found < 0 ? NULL : Py_NewRef(Py_None);
    }
    ptrdiff_t n = PyUnicode_GET_LENGTH(text);
    int kind = PyUnicode_KIND(text);
    const void *s = PyUnicode_DATA(text);
    uk_scheme_rules rules, *at_scheme_level = NULL;
    if (schemes != Py_None) {
        if (uk_scheme_lookup(schemes, kind, s, sp[UK_G_SCHEME], sp[UK_G_SCHEME + 1], &rules) < 0) {
            return NULL;
        }
        if (rules.defer) {
            Py_RETURN_NONE;
        }
        at_scheme_level = &rules;
    }
    if (PyUnicode_CheckExact(text)) {
        int plain;
        switch (kind) {
        case PyUnicode_1BYTE_KIND:
            plain = uk_plainly_normal_ucs1(s, n, sp, at_scheme_level);
            break;
        case PyUnicode_2BYTE_KIND:
            plain = uk_plainly_normal_ucs2(s, n, sp, at_scheme_level);
            break;
        default:
            plain = uk_plainly_normal_ucs4(s, n, sp, at_scheme_level);
            break;
        }
        if (plain) { /* already normal: the text itself */
            return uk_result(cls, Py_NewRef(text), sp);
        }
    }
    uk_buffer buffer;
    void *out = uk_buffer_get(&buffer, UK_NORMALIZE_CAPACITY(n), kind);
    if (out == NULL) {
        return NULL;
    }
    ptrdiff_t m;
    switch (kind) {
    case PyUnicode_1BYTE_KIND:
        m = uk_normalize_ucs1(s, sp, at_scheme_level, out, ts);
        break;
    case PyUnicode_2BYTE_KIND:
        m = uk_normalize_ucs2(s, sp, at_scheme_level, out, ts);
        break;
    default:
        m = uk_normalize_ucs4(s, sp, at_scheme_level, out, ts);
        break;
    }
    PyObject *result;
    if (m < 0) {
        result = Py_NewRef(Py_None);
    } else if (m == n && PyUnicode_CheckExact(text) &&
               memcmp(out, s, (size_t)n * (size_t)kind) == 0) {
        /* already normal: the text itself */
        result = uk_result(cls, Py_NewRef(text), ts);
    } else {
        result = uk_result(cls, PyUnicode_FromKindAndData(kind, out, m), ts);
    }
    uk_buffer_free(&buffer);
    return result;
}

static int uk_check_schemes(PyObject *schemes, const char *name)
{
    if (schemes != Py_None && !PyDict_Check(schemes)) {
        PyErr_Format(PyExc_TypeError, "%s(): the scheme codes must be a dict or None, not %.200s",
                     name, Py_TYPE(schemes)->tp_name);
        return -1;
    }
    return 0;
}

static PyObject *ops_normalize(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (uk_check_nargs("normalize", nargs, 3) < 0 || uk_check_schemes(args[2], "normalize") < 0) {
        return NULL;
    }
    return uk_normalize_call(PyModule_GetState(module), args[0], args[1], args[2]);
}

PyDoc_STRVAR(ops_normalize_in_doc,
             "normalize_in(registry, codes, codes_of, cls, text, level, given, /)\n--\n\n"
             "normalize(cls, text, schemes) at level \"scheme\" or \"syntax\" (None for any\n"
             "other), for the scheme registry given: its codes are codes when given is\n"
             "registry, else codes_of(given).  urikit._seam binds the first three.");

static PyObject *ops_normalize_in(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    uk_state *st = PyModule_GetState(module);
    if (uk_check_nargs("normalize_in", nargs, 7) < 0) {
        return NULL;
    }
    PyObject *level = args[5], *schemes;
    if (!PyUnicode_Check(level)) {
        Py_RETURN_NONE;
    }
    if (PyUnicode_Compare(level, st->str_syntax) == 0) {
        schemes = Py_NewRef(Py_None);
    } else if (PyUnicode_Compare(level, st->str_scheme) == 0) {
        schemes = args[6] == args[0] ? Py_NewRef(args[1]) : PyObject_CallOneArg(args[2], args[6]);
        if (schemes == NULL) {
            return NULL;
        }
    } else {
        Py_RETURN_NONE;
    }
    PyObject *result = NULL;
    if (uk_check_schemes(schemes, "normalize_in") == 0) {
        result = uk_normalize_call(st, args[3], args[4], schemes);
    }
    Py_DECREF(schemes);
    return result;
}

/* --- percent-encoding (RFC 3986 §2.1, §2.4, §2.5) -------------------------------------- */

/* The UTF-8 octets of text: for ASCII text its own data (*owner NULL), else a new bytes
 * object in *owner; NULL when text holds a lone surrogate (no error is left set). */
static const uint8_t *uk_utf8_octets(PyObject *text, ptrdiff_t *n, PyObject **owner)
{
    *owner = NULL;
    if (PyUnicode_IS_ASCII(text)) {
        *n = PyUnicode_GET_LENGTH(text);
        return PyUnicode_1BYTE_DATA(text);
    }
    *owner = PyUnicode_AsUTF8String(text);
    if (*owner == NULL) {
        PyErr_Clear();
        return NULL;
    }
    *n = PyBytes_GET_SIZE(*owner);
    return (const uint8_t *)PyBytes_AS_STRING(*owner);
}

PyDoc_STRVAR(ops_percent_decode_doc,
             "percent_decode(text, /)\n--\n\n"
             "text with each triplet decoded and the octets read as UTF-8 (RFC 3986 §2.1,\n"
             "§2.5); None when a \"%\" starts no triplet, the octets are not UTF-8, or text\n"
             "holds a lone surrogate.");

static PyObject *ops_percent_decode(PyObject *module, PyObject *text)
{
    (void)module;
    if (uk_check_str(text, "percent_decode", 1) < 0) {
        return NULL;
    }
    PyObject *owner;
    ptrdiff_t n;
    const uint8_t *s = uk_utf8_octets(text, &n, &owner);
    if (s == NULL) {
        Py_RETURN_NONE;
    }
    uk_buffer buffer;
    uint8_t *out = uk_buffer_get(&buffer, n, 1);
    PyObject *result = NULL;
    if (out != NULL) {
        ptrdiff_t m = uk_percent_decode(s, n, out);
        if (m < 0) {
            result = Py_NewRef(Py_None);
        } else {
            result = PyUnicode_DecodeUTF8((const char *)out, m, "strict");
            if (result == NULL && PyErr_ExceptionMatches(PyExc_UnicodeDecodeError)) {
                PyErr_Clear();
                result = Py_NewRef(Py_None);
            }
        }
        uk_buffer_free(&buffer);
    }
    Py_XDECREF(owner);
    return result;
}

PyDoc_STRVAR(ops_percent_encode_doc,
             "percent_encode(text, keep, encoded, /)\n--\n\n"
             "text with every character outside keep (a bytes of 128 octets, nonzero for the\n"
             "ASCII characters kept) as the triplets of its UTF-8 octets (RFC 3986 §2.1,\n"
             "§2.5); with encoded, each triplet is kept with its hex in upper case and only\n"
             "a lone \"%\" is encoded.  None when text holds a lone surrogate.");

static PyObject *ops_percent_encode(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (uk_check_nargs("percent_encode", nargs, 3) < 0 ||
        uk_check_str(args[0], "percent_encode", 1) < 0) {
        return NULL;
    }
    if (!PyBytes_Check(args[1]) || PyBytes_GET_SIZE(args[1]) != 128) {
        PyErr_SetString(PyExc_TypeError, "percent_encode() argument 2 must be 128 bytes");
        return NULL;
    }
    int encoded = PyObject_IsTrue(args[2]);
    if (encoded < 0) {
        return NULL;
    }
    const uint8_t *keep = (const uint8_t *)PyBytes_AS_STRING(args[1]);
    PyObject *owner;
    ptrdiff_t n;
    const uint8_t *s = uk_utf8_octets(args[0], &n, &owner);
    if (s == NULL) {
        Py_RETURN_NONE;
    }
    ptrdiff_t m = uk_percent_encode_length(s, n, keep, encoded);
    PyObject *result = PyUnicode_New(m, 127);
    if (result != NULL) {
        uk_percent_encode(s, n, keep, encoded, PyUnicode_1BYTE_DATA(result));
    }
    Py_XDECREF(owner);
    return result;
}

PyMethodDef uk_ops_methods[] = {
    {"resolve", (PyCFunction)(void (*)(void))ops_resolve, METH_FASTCALL, ops_resolve_doc},
    {"normalize", (PyCFunction)(void (*)(void))ops_normalize, METH_FASTCALL, ops_normalize_doc},
    {"normalize_in", (PyCFunction)(void (*)(void))ops_normalize_in, METH_FASTCALL,
     ops_normalize_in_doc},
    {"remove_dot_segments", (PyCFunction)ops_remove_dot_segments, METH_O,
     ops_remove_dot_segments_doc},
    {"percent_decode", (PyCFunction)ops_percent_decode, METH_O, ops_percent_decode_doc},
    {"percent_encode", (PyCFunction)(void (*)(void))ops_percent_encode, METH_FASTCALL,
     ops_percent_encode_doc},
    {NULL, NULL, 0, NULL},
};
