/* urikit._template: URI Templates (RFC 6570) in C, the twin of the readable Python of
 * urikit.template for what its speed needs:
 *
 *     check(text) -> int       -1 when text is a URI Template (§2), else the position of
 *                              the first character that cannot belong to one (as
 *                              urikit.template.syntax.parse raises TemplateError there)
 *     conforms(instance)       the format "uri-template" of JSON Schema 2020-12
 *                              Validation §7.3.6: False for a str that is not a URI
 *                              Template, True for any other instance (a format of
 *                              strings passes what is not one, §7.1)
 *     Router(compiled)         a router read from Router.compiled() (a CompiledRouter)
 *     r.match(uri, after=-1)   the first template, the most specific first and ranked
 *                              after `after`, whose path through the tree uri follows and
 *                              whose regions it has: (index, rank, regions), the text of
 *                              each expression's region; None when none
 *     r.spans(uri, after=-1)   the same with (start, end, start, end, ...) for the regions
 *     r.match_json(texts, allow_dot_segments=False)
 *                              for a list of rows: (indexes, variables, rest), the index of
 *                              the template each row matches and its variables as JSON
 *                              (bind.c), None for a null row or a row that matches none,
 *                              and rest, the rows for which bind.c is not sure
 *
 * The values are read from the regions by the readable Python (Matcher.bind): decoding,
 * repeated variables and the safety checks of §3.2.3; where it refuses them, the caller
 * asks again with the rank it had.  bind.c writes them for the templates and values where
 * it gives what Matcher.bind gives, and leaves the other rows to it.  The object holds no
 * Python object; match_json grows its scratch buffer. */
#include "template.h"

typedef struct {
    PyObject_HEAD
    ut_router *router;
    Py_ssize_t *spans;
} router_object;

static int read_text(PyObject *o, ut_text *t, const char *what)
{
    if (!PyUnicode_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s takes a str, not %.80s", what, Py_TYPE(o)->tp_name);
        return -1;
    }
    t->data = PyUnicode_DATA(o);
    t->kind = PyUnicode_KIND(o);
    t->len = PyUnicode_GET_LENGTH(o);
    return 0;
}

static PyObject *check(PyObject *module, PyObject *text)
{
    (void)module;
    ut_text t;
    if (read_text(text, &t, "check()") < 0) {
        return NULL;
    }
    return PyLong_FromSsize_t(ut_check(&t));
}

static PyObject *conforms(PyObject *module, PyObject *instance)
{
    (void)module;
    if (!PyUnicode_Check(instance)) {
        Py_RETURN_TRUE;
    }
    ut_text t;
    if (read_text(instance, &t, "conforms()") < 0) {
        return NULL;
    }
    return PyBool_FromLong(ut_check(&t) < 0);
}

static PyObject *router_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    PyObject *compiled;
    static char *names[] = {"compiled", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O:Router", names, &compiled)) {
        return NULL;
    }
    ut_router *r = ut_router_build(compiled);
    if (r == NULL) {
        return NULL;
    }
    Py_ssize_t *spans = PyMem_Malloc(((size_t)r->max_expressions * 2 + 1) * sizeof *spans);
    if (spans == NULL) {
        ut_router_free(r);
        return PyErr_NoMemory();
    }
    router_object *self = (router_object *)type->tp_alloc(type, 0);
    if (self == NULL) {
        PyMem_Free(spans);
        ut_router_free(r);
        return NULL;
    }
    self->router = r;
    self->spans = spans;
    return (PyObject *)self;
}

