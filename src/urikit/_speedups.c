/* urikit._speedups: the compiled scanner of _speedups_scan.h for Python str.
 *
 * scan(text, iri, /) returns None when text is not an URI-reference (RFC 3986 §4.1),
 * or with iri=True an IRI-reference without bidi formatting characters (RFC 3987 §2.2,
 * §4.1); else the 16 ints start, end of scheme, authority, userinfo, host, port, path,
 * query and fragment, -1, -1 for an undefined component: the spans of the groups 1-8
 * of Grammar.reference.fullmatch(text).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "_speedups_scan.h"

PyDoc_STRVAR(scan_doc,
             "scan(text, iri, /)\n--\n\n"
             "The spans of the 8 components of the URI-reference (or with iri=True the\n"
             "IRI-reference) text: a tuple of 16 ints, start and end of scheme, authority,\n"
             "userinfo, host, port, path, query and fragment, -1 and -1 for a component\n"
             "that is not there; None when text is not a reference (RFC 3986 §4.1,\n"
             "RFC 3987 §2.2).");

static PyObject *scan(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "scan() takes exactly 2 arguments (%zd given)", nargs);
        return NULL;
    }
    PyObject *text = args[0];
    if (!PyUnicode_Check(text)) {
        PyErr_Format(PyExc_TypeError, "scan() argument 1 must be str, not %.200s",
                     Py_TYPE(text)->tp_name);
        return NULL;
    }
    if (!PyBool_Check(args[1])) {
        PyErr_Format(PyExc_TypeError, "scan() argument 2 must be bool, not %.200s",
                     Py_TYPE(args[1])->tp_name);
        return NULL;
    }
    int iri = args[1] == Py_True;
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(text) < 0) {
        return NULL;
    }
#endif
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    const void *data = PyUnicode_DATA(text);
    ptrdiff_t spans[UK_SPANS];
    int found;
    switch (PyUnicode_KIND(text)) {
    case PyUnicode_1BYTE_KIND:
        found = uk_scan_ucs1((const uint8_t *)data, n, iri, spans);
        break;
    case PyUnicode_2BYTE_KIND:
        found = uk_scan_ucs2((const uint16_t *)data, n, iri, spans);
        break;
    case PyUnicode_4BYTE_KIND:
        found = uk_scan_ucs4((const uint32_t *)data, n, iri, spans);
        break;
    default:
        PyErr_BadInternalCall();
        return NULL;
    }
    if (!found) {
        Py_RETURN_NONE;
    }
    PyObject *result = PyTuple_New(UK_SPANS);
    if (result == NULL) {
        return NULL;
    }
    for (Py_ssize_t k = 0; k < UK_SPANS; k++) {
        PyObject *value = PyLong_FromSsize_t(spans[k]);
        if (value == NULL) {
            Py_DECREF(result);
            return NULL;
        }
        PyTuple_SET_ITEM(result, k, value);
    }
    return result;
}

static PyMethodDef speedups_methods[] = {
    {"scan", (PyCFunction)(void (*)(void))scan, METH_FASTCALL, scan_doc},
    {NULL, NULL, 0, NULL},
};

/* The module keeps no state, so it is safe in every interpreter and without the GIL. */
static PyModuleDef_Slot speedups_slots[] = {
#if PY_VERSION_HEX >= 0x030C0000
    {Py_mod_multiple_interpreters, Py_MOD_PER_INTERPRETER_GIL_SUPPORTED},
#endif
#if PY_VERSION_HEX >= 0x030D0000
    {Py_mod_gil, Py_MOD_GIL_NOT_USED},
#endif
    {0, NULL},
};

PyDoc_STRVAR(speedups_doc, "The compiled scanner of urikit: scan(text, iri).");

static struct PyModuleDef speedups_module = {
    PyModuleDef_HEAD_INIT,
    "urikit._speedups",
    speedups_doc,
    0,
    speedups_methods,
    speedups_slots,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC PyInit__speedups(void)
{
    return PyModuleDef_Init(&speedups_module);
}
