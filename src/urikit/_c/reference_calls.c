/* The calls Reference answers without a Python frame: cls(text) by the class's own
 * vectorcall, is_valid for the rules the scanner decides, and a new query in an old
 * reference. */
#include "reference.h"

#include "scan.h"

/* --- calling the class: cls(text) without a Python frame or an argument tuple ------------ *
 *
 * cls._construct_directly() makes cls(text) for an exact str text scan and allocate at
 * once (the vectorcall of the class object, which CPython calls for cls(...)), and raise
 * the error of uk_refuse when the text is no reference, as reference_new would; any other
 * call (another argument, a str subclass) takes the general way, type.__call__ and
 * reference_new, so that the answer and the error are the same.  A class whose __new__
 * or __init__ is not Reference's takes the general way too.  The vectorcall is the
 * class's own: a subclass does not inherit it.  Whether the class refuses as a
 * reference (its _rule, a class constant) is read once, when the vectorcall is set,
 * and chooses one of four. */

/* type.__call__(callable, *args, **kwargs) from the arguments of a vectorcall. */
static PyObject *uk_call_type(PyObject *callable, PyObject *const *args, size_t nargsf,
                              PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    PyObject *tuple = PyTuple_New(nargs);
    if (tuple == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < nargs; i++) {
        PyTuple_SET_ITEM(tuple, i, Py_NewRef(args[i]));
    }
    PyObject *kwargs = NULL;
    if (kwnames != NULL && PyTuple_GET_SIZE(kwnames) > 0) {
        kwargs = PyDict_New();
        if (kwargs == NULL) {
            Py_DECREF(tuple);
            return NULL;
        }
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(kwnames); i++) {
            if (PyDict_SetItem(kwargs, PyTuple_GET_ITEM(kwnames, i), args[nargs + i]) < 0) {
                Py_DECREF(kwargs);
                Py_DECREF(tuple);
                return NULL;
            }
        }
    }
    PyObject *result = PyType_Type.tp_call(callable, tuple, kwargs);
    Py_XDECREF(kwargs);
    Py_DECREF(tuple);
    return result;
}

static PyObject *uk_construct(PyObject *callable, PyObject *const *args, size_t nargsf,
                              PyObject *kwnames, int iri, int ours)
{
    PyTypeObject *cls = (PyTypeObject *)callable;
    if (PyVectorcall_NARGS(nargsf) == 1 && kwnames == NULL && PyUnicode_CheckExact(args[0]) &&
        cls->tp_new == uk_reference_new && cls->tp_init == PyBaseObject_Type.tp_init) {
        ptrdiff_t spans[UK_SPANS];
        int found = uk_scan_text(args[0], iri, spans);
        if (found < 0) {
            return NULL;
        }
        if (found) {
            return uk_instance(cls, args[0], spans);
        }
        uk_state *st = uk_state_of(cls);
        return st == NULL ? NULL : uk_refuse_as(cls, st, args[0], iri, ours);
    }
    return uk_call_type(callable, args, nargsf, kwnames);
}

#define UK_CONSTRUCT(NAME, IRI, OURS)                                                        \
    static PyObject *NAME(PyObject *callable, PyObject *const *args, size_t nargsf,          \
                          PyObject *kwnames)                                                 \
    {                                                                                        \
        return uk_construct(callable, args, nargsf, kwnames, IRI, OURS);                     \
    }

UK_CONSTRUCT(uk_construct_uri, 0, 0)
UK_CONSTRUCT(uk_construct_iri, 1, 0)
UK_CONSTRUCT(uk_construct_uri_reference, 0, 1)
UK_CONSTRUCT(uk_construct_iri_reference, 1, 1)

