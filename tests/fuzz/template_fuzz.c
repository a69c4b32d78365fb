/* A libFuzzer target for URI Templates in C (src/urikit/_c/template/).
 *
 * The units use the Python allocator, and a router is read from Router.compiled() of the
 * readable Python, so the target embeds an interpreter (initialized once, the package
 * imported from src/ as pure Python).  The input bytes are read as Latin-1 code points (the
 * 1-byte road), as the same code points 4 bytes wide, and, decoded as UTF-8 with a stray
 * byte standing for itself and a surrogate kept, as code points (the 4-byte road).  Each
 * buffer is allocated to its exact length, so the sanitizers see any read past the end.
 * For every input the harness checks:
 *
 * - the syntax check (RFC 6570 §2) refuses at a position within the text, the same on
 *   both roads of the same code points, and where urikit.template.syntax.parse raises
 *   TemplateError (or accepts where it accepts);
 * - matching against the router gives a template index in range, with regions ordered,
 *   within the URI and one per expression; the same on both roads;
 * - the router's answer is that of trying every template, the most specific first
 *   (the prefix tree only ever leaves out templates whose regions the URI does not have),
 *   and so is its answer after that template's rank.
 *
 * Build and run: tools/fuzz_template.sh SECONDS.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "template.h"

#define FUZZ_NAME "template_fuzz"
#include "embedded.h"

static const char *const routes =
    "['/', '/a', '/a/', '/a/{x}', '/a/{x}/', '/a/{x}/{y}', '/a{/x*}', '/a{?q,r}',"
    " '/a/{x}{?q}', '/b/{+rest}', '/b/{x}.json', '{/p,q}', '/c{;k*}', '/d{#f}', '/a/b',"
    " '/a/b{.ext}', 'http://h/{x}', '/a/%41', '/caf\\u00e9/{x}', '{+anything}/edit',"
    " '/e/{x}/{x}', '/f/{x}{?x}', '/g{.a,b}!{&c}', '/h/{x:2}/{x}', '{#frag}', '?{x}',"
    " '/api/{v}/users/{id}{?page,per_page}', '/api/{v}/users/{id}/{+path}/raw',"
    " '/i{;a,b}@{c}', '/j{?k*}', '/j/{x}!{y}']";

static ut_router *router;
static PyObject *parse; /* urikit.template.syntax.parse */
static PyObject *template_error;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    Py_Initialize();
    PyObject *main = PyImport_AddModule("__main__");
    CHECK(main != NULL);
    PyObject *globals = PyModule_GetDict(main);
    char code[4096];
    snprintf(code, sizeof code,
             "import os, sys\n"
             "os.environ['URIKIT_NO_EXTENSIONS'] = '1'\n"
             "sys.path.insert(0, 'src')\n"
             "from urikit.template import Router\n"
             "from urikit.template.syntax import parse, TemplateError\n"
             "compiled = Router(%s).compiled()\n",
             routes);
    PyObject *done = PyRun_String(code, Py_file_input, globals, globals);
    if (done == NULL) {
        PyErr_Print();
    }
    CHECK(done != NULL);
    Py_DECREF(done);
    router = ut_router_build(PyDict_GetItemString(globals, "compiled"));
    CHECK(router != NULL);
    parse = PyDict_GetItemString(globals, "parse");
    template_error = PyDict_GetItemString(globals, "TemplateError");
    CHECK(parse != NULL && template_error != NULL);
    Py_INCREF(parse);
    Py_INCREF(template_error);
    return 0;
}

