/* The variables of a match as JSON text: the twin of Matcher.bind (urikit/template/
 * matcher.py) for the templates and regions that its plain readers read, written as
 * urikit._column_functions.variables_json writes them (RFC 8259, not ASCII-escaped, no
 * spaces).  Anything else is "not sure" (0), and the caller asks Matcher.bind:
 *
 *   - a template with a variable twice, a prefix modifier or explode (t->plain == 0);
 *   - an unnamed expression of more than one variable (the general reader);
 *   - a value that would be a list ("," in a U value, or ";name=") or that U cannot write
 *     ("=" in a U value, a "?"/"&" item without "="), an item named out of order;
 *   - a triplet that does not decode (a "%" not before two hex digits, octets that are not
 *     UTF-8, RFC 3629 §4) and any triplet where U+R kept it (decode_ur's own rules);
 *   - unless allow_dot_segments, a value that is_unsafe refuses (".", "..", such a segment
 *     between "/" or "\", U+0000).
 *
 * What it writes is what Matcher.bind gives: the readers of matcher.py step by step, the
 * variables in the order they are read.  tests/test_template_compiled.py holds the two
 * together on generated templates and URIs. */
#include "template.h"

static int ensure(ut_router *r, Py_ssize_t len, Py_ssize_t more)
{
    if (more <= r->json_cap - len) {
        return 0;
    }
    if (more > PY_SSIZE_T_MAX / 4 - len) {
        PyErr_NoMemory();
        return -1;
    }
    Py_ssize_t cap = (len + more) * 2 + 64;
    char *grown = PyMem_Realloc(r->json, (size_t)cap);
    if (grown == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    r->json = grown;
    r->json_cap = cap;
    return 0;
}

static int hex(Py_UCS4 c)
{
    if (c >= '0' && c <= '9') {
        return (int)(c - '0');
    }
    if (c >= 'A' && c <= 'F') {
        return (int)(c - 'A' + 10);
    }
    if (c >= 'a' && c <= 'f') {
        return (int)(c - 'a' + 10);
    }
    return -1;
}

/* The length of the well-formed UTF-8 sequence at s (RFC 3629 §4, as Python's strict
 * decoder: no overlong form, no surrogate, nothing above U+10FFFF), or 0. */
static Py_ssize_t utf8_char(const unsigned char *s, Py_ssize_t n)
{
    unsigned char c = s[0];
    if (c < 0x80) {
        return 1;
    }
    Py_ssize_t len;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        lo = c == 0xE0 ? 0xA0 : 0x80;
        hi = c == 0xED ? 0x9F : 0xBF;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        lo = c == 0xF0 ? 0x90 : 0x80;
        hi = c == 0xF4 ? 0x8F : 0xBF;
    } else {
        return 0;
    }
    if (n < len || s[1] < lo || s[1] > hi) {
        return 0;
    }
    for (Py_ssize_t i = 2; i < len; i++) {
        if (s[i] < 0x80 || s[i] > 0xBF) {
            return 0;
        }
    }
    return len;
}

/* is_unsafe (matching.py) of the decoded octets: U+0000, or a segment "." or ".." between
 * "/" or "\". */
static int unsafe(const unsigned char *s, Py_ssize_t n)
{
    if (memchr(s, 0, (size_t)n) != NULL) {
        return 1;
    }
    Py_ssize_t start = 0;
    for (Py_ssize_t i = 0; i <= n; i++) {
        if (i == n || s[i] == '/' || s[i] == '\\') {
            Py_ssize_t len = i - start;
            if ((len == 1 && s[start] == '.') ||
                (len == 2 && s[start] == '.' && s[start + 1] == '.')) {
                return 1;
            }
            start = i + 1;
        }
    }
    return 0;
}

/* A JSON string (RFC 8259 §7) of the octets s, as json.dumps(ensure_ascii=False) writes
 * it: '"' and '\' and the controls escaped, the rest as it is. */
static int write_string(ut_router *r, Py_ssize_t *len, const unsigned char *s, Py_ssize_t n)
{
    if (ensure(r, *len, 6 * n + 2) < 0) {
        return -1;
    }
    char *out = r->json + *len;
    *out++ = '"';
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned char c = s[i];
        if (c == '"' || c == '\\') {
            *out++ = '\\';
            *out++ = (char)c;
        } else if (c >= 0x20) {
            *out++ = (char)c;
        } else {
            static const char digits[] = "0123456789abcdef";
            *out++ = '\\';
            switch (c) {
            case '\n': *out++ = 'n'; break;
            case '\r': *out++ = 'r'; break;
            case '\t': *out++ = 't'; break;
            case '\b': *out++ = 'b'; break;
            case '\f': *out++ = 'f'; break;
            default:
                memcpy(out, "u00", 3);
                out += 3;
                *out++ = digits[c >> 4];
                *out++ = digits[c & 15];
            }
        }
    }
    *out++ = '"';
    *len = out - r->json;
    return 0;
}

typedef struct {
    ut_router *r;
    const ut_text *uri;
    Py_ssize_t len;   /* of the JSON written */
    int count;        /* variables written */
    int check;        /* the safety checks (not allow_dot_segments) */
    unsigned char *octets; /* scratch for one decoded value */
} writer;

/* One variable: "name":"value" where value is [start, end) of the URI, decoded as U
 * (decode_u) or kept as U+R wrote it (decode_ur of a text without "%").  1, 0 (not sure)
 * or -1. */
