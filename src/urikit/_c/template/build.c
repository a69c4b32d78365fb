/* A router read from its plain data, urikit.template.routing.CompiledRouter:
 *
 *   nodes     ({first character: (label, child)}, ((shape, child), ...),
 *              ((shape, literal ending, (template, ...)), ...), (template, ...))
 *   shapes    (first character or "", body characters)
 *   tokens    per template: ("literal", expansion) or ("expression", op, specs, shape),
 *             specs ((name, prefix or None, explode), ...)
 *   order     the templates, the most specific first
 *
 * Anything else raises TypeError or ValueError; ut_router_finish then checks every index. */
#include "template.h"

typedef struct {
    void **data;
    int32_t *count;
    int32_t cap;
    size_t size;
} vec;

/* Room for one more item of v: its index, or -1 with MemoryError. */
static int32_t vec_push(vec *v)
{
    if (*v->count == v->cap) {
        if (v->cap > INT32_MAX / 2 - 8) {
            PyErr_NoMemory();
            return -1;
        }
        int32_t cap = v->cap * 2 + 8;
        void *grown = PyMem_Realloc(*v->data, (size_t)cap * v->size);
        if (grown == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        *v->data = grown;
        v->cap = cap;
    }
    return (*v->count)++;
}

typedef struct {
    ut_router *r;
    Py_ssize_t pool_cap;
    vec nodes, edges, regions, tails, ints, shapes, tokens, templates, vars;
} builder;

static int add_str(builder *b, PyObject *text, ut_str *out)
{
    if (!PyUnicode_Check(text)) {
        PyErr_Format(PyExc_TypeError, "a compiled router holds str, not %.80s",
                     Py_TYPE(text)->tp_name);
        return -1;
    }
    if (!PyUnicode_IS_ASCII(text)) {
        PyErr_SetString(PyExc_ValueError, "a compiled router holds ASCII text only (RFC 6570 §3.1)");
        return -1;
    }
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    ut_router *r = b->r;
    out->at = r->pool_len;
    out->len = n;
    if (n == 0) {
        return 0;
    }
    if (n > b->pool_cap - r->pool_len) {
        if (n > PY_SSIZE_T_MAX / 4 - r->pool_len) {
            PyErr_NoMemory();
            return -1;
        }
        Py_ssize_t cap = (r->pool_len + n) * 2 + 64;
        char *grown = PyMem_Realloc(r->pool, (size_t)cap);
        if (grown == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        r->pool = grown;
        b->pool_cap = cap;
    }
    memcpy(r->pool + r->pool_len, PyUnicode_1BYTE_DATA(text), (size_t)n);
    r->pool_len += n;
    return 0;
}

static int as_int32(PyObject *o, int32_t *out)
{
    if (!PyLong_Check(o)) {
        PyErr_Format(PyExc_TypeError, "a compiled router holds int, not %.80s", Py_TYPE(o)->tp_name);
        return -1;
    }
    long v = PyLong_AsLong(o);
    if (v == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (v < 0 || v > INT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "a compiled router whose index is out of range");
        return -1;
    }
    *out = (int32_t)v;
    return 0;
}

/* The items of a tuple or list: a new reference from PySequence_Fast, of `size` items when
 * size >= 0. */
static PyObject *items(PyObject *o, Py_ssize_t size)
{
    if (!PyTuple_Check(o) && !PyList_Check(o)) {
        PyErr_Format(PyExc_TypeError, "a compiled router holds tuples, not %.80s",
                     Py_TYPE(o)->tp_name);
        return NULL;
    }
    PyObject *seq = PySequence_Fast(o, "a tuple");
    if (seq != NULL && size >= 0 && PySequence_Fast_GET_SIZE(seq) != size) {
        PyErr_Format(PyExc_ValueError, "a compiled router holds tuples of %zd here", size);
        Py_CLEAR(seq);
    }
    return seq;
}

#define ITEM(seq, i) PySequence_Fast_GET_ITEM(seq, i)
#define SIZE(seq) PySequence_Fast_GET_SIZE(seq)

/* Template indexes appended to ints: the first, and the count in *count. */
static int add_ints(builder *b, PyObject *o, int32_t *first, int32_t *count)
{
    PyObject *seq = items(o, -1);
    if (seq == NULL) {
        return -1;
    }
    *first = b->r->int_count;
    *count = 0;
    for (Py_ssize_t i = 0; i < SIZE(seq); i++) {
        int32_t k = vec_push(&b->ints);
        if (k < 0 || as_int32(ITEM(seq, i), &b->r->ints[k]) < 0) {
            Py_DECREF(seq);
            return -1;
        }
        (*count)++;
    }
    Py_DECREF(seq);
    return 0;
}

static int by_char(const void *a, const void *b)
{
    return (int)((const ut_edge *)a)->ch - (int)((const ut_edge *)b)->ch;
}

static int add_node(builder *b, PyObject *o)
{
    ut_router *r = b->r;
    PyObject *seq = items(o, 4), *part = NULL;
    int32_t k;
    if (seq == NULL || (k = vec_push(&b->nodes)) < 0) {
        goto fail;
    }
    ut_node *node = &r->nodes[k];
    memset(node, 0, sizeof *node);
    /* literal edges, sorted by their first character */
    PyObject *edges = ITEM(seq, 0);
    if (!PyDict_Check(edges)) {
        PyErr_SetString(PyExc_TypeError, "a compiled router's edges are a dict");
        goto fail;
    }
    node->edges = r->edge_count;
    PyObject *key, *value;
    Py_ssize_t at = 0;
    while (PyDict_Next(edges, &at, &key, &value)) {
        int32_t e = vec_push(&b->edges);
        if (e < 0 || (part = items(value, 2)) == NULL) {
            goto fail;
        }
        ut_edge *edge = &r->edges[e];
        if (!PyUnicode_Check(key) || PyUnicode_GET_LENGTH(key) != 1 ||
            PyUnicode_READ_CHAR(key, 0) > 0x7F) {
            PyErr_SetString(PyExc_ValueError, "a compiled router's edge is keyed by one ASCII character");
            goto fail;
        }
        edge->ch = (unsigned char)PyUnicode_READ_CHAR(key, 0);
        if (add_str(b, ITEM(part, 0), &edge->label) < 0 || as_int32(ITEM(part, 1), &edge->child) < 0) {
            goto fail;
        }
        Py_CLEAR(part);
    }
    node = &r->nodes[k];
    node->edge_count = r->edge_count - node->edges;
    if (node->edge_count > 1) {
        qsort(r->edges + node->edges, (size_t)node->edge_count, sizeof(ut_edge), by_char);
    }
    /* region edges */
    PyObject *regions = items(ITEM(seq, 1), -1);
    if (regions == NULL) {
        goto fail;
    }
    node->regions = r->region_count;
    for (Py_ssize_t i = 0; i < SIZE(regions); i++) {
        int32_t e = vec_push(&b->regions);
        if (e < 0 || (part = items(ITEM(regions, i), 2)) == NULL ||
            as_int32(ITEM(part, 0), &r->regions[e].shape) < 0 ||
            as_int32(ITEM(part, 1), &r->regions[e].child) < 0) {
            Py_DECREF(regions);
            goto fail;
        }
        Py_CLEAR(part);
    }
    Py_DECREF(regions);
    node = &r->nodes[k];
    node->region_count = r->region_count - node->regions;
    /* last edges */
    PyObject *tails = items(ITEM(seq, 2), -1);
    if (tails == NULL) {
        goto fail;
    }
    node->tails = r->tail_count;
    for (Py_ssize_t i = 0; i < SIZE(tails); i++) {
        int32_t e = vec_push(&b->tails);
        if (e < 0 || (part = items(ITEM(tails, i), 3)) == NULL) {
            Py_DECREF(tails);
            goto fail;
        }
        ut_tail tail;
        if (as_int32(ITEM(part, 0), &tail.shape) < 0 || add_str(b, ITEM(part, 1), &tail.suffix) < 0 ||
            add_ints(b, ITEM(part, 2), &tail.templates, &tail.count) < 0) {
            Py_DECREF(tails);
            goto fail;
        }
        r->tails[e] = tail;
        Py_CLEAR(part);
    }
    Py_DECREF(tails);
    node = &r->nodes[k];
    node->tail_count = r->tail_count - node->tails;
    int32_t ends, end_count;
    if (add_ints(b, ITEM(seq, 3), &ends, &end_count) < 0) {
        goto fail;
    }
    node = &r->nodes[k];
    node->ends = ends;
    node->end_count = end_count;
    Py_DECREF(seq);
    return 0;
fail:
    Py_XDECREF(part);
    Py_XDECREF(seq);
    return -1;
}

static int add_shape(builder *b, PyObject *o)
{
    PyObject *seq = items(o, 2);
    int32_t k;
    if (seq == NULL || (k = vec_push(&b->shapes)) < 0) {
        Py_XDECREF(seq);
        return -1;
    }
    ut_shape *shape = &b->r->shapes[k];
    memset(shape, 0, sizeof *shape);
    PyObject *first = ITEM(seq, 0), *body = ITEM(seq, 1);
    if (!PyUnicode_Check(first) || !PyUnicode_Check(body) || !PyUnicode_IS_ASCII(first) ||
        !PyUnicode_IS_ASCII(body) || PyUnicode_GET_LENGTH(first) > 1) {
        PyErr_SetString(PyExc_ValueError, "a compiled router's shape is two ASCII str");
        Py_DECREF(seq);
        return -1;
    }
    if (PyUnicode_GET_LENGTH(first) == 1) {
        shape->first = PyUnicode_1BYTE_DATA(first)[0];
    }
    const Py_UCS1 *chars = PyUnicode_1BYTE_DATA(body);
    for (Py_ssize_t i = 0; i < PyUnicode_GET_LENGTH(body); i++) {
        shape->body[chars[i] >> 3] |= (uint8_t)(1u << (chars[i] & 7));
    }
    Py_DECREF(seq);
    return 0;
}

/* The operator and the variable names of expression token t: (name, prefix or None,
 * explode) each; *plain is cleared where one has a prefix or explode. */
static int add_varspecs(builder *b, PyObject *op, PyObject *specs, int32_t t, int *plain)
{
    ut_router *r = b->r;
    if (!PyUnicode_Check(op) || !PyUnicode_IS_ASCII(op) || PyUnicode_GET_LENGTH(op) > 1) {
        PyErr_SetString(PyExc_ValueError, "a compiled router's operator is one ASCII character");
        return -1;
    }
    unsigned char c = PyUnicode_GET_LENGTH(op) ? PyUnicode_1BYTE_DATA(op)[0] : 0;
    if (c != 0 && strchr("+#./;?&", c) == NULL) {
        PyErr_SetString(PyExc_ValueError, "a compiled router's operator is one of + # . / ; ? &");
        return -1;
    }
    PyObject *seq = items(specs, -1), *spec = NULL;
    if (seq == NULL) {
        return -1;
    }
    r->tokens[t].op = c;
    r->tokens[t].vars = r->var_count;
    for (Py_ssize_t i = 0; i < SIZE(seq); i++) {
        int32_t v = vec_push(&b->vars);
        if (v < 0 || (spec = items(ITEM(seq, i), 3)) == NULL ||
            add_str(b, ITEM(spec, 0), &r->vars[v]) < 0) {
            Py_XDECREF(spec);
            Py_DECREF(seq);
            return -1;
        }
        int explode = PyObject_IsTrue(ITEM(spec, 2));
        if (explode < 0) {
            Py_DECREF(spec);
            Py_DECREF(seq);
            return -1;
        }
        if (explode || ITEM(spec, 1) != Py_None) {
            *plain = 0;
        }
        Py_CLEAR(spec);
    }
    r->tokens[t].var_count = r->var_count - r->tokens[t].vars;
    Py_DECREF(seq);
    return 0;
}

static int add_template(builder *b, PyObject *o)
{
    ut_router *r = b->r;
    PyObject *seq = items(o, -1), *token = NULL;
    int32_t k;
    if (seq == NULL || (k = vec_push(&b->templates)) < 0) {
        goto fail;
    }
    r->templates[k].tokens = r->token_count;
    r->templates[k].rank = -1;
    r->templates[k].plain = 1;
    for (Py_ssize_t i = 0; i < SIZE(seq); i++) {
        int32_t t = vec_push(&b->tokens);
        if (t < 0 || (token = items(ITEM(seq, i), -1)) == NULL) {
            goto fail;
        }
        PyObject *kind = SIZE(token) > 0 ? ITEM(token, 0) : NULL;
        ut_token *tok = &r->tokens[t];
        tok->text.at = tok->text.len = 0;
        tok->op = 0;
        tok->vars = tok->var_count = 0;
        if (kind != NULL && PyUnicode_Check(kind) && SIZE(token) == 2 &&
            PyUnicode_CompareWithASCIIString(kind, "literal") == 0) {
            tok->shape = -1;
            if (add_str(b, ITEM(token, 1), &r->tokens[t].text) < 0) {
                goto fail;
            }
        } else if (kind != NULL && PyUnicode_Check(kind) && SIZE(token) == 4 &&
                   PyUnicode_CompareWithASCIIString(kind, "expression") == 0) {
            if (as_int32(ITEM(token, 3), &tok->shape) < 0 ||
                add_varspecs(b, ITEM(token, 1), ITEM(token, 2), t, &r->templates[k].plain) < 0) {
                goto fail;
            }
        } else {
            PyErr_SetString(PyExc_ValueError, "a compiled router's token is a literal or an expression");
            goto fail;
        }
        Py_CLEAR(token);
    }
    r->templates[k].token_count = r->token_count - r->templates[k].tokens;
    Py_DECREF(seq);
    return 0;
fail:
    Py_XDECREF(token);
    Py_XDECREF(seq);
    return -1;
}

ut_router *ut_router_build(PyObject *compiled)
{
    ut_router *r = PyMem_Calloc(1, sizeof *r);
    if (r == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    builder b = {.r = r};
    b.nodes = (vec){(void **)&r->nodes, &r->node_count, 0, sizeof(ut_node)};
    b.edges = (vec){(void **)&r->edges, &r->edge_count, 0, sizeof(ut_edge)};
    b.regions = (vec){(void **)&r->regions, &r->region_count, 0, sizeof(ut_region_edge)};
    b.tails = (vec){(void **)&r->tails, &r->tail_count, 0, sizeof(ut_tail)};
    b.ints = (vec){(void **)&r->ints, &r->int_count, 0, sizeof(int32_t)};
    b.shapes = (vec){(void **)&r->shapes, &r->shape_count, 0, sizeof(ut_shape)};
    b.tokens = (vec){(void **)&r->tokens, &r->token_count, 0, sizeof(ut_token)};
    b.templates = (vec){(void **)&r->templates, &r->template_count, 0, sizeof(ut_template)};
    b.vars = (vec){(void **)&r->vars, &r->var_count, 0, sizeof(ut_str)};
    PyObject *fields = NULL, *part = NULL;
    if (!PyTuple_Check(compiled) || PyTuple_GET_SIZE(compiled) < 4) {
        PyErr_SetString(PyExc_TypeError, "Router() takes a CompiledRouter (Router.compiled())");
        goto fail;
    }
    fields = compiled;
    Py_INCREF(fields);
    if ((part = items(ITEM(fields, 0), -1)) == NULL) {
        goto fail;
    }
    for (Py_ssize_t i = 0; i < SIZE(part); i++) {
        if (add_node(&b, ITEM(part, i)) < 0) {
            goto fail;
        }
    }
    Py_CLEAR(part);
    if ((part = items(ITEM(fields, 1), -1)) == NULL) {
        goto fail;
    }
    for (Py_ssize_t i = 0; i < SIZE(part); i++) {
        if (add_shape(&b, ITEM(part, i)) < 0) {
            goto fail;
        }
    }
    Py_CLEAR(part);
    if ((part = items(ITEM(fields, 2), -1)) == NULL) {
        goto fail;
    }
    for (Py_ssize_t i = 0; i < SIZE(part); i++) {
        if (add_template(&b, ITEM(part, i)) < 0) {
            goto fail;
        }
    }
    Py_CLEAR(part);
    /* the order, the most specific first: a permutation of the templates */
    if ((part = items(ITEM(fields, 3), r->template_count)) == NULL) {
        goto fail;
    }
    for (Py_ssize_t i = 0; i < SIZE(part); i++) {
        int32_t k;
        if (as_int32(ITEM(part, i), &k) < 0) {
            goto fail;
        }
        if (k >= r->template_count || r->templates[k].rank >= 0) {
            PyErr_SetString(PyExc_ValueError, "a compiled router's order is not a permutation");
            goto fail;
        }
        r->templates[k].rank = (int32_t)i;
    }
    Py_CLEAR(part);
    if (r->node_count == 0) {
        PyErr_SetString(PyExc_ValueError, "a compiled router has a root node");
        goto fail;
    }
    /* Every array is allocated, empty or not: a pointer of an empty array is still
     * offset by zero, which C allows only from a real object. */
    vec *all[] = {&b.nodes, &b.edges, &b.regions, &b.tails, &b.ints, &b.shapes, &b.tokens,
                  &b.templates, &b.vars};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        if (*all[i]->data == NULL && (*all[i]->data = PyMem_Malloc(all[i]->size)) == NULL) {
            PyErr_NoMemory();
            goto fail;
        }
    }
    if (r->pool == NULL && (r->pool = PyMem_Malloc(1)) == NULL) {
        PyErr_NoMemory();
        goto fail;
    }
    if (ut_router_finish(r) < 0) {
        goto fail;
    }
    Py_DECREF(fields);
    return r;
fail:
    Py_XDECREF(part);
    Py_XDECREF(fields);
    ut_router_free(r);
    return NULL;
}