/* The syntax check against urikit.template.syntax.parse. */
static void check_syntax(const ut_text *t, Py_ssize_t position)
{
    CHECK(position >= -1 && position <= t->len);
    PyObject *text = PyUnicode_FromKindAndData(t->kind, t->data, t->len);
    CHECK(text != NULL);
    PyObject *parts = PyObject_CallOneArg(parse, text);
    if (parts != NULL) {
        CHECK(position == -1);
        Py_DECREF(parts);
    } else {
        CHECK(PyErr_ExceptionMatches(template_error));
        PyObject *type, *value, *tb;
        PyErr_Fetch(&type, &value, &tb);
        PyObject *where = PyObject_GetAttrString(value, "position");
        CHECK(where != NULL);
        Py_ssize_t expected = PyLong_AsSsize_t(where);
        if (expected != position) {
            fprintf(stderr, "template_fuzz: C refuses at %zd, the readable code at %zd\n",
                    position, expected);
        }
        CHECK(expected == position);
        Py_DECREF(where);
        Py_XDECREF(type);
        Py_XDECREF(value);
        Py_XDECREF(tb);
    }
    Py_DECREF(text);
}

/* The first template ranked after `after` whose regions the URI has, trying each. */
static int32_t each_in_turn(const ut_text *u, int32_t after, Py_ssize_t *spans)
{
    int32_t best = -1;
    Py_ssize_t tried[64];
    for (int32_t k = 0; k < router->template_count; k++) {
        int32_t rank = router->templates[k].rank;
        if (rank > after && (best < 0 || rank < router->templates[best].rank) &&
            ut_template_regions(router, k, u, tried)) {
            best = k;
            memcpy(spans, tried, sizeof tried);
        }
    }
    return best;
}

static int32_t check_match(const ut_text *u, int32_t after, Py_ssize_t *spans)
{
    Py_ssize_t again[64];
    int32_t k = ut_router_match(router, u, after, spans);
    CHECK(k >= -1 && k < router->template_count);
    CHECK(each_in_turn(u, after, again) == k);
    if (k < 0) {
        return -1;
    }
    const ut_template *t = &router->templates[k];
    CHECK(t->rank > after);
    Py_ssize_t last = 0;
    for (int32_t e = 0; e < t->expressions; e++) {
        CHECK(spans[2 * e] >= last && spans[2 * e] <= spans[2 * e + 1]);
        CHECK(spans[2 * e + 1] <= u->len);
        CHECK(spans[2 * e] == again[2 * e] && spans[2 * e + 1] == again[2 * e + 1]);
        last = spans[2 * e + 1];
    }
    return k;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096) {
        return 0;
    }
    Py_UCS1 *latin1 = malloc(size ? size : 1);
    Py_UCS4 *widened = malloc((size ? size : 1) * sizeof(Py_UCS4));
    Py_UCS4 *ucs4 = malloc((size ? size : 1) * sizeof(Py_UCS4));
    CHECK(latin1 != NULL && widened != NULL && ucs4 != NULL);
    for (size_t i = 0; i < size; i++) {
        latin1[i] = data[i];
        widened[i] = data[i];
    }
    Py_ssize_t n = decode_utf8(data, size, ucs4, 0);
    ut_text narrow = {latin1, PyUnicode_1BYTE_KIND, (Py_ssize_t)size};
    ut_text wide = {widened, PyUnicode_4BYTE_KIND, (Py_ssize_t)size};
    ut_text utf8 = {ucs4, PyUnicode_4BYTE_KIND, n};

    Py_ssize_t p1 = ut_check(&narrow), p4 = ut_check(&wide), pu = ut_check(&utf8);
    CHECK(p1 == p4);
    check_syntax(&narrow, p1);
    check_syntax(&utf8, pu);

    CHECK(router->max_expressions <= 32);
    Py_ssize_t s1[64], s4[64], su[64];
    int32_t k1 = check_match(&narrow, -1, s1), k4 = check_match(&wide, -1, s4);
    CHECK(k1 == k4);
    if (k1 >= 0) {
        CHECK(memcmp(s1, s4, sizeof(Py_ssize_t) * 2 * (size_t)router->templates[k1].expressions) == 0);
        check_match(&narrow, router->templates[k1].rank, s1);
    }
    int32_t ku = check_match(&utf8, -1, su);
    if (ku >= 0) {
        check_match(&utf8, router->templates[ku].rank, su);
    }
    free(latin1);
    free(widened);
    free(ucs4);
    return 0;
}
