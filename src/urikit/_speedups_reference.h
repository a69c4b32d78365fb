/* _speedups.Reference: the storage of urikit's value type, in C.
 *
 * Included once by _speedups.c, after the module definition speedups_module and the
 * module state uk_state are declared.
 *
 * A reference is its text (an exact str) and the ends of its eight components, one
 * scan of the text by _speedups_scan.h; a start is derived from the ends when it is
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
 *                              raised from C (uk_refuse) if cls._rule names the
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

#ifndef UK_NARROW_MAX
#define UK_NARROW_MAX INT32_MAX
#endif
#if UK_NARROW_MAX > INT32_MAX || UK_NARROW_MAX < 0
#error "UK_NARROW_MAX must fit an int32_t"
#endif

typedef struct {
    PyObject_HEAD
    PyObject *text;
    union {
        int32_t narrow[UK_COMPONENTS]; /* when len(text) <= UK_NARROW_MAX */
        ptrdiff_t *wide;               /* else: PyMem_Malloc'd, UK_COMPONENTS long */
    } ends;
} uk_reference;

static inline int uk_is_wide(const uk_reference *r)
{
    return PyUnicode_GET_LENGTH(r->text) > UK_NARROW_MAX;
}

static inline void uk_load_ends(const uk_reference *r, ptrdiff_t ends[UK_COMPONENTS])
{
    if (uk_is_wide(r)) {
        memcpy(ends, r->ends.wide, UK_COMPONENTS * sizeof(ptrdiff_t));
    } else {
        for (int k = 0; k < UK_COMPONENTS; k++) {
            ends[k] = r->ends.narrow[k];
        }
    }
}

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

static struct PyModuleDef speedups_module;