PyObject *uk_reference_construct_directly(PyObject *cls, PyObject *unused)
{
    (void)unused;
    uk_state *st = uk_state_of((PyTypeObject *)cls);
    if (st == NULL) {
        return NULL;
    }
    int iri = uk_class_iri((PyTypeObject *)cls, st);
    if (iri < 0) {
        return NULL;
    }
    int ours = uk_refuses_as_reference((PyTypeObject *)cls, st, iri);
    if (ours < 0) {
        return NULL;
    }
    static vectorcallfunc const construct[2][2] = {
        {uk_construct_uri, uk_construct_uri_reference},
        {uk_construct_iri, uk_construct_iri_reference},
    };
    ((PyTypeObject *)cls)->tp_vectorcall = construct[iri != 0][ours];
    Py_RETURN_NONE;
}

/* --- is_valid for the rules the scanner decides ---------------------------------------- *
 *
 * Reference._validator(fallback) gives is_valid(text, rule="URI-reference", *, ports=False),
 * a function with fallback (the Python is_valid) as its self: for a str text and one of the
 * eight reference rules it answers from one scan, as urikit.validate does with scan(); any
 * other call (ports=True among them) is fallback's, with the same arguments. */

/* The rules of urikit._contracts.SCANNED_RULES, in its order. */
static const uk_scanned_rule uk_scanned_rules[UK_SCANNED_RULES] = {UK_SCANNED_RULE_TABLE};

/* 1 when the str text matches rule, 0 when it does not, -1 on error. */
static int uk_matches_rule(PyObject *text, const uk_scanned_rule *rule)
{
    ptrdiff_t spans[UK_SPANS];
    int found = uk_scan_text(text, rule->iri, spans);
    if (found <= 0) {
        return found;
    }
    int has_scheme = spans[0] >= 0;
    return (has_scheme || !rule->needs_scheme) && !(rule->no_scheme && has_scheme) &&
           !(rule->no_fragment && spans[2 * UK_C_FRAGMENT] >= 0);
}

/* The rule of uk_scanned_rules named by the str name, or NULL. */
static const uk_scanned_rule *uk_scanned_rule_named(PyObject *name)
{
    for (int i = 0; i < UK_SCANNED_RULES; i++) {
        if (PyUnicode_CompareWithASCIIString(name, uk_scanned_rules[i].name) == 0) {
            return &uk_scanned_rules[i];
        }
    }
    return NULL;
}

static PyObject *uk_is_valid(PyObject *fallback, PyObject *const *args, size_t nargsf,
                             PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    const uk_scanned_rule *rule = NULL;
    if (kwnames == NULL && (nargs == 1 || nargs == 2) && PyUnicode_Check(args[0])) {
        if (nargs == 1) {
            rule = &uk_scanned_rules[0];
        } else if (PyUnicode_Check(args[1])) {
            rule = uk_scanned_rule_named(args[1]);
        }
    }
    if (rule == NULL) {
        return PyObject_Vectorcall(fallback, args, nargsf, kwnames);
    }
    int valid = uk_matches_rule(args[0], rule);
    return valid < 0 ? NULL : PyBool_FromLong(valid);
}

static PyMethodDef uk_is_valid_def = {
    "is_valid", (PyCFunction)(void (*)(void))uk_is_valid, METH_FASTCALL | METH_KEYWORDS,
    "is_valid(text, rule='URI-reference', *, ports=False)\n--\n\n"
    "Does text match the ABNF rule rule exactly?  (urikit.validate.is_valid: the eight\n"
    "reference rules from one scan by the compiled core, the others by the grammar.)"};

PyObject *uk_reference_validator(PyObject *unused, PyObject *fallback)
{
    (void)unused;
    if (!PyCallable_Check(fallback)) {
        PyErr_SetString(PyExc_TypeError, "_validator() takes a callable");
        return NULL;
    }
    PyObject *module = PyObject_GetAttrString(fallback, "__module__");
    if (module == NULL) {
        return NULL;
    }
    PyObject *function = PyCFunction_NewEx(&uk_is_valid_def, fallback, module);
    Py_DECREF(module);
    return function;
}

/* Reference._rule_validator(rule, fallback) gives a function of one argument: for a str,
 * whether it matches rule, one of the eight reference rules, answered from one scan; any
 * other call is fallback's, with the same arguments.  Its self is (fallback, rule index). */

