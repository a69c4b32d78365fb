/* A libFuzzer target for the compiled WHATWG URL parser (src/urikit/_c/whatwg/).
 *
 * The units use the Python allocator and, for percent-decoded hosts, the UTF-8 decoder
 * of CPython, so the target embeds an interpreter (initialized once).  The input bytes
 * are parsed as Latin-1 code points (the 1-byte road of wu_parse) and, decoded as UTF-8
 * with a stray byte standing for itself, as code points (the 4-byte road); each with no
 * base and against the bases below.  Each buffer is allocated to its exact length, so the
 * sanitizers see any read past the end.  For every parse the harness checks:
 *
 * - a failure is one of the named validation errors, at a position within the input;
 * - the href is ASCII and its offsets are ordered and within it, with the delimiters the
 *   URL serializer writes at the places the offsets say ("//" before a host, "?" and "#");
 * - parsing the href again gives the same href and the same offsets (the href is its own
 *   serialization: URL Standard §4.5);
 * - where the fast path answers, the general parser gives the same href and offsets;
 * - the same code points give the same answer on both roads.
 *
 * Build and run: tools/fuzz_whatwg.sh SECONDS.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "whatwg.h"

#define FUZZ_NAME "whatwg_fuzz"
#include "embedded.h"

static const char *const bases[] = {
    "http://example.org/foo/bar",
    "file:///C:/a/b",
    "sc://h/p?q#f",
    "sc:opaque",
};
#define BASES (sizeof bases / sizeof bases[0])

static wu_buffer base_hrefs[BASES];
static wu_base base_values[BASES];

typedef struct {
    wu_status status;
    Py_ssize_t where;
    wu_buffer href;
    wu_offsets o;
} outcome;

static void parse(const wu_input *in, const wu_base *base, outcome *r)
{
    wu_buffer_init(&r->href);
    r->where = 0;
    r->status = wu_parse(in, base, &r->href, &r->o, &r->where);
    CHECK(r->status != WU_ERR_MEMORY);
}

static void check_offsets(const wu_buffer *h, const wu_offsets *o)
{
    const char *d = h->data;
    Py_ssize_t n = h->len;
    for (Py_ssize_t i = 0; i < n; i++) {
        CHECK((unsigned char)d[i] < 0x80);
    }
    CHECK(o->scheme_end > 0 && o->scheme_end < n && d[o->scheme_end] == ':');
    CHECK(o->scheme_end + 1 <= o->username_end);
    CHECK(o->username_end <= o->host_start && o->host_start <= o->host_end);
    CHECK(o->host_end <= o->pathname_start && o->pathname_start <= n);
    if (o->has_host) {
        CHECK(d[o->scheme_end + 1] == '/' && d[o->scheme_end + 2] == '/');
        CHECK(o->username_end >= o->scheme_end + 3);
    } else {
        CHECK(o->host_start == o->scheme_end + 1 && o->port < 0);
    }
    if (o->port >= 0) {
        CHECK(o->port <= 0xFFFF && d[o->host_end] == ':');
    }
    Py_ssize_t end = n;
    if (o->hash_start >= 0) {
        CHECK(o->hash_start >= o->pathname_start && d[o->hash_start] == '#');
        end = o->hash_start;
    }
    if (o->search_start >= 0) {
        CHECK(o->search_start >= o->pathname_start && o->search_start < end);
        CHECK(d[o->search_start] == '?');
    }
}

static void check(const wu_input *in, const wu_base *base, outcome *r)
{
    parse(in, base, r);
    if (r->status != WU_OK) {
        CHECK(r->status > 0 && r->status < WU_ERR_COUNT);
        CHECK(r->where >= -1 && r->where <= in->len);
        return;
    }
    check_offsets(&r->href, &r->o);
    /* The href is its own serialization. */
    wu_input again = {r->href.data, PyUnicode_1BYTE_KIND, r->href.len};
    outcome s;
    parse(&again, NULL, &s);
    CHECK(s.status == WU_OK);
    CHECK(s.href.len == r->href.len && memcmp(s.href.data, r->href.data, (size_t)s.href.len) == 0);
    CHECK(memcmp(&s.o, &r->o, sizeof s.o) == 0);
    /* The fast path, where it answers, is the general parser. */
    int slash;
    wu_offsets fast;
    memset(&fast, 0, sizeof fast);
    if (wu_fast_path((const Py_UCS1 *)r->href.data, r->href.len, &fast, &slash)) {
        CHECK(!slash);
        CHECK(memcmp(&fast, &r->o, sizeof fast) == 0);
    }
    wu_buffer_free(&s.href);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    Py_Initialize();
    for (size_t b = 0; b < BASES; b++) {
        wu_input in = {bases[b], PyUnicode_1BYTE_KIND, (Py_ssize_t)strlen(bases[b])};
        Py_ssize_t where;
        wu_buffer_init(&base_hrefs[b]);
        CHECK(wu_parse(&in, NULL, &base_hrefs[b], &base_values[b].o, &where) == WU_OK);
        base_values[b].href = base_hrefs[b].data;
        base_values[b].len = base_hrefs[b].len;
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096) {
        return 0;
    }
    /* The parser's input never holds a tab or a newline (module.c removes them). */
    Py_UCS1 *latin1 = malloc(size ? size : 1);
    Py_UCS4 *ucs4 = malloc((size ? size : 1) * sizeof(Py_UCS4));
    Py_UCS4 *widened = malloc((size ? size : 1) * sizeof(Py_UCS4));
    CHECK(latin1 != NULL && ucs4 != NULL && widened != NULL);
    for (size_t i = 0; i < size; i++) {
        uint8_t b = data[i];
        latin1[i] = b == '\t' || b == '\n' || b == '\r' ? ' ' : b;
        widened[i] = latin1[i];
    }
    Py_ssize_t n = decode_utf8(data, size, ucs4, 1);
    for (Py_ssize_t i = 0; i < n; i++) {
        if (ucs4[i] == '\t' || ucs4[i] == '\n' || ucs4[i] == '\r') {
            ucs4[i] = ' ';
        }
    }
    /* Trimmed of C0 controls and spaces, as module.c trims the input. */
    Py_ssize_t lo = 0, hi = (Py_ssize_t)size, ulo = 0, uhi = n;
    while (lo < hi && latin1[lo] <= 0x20) {
        lo++;
    }
    while (hi > lo && latin1[hi - 1] <= 0x20) {
        hi--;
    }
    while (ulo < uhi && ucs4[ulo] <= 0x20) {
        ulo++;
    }
    while (uhi > ulo && ucs4[uhi - 1] <= 0x20) {
        uhi--;
    }
    wu_input narrow = {latin1 + lo, PyUnicode_1BYTE_KIND, hi - lo};
    wu_input wide = {widened + lo, PyUnicode_4BYTE_KIND, hi - lo};
    wu_input utf8 = {ucs4 + ulo, PyUnicode_4BYTE_KIND, uhi - ulo};
    for (size_t b = 0; b <= BASES; b++) {
        const wu_base *base = b < BASES ? &base_values[b] : NULL;
        outcome x, y, z;
        check(&narrow, base, &x);
        check(&wide, base, &y);
        check(&utf8, base, &z);
        /* The same code points, on both roads. */
        CHECK(x.status == y.status && x.where == y.where);
        if (x.status == WU_OK) {
            CHECK(x.href.len == y.href.len && memcmp(x.href.data, y.href.data, (size_t)x.href.len) == 0);
            CHECK(memcmp(&x.o, &y.o, sizeof x.o) == 0);
        }
        wu_buffer_free(&x.href);
        wu_buffer_free(&y.href);
        wu_buffer_free(&z.href);
    }
    free(latin1);
    free(ucs4);
    free(widened);
    return 0;
}
