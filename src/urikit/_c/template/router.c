/* A URI matched against a router: the walk of its prefix tree (Router.candidates in
 * urikit/template/routing.py) and the regions of each candidate template
 * (Matcher.regions in urikit/template/matcher.py), the same steps in the same order.
 *
 * The walk pushes each node at most once (a node has one parent, and the text before it
 * decides where it starts), so its stack never holds more than the router's nodes. */
#include "template.h"

static int starts_with(const ut_router *r, const ut_text *u, Py_ssize_t pos, ut_str s)
{
    UT_ASSERT(pos >= 0 && pos <= u->len && s.at >= 0 && s.at + s.len <= r->pool_len);
    if (s.len > u->len - pos) {
        return 0;
    }
    const unsigned char *p = (const unsigned char *)r->pool + s.at;
    for (Py_ssize_t i = 0; i < s.len; i++) {
        if (ut_at(u, pos + i) != p[i]) {
            return 0;
        }
    }
    return 1;
}

/* The end of the run of body characters from pos, before stop. */
static Py_ssize_t run(const ut_shape *s, const ut_text *u, Py_ssize_t pos, Py_ssize_t stop)
{
    while (pos < stop && ut_in_body(s, ut_at(u, pos))) {
        pos++;
    }
    return pos;
}

/* The end of the region at pos, read atomically: the first character and the whole run of
 * body characters, or nothing when the first character is not there. */
static Py_ssize_t region(const ut_shape *s, const ut_text *u, Py_ssize_t pos)
{
    if (!s->first) {
        return run(s, u, pos, u->len);
    }
    if (pos < u->len && ut_at(u, pos) == s->first) {
        return run(s, u, pos + 1, u->len);
    }
    return pos;
}

/* [start, stop) is one region: empty, or the first character and body characters. */
static int whole(const ut_shape *s, const ut_text *u, Py_ssize_t start, Py_ssize_t stop)
{
    UT_ASSERT(0 <= start && start <= stop && stop <= u->len);
    if (start == stop) {
        return 1;
    }
    if (s->first) {
        if (ut_at(u, start) != s->first) {
            return 0;
        }
        start++;
    }
    return run(s, u, start, stop) == stop;
}

int ut_template_regions(const ut_router *r, int32_t k, const ut_text *u, Py_ssize_t *spans)
{
    UT_ASSERT(k >= 0 && k < r->template_count);
    const ut_template *t = &r->templates[k];
    const ut_token *tokens = r->tokens + t->tokens;
    int32_t head = t->tail >= 0 ? t->tail : t->token_count;
    Py_ssize_t pos = 0;
    int32_t e = 0;
    for (int32_t j = 0; j < head; j++) {
        const ut_token *tok = &tokens[j];
        if (tok->shape < 0) {
            if (!starts_with(r, u, pos, tok->text)) {
                return 0;
            }
            pos += tok->text.len;
        } else {
            Py_ssize_t end = region(&r->shapes[tok->shape], u, pos);
            spans[2 * e] = pos;
            spans[2 * e + 1] = end;
            e++;
            pos = end;
        }
    }
    if (t->tail < 0) {
        UT_ASSERT(e == t->expressions);
        return pos == u->len;
    }
    /* the last region, read from the end of the URI: the literal ending, then the region */
    Py_ssize_t start = pos, end = u->len - t->suffix_len;
    if (end < start) {
        return 0;
    }
    Py_ssize_t at = end;
    for (int32_t j = t->tail + 1; j < t->token_count; j++) {
        UT_ASSERT(tokens[j].shape < 0);
        if (!starts_with(r, u, at, tokens[j].text)) {
            return 0;
        }
        at += tokens[j].text.len;
    }
    UT_ASSERT(at == u->len);
    if (!whole(&r->shapes[tokens[t->tail].shape], u, start, end)) {
        return 0;
    }
    spans[2 * e] = start;
    spans[2 * e + 1] = end;
    e++;
    UT_ASSERT(e == t->expressions);
    return 1;
}

static const ut_edge *find_edge(const ut_router *r, const ut_node *node, Py_UCS4 c)
{
    int32_t lo = 0, hi = node->edge_count;
    const ut_edge *edges = r->edges + node->edges;
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (edges[mid].ch < c) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo < node->edge_count && edges[lo].ch == c ? &edges[lo] : NULL;
}

