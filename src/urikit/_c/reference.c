/* _speedups.Reference: the storage of urikit's value type, in C.
 *
 * A reference is its text (an exact str) and the ends of its eight components, one
 * scan of the text by the scanner (scan.h); a start is derived from the ends when it is
 * asked for (uk_component_start).  The ends are int32 while the text is at most
 * UK_NARROW_MAX code units long, so that an object is small; a longer text keeps
 * them in an array of ptrdiff_t of its own.  The object holds no reference to any
 * object but its text (and its type), so an instance of a subclass that adds no
 * __dict__ and no slots is not tracked by the cyclic garbage collector, as CPython
 * does for a tuple of atoms.  Every object is immutable once built.
 *
 * The interface (the same as urikit._store.PureStore over a re.Match):
 *
 *     Reference(text)          text a str, or a Reference (its text); one scan in
 *                              the grammar cls._iri selects; when text is not a
 *                              reference, the error of urikit.diagnose.locate is
 *                              raised from C (error.c) if cls._rule names the
 *                              reference rule of that grammar, else cls._refuse(text)
 *                              raises
 *     cls._parse(text)         the same, for an exact str
 *     cls._scan(text)          the same, or None instead of cls._refuse(text)
 *     cls._from_match(m)       from a full match of the grammar's pattern: m.string
 *     r._text                  the text
 *     r.scheme ... r.fragment  a component: None when undefined, "" when empty
 *     r._group(g), r._span(g)  by group number g of Grammar.reference (0 the text,
 *                              1 scheme ... 8 fragment), as re.Match.group and
 *                              re.Match.span give them
 *     r._groups()              the eight components, as re.Match.groups()
 */
#include "reference.h"

#include "scan.h"


/* The span of component k in *start, *end; 0 when it is undefined. */
static int uk_span(const uk_reference *r, int k, ptrdiff_t *start, ptrdiff_t *end)
{
    ptrdiff_t ends[UK_COMPONENTS];
    uk_load_ends(r, ends);
    if (ends[k] < 0) {
        return 0;
    }
    *start = uk_component_start(ends, k);
    *end = ends[k];
    return 1;
}

static PyObject *uk_component(const uk_reference *r, int k)
{
    ptrdiff_t start, end;
    if (!uk_span(r, k, &start, &end)) {
        Py_RETURN_NONE;
    }
    return PyUnicode_Substring(r->text, start, end);
}

/* --- the module state of the type's module, from any subclass ------------------------ */

uk_state *uk_state_of(PyTypeObject *cls)
{
#if PY_VERSION_HEX >= 0x030B0000
    PyObject *module = PyType_GetModuleByDef(cls, &uk_speedups_module);
    return module == NULL ? NULL : (uk_state *)PyModule_GetState(module);
#else
    PyObject *mro = cls->tp_mro;
    for (Py_ssize_t i = 0; mro != NULL && i < PyTuple_GET_SIZE(mro); i++) {
        PyTypeObject *base = (PyTypeObject *)PyTuple_GET_ITEM(mro, i);
        if (PyType_HasFeature(base, Py_TPFLAGS_HEAPTYPE)) {
            PyObject *module = ((PyHeapTypeObject *)base)->ht_module;
            if (module != NULL && PyModule_GetDef(module) == &uk_speedups_module) {
                return (uk_state *)PyModule_GetState(module);
            }
        }
    }
    PyErr_Format(PyExc_TypeError, "%.200s is not a subclass of urikit._speedups.Reference",
                 cls->tp_name);
    return NULL;
#endif
}

/* --- building ---------------------------------------------------------------------------- */

/* 1 and the spans when the str text is a reference of the grammar (iri), 0 when it is
 * not, -1 on error. */
int uk_scan_text(PyObject *text, int iri, ptrdiff_t spans[UK_SPANS])
{
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(text) < 0) {
        return -1;
    }