static int write_var(writer *w, ut_str name, Py_ssize_t start, Py_ssize_t end, int reserved)
{
    ut_router *r = w->r;
    Py_ssize_t n = 0;
    for (Py_ssize_t i = start; i < end; i++) {
        Py_UCS4 c = ut_at(w->uri, i);
        if (c == '%') {
            int h, l;
            if (reserved || i + 2 >= end || (h = hex(ut_at(w->uri, i + 1))) < 0 ||
                (l = hex(ut_at(w->uri, i + 2))) < 0) {
                return 0;
            }
            w->octets[n++] = (unsigned char)(h << 4 | l);
            i += 2;
        } else if (c >= 0x80 || (!reserved && (c == '=' || c == ','))) {
            return 0; /* U writes "=" and "," of a value as triplets; "," is a list's */
        } else {
            w->octets[n++] = (unsigned char)c;
        }
    }
    for (Py_ssize_t i = 0; i < n;) {
        Py_ssize_t step = utf8_char(w->octets + i, n - i);
        if (step == 0) {
            return 0;
        }
        i += step;
    }
    if (w->check && unsafe(w->octets, n)) {
        return 0;
    }
    if (ensure(r, w->len, 1) < 0) {
        return -1;
    }
    r->json[w->len++] = w->count++ ? ',' : '{';
    if (write_string(r, &w->len, (const unsigned char *)r->pool + name.at, name.len) < 0 ||
        ensure(r, w->len, 1) < 0) {
        return -1;
    }
    r->json[w->len++] = ':';
    if (write_string(r, &w->len, w->octets, n) < 0) {
        return -1;
    }
    return 1;
}

static int same(const ut_router *r, ut_str name, const ut_text *u, Py_ssize_t at, Py_ssize_t len)
{
    if (name.len != len) {
        return 0;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        if (ut_at(u, at + i) != (unsigned char)r->pool[name.at + i]) {
            return 0;
        }
    }
    return 1;
}

/* The reader `named` of matcher.py: the items of a named expression (";", "?", "&") taken
 * in the order of its variables, each at most once. */
static int read_named(writer *w, const ut_token *tok, Py_ssize_t start, Py_ssize_t end)
{
    const ut_text *u = w->uri;
    const ut_str *names = w->r->vars + tok->vars;
    unsigned char sep = tok->op == ';' ? ';' : '&';
    int ifemp = tok->op != ';';
    if (start == end) {
        return 1;
    }
    int32_t i = 0, k = tok->var_count;
    for (Py_ssize_t item = start + 1; item <= end;) {
        Py_ssize_t stop = item, eq = -1;
        while (stop < end && ut_at(u, stop) != sep) {
            if (eq < 0 && ut_at(u, stop) == '=') {
                eq = stop;
            }
            stop++;
        }
        if (eq < 0 && ifemp) {
            return 0; /* "?" and "&" write "name=" for an empty value */
        }
        Py_ssize_t name_end = eq < 0 ? stop : eq;
        while (i < k && !same(w->r, names[i], u, item, name_end - item)) {
            i++;
        }
        if (i == k) {
            return 0;
        }
        Py_ssize_t value = eq < 0 ? stop : eq + 1;
        if (eq >= 0 && value == stop && !ifemp) {
            return 0; /* ";name=" is a list of one empty member */
        }
        int done = write_var(w, names[i], value, stop, 0);
        if (done != 1) {
            return done;
        }
        i++;
        item = stop + 1;
    }
    return 1;
}

int ut_bind_json(ut_router *r, int32_t k, const ut_text *u, const Py_ssize_t *spans,
                 int allow_dot_segments, Py_ssize_t *len)
{
    UT_ASSERT(k >= 0 && k < r->template_count);
    const ut_template *t = &r->templates[k];
    if (!t->plain) {
        return 0;
    }
    /* a decoded value is never longer than the URI */
    unsigned char small[512];
    unsigned char *octets = small;
    if (u->len > (Py_ssize_t)sizeof small && (octets = PyMem_Malloc((size_t)u->len)) == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    writer w = {.r = r, .uri = u, .len = 0, .count = 0, .check = !allow_dot_segments,
                .octets = octets};
    const ut_token *tokens = r->tokens + t->tokens;
    int32_t e = 0;
    int done = 1;
    for (int32_t j = 0; j < t->token_count && done == 1; j++) {
        const ut_token *tok = &tokens[j];
        if (tok->shape < 0) {
            continue;
        }
        Py_ssize_t start = spans[2 * e], end = spans[2 * e + 1];
        e++;
        unsigned char op = tok->op;
        if (op == ';' || op == '?' || op == '&') {
            done = read_named(&w, tok, start, end);
            continue;
        }
        if (tok->var_count != 1) {
            done = 0; /* the general reader */
            break;
        }
        /* the reader `one`: "#", "." and "/" write their first character when defined */
        if (op == '#' || op == '.' || op == '/') {
            if (start == end) {
                continue;
            }
            start++;
        }
        if (op == '/') {
            for (Py_ssize_t i = start; i < end; i++) {
                if (ut_at(u, i) == '/') {
                    done = 0;
                }
            }
            if (done != 1) {
                break;
            }
        }
        done = write_var(&w, r->vars[tok->vars], start, end, op == '+' || op == '#');
    }
    if (octets != small) {
        PyMem_Free(octets);
    }
    if (done != 1) {
        return done;
    }
    if (ensure(r, w.len, 2) < 0) {
        return -1;
    }
    if (w.count == 0) {
        r->json[w.len++] = '{';
    }
    r->json[w.len++] = '}';
    *len = w.len;
    return 1;
}