static PyObject *uk_rule_is_valid(PyObject *self, PyObject *const *args, size_t nargsf,
                                  PyObject *kwnames)
{
    PyObject *fallback = PyTuple_GET_ITEM(self, 0);
    if (kwnames != NULL || PyVectorcall_NARGS(nargsf) != 1 || !PyUnicode_Check(args[0])) {
        return PyObject_Vectorcall(fallback, args, nargsf, kwnames);
    }
    Py_ssize_t index = PyLong_AsSsize_t(PyTuple_GET_ITEM(self, 1));
    UK_ASSERT(index >= 0 && index < UK_SCANNED_RULES);
    int valid = uk_matches_rule(args[0], &uk_scanned_rules[index]);
    return valid < 0 ? NULL : PyBool_FromLong(valid);
}

static PyMethodDef uk_rule_is_valid_def = {
    "conforms", (PyCFunction)(void (*)(void))uk_rule_is_valid, METH_FASTCALL | METH_KEYWORDS,
    "conforms(text)\n--\n\n"
    "Does the str text match the rule?  (A reference rule answered from one scan by the\n"
    "compiled core; any other argument goes to the fallback.)"};

PyObject *uk_reference_rule_validator(PyObject *unused, PyObject *args)
{
    (void)unused;
    PyObject *name, *fallback;
    if (!PyArg_ParseTuple(args, "UO:_rule_validator", &name, &fallback)) {
        return NULL;
    }
    const uk_scanned_rule *rule = uk_scanned_rule_named(name);
    if (rule == NULL || !PyCallable_Check(fallback)) {
        PyErr_Format(PyExc_ValueError,
                     "_rule_validator() takes a reference rule and a callable, not %R", name);
        return NULL;
    }
    PyObject *self = Py_BuildValue("(On)", fallback, (Py_ssize_t)(rule - uk_scanned_rules));
    if (self == NULL) {
        return NULL;
    }
    PyObject *module = PyObject_GetAttrString(fallback, "__module__");
    if (module == NULL) {
        Py_DECREF(self);
        return NULL;
    }
    PyObject *function = PyCFunction_NewEx(&uk_rule_is_valid_def, self, module);
    Py_DECREF(module);
    Py_DECREF(self);
    return function;
}

/* --- a new query in an old reference ---------------------------------------------------- */

/* 1 when all of the str text is a query of the grammar (iri), RFC 3986 §3.4 or RFC 3987
 * §2.2 iquery; 0 when it is not; -1 on error. */
static int uk_is_query(PyObject *text, int iri)
{
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(text) < 0) {
        return -1;
    }
#endif
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    const void *data = PyUnicode_DATA(text);
    switch (PyUnicode_KIND(text)) {
    case PyUnicode_1BYTE_KIND:
        return uk_is_query_ucs1((const uint8_t *)data, n, iri);
    case PyUnicode_2BYTE_KIND:
        return uk_is_query_ucs2((const uint16_t *)data, n, iri);
    case PyUnicode_4BYTE_KIND:
        return uk_is_query_ucs4((const uint32_t *)data, n, iri);
    default:
        PyErr_BadInternalCall();
        return -1;
    }
}

/* whole[:cut] + "?" + query + whole[cut_end:], or whole[:cut] + whole[cut_end:] when
 * query is None. */