#endif
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    const void *data = PyUnicode_DATA(text);
    if (PyUnicode_IS_ASCII(text)) {
        return uk_scan_ascii((const uint8_t *)data, n, spans);
    }
    switch (PyUnicode_KIND(text)) {
    case PyUnicode_1BYTE_KIND:
        return uk_scan_ucs1((const uint8_t *)data, n, iri, spans);
    case PyUnicode_2BYTE_KIND:
        return uk_scan_ucs2((const uint16_t *)data, n, iri, spans);
    case PyUnicode_4BYTE_KIND:
        return uk_scan_ucs4((const uint32_t *)data, n, iri, spans);
    default:
        PyErr_BadInternalCall();
        return -1;
    }
}

static PyObject *uk_refuse(PyTypeObject *cls, uk_state *st, PyObject *text, int iri)
{
    return uk_refuse_as(cls, st, text, iri, -1);
}

/* Does an instance of cls hold nothing but what uk_reference holds? */
static int uk_holds_only_text(PyTypeObject *cls)
{
    if (cls->tp_basicsize != (Py_ssize_t)sizeof(uk_reference) || cls->tp_dictoffset != 0 ||
        cls->tp_weaklistoffset != 0) {
        return 0;
    }
#ifdef Py_TPFLAGS_MANAGED_DICT
    if (PyType_HasFeature(cls, Py_TPFLAGS_MANAGED_DICT)) {
        return 0;
    }
#endif
#ifdef Py_TPFLAGS_MANAGED_WEAKREF
    if (PyType_HasFeature(cls, Py_TPFLAGS_MANAGED_WEAKREF)) {
        return 0;
    }
#endif
    return 1;
}

/* The grammar of cls, its class attribute _iri: 1 for RFC 3987, 0 for RFC 3986, -1 with
 * an error. */
int uk_class_iri(PyTypeObject *cls, uk_state *st)
{
    PyObject *flag = PyObject_GetAttr((PyObject *)cls, st->str_iri);
    if (flag == NULL) {
        return -1;
    }
    int iri = PyObject_IsTrue(flag);
    Py_DECREF(flag);
    return iri;
}

typedef enum { UK_REFUSE, UK_NONE } uk_on_invalid;

/* A new instance of cls for the exact str text; when text is not a reference,
 * uk_refuse raises (UK_REFUSE) or None is returned (UK_NONE). */
static PyObject *uk_build(PyTypeObject *cls, uk_state *st, PyObject *text,
                          uk_on_invalid on_invalid)
{
    int iri = uk_class_iri(cls, st);
    if (iri < 0) {
        return NULL;
    }
    ptrdiff_t spans[UK_SPANS];
    int found = uk_scan_text(text, iri, spans);
    if (found < 0) {
        return NULL;
    }
    if (!found) {
        if (on_invalid == UK_NONE) {
            Py_RETURN_NONE;
        }
        return uk_refuse(cls, st, text, iri);
    }
    return uk_instance(cls, text, spans);
}

/* A new instance of cls for the exact str text, a reference with these spans. */
PyObject *uk_instance(PyTypeObject *cls, PyObject *text, const ptrdiff_t spans[UK_SPANS])
{
    int untracked = PyType_IS_GC(cls) && uk_holds_only_text(cls);
    uk_reference *self;
    if (untracked && cls->tp_alloc == PyType_GenericAlloc) {
        /* What tp_alloc gives, without zeroing what is filled in below and without
         * tracking what would be untracked at once. */
        self = PyObject_GC_New(uk_reference, cls);
        if (self == NULL) {
            return NULL;
        }
        self->text = NULL;
        untracked = 0;
    } else {
        self = (uk_reference *)cls->tp_alloc(cls, 0);
        if (self == NULL) {
            return NULL;
        }
    }
    if (PyUnicode_GET_LENGTH(text) > UK_NARROW_MAX) {
        self->ends.wide = PyMem_Malloc(UK_COMPONENTS * sizeof(ptrdiff_t));
        if (self->ends.wide == NULL) {
            Py_DECREF(self);
            return PyErr_NoMemory();
        }
        for (int k = 0; k < UK_COMPONENTS; k++) {
            self->ends.wide[k] = spans[2 * k + 1];
        }
    } else {
        for (int k = 0; k < UK_COMPONENTS; k++) {
            self->ends.narrow[k] = (int32_t)spans[2 * k + 1];
        }
    }
    self->text = Py_NewRef(text);
#if UK_CHECKING
    ptrdiff_t ends[UK_COMPONENTS];
    uk_load_ends(self, ends);
    UK_ASSERT(uk_ends_in_order(ends, PyUnicode_GET_LENGTH(text)));
#endif
    if (untracked) {
        PyObject_GC_UnTrack(self);
    }
    return (PyObject *)self;
}

