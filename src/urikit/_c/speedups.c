/* urikit._speedups: the compiled core of urikit, over the scanner of scan.h.
 *
 * scan(text, iri, /) returns None when text is not an URI-reference (RFC 3986 §4.1),
 * or with iri=True an IRI-reference without bidi formatting characters (RFC 3987 §2.2,
 * §4.1); else the 16 ints start, end of scheme, authority, userinfo, host, port, path,
 * query and fragment, -1, -1 for an undefined component: the spans of the groups 1-8
 * of Grammar.reference.fullmatch(text).
 *
 * Reference is the storage of the value type (reference.c), the base of
 * urikit.uri.URI and IRI when the compiled core is used (urikit._seam.Store).
 *
 * resolve, normalize, remove_dot_segments, percent_decode and percent_encode are the RFC
 * operations over the scanner's spans (ops.h, ops_py.c), which urikit._seam offers
 * in place of the readable functions, with the same answers.
 *
 * lenient_encode makes the character repairs of urikit.lenient in one call
 * (lenient.c); triplet_runs finds the runs of percent-encoded triplets and their
 * octets for urikit.security.triplets (triplets.c); chars_in finds which of some
 * characters a text holds in one pass (chars.c).
 *
 * sites_table and sites_find look hosts up in a compiled Public Suffix List for
 * urikit.sites (sites.c).
 *
 * locate(text, iri, /) returns the urikit.URIError of urikit.diagnose.locate for a text
 * that is not a reference, or None (locate.h, error.c); Reference raises it for an
 * invalid text.
 */
#include "speedups.h"

#include "reference.h"
#include "scan.h"

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
    ptrdiff_t spans[UK_SPANS];
    int found = uk_scan_text(text, iri, spans);
    if (found < 0) {
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

PyDoc_STRVAR(locate_doc,
             "locate(text, iri, /)\n--\n\n"
             "The urikit.URIError of urikit.diagnose.locate(text, grammar, rule) for the\n"
             "URI-reference (or with iri=True the IRI-reference) rule: its position, rule\n"
             "and reason; None when text is a reference (RFC 3986 §4.1, RFC 3987 §2.2).");

static PyObject *locate(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2 || !PyUnicode_Check(args[0]) || !PyBool_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "locate() takes a str and a bool");
        return NULL;
    }
    return uk_locate_error(PyModule_GetState(module), args[0], args[1] == Py_True);
}

static PyMethodDef speedups_methods[] = {
    {"scan", (PyCFunction)(void (*)(void))scan, METH_FASTCALL, scan_doc},
    {"locate", (PyCFunction)(void (*)(void))locate, METH_FASTCALL, locate_doc},
    {NULL, NULL, 0, NULL},
};

static int speedups_exec(PyObject *module)
{
    uk_state *st = PyModule_GetState(module);
    uk_scan_ascii_init();
    st->str_iri = PyUnicode_InternFromString("_iri");
    st->str_refuse = PyUnicode_InternFromString("_refuse");
    st->str_string = PyUnicode_InternFromString("string");
    st->str_scheme = PyUnicode_InternFromString("scheme");
    st->str_syntax = PyUnicode_InternFromString("syntax");
    if (st->str_iri == NULL || st->str_refuse == NULL || st->str_string == NULL ||
        st->str_scheme == NULL || st->str_syntax == NULL || uk_errors_init(st, module) < 0) {
        return -1;
    }
    /* The functions of the other units, beside scan and locate. */
    if (PyModule_AddFunctions(module, uk_ops_methods) < 0 ||
        PyModule_AddFunctions(module, uk_lenient_methods) < 0 ||
        PyModule_AddFunctions(module, uk_triplet_methods) < 0 ||
        PyModule_AddFunctions(module, uk_chars_methods) < 0 ||
        PyModule_AddFunctions(module, uk_sites_methods) < 0) {
        return -1;
    }
    st->reference_type =
        (PyTypeObject *)PyType_FromModuleAndSpec(module, &uk_reference_spec, NULL);
    if (st->reference_type == NULL) {
        return -1;
    }
    /* The URI grammar unless a subclass says otherwise. */
    if (PyObject_SetAttr((PyObject *)st->reference_type, st->str_iri, Py_False) < 0) {
        return -1;
    }
    if (PyModule_AddObjectRef(module, "Reference", (PyObject *)st->reference_type) < 0) {
        return -1;
    }
    return PyModule_AddIntConstant(module, "NARROW_MAX", UK_NARROW_MAX);
}

static int speedups_traverse(PyObject *module, visitproc visit, void *arg)
{
    uk_state *st = PyModule_GetState(module);
    Py_VISIT(st->reference_type);
    Py_VISIT(st->uri_error);
    for (int k = 0; k < 4; k++) {
        Py_VISIT(st->error_slots[k]);
    }
    return 0;
}

static int speedups_clear(PyObject *module)
{
    uk_state *st = PyModule_GetState(module);
    Py_CLEAR(st->reference_type);
    Py_CLEAR(st->str_iri);
    Py_CLEAR(st->str_refuse);
    Py_CLEAR(st->str_string);
    Py_CLEAR(st->str_scheme);
    Py_CLEAR(st->str_syntax);
    Py_CLEAR(st->str_rule);
    for (int k = 0; k < 2; k++) {
        Py_CLEAR(st->rules[k]);
    }
    for (int k = 0; k < 4; k++) {
        Py_CLEAR(st->fields[k]);
    }
    Py_CLEAR(st->explanations);
    Py_CLEAR(st->non_ascii_args);
    for (int k = 0; k < 4; k++) {
        Py_CLEAR(st->error_slots[k]);
    }
    Py_CLEAR(st->uri_error);
    return 0;
}

static void speedups_free(void *module)
{
    speedups_clear((PyObject *)module);
}

/* The state is per module object, and the objects are immutable once built, so the
 * module is safe in every interpreter and without the GIL. */
static PyModuleDef_Slot speedups_slots[] = {
    {Py_mod_exec, speedups_exec},
#if PY_VERSION_HEX >= 0x030C0000
    {Py_mod_multiple_interpreters, Py_MOD_PER_INTERPRETER_GIL_SUPPORTED},
#endif
#if PY_VERSION_HEX >= 0x030D0000
    {Py_mod_gil, Py_MOD_GIL_NOT_USED},
#endif
    {0, NULL},
};

PyDoc_STRVAR(speedups_doc,
             "The compiled core of urikit: scan(text, iri), locate(text, iri), Reference, and the\n"
             "RFC operations resolve, normalize, remove_dot_segments, percent_decode and\n"
             "percent_encode, the lenient reading's repairs, lenient_encode, the checks of\n"
             "triplets and characters, and the Public Suffix List lookup, sites_find.");

struct PyModuleDef uk_speedups_module = {
    PyModuleDef_HEAD_INIT,
    "urikit._speedups",
    speedups_doc,
    sizeof(uk_state),
    speedups_methods,
    speedups_slots,
    speedups_traverse,
    speedups_clear,
    speedups_free,
};

PyMODINIT_FUNC PyInit__speedups(void)
{
    return PyModuleDef_Init(&uk_speedups_module);
}
