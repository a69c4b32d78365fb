/* What the units of the module urikit._speedups share: the module state, and the
 * functions one unit offers the others.
 *
 *     speedups.c        the module: scan(), locate(), its state
 *     reference.c       Reference, the storage of the value type
 *     reference_calls.c the calls Reference answers without a Python frame: cls(text),
 *                       is_valid, a new query
 *     error.c           the URIError of an invalid text, from the locator
 *     ops_py.c          resolve, normalize, remove_dot_segments, the percent codec
 *     lenient.c         lenient_encode, the lenient reading's repairs
 *     triplets.c        triplet_runs, triplet_concerns, triplet_find
 *     chars.c           chars_in
 *     sites.c           sites_table, sites_find: the Public Suffix List lookup
 */
#ifndef URIKIT_C_SPEEDUPS_H
#define URIKIT_C_SPEEDUPS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stddef.h>

#include "contracts.h"

/* What the module keeps: its type, and the names the type looks up. */
typedef struct {
    PyTypeObject *reference_type;
    PyObject *str_iri;    /* "_iri": the class attribute that selects the grammar */
    PyObject *str_refuse; /* "_refuse": the classmethod that raises for invalid text */
    PyObject *str_string; /* "string": the text of a re.Match */
    PyObject *str_scheme; /* "scheme" and "syntax": the levels of normalize_in */
    PyObject *str_syntax;
    PyObject *str_rule;   /* "_rule": the class attribute naming the rule of an error */
    PyObject *rules[2];   /* "URI-reference", "IRI-reference" */
    PyObject *fields[4];  /* "reason", "text", "position", "rule": URIError's attributes */
    PyObject *explanations; /* by explanation (locate.h): (rule, (reason,)) */
    PyObject *non_ascii_args; /* (uk_loc_non_ascii_reason(),) */
    PyObject *error_slots[4]; /* URIError's descriptors of the fields */
    Py_ssize_t error_offsets[4]; /* where a slot of an object field lies, else 0 */
    PyObject *errors_name; /* "urikit.errors", beside this module in its package */
    PyObject *uri_error;  /* urikit.errors.URIError, beside this module */
} uk_state;

/* The definition of the module, by which a subclass of Reference finds its state. */
extern struct PyModuleDef uk_speedups_module;

/* The state of the module of Reference, from any subclass cls; NULL with an error. */
uk_state *uk_state_of(PyTypeObject *cls);

/* --- reference.c ---------------------------------------------------------------------- */

/* The spec of the type Reference. */
extern PyType_Spec uk_reference_spec;

/* 1 and the spans when the str text is a reference of the grammar (iri), 0 when it is
 * not, -1 on error. */
int uk_scan_text(PyObject *text, int iri, ptrdiff_t spans[UK_SPANS]);

/* The grammar of cls, its class attribute _iri: 1 for RFC 3987, 0 for RFC 3986, -1 with
 * an error. */
int uk_class_iri(PyTypeObject *cls, uk_state *st);

/* A new instance of cls for the exact str text, a reference with these spans (of which
 * only the ends are read). */
PyObject *uk_instance(PyTypeObject *cls, PyObject *text, const ptrdiff_t spans[UK_SPANS]);

/* The tp_new of Reference, which the calls without a frame test for. */
PyObject *uk_reference_new(PyTypeObject *cls, PyObject *args, PyObject *kwds);

/* --- reference_calls.c ------------------------------------------------------------------ */

/* Reference._construct_directly, Reference._validator, Reference._rule_validator and
 * r._replace_query. */
PyObject *uk_reference_construct_directly(PyObject *cls, PyObject *unused);
PyObject *uk_reference_validator(PyObject *unused, PyObject *fallback);
PyObject *uk_reference_rule_validator(PyObject *unused, PyObject *args);
PyObject *uk_reference_replace_query(PyObject *op, PyObject *query);

/* --- error.c ------------------------------------------------------------------------------ */

/* The names and the explanations the errors need, made once per module. */
int uk_errors_init(uk_state *st, PyObject *module);

/* A new URIError for the str text with what urikit.diagnose.locate says, or None when
 * text is a reference. */
PyObject *uk_locate_error(uk_state *st, PyObject *text, int iri);

/* 1 when cls._rule is the reference rule of the grammar (iri), 0 when it is not, -1
 * with an error. */
int uk_refuses_as_reference(PyTypeObject *cls, uk_state *st, int iri);

/* Raise the error for the exact str text, which is not a reference of the grammar
 * (iri): from C when the class refuses as a reference (ours, or ours < 0 to ask
 * uk_refuses_as_reference), else by calling cls._refuse(text); NULL. */
PyObject *uk_refuse_as(PyTypeObject *cls, uk_state *st, PyObject *text, int iri, int ours);

/* --- the functions of the other units ------------------------------------------------------ */

extern PyMethodDef uk_ops_methods[];     /* ops_py.c */
extern PyMethodDef uk_lenient_methods[]; /* lenient.c */
extern PyMethodDef uk_triplet_methods[]; /* triplets.c */
extern PyMethodDef uk_chars_methods[];   /* chars.c */
extern PyMethodDef uk_sites_methods[];   /* sites.c */

#endif /* URIKIT_C_SPEEDUPS_H */