PyObject *uk_reference_new(PyTypeObject *cls, PyObject *args, PyObject *kwds)
{
    static char *keywords[] = {"text", NULL};
    PyObject *arg;
    if (kwds == NULL && PyTuple_GET_SIZE(args) == 1) {
        arg = PyTuple_GET_ITEM(args, 0);
    } else if (!PyArg_ParseTupleAndKeywords(args, kwds, "O:__new__", keywords, &arg)) {
        return NULL;
    }
    uk_state *st = uk_state_of(cls);
    if (st == NULL) {
        return NULL;
    }
    PyObject *text;
    if (PyUnicode_CheckExact(arg)) {
        text = Py_NewRef(arg);
    } else if (PyObject_TypeCheck(arg, st->reference_type)) {
        text = Py_NewRef(((uk_reference *)arg)->text);
    } else if (PyUnicode_Check(arg)) {
        text = PyUnicode_FromObject(arg); /* the exact str of a str subclass */
        if (text == NULL) {
            return NULL;
        }
    } else {
        PyObject *name = PyObject_GetAttrString((PyObject *)cls, "__name__");
        PyObject *given = PyObject_GetAttrString((PyObject *)Py_TYPE(arg), "__name__");
        if (name != NULL && given != NULL) {
            PyErr_Format(PyExc_TypeError, "%U() takes a str, not %U", name, given);
        }
        Py_XDECREF(name);
        Py_XDECREF(given);
        return NULL;
    }
    PyObject *result = uk_build(cls, st, text, UK_REFUSE);
    Py_DECREF(text);
    return result;
}

/* The one argument of a classmethod, which must be a str; NULL with an error if not. */
static PyObject *uk_str_argument(const char *name, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 1) {
        PyErr_Format(PyExc_TypeError, "%s() takes exactly 1 argument (%zd given)", name, nargs);
        return NULL;
    }
    if (!PyUnicode_Check(args[0])) {
        PyErr_Format(PyExc_TypeError, "%s() argument must be str, not %.200s", name,
                     Py_TYPE(args[0])->tp_name);
        return NULL;
    }
    return args[0];
}

static PyObject *reference_parse(PyObject *cls, PyObject *const *args, Py_ssize_t nargs)
{
    PyObject *text = uk_str_argument("_parse", args, nargs);
    uk_state *st = text == NULL ? NULL : uk_state_of((PyTypeObject *)cls);
    return st == NULL ? NULL : uk_build((PyTypeObject *)cls, st, text, UK_REFUSE);
}

static PyObject *reference_scan(PyObject *cls, PyObject *const *args, Py_ssize_t nargs)
{
    PyObject *text = uk_str_argument("_scan", args, nargs);
    uk_state *st = text == NULL ? NULL : uk_state_of((PyTypeObject *)cls);
    return st == NULL ? NULL : uk_build((PyTypeObject *)cls, st, text, UK_NONE);
}

static PyObject *reference_from_match(PyObject *cls, PyObject *match)
{
    uk_state *st = uk_state_of((PyTypeObject *)cls);
    if (st == NULL) {
        return NULL;
    }
    PyObject *text = PyObject_GetAttr(match, st->str_string);
    if (text == NULL) {
        return NULL;
    }
    PyObject *result = NULL;
    if (!PyUnicode_Check(text)) {
        PyErr_Format(PyExc_TypeError, "_from_match() needs a match of a str, not of %.200s",
                     Py_TYPE(text)->tp_name);
    } else {
        result = uk_build((PyTypeObject *)cls, st, text, UK_REFUSE);
    }
    Py_DECREF(text);
    return result;
}