static void router_dealloc(router_object *self)
{
    ut_router_free(self->router);
    PyMem_Free(self->spans);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* The template matched, or -1 (None to return), or -2 with an exception. */
static int32_t run_match(router_object *self, PyObject *const *args, Py_ssize_t nargs,
                         ut_text *uri, const char *what)
{
    if (nargs < 1 || nargs > 2) {
        PyErr_Format(PyExc_TypeError, "%s takes the URI and the rank after which to look", what);
        return -2;
    }
    if (read_text(args[0], uri, what) < 0) {
        return -2;
    }
    long after = -1;
    if (nargs == 2) {
        after = PyLong_AsLong(args[1]);
        if (after == -1 && PyErr_Occurred()) {
            return -2;
        }
        if (after < -1) {
            after = -1;
        }
        if (after >= INT32_MAX) {
            return -1;
        }
    }
    return ut_router_match(self->router, uri, (int32_t)after, self->spans);
}

static PyObject *router_match(router_object *self, PyObject *const *args, Py_ssize_t nargs)
{
    ut_text uri;
    int32_t k = run_match(self, args, nargs, &uri, "match()");
    if (k == -2) {
        return NULL;
    }
    if (k < 0) {
        Py_RETURN_NONE;
    }
    const ut_template *t = &self->router->templates[k];
    PyObject *regions = PyTuple_New(t->expressions);
    if (regions == NULL) {
        return NULL;
    }
    for (int32_t e = 0; e < t->expressions; e++) {
        Py_ssize_t start = self->spans[2 * e], end = self->spans[2 * e + 1];
        UT_ASSERT(0 <= start && start <= end && end <= uri.len);
        PyObject *text = PyUnicode_Substring(args[0], start, end);
        if (text == NULL) {
            Py_DECREF(regions);
            return NULL;
        }
        PyTuple_SET_ITEM(regions, e, text);
    }
    return Py_BuildValue("(iiN)", k, t->rank, regions);
}

static PyObject *router_spans(router_object *self, PyObject *const *args, Py_ssize_t nargs)
{
    ut_text uri;
    int32_t k = run_match(self, args, nargs, &uri, "spans()");
    if (k == -2) {
        return NULL;
    }
    if (k < 0) {
        Py_RETURN_NONE;
    }
    const ut_template *t = &self->router->templates[k];
    PyObject *spans = PyTuple_New(2 * (Py_ssize_t)t->expressions);
    if (spans == NULL) {
        return NULL;
    }
    for (int32_t i = 0; i < 2 * t->expressions; i++) {
        PyObject *n = PyLong_FromSsize_t(self->spans[i]);
        if (n == NULL) {
            Py_DECREF(spans);
            return NULL;
        }
        PyTuple_SET_ITEM(spans, i, n);
    }
    return Py_BuildValue("(iiN)", k, t->rank, spans);
}

static PyObject *router_match_json(router_object *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs < 1 || nargs > 2 || !PyList_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError,
                        "match_json() takes a list of rows and allow_dot_segments");
        return NULL;
    }
    int allow = 0;
    if (nargs == 2 && (allow = PyObject_IsTrue(args[1])) < 0) {
        return NULL;
    }
    PyObject *texts = args[0];
    Py_ssize_t n = PyList_GET_SIZE(texts);
    PyObject *indexes = PyList_New(n), *variables = PyList_New(n), *rest = PyList_New(0);
    if (indexes == NULL || variables == NULL || rest == NULL) {
        goto fail;
    }
    for (Py_ssize_t row = 0; row < n; row++) {
        PyObject *text = PyList_GET_ITEM(texts, row);
        PyObject *index = Py_None, *json = Py_None;
        Py_INCREF(Py_None);
        Py_INCREF(Py_None);
        PyList_SET_ITEM(indexes, row, index);
        PyList_SET_ITEM(variables, row, json);
        if (text == Py_None) {
            continue;
        }
        ut_text uri;
        int sure = 0;
        if (PyUnicode_Check(text)) {
            read_text(text, &uri, "match_json()");
            int32_t k = ut_router_match(self->router, &uri, -1, self->spans);
            Py_ssize_t len = 0;
            sure = k < 0 ? 1 : ut_bind_json(self->router, k, &uri, self->spans, allow, &len);
            if (sure < 0) {
                goto fail;
            }
            if (k >= 0 && sure) {
                if ((index = PyLong_FromLong(k)) == NULL) {
                    goto fail;
                }
                PyList_SetItem(indexes, row, index);
                if ((json = PyUnicode_DecodeUTF8(self->router->json, len, NULL)) == NULL) {
                    goto fail;
                }
                PyList_SetItem(variables, row, json);
            }
        }
        if (!sure) {
            PyObject *number = PyLong_FromSsize_t(row);
            if (number == NULL || PyList_Append(rest, number) < 0) {
                Py_XDECREF(number);
                goto fail;
            }
            Py_DECREF(number);
        }
    }
    return Py_BuildValue("(NNN)", indexes, variables, rest);
fail:
    Py_XDECREF(indexes);
    Py_XDECREF(variables);
    Py_XDECREF(rest);
    return NULL;
}

static PyMethodDef router_methods[] = {
    {"match", (PyCFunction)(void (*)(void))router_match, METH_FASTCALL,
     "match(uri, after=-1): (index, rank, regions) of the first template ranked after "
     "`after` whose regions uri has, or None."},
    {"spans", (PyCFunction)(void (*)(void))router_spans, METH_FASTCALL,
     "spans(uri, after=-1): (index, rank, (start, end, ...)) as match(), or None."},
    {"match_json", (PyCFunction)(void (*)(void))router_match_json, METH_FASTCALL,
     "match_json(texts, allow_dot_segments=False): (indexes, variables, rest) for a list "
     "of rows: each row's template and its variables as JSON, None where none matches, "
     "and the rows left to Matcher.bind."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject RouterType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "urikit._template.Router",
    .tp_basicsize = sizeof(router_object),
    .tp_dealloc = (destructor)router_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Router(compiled): a router of URI Templates read from Router.compiled().",
    .tp_methods = router_methods,
    .tp_new = router_new,
};

static PyMethodDef module_methods[] = {
    {"check", (PyCFunction)check, METH_O,
     "check(text): -1 when text is a URI Template (RFC 6570 §2), else the position of the "
     "first character that cannot belong to one."},
    {"conforms", (PyCFunction)conforms, METH_O,
     "conforms(instance): whether instance has the format \"uri-template\" of JSON Schema "
     "2020-12 (§7.3.6): False for a str that is not a URI Template (RFC 6570 §2), True for "
     "any other instance (§7.1)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef template_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "urikit._template",
    .m_doc = "URI Templates (RFC 6570) in C: the syntax check and a router's matching.",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__template(void)
{
    ut_syntax_init();
    if (PyType_Ready(&RouterType) < 0) {
        return NULL;
    }
    PyObject *module = PyModule_Create(&template_module);
    if (module == NULL) {
        return NULL;
    }
    Py_INCREF(&RouterType);
    if (PyModule_AddObject(module, "Router", (PyObject *)&RouterType) < 0) {
        Py_DECREF(&RouterType);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