static int by_rank(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

int32_t ut_router_match(ut_router *r, const ut_text *u, int32_t after, Py_ssize_t *spans)
{
    Py_ssize_t n = u->len;
    int32_t sp = 0, found = 0;
    if (r->node_count == 0) {
        return -1;
    }
    r->stack_nodes[sp] = 0;
    r->stack_pos[sp++] = 0;
#define UT_FOUND(k)                                                                      \
    do {                                                                                 \
        int32_t k_ = (k);                                                                \
        int32_t rank_ = r->templates[k_].rank;                                           \
        if (rank_ > after) {                                                             \
            UT_ASSERT(found < r->template_count);                                        \
            r->found[found++] = (int64_t)rank_ << 32 | k_;                               \
        }                                                                                \
    } while (0)
#define UT_PUSH(node_, pos_)                                                             \
    do {                                                                                 \
        UT_ASSERT(sp < r->node_count && (pos_) >= 0 && (pos_) <= n);                     \
        r->stack_nodes[sp] = (node_);                                                    \
        r->stack_pos[sp++] = (pos_);                                                     \
    } while (0)
    while (sp > 0) {
        sp--;
        const ut_node *node = &r->nodes[r->stack_nodes[sp]];
        Py_ssize_t pos = r->stack_pos[sp];
        if (pos < n) {
            const ut_edge *edge = find_edge(r, node, ut_at(u, pos));
            if (edge != NULL && starts_with(r, u, pos, edge->label)) {
                UT_PUSH(edge->child, pos + edge->label.len);
            }
        } else {
            for (int32_t i = 0; i < node->end_count; i++) {
                UT_FOUND(r->ints[node->ends + i]);
            }
        }
        for (int32_t i = 0; i < node->region_count; i++) {
            const ut_region_edge *edge = &r->regions[node->regions + i];
            UT_PUSH(edge->child, region(&r->shapes[edge->shape], u, pos));
        }
        for (int32_t i = 0; i < node->tail_count; i++) {
            const ut_tail *tail = &r->tails[node->tails + i];
            Py_ssize_t stop = n - tail->suffix.len;
            if (stop >= pos && starts_with(r, u, stop, tail->suffix) &&
                whole(&r->shapes[tail->shape], u, pos, stop)) {
                for (int32_t j = 0; j < tail->count; j++) {
                    UT_FOUND(r->ints[tail->templates + j]);
                }
            }
        }
    }
#undef UT_PUSH
#undef UT_FOUND
    if (found > 1) {
        qsort(r->found, (size_t)found, sizeof r->found[0], by_rank);
    }
    for (int32_t i = 0; i < found; i++) {
        int32_t k = (int32_t)(r->found[i] & 0xFFFFFFFF);
        if (ut_template_regions(r, k, u, spans)) {
            return k;
        }
    }
    return -1;
}

void ut_router_free(ut_router *r)
{
    if (r == NULL) {
        return;
    }
    PyMem_Free(r->nodes);
    PyMem_Free(r->edges);
    PyMem_Free(r->regions);
    PyMem_Free(r->tails);
    PyMem_Free(r->ints);
    PyMem_Free(r->shapes);
    PyMem_Free(r->tokens);
    PyMem_Free(r->templates);
    PyMem_Free(r->pool);
    PyMem_Free(r->stack_nodes);
    PyMem_Free(r->stack_pos);
    PyMem_Free(r->found);
    PyMem_Free(r->vars);
    PyMem_Free(r->json);
    PyMem_Free(r);
}

static int bad(const char *what)
{
    PyErr_Format(PyExc_ValueError, "a compiled router whose %s is out of range", what);
    return -1;
}

static int str_ok(const ut_router *r, ut_str s)
{
    return s.at >= 0 && s.len >= 0 && s.at <= r->pool_len && s.len <= r->pool_len - s.at;
}

static int range_ok(int32_t first, int32_t count, int32_t size)
{
    return first >= 0 && count >= 0 && first <= size && count <= size - first;
}

int ut_router_finish(ut_router *r)
{
    for (int32_t i = 0; i < r->node_count; i++) {
        const ut_node *node = &r->nodes[i];
        if (!range_ok(node->edges, node->edge_count, r->edge_count) ||
            !range_ok(node->regions, node->region_count, r->region_count) ||
            !range_ok(node->tails, node->tail_count, r->tail_count) ||
            !range_ok(node->ends, node->end_count, r->int_count)) {
            return bad("node");
        }
        for (int32_t j = 1; j < node->edge_count; j++) {
            if (r->edges[node->edges + j - 1].ch >= r->edges[node->edges + j].ch) {
                return bad("edge order");
            }
        }
    }
    for (int32_t i = 0; i < r->edge_count; i++) {
        const ut_edge *e = &r->edges[i];
        if (!str_ok(r, e->label) || e->label.len == 0 ||
            (unsigned char)r->pool[e->label.at] != e->ch || e->child <= 0 ||
            e->child >= r->node_count) {
            return bad("edge");
        }
    }
    for (int32_t i = 0; i < r->region_count; i++) {
        const ut_region_edge *e = &r->regions[i];
        if (e->shape < 0 || e->shape >= r->shape_count || e->child <= 0 ||
            e->child >= r->node_count) {
            return bad("region edge");
        }
    }
    /* A tree: no node is the child of two edges, so a walk pushes each node at most once
     * and its stack holds node_count entries. */
    unsigned char *parent = PyMem_Calloc(r->node_count > 0 ? (size_t)r->node_count : 1, 1);
    if (parent == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    int shared = 0;
    for (int32_t i = 0; i < r->edge_count && !shared; i++) {
        shared = parent[r->edges[i].child]++;
    }
    for (int32_t i = 0; i < r->region_count && !shared; i++) {
        shared = parent[r->regions[i].child]++;
    }
    PyMem_Free(parent);
    if (shared) {
        return bad("tree (a node with two parents)");
    }
    for (int32_t i = 0; i < r->tail_count; i++) {
        const ut_tail *t = &r->tails[i];
        if (t->shape < 0 || t->shape >= r->shape_count || !str_ok(r, t->suffix) ||
            !range_ok(t->templates, t->count, r->int_count)) {
            return bad("tail");
        }
    }
    for (int32_t i = 0; i < r->int_count; i++) {
        if (r->ints[i] < 0 || r->ints[i] >= r->template_count) {
            return bad("template index");
        }
    }
    r->max_expressions = 0;
    for (int32_t k = 0; k < r->template_count; k++) {
        ut_template *t = &r->templates[k];
        if (!range_ok(t->tokens, t->token_count, r->token_count) || t->rank < 0 ||
            t->rank >= r->template_count) {
            return bad("template");
        }
        const ut_token *tokens = r->tokens + t->tokens;
        int32_t last = -1;
        t->expressions = 0;
        for (int32_t j = 0; j < t->token_count; j++) {
            if (tokens[j].shape >= 0) {
                if (tokens[j].shape >= r->shape_count ||
                    !range_ok(tokens[j].vars, tokens[j].var_count, r->var_count) ||
                    tokens[j].var_count == 0) {
                    return bad("token");
                }
                for (int32_t v = 0; v < tokens[j].var_count; v++) {
                    if (!str_ok(r, r->vars[tokens[j].vars + v])) {
                        return bad("variable");
                    }
                }
                last = j;
                t->expressions++;
            } else if (!str_ok(r, tokens[j].text)) {
                return bad("token");
            }
        }
        /* bind.c reads a template whose variables each appear once (§3.2.1: one that
         * appears again must bind the same value, which Matcher.bind checks) */
        for (int32_t i = 0; i < t->token_count && t->plain; i++) {
            for (int32_t v = 0; v < tokens[i].var_count && t->plain; v++) {
                ut_str a = r->vars[tokens[i].vars + v];
                for (int32_t j = i; j < t->token_count && t->plain; j++) {
                    for (int32_t w = j == i ? v + 1 : 0; w < tokens[j].var_count; w++) {
                        ut_str c = r->vars[tokens[j].vars + w];
                        if (a.len == c.len && memcmp(r->pool + a.at, r->pool + c.at, (size_t)a.len) == 0) {
                            t->plain = 0;
                            break;
                        }
                    }
                }
            }
        }
        if (t->expressions > r->max_expressions) {
            r->max_expressions = t->expressions;
        }
        /* Matcher: the last expression is read from the end of the URI where the literal
         * ending after it begins with a character its region can hold. */
        t->tail = -1;
        t->suffix_len = 0;
        if (last < 0) {
            continue;
        }
        int begins = -1;
        Py_ssize_t suffix = 0;
        for (int32_t j = last + 1; j < t->token_count; j++) {
            if (begins < 0 && tokens[j].text.len > 0) {
                begins = (unsigned char)r->pool[tokens[j].text.at];
            }
            suffix += tokens[j].text.len;
        }
        const ut_shape *shape = &r->shapes[tokens[last].shape];
        if (begins >= 0 && (ut_in_body(shape, (Py_UCS4)begins) || begins == shape->first)) {
            t->tail = last;
            t->suffix_len = suffix;
        }
    }
    size_t nodes = r->node_count > 0 ? (size_t)r->node_count : 1;
    size_t templates = r->template_count > 0 ? (size_t)r->template_count : 1;
    r->stack_nodes = PyMem_Malloc(nodes * sizeof *r->stack_nodes);
    r->stack_pos = PyMem_Malloc(nodes * sizeof *r->stack_pos);
    r->found = PyMem_Malloc(templates * sizeof *r->found);
    if (r->stack_nodes == NULL || r->stack_pos == NULL || r->found == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}