static PyObject *reference_refuse(PyObject *cls, PyObject *text)
{
    (void)cls;
    PyErr_Format(PyExc_ValueError, "not a reference: %R", text);
    return NULL;
}

static void reference_dealloc(PyObject *op)
{
    uk_reference *self = (uk_reference *)op;
    PyTypeObject *type = Py_TYPE(op);
    if (self->text != NULL) {
        if (uk_is_wide(self)) {
            PyMem_Free(self->ends.wide);
        }
        Py_DECREF(self->text);
    }
    type->tp_free(op);
    Py_DECREF(type);
}

/* --- reading ------------------------------------------------------------------------------ */

/* The group number g of Grammar.reference: 0 the whole text, 1..8 the components;
 * -1 with an IndexError for any other. */
static int uk_group_number(PyObject *g)
{
    Py_ssize_t number = PyNumber_AsSsize_t(g, PyExc_IndexError);
    if (number == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (number < 0 || number > UK_COMPONENTS) {
        PyErr_SetString(PyExc_IndexError, "no such group");
        return -1;
    }
    return (int)number;
}

static PyObject *reference_group(PyObject *op, PyObject *g)
{
    uk_reference *self = (uk_reference *)op;
    int number = uk_group_number(g);
    if (number < 0) {
        return NULL;
    }
    return number == 0 ? Py_NewRef(self->text) : uk_component(self, number - 1);
}

static PyObject *reference_span(PyObject *op, PyObject *g)
{
    uk_reference *self = (uk_reference *)op;
    int number = uk_group_number(g);
    if (number < 0) {
        return NULL;
    }
    ptrdiff_t start = -1, end = -1;
    if (number == 0) {
        start = 0;
        end = PyUnicode_GET_LENGTH(self->text);
    } else {
        uk_span(self, number - 1, &start, &end);
    }
    return Py_BuildValue("(nn)", (Py_ssize_t)start, (Py_ssize_t)end);
}

static PyObject *reference_groups(PyObject *op, PyObject *unused)
{
    (void)unused;
    PyObject *result = PyTuple_New(UK_COMPONENTS);
    if (result == NULL) {
        return NULL;
    }
    for (int k = 0; k < UK_COMPONENTS; k++) {
        PyObject *value = uk_component((uk_reference *)op, k);
        if (value == NULL) {
            Py_DECREF(result);
            return NULL;
        }
        PyTuple_SET_ITEM(result, k, value);
    }
    return result;
}

static PyObject *reference_get_component(PyObject *op, void *closure)
{
    return uk_component((uk_reference *)op, (int)(intptr_t)closure);
}

static PyObject *reference_get_text(PyObject *op, void *closure)
{
    (void)closure;
    return Py_NewRef(((uk_reference *)op)->text);
}

static PyObject *reference_sizeof(PyObject *op, PyObject *unused)
{
    (void)unused;
    Py_ssize_t size = Py_TYPE(op)->tp_basicsize;
    if (uk_is_wide((uk_reference *)op)) {
        size += UK_COMPONENTS * (Py_ssize_t)sizeof(ptrdiff_t);
    }
    return PyLong_FromSsize_t(size);
}

/* The docstrings are those of urikit._store.PureStore; tests/test_compiled.py compares. */
static PyGetSetDef reference_getset[] = {
    {"_text", reference_get_text, NULL, "The text of the reference, as given.", NULL},
    {"scheme", reference_get_component, NULL,
     "scheme (§3.1), as written (schemes compare case-insensitively).",
     (void *)(intptr_t)UK_C_SCHEME},
    {"authority", reference_get_component, NULL,
     "authority (§3.2): ``None`` when there is no \"//\".", (void *)(intptr_t)UK_C_AUTHORITY},
    {"userinfo", reference_get_component, NULL,
     "userinfo (§3.2.1): ``None`` when the authority has no \"@\".",
     (void *)(intptr_t)UK_C_USERINFO},
    {"host", reference_get_component, NULL,
     "host (§3.2.2) as written; an IP literal keeps its brackets.",
     (void *)(intptr_t)UK_C_HOST},
    {"port", reference_get_component, NULL,
     "port (§3.2.3), the exact digits: ``\"\"`` for ``http://h:/``, ``None`` with no \":\".",
     (void *)(intptr_t)UK_C_PORT},
    {"path", reference_get_component, NULL, "path (§3.3): always a string, possibly empty.",
     (void *)(intptr_t)UK_C_PATH},
    {"query", reference_get_component, NULL, "query (§3.4): ``None`` when there is no \"?\".",
     (void *)(intptr_t)UK_C_QUERY},
    {"fragment", reference_get_component, NULL,
     "fragment (§3.5): ``None`` when there is no \"#\".", (void *)(intptr_t)UK_C_FRAGMENT},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef reference_methods[] = {
    {"_parse", (PyCFunction)(void (*)(void))reference_parse, METH_FASTCALL | METH_CLASS,
     "A reference from the str text, which an operation built; cls._refuse(text) raises\n"
     "when it is not one."},
    {"_scan", (PyCFunction)(void (*)(void))reference_scan, METH_FASTCALL | METH_CLASS,
     "A reference from the str text, or None when it is not one."},
    {"_from_match", (PyCFunction)reference_from_match, METH_O | METH_CLASS,
     "A reference from a full match of the grammar's reference pattern."},
    {"_construct_directly", (PyCFunction)uk_reference_construct_directly, METH_NOARGS | METH_CLASS,
     "Make cls(text) scan and build without type.__call__'s argument tuple; cls keeps\n"
     "the grammar its _iri selects now, and whether its _rule is that grammar's reference\n"
     "rule, whose errors are then made in C (a subclass calls this for itself)."},
    {"_validator", (PyCFunction)uk_reference_validator, METH_O | METH_STATIC,
     "is_valid(text, rule='URI-reference') deciding the reference rules by one scan\n"
     "and leaving every other call to fallback (urikit.validate)."},
    {"_rule_validator", (PyCFunction)uk_reference_rule_validator, METH_VARARGS | METH_STATIC,
     "A function of one argument: for a str, whether it matches rule, one of the\n"
     "reference rules, decided by one scan; any other call is fallback's."},
    {"_refuse", (PyCFunction)reference_refuse, METH_O | METH_CLASS,
     "Raise the error for a text that is not a reference (subclasses say more)."},
    {"_group", (PyCFunction)reference_group, METH_O,
     "The component of group g (1 scheme ... 8 fragment; 0 the text), or None when\n"
     "undefined."},
    {"_span", (PyCFunction)reference_span, METH_O,
     "The span of group g (1 scheme ... 8 fragment; 0 the text); (-1, -1) when\n"
     "undefined."},
    {"_replace_query", (PyCFunction)uk_reference_replace_query, METH_O,
     "This reference with the query replaced (a str) or removed with its \"?\" (None),\n"
     "the rest kept as it is; None when query is not a query of the class's grammar."},
    {"_groups", (PyCFunction)reference_groups, METH_NOARGS,
     "The eight components, None where undefined."},
    {"__sizeof__", (PyCFunction)reference_sizeof, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

PyDoc_STRVAR(reference_doc,
             "Reference(text)\n--\n\n"
             "The storage of a URI or IRI reference: the text and the ends of its eight\n"
             "components, from one scan in the grammar the class attribute _iri selects.");

static PyType_Slot reference_slots[] = {
    {Py_tp_new, uk_reference_new},
    {Py_tp_dealloc, reference_dealloc},
    {Py_tp_getset, reference_getset},
    {Py_tp_methods, reference_methods},
    {Py_tp_doc, (void *)reference_doc},
    {0, NULL},
};

PyType_Spec uk_reference_spec = {
    .name = "urikit._speedups.Reference",
    .basicsize = sizeof(uk_reference),
    .itemsize = 0,
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .slots = reference_slots,
};
