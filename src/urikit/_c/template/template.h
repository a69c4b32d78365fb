/* urikit._template: URI Templates (RFC 6570) in C, the declarations its units share.
 *
 * The units, each by concern:
 *   syntax.c   the syntax of a template (§2, with erratum 6937): where the first character
 *              that cannot belong to it stands, as urikit.template.syntax.parse says
 *   router.c   a router's prefix tree walked for one URI, and the regions of each candidate
 *              template, as urikit.template.routing.Router and template.matcher.Matcher
 *   build.c    a router read from its plain data (urikit.template.routing.CompiledRouter)
 *   bind.c     the variables of a match as JSON, for the templates whose values Matcher.bind
 *              reads with its plain readers; "not sure" (the caller asks Matcher.bind) else
 *   module.c   the Python module: check(text), conforms(instance),
 *              Router(compiled).match(uri, after)
 *
 * Text is read as CPython stores it: an array of 1, 2 or 4 bytes per code point (a ut_text).
 * Everything a router holds is ASCII (the expansion of a literal, §3.1, and the characters an
 * expression can write, §3.2.1), so a code point above 0x7F never matches any of it.
 */
#ifndef URIKIT_TEMPLATE_H
#define URIKIT_TEMPLATE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* Invariant assertions, compiled into the sanitizer and fuzzing builds (-DURIKIT_ASSERTS). */
#ifdef URIKIT_ASSERTS
#include <stdio.h>
#include <stdlib.h>
#define UT_ASSERT(cond)                                                                  \
    do {                                                                                 \
        if (!(cond)) {                                                                   \
            fprintf(stderr, "urikit._template: invariant failed at %s:%d: %s\n",         \
                    __FILE__, __LINE__, #cond);                                          \
            abort();                                                                     \
        }                                                                                \
    } while (0)
#else
#define UT_ASSERT(cond) ((void)0)
#endif

typedef struct {
    const void *data;
    int kind; /* PyUnicode_1BYTE_KIND, _2BYTE_KIND or _4BYTE_KIND */
    Py_ssize_t len;
} ut_text;

static inline Py_UCS4 ut_at(const ut_text *t, Py_ssize_t i)
{
    UT_ASSERT(i >= 0 && i < t->len);
    return PyUnicode_READ(t->kind, t->data, i);
}

/* -- §2 syntax ------------------------------------------------------------------------- */

/* -1 when the text is a URI Template (RFC 6570 §2), else the position of the first
 * character that cannot belong to one (the position TemplateError gives). */
Py_ssize_t ut_check(const ut_text *t);

/* Makes the tables of ut_check; called once, before the first check. */
void ut_syntax_init(void);

/* -- the router ------------------------------------------------------------------------- */

/* A region (urikit.template.matching.Region): the operator's first character (0 for none)
 * and the body characters, a bitmap of ASCII. */
typedef struct {
    unsigned char first;
    uint8_t body[16];
} ut_shape;

static inline int ut_in_body(const ut_shape *s, Py_UCS4 c)
{
    return c < 128 && (s->body[c >> 3] >> (c & 7)) & 1;
}

/* Strings are offsets into the router's pool of ASCII characters. */
typedef struct {
    Py_ssize_t at, len;
} ut_str;

typedef struct {
    unsigned char ch;   /* the first character of the label */
    ut_str label;
    int32_t child;
} ut_edge;

typedef struct {
    int32_t shape, child;
} ut_region_edge;

typedef struct {
    int32_t shape;
    ut_str suffix;      /* the literal ending */
    int32_t templates;  /* first of count template indexes in the router's ints */
    int32_t count;
} ut_tail;

typedef struct {
    int32_t edges, edge_count;       /* sorted by ch */
    int32_t regions, region_count;
    int32_t tails, tail_count;
    int32_t ends, end_count;         /* template indexes in the router's ints */
} ut_node;

typedef struct {
    int32_t shape;      /* -1 for a literal */
    ut_str text;        /* the literal's expansion (§3.1) */
    unsigned char op;   /* an expression's operator character (0 for none, §2.2) */
    int32_t vars, var_count; /* its variable names, in the router's vars */
} ut_token;

typedef struct {
    int32_t tokens, token_count;
    int32_t expressions;  /* how many of the tokens are expressions */
    int32_t tail;         /* the token read from the end of the URI, or -1 (matcher.py) */
    Py_ssize_t suffix_len; /* the length of the literal tokens after the tail token */
    int32_t rank;         /* its place in the order, the most specific first */
    int plain;            /* every variable once, none with a prefix or explode (bind.c) */
} ut_template;

typedef struct {
    ut_node *nodes;
    ut_edge *edges;
    ut_region_edge *regions;
    ut_tail *tails;
    int32_t *ints;
    ut_shape *shapes;
    ut_token *tokens;
    ut_template *templates;
    char *pool;
    ut_str *vars;
    int32_t var_count;
    int32_t node_count, edge_count, region_count, tail_count, int_count, shape_count;
    int32_t token_count, template_count;
    Py_ssize_t pool_len;
    int32_t max_expressions;
    /* scratch of one walk: a stack of (node, position) and the candidates found */
    int32_t *stack_nodes;
    Py_ssize_t *stack_pos;
    int64_t *found; /* rank << 32 | template index */
    char *json;     /* the JSON text bind.c writes */
    Py_ssize_t json_cap;
} ut_router;

void ut_router_free(ut_router *r);

/* Checks a router's indexes and computes the tail token of each template; 0, or -1 with
 * ValueError set. */
int ut_router_finish(ut_router *r);

/* The regions of template k in the URI (Matcher.regions): 1 and spans[2e], spans[2e+1] for
 * each expression e, or 0. */
int ut_template_regions(const ut_router *r, int32_t k, const ut_text *uri, Py_ssize_t *spans);

/* The first template, the most specific first and ranked after `after` (-1 for all), whose
 * path through the tree the URI follows (Router.candidates) and whose regions it has: its
 * index, with its spans; -1 when none. */
int32_t ut_router_match(ut_router *r, const ut_text *uri, int32_t after, Py_ssize_t *spans);

/* The variables of template k matched with its regions at spans (ut_router_match), as the
 * JSON object that urikit._column_functions.variables_json writes of what Matcher.bind
 * gives: 1 with the UTF-8 text in r->json and its length in *len; 0 where this code is not
 * sure (Matcher.bind reads the regions); -1 with MemoryError. */
int ut_bind_json(ut_router *r, int32_t k, const ut_text *uri, const Py_ssize_t *spans,
                 int allow_dot_segments, Py_ssize_t *len);

/* The router read from a urikit.template.routing.CompiledRouter; NULL with an exception. */
ut_router *ut_router_build(PyObject *compiled);

#endif