static PyObject *uk_spliced(PyObject *whole, ptrdiff_t cut, ptrdiff_t cut_end, PyObject *query)
{
    Py_ssize_t length = PyUnicode_GET_LENGTH(whole);
    Py_ssize_t added = query == Py_None ? 0 : 1 + PyUnicode_GET_LENGTH(query);
    if (PyUnicode_IS_ASCII(whole) && (query == Py_None || PyUnicode_IS_ASCII(query))) {
        /* The common case: one copy of each piece into an ASCII text. */
        PyObject *text = PyUnicode_New(cut + added + (length - cut_end), 127);
        if (text == NULL) {
            return NULL;
        }
        Py_UCS1 *to = PyUnicode_1BYTE_DATA(text);
        const Py_UCS1 *from = PyUnicode_1BYTE_DATA(whole);
        memcpy(to, from, (size_t)cut);
        if (query != Py_None) {
            to[cut] = '?';
            memcpy(to + cut + 1, PyUnicode_1BYTE_DATA(query), (size_t)(added - 1));
        }
        memcpy(to + cut + added, from + cut_end, (size_t)(length - cut_end));
        return text;
    }
    /* Any other: the pieces joined, which gives the text its narrowest kind. */
    PyObject *pieces = PyTuple_New(query == Py_None ? 2 : 4);
    if (pieces == NULL) {
        return NULL;
    }
    Py_ssize_t count = 0;
    PyObject *piece = PyUnicode_Substring(whole, 0, cut);
    if (piece == NULL) {
        Py_DECREF(pieces);
        return NULL;
    }
    PyTuple_SET_ITEM(pieces, count++, piece);
    if (query != Py_None) {
        piece = PyUnicode_FromOrdinal('?');
        if (piece == NULL) {
            Py_DECREF(pieces);
            return NULL;
        }
        PyTuple_SET_ITEM(pieces, count++, piece);
        PyTuple_SET_ITEM(pieces, count++, Py_NewRef(query));
    }
    piece = PyUnicode_Substring(whole, cut_end, length);
    if (piece == NULL) {
        Py_DECREF(pieces);
        return NULL;
    }
    PyTuple_SET_ITEM(pieces, count, piece);
    PyObject *empty = PyUnicode_New(0, 0);
    PyObject *text = empty == NULL ? NULL : PyUnicode_Join(empty, pieces);
    Py_XDECREF(empty);
    Py_DECREF(pieces);
    return text;
}

/* r._replace_query(query): the reference of r's class whose text is r's with the query
 * replaced (a str) or removed with its "?" (None), or None when query is not a query of
 * the class's grammar.  Only the new query is scanned: the components before it keep
 * their ends, the fragment's moves by the change in length (RFC 3986 §4.1: the query
 * stands between "?" and "#" or the end). */
PyObject *uk_reference_replace_query(PyObject *op, PyObject *query)
{
    uk_reference *self = (uk_reference *)op;
    PyTypeObject *cls = Py_TYPE(op);
    if (query != Py_None && !PyUnicode_Check(query)) {
        PyErr_Format(PyExc_TypeError, "_replace_query() takes a str or None, not %.200s",
                     Py_TYPE(query)->tp_name);
        return NULL;
    }
    if (query != Py_None) {
        uk_state *st = uk_state_of(cls);
        if (st == NULL) {
            return NULL;
        }
        int iri = uk_class_iri(cls, st);
        if (iri < 0) {
            return NULL;
        }
        int valid = uk_is_query(query, iri);
        if (valid <= 0) {
            return valid < 0 ? NULL : Py_NewRef(Py_None);
        }
    }
    ptrdiff_t ends[UK_COMPONENTS];
    uk_load_ends(self, ends);
    /* The "?" and the query, which the new ones replace: empty when there is none. */
    ptrdiff_t cut = ends[UK_C_PATH];
    ptrdiff_t cut_end = ends[UK_C_QUERY] >= 0 ? ends[UK_C_QUERY] : cut;
    PyObject *text = uk_spliced(self->text, cut, cut_end, query);
    if (text == NULL) {
        return NULL;
    }
    ptrdiff_t spans[UK_SPANS];
    for (int k = 0; k < UK_COMPONENTS; k++) {
        spans[2 * k] = -1; /* uk_instance reads the ends alone */
        spans[2 * k + 1] = ends[k];
    }
    ptrdiff_t query_end = cut;
    if (query != Py_None) {
        query_end = cut + 1 + PyUnicode_GET_LENGTH(query);
        spans[2 * UK_C_QUERY + 1] = query_end;
    } else {
        spans[2 * UK_C_QUERY + 1] = -1;
    }
    if (ends[UK_C_FRAGMENT] >= 0) {
        spans[2 * UK_C_FRAGMENT + 1] = ends[UK_C_FRAGMENT] - cut_end + query_end;
    }
    PyObject *result = uk_instance(cls, text, spans);
    Py_DECREF(text);
    return result;
}

