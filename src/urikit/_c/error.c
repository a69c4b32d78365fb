/* The URIError of a text that is not a reference, made in C from what the locator
 * (locate.h) says, as urikit.diagnose.locate and urikit.uri's _refuse would make it. */
#include "speedups.h"

#include "locate.h"

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
int uk_errors_init(uk_state *st, PyObject *module)
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
    st->non_ascii_args = Py_BuildValue("(s)", uk_loc_non_ascii_reason());
    st->explanations = PyTuple_New((Py_ssize_t)uk_loc_explanations());
    if (st->str_rule == NULL || st->rules[0] == NULL || st->rules[1] == NULL ||
        st->fields[0] == NULL || st->fields[1] == NULL || st->fields[2] == NULL ||
        st->fields[3] == NULL || st->non_ascii_args == NULL || st->explanations == NULL) {
        return -1;
    }
    for (unsigned k = 0; k < uk_loc_explanations(); k++) {
        PyObject *rule = PyUnicode_InternFromString(uk_loc_rule(k));
        PyObject *entry = rule == NULL ? NULL : Py_BuildValue("(N(s))", rule, uk_loc_reason(k));
        if (entry == NULL) {
            return -1;
        }
        PyTuple_SET_ITEM(st->explanations, (Py_ssize_t)k, entry);
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
PyObject *uk_locate_error(uk_state *st, PyObject *text, int iri)
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
int uk_refuses_as_reference(PyTypeObject *cls, uk_state *st, int iri)
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
PyObject *uk_refuse_as(PyTypeObject *cls, uk_state *st, PyObject *text, int iri, int ours)
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

