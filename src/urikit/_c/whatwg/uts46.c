/* UTS #46 ToASCII for the domain parser (URL Standard §3.3), for non-ASCII domains. */
#include "whatwg.h"

static PyObject *py_domain_to_ascii;

int wu_domain_to_ascii(const Py_UCS4 *domain, Py_ssize_t len, wu_buffer *out)
{
    if (py_domain_to_ascii == NULL) {
        PyObject *m = PyImport_ImportModule("urikit.uts46");
        if (m == NULL) {
            return -1;
        }
        py_domain_to_ascii = PyObject_GetAttrString(m, "_domain_parser_to_ascii");
        Py_DECREF(m);
        if (py_domain_to_ascii == NULL) {
            return -1;
        }
    }
    PyObject *text = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, domain, len);
    if (text == NULL) {
        return -1;
    }
    PyObject *result = PyObject_CallFunction(py_domain_to_ascii, "Oi", text, 0);
    Py_DECREF(text);
    if (result == NULL) {
        if (PyErr_ExceptionMatches(PyExc_ValueError)) {
            PyErr_Clear();
            return 0;
        }
        return -1;
    }
    Py_ssize_t n;
    const char *s = PyUnicode_AsUTF8AndSize(result, &n);
    int r = s == NULL ? -1 : wu_write(out, s, n) < 0 ? -1 : 1;
    Py_DECREF(result);
    return r;
}