static uk_state *uk_state_of(PyTypeObject *cls)
{
#if PY_VERSION_HEX >= 0x030B0000
    PyObject *module = PyType_GetModuleByDef(cls, &speedups_module);
    return module == NULL ? NULL : (uk_state *)PyModule_GetState(module);
#else
    PyObject *mro = cls->tp_mro;
    for (Py_ssize_t i = 0; mro != NULL && i < PyTuple_GET_SIZE(mro); i++) {
        PyTypeObject *base = (PyTypeObject *)PyTuple_GET_ITEM(mro, i);
        if (PyType_HasFeature(base, Py_TPFLAGS_HEAPTYPE)) {
            PyObject *module = ((PyHeapTypeObject *)base)->ht_module;
            if (module != NULL && PyModule_GetDef(module) == &speedups_module) {
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
static int uk_scan_text(PyObject *text, int iri, ptrdiff_t spans[UK_SPANS])
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

/* --- the error of an invalid text ------------------------------------------------------ */

#if PY_VERSION_HEX >= 0x030C0000
#define UK_T_OBJECT_EX Py_T_OBJECT_EX
#define UK_READONLY Py_READONLY
#else
#include <structmember.h>
#define UK_T_OBJECT_EX T_OBJECT_EX
#define UK_READONLY READONLY
#endif

/* Import urikit.errors.URIError into st->uri_error, the descriptors of its four slots
 * into st->error_slots (NULL for a field without one) and, for a slot that holds any
 * object, where it lies in the instance into st->error_offsets (0 for the others).
 * Done when the module is made, so that nothing changes in the state afterwards. */
static int uk_import_error_type(uk_state *st)
{
    PyObject *errors = PyImport_Import(st->errors_name);
    if (errors == NULL) {
        return -1;
    }
    PyObject *type = PyObject_GetAttrString(errors, "URIError");
    Py_DECREF(errors);
    if (type == NULL) {
        return -1;
    }
    if (!PyType_Check(type) ||
        !PyType_IsSubtype((PyTypeObject *)type, (PyTypeObject *)PyExc_ValueError)) {
        Py_DECREF(type);
        PyErr_Format(PyExc_TypeError, "%U.URIError is not a ValueError", st->errors_name);
        return -1;
    }
    st->uri_error = type;
    for (int k = 0; k < 4; k++) {
        PyObject *slot = PyObject_GetAttr(type, st->fields[k]);
        if (slot == NULL) {
            PyErr_Clear();
        } else if (!PyObject_TypeCheck(slot, &PyMemberDescr_Type) ||
                   Py_TYPE(slot)->tp_descr_set == NULL) {
            Py_CLEAR(slot);
        }
        st->error_slots[k] = slot;
        st->error_offsets[k] = 0;
        if (slot != NULL) {
            const PyMemberDef *member = ((PyMemberDescrObject *)slot)->d_member;
            if (member->type == UK_T_OBJECT_EX && !(member->flags & UK_READONLY) &&
                member->offset > 0) {
                st->error_offsets[k] = member->offset;
            }
        }
    }
    return 0;
}

/* The names and the explanations the locator needs, made once per module. */
static int uk_locate_init(uk_state *st, PyObject *module)
{
    /* The errors module of the package this module was imported from (a copy of the
     * package imported under another name has its own URIError). */
    PyObject *name = PyModule_GetNameObject(module);
    if (name == NULL) {
        return -1;
    }
    Py_ssize_t dot = PyUnicode_FindChar(name, '.', 0, PyUnicode_GET_LENGTH(name), -1);
    PyObject *package = dot >= 0 ? PyUnicode_Substring(name, 0, dot)
                        : dot == -1 ? PyUnicode_FromString("urikit")
                                    : NULL;
    Py_DECREF(name);
    if (package == NULL) {
        return -1;
    }
    st->errors_name = PyUnicode_FromFormat("%U.errors", package);
    Py_DECREF(package);
    if (st->errors_name == NULL) {
        return -1;
    }
    static const char *const fields[4] = {"reason", "text", "position", "rule"};
    st->str_rule = PyUnicode_InternFromString("_rule");
    st->rules[0] = PyUnicode_InternFromString("URI-reference");
    st->rules[1] = PyUnicode_InternFromString("IRI-reference");
    for (int k = 0; k < 4; k++) {
        st->fields[k] = PyUnicode_InternFromString(fields[k]);
    }
    st->non_ascii_args = Py_BuildValue("(s)", uk_loc_non_ascii_reason);
    st->explanations = PyTuple_New(UK_LOC_EXPLANATIONS);
    if (st->str_rule == NULL || st->rules[0] == NULL || st->rules[1] == NULL ||
        st->fields[0] == NULL || st->fields[1] == NULL || st->fields[2] == NULL ||
        st->fields[3] == NULL || st->non_ascii_args == NULL || st->explanations == NULL) {
        return -1;
    }
    for (Py_ssize_t k = 0; k < UK_LOC_EXPLANATIONS; k++) {
        PyObject *rule = PyUnicode_InternFromString(uk_loc_explanations[k].rule);
        PyObject *entry =
            rule == NULL ? NULL : Py_BuildValue("(N(s))", rule, uk_loc_explanations[k].reason);
        if (entry == NULL) {
            return -1;
        }
        PyTuple_SET_ITEM(st->explanations, k, entry);
    }
    return uk_import_error_type(st);
}

/* 1 and *failure when the str text is not a reference of the grammar (iri), else 0. */
static int uk_locate_text(PyObject *text, int iri, uk_failure *failure)
{
    static const int width[5] = {0, 1, 2, 0, 4};
    return uk_locate(PyUnicode_DATA(text), width[PyUnicode_KIND(text)],
                     PyUnicode_GET_LENGTH(text), iri, failure);
}

/* A new URIError for the str text with what urikit.diagnose.locate says, made as its
 * __init__ would make it (args (reason,); reason, text, position and rule in its
 * slots) without running Python code; None when text is a reference. */
static PyObject *uk_locate_error(uk_state *st, PyObject *text, int iri)
{
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(text) < 0) {
        return NULL;
    }
#endif
    uk_failure failure;
    if (!uk_locate_text(text, iri, &failure)) {
        Py_RETURN_NONE;
    }
    PyObject *type = st->uri_error;
    PyObject *entry = PyTuple_GET_ITEM(st->explanations, failure.explanation);
    PyObject *args = failure.non_ascii ? st->non_ascii_args : PyTuple_GET_ITEM(entry, 1);
    PyObject *error = ((PyTypeObject *)type)->tp_new((PyTypeObject *)type, args, NULL);
    if (error == NULL) {
        return NULL;
    }
    PyObject *position = PyLong_FromSsize_t(failure.position);
    PyObject *values[4] = {PyTuple_GET_ITEM(args, 0), text, position,
                           PyTuple_GET_ITEM(entry, 0)};
    int ok = position != NULL;
    for (int k = 0; ok && k < 4; k++) {
        PyObject *slot = st->error_slots[k];
        if (st->error_offsets[k] > 0) { /* as the descriptor would store it */
            Py_XSETREF(*(PyObject **)((char *)error + st->error_offsets[k]),
                       Py_NewRef(values[k]));
            continue;
        }
        ok = (slot != NULL ? Py_TYPE(slot)->tp_descr_set(slot, error, values[k])
                           : PyObject_SetAttr(error, st->fields[k], values[k])) == 0;
    }
    Py_XDECREF(position);
    if (!ok) {
        Py_DECREF(error);
        return NULL;
    }
    return error;
}

/* 1 when cls._rule is the reference rule of the grammar (iri), 0 when it is not, -1
 * with an error. */
static int uk_refuses_as_reference(PyTypeObject *cls, uk_state *st, int iri)
{
    PyObject *rule = PyObject_GetAttr((PyObject *)cls, st->str_rule);
    if (rule == NULL) {
        if (!PyErr_ExceptionMatches(PyExc_AttributeError)) {
            return -1;
        }
        PyErr_Clear();
        return 0;
    }
    int ours = rule == st->rules[iri != 0] ||
               (PyUnicode_Check(rule) && PyUnicode_Compare(rule, st->rules[iri != 0]) == 0);
    Py_DECREF(rule);
    return ours;
}

/* Raise the error for the exact str text, which is not a reference of the grammar
 * (iri): from C when the class refuses as a reference (ours, or ours < 0 to ask
 * uk_refuses_as_reference), as urikit.uri's _refuse would raise it, else by calling
 * cls._refuse(text). */
static PyObject *uk_refuse_as(PyTypeObject *cls, uk_state *st, PyObject *text, int iri, int ours)
{
    if (ours < 0 && (ours = uk_refuses_as_reference(cls, st, iri)) < 0) {
        return NULL;
    }
    if (ours) {
        PyObject *error = uk_locate_error(st, text, iri);
        if (error == NULL) {
            return NULL;
        }
        if (error != Py_None) {
            PyErr_SetObject((PyObject *)Py_TYPE(error), error);
            Py_DECREF(error);
            return NULL;
        }
        Py_DECREF(error); /* the scanner and the locator disagree: let Python say */
    }
    PyObject *result = PyObject_CallMethodOneArg((PyObject *)cls, st->str_refuse, text);
    if (result != NULL) {
        Py_DECREF(result);
        PyErr_Format(PyExc_SystemError, "%.200s._refuse() returned instead of raising",
                     cls->tp_name);
    }
    return NULL;
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
static int uk_class_iri(PyTypeObject *cls, uk_state *st)
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

static PyObject *uk_instance(PyTypeObject *cls, PyObject *text, const ptrdiff_t spans[UK_SPANS]);

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
static PyObject *uk_instance(PyTypeObject *cls, PyObject *text, const ptrdiff_t spans[UK_SPANS])
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
    if (untracked) {
        PyObject_GC_UnTrack(self);
    }
    return (PyObject *)self;
}

static PyObject *reference_new(PyTypeObject *cls, PyObject *args, PyObject *kwds)
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
        cls->tp_new == reference_new && cls->tp_init == PyBaseObject_Type.tp_init) {
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

static PyObject *reference_construct_directly(PyObject *cls, PyObject *unused)
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

typedef struct {
    const char *name;
    int iri, needs_scheme, no_fragment, no_scheme;
} uk_scanned_rule;

/* The order of urikit.validate._SCANNED. */
static const uk_scanned_rule uk_scanned_rules[] = {
    {"URI-reference", 0, 0, 0, 0}, {"URI", 0, 1, 0, 0},          {"absolute-URI", 0, 1, 1, 0},
    {"relative-ref", 0, 0, 0, 1},  {"IRI-reference", 1, 0, 0, 0}, {"IRI", 1, 1, 0, 0},
    {"absolute-IRI", 1, 1, 1, 0},  {"irelative-ref", 1, 0, 0, 1},
};

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

static const uk_scanned_rule *uk_scanned_rule_named(PyObject *name)
{
    for (size_t i = 0; i < sizeof uk_scanned_rules / sizeof uk_scanned_rules[0]; i++) {
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

static PyObject *reference_validator(PyObject *unused, PyObject *fallback)
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
    int valid = uk_matches_rule(args[0], &uk_scanned_rules[index]);
    return valid < 0 ? NULL : PyBool_FromLong(valid);
}

static PyMethodDef uk_rule_is_valid_def = {
    "conforms", (PyCFunction)(void (*)(void))uk_rule_is_valid, METH_FASTCALL | METH_KEYWORDS,
    "conforms(text)\n--\n\n"
    "Does the str text match the rule?  (A reference rule answered from one scan by the\n"
    "compiled core; any other argument goes to the fallback.)"};

static PyObject *reference_rule_validator(PyObject *unused, PyObject *args)
{
    (void)unused;
    PyObject *name, *fallback;
    if (!PyArg_ParseTuple(args, "UO:_rule_validator", &name, &fallback)) {
        return NULL;
    }
    const uk_scanned_rule *rule = uk_scanned_rule_named(name);
    if (rule == NULL || !PyCallable_Check(fallback)) {
        PyErr_Format(PyExc_ValueError, "_rule_validator() takes a reference rule and a "
                                       "callable, not %R", name);
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
    const uk_ext ext = iri ? (uk_ext){uk_iri_query_ext, UK_IRI_QUERY_EXT_COUNT} : uk_no_ext;
    switch (PyUnicode_KIND(text)) {
    case PyUnicode_1BYTE_KIND:
        return uk_star_ucs1((const uint8_t *)data, 0, n, UK_QUERY, ext) == n;
    case PyUnicode_2BYTE_KIND:
        return uk_star_ucs2((const uint16_t *)data, 0, n, UK_QUERY, ext) == n;
    case PyUnicode_4BYTE_KIND:
        return uk_star_ucs4((const uint32_t *)data, 0, n, UK_QUERY, ext) == n;
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
static PyObject *reference_replace_query(PyObject *op, PyObject *query)
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
    {"_construct_directly", (PyCFunction)reference_construct_directly, METH_NOARGS | METH_CLASS,
     "Make cls(text) scan and build without type.__call__'s argument tuple; cls keeps\n"
     "the grammar its _iri selects now, and whether its _rule is that grammar's reference\n"
     "rule, whose errors are then made in C (a subclass calls this for itself)."},
    {"_validator", (PyCFunction)reference_validator, METH_O | METH_STATIC,
     "is_valid(text, rule='URI-reference') deciding the reference rules by one scan\n"
     "and leaving every other call to fallback (urikit.validate)."},
    {"_rule_validator", (PyCFunction)reference_rule_validator, METH_VARARGS | METH_STATIC,
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
    {"_replace_query", (PyCFunction)reference_replace_query, METH_O,
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
    {Py_tp_new, reference_new},
    {Py_tp_dealloc, reference_dealloc},
    {Py_tp_getset, reference_getset},
    {Py_tp_methods, reference_methods},
    {Py_tp_doc, (void *)reference_doc},
    {0, NULL},
};

static PyType_Spec reference_spec = {
    .name = "urikit._speedups.Reference",
    .basicsize = sizeof(uk_reference),
    .itemsize = 0,
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .slots = reference_slots,
};
