/* A libFuzzer target for the scanner of the compiled core (src/urikit/_c/scan.h) and its
 * locator of errors (locate.h).
 *
 * The input bytes are scanned as 1-, 2- and 4-byte code units, and also decoded as
 * UTF-8 (surrogates allowed, a stray byte standing for itself) into code points that
 * are scanned at every width that holds them.  Each buffer is allocated to its exact
 * length, so the sanitizers see any read past the end.  For every scan, in both
 * grammars, the harness checks:
 *
 * - the spans are ordered, within the text, and nested as RFC 3986 §4.1 nests the
 *   components: "scheme:" "//" [ userinfo "@" ] host [ ":" port ] path [ "?" query ]
 *   [ "#" fragment ], with the delimiters at the places between them;
 * - the first "?" and "#" of the text are the delimiters of the query and fragment;
 * - every start is the one uk_component_start derives from the ends alone (the
 *   storage of _speedups.Reference keeps only the ends), and uk_spans_in_order, the
 *   invariant the scanner asserts, holds;
 * - a URI-reference has no code unit above U+007F and is the same IRI-reference;
 * - the same code points give the same answer at every width;
 * - the locator finds a failure exactly when the scanner finds no reference, at a
 *   position within the text, with an explanation of the table, the reason of a
 *   non-ASCII character only for a character above U+007F in a URI, and the same
 *   failure at every width; the text up to the failure is itself a valid reference
 *   or fails at its end (it is a viable prefix), where both texts' authorities agree
 *   on holding an "@".
 * - the octet reader of the column kernel (uk_scan_octets) gives the answer and spans
 *   of uk_scan_ucs1 with the URI grammar, with its runs read sixteen octets at a time
 *   (where the processor can) and four at a time, when it reads only the text and when
 *   it reads on into octets after it;
 * - for input that is UTF-8, the UTF-8 reader (uk_scan_utf8) gives the answer of
 *   uk_scan_ucs4 with the IRI grammar on its code points, with the spans in octets, and
 *   uk_locate_utf8 the failure of uk_locate on the code points, the position in
 *   characters.
 *
 * Build and run: tools/fuzz.sh SECONDS.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "locate.h"
#include "scan.h"
#include "spans.h"
#include "text.h"

#define CHECK(cond)                                                                      \
    do {                                                                                 \
        if (!(cond)) {                                                                   \
            fprintf(stderr, "scan_fuzz: invariant failed at line %d: %s\n", __LINE__,    \
                    #cond);                                                              \
            abort();                                                                     \
        }                                                                                \
    } while (0)

typedef struct {
    int found;
    ptrdiff_t spans[UK_SPANS];
} scan_result;

static int same(const scan_result *a, const scan_result *b)
{
    if (a->found != b->found) {
        return 0;
    }
    return !a->found || memcmp(a->spans, b->spans, sizeof a->spans) == 0;
}

static int defined(const ptrdiff_t *spans, int group)
{
    return spans[group] >= 0;
}

/* The first index of c in cp[0..n-1], or n. */
static ptrdiff_t first(const uint32_t *cp, ptrdiff_t n, uint32_t c)
{
    ptrdiff_t i = 0;
    while (i < n && cp[i] != c) {
        i++;
    }
    return i;
}

/* The invariants of one successful scan; cp holds the code points of the text. */
static void check_spans(const ptrdiff_t *sp, const uint32_t *cp, ptrdiff_t n)
{
    for (int g = 0; g < UK_SPANS; g += 2) {
        if (sp[g] < 0) {
            CHECK(sp[g] == -1 && sp[g + 1] == -1);
        } else {
            CHECK(sp[g] <= sp[g + 1] && sp[g + 1] <= n);
        }
    }
    CHECK(uk_spans_in_order(sp, n));
    ptrdiff_t ends[UK_COMPONENTS];
    for (int k = 0; k < UK_COMPONENTS; k++) {
        ends[k] = sp[2 * k + 1];
    }
    for (int k = 0; k < UK_COMPONENTS; k++) {
        if (ends[k] >= 0) {
            CHECK(uk_component_start(ends, k) == sp[2 * k]);
        }
    }
    ptrdiff_t at = 0; /* where the next component starts */
    if (defined(sp, UK_G_SCHEME)) {
        CHECK(sp[UK_G_SCHEME] == 0 && sp[UK_G_SCHEME + 1] > 0 && sp[UK_G_SCHEME + 1] < n);
        CHECK(cp[sp[UK_G_SCHEME + 1]] == ':');
        at = sp[UK_G_SCHEME + 1] + 1;
    }
    CHECK(defined(sp, UK_G_AUTHORITY) == defined(sp, UK_G_HOST));
    if (defined(sp, UK_G_AUTHORITY)) {
        CHECK(sp[UK_G_AUTHORITY] == at + 2 && cp[at] == '/' && cp[at + 1] == '/');
        at = sp[UK_G_AUTHORITY];
        if (defined(sp, UK_G_USERINFO)) {
            CHECK(sp[UK_G_USERINFO] == at && sp[UK_G_USERINFO + 1] < n);
            CHECK(cp[sp[UK_G_USERINFO + 1]] == '@');
            at = sp[UK_G_USERINFO + 1] + 1;
        }
        CHECK(sp[UK_G_HOST] == at);
        at = sp[UK_G_HOST + 1];
        if (defined(sp, UK_G_PORT)) {
            CHECK(sp[UK_G_PORT] == at + 1 && at < n && cp[at] == ':');
            at = sp[UK_G_PORT + 1];
        }
        CHECK(sp[UK_G_AUTHORITY + 1] == at);
    } else {
        CHECK(!defined(sp, UK_G_USERINFO) && !defined(sp, UK_G_PORT));
    }
    CHECK(defined(sp, UK_G_PATH) && sp[UK_G_PATH] == at);
    at = sp[UK_G_PATH + 1];
    if (defined(sp, UK_G_QUERY)) {
        CHECK(sp[UK_G_QUERY] == at + 1 && at < n && cp[at] == '?');
        CHECK(first(cp, n, '?') == at);
        at = sp[UK_G_QUERY + 1];
    }
    if (defined(sp, UK_G_FRAGMENT)) {
        CHECK(sp[UK_G_FRAGMENT] == at + 1 && at < n && cp[at] == '#');
        CHECK(first(cp, n, '#') == at);
        if (!defined(sp, UK_G_QUERY)) {
            CHECK(first(cp, at, '?') == at);
        }
        at = sp[UK_G_FRAGMENT + 1];
    } else {
        CHECK(first(cp, n, '#') == n);
        if (!defined(sp, UK_G_QUERY)) {
            CHECK(first(cp, n, '?') == n);
        }
    }
    CHECK(at == n);
}

static int locate_units(const void *units, size_t w, ptrdiff_t n, int iri, uk_failure *f)
{
    return uk_locate(units, (int)w, n, iri, f);
}

static int same_failure(int a, const uk_failure *fa, int b, const uk_failure *fb)
{
    return a == b && (!a || (fa->position == fb->position &&
                             fa->explanation == fb->explanation &&
                             fa->non_ascii == fb->non_ascii));
}

/* The invariants of the locator on the text cp[0..n-1] held as units of width w. */
static void check_locate(const void *units, size_t w, const uint32_t *cp, ptrdiff_t n, int iri,
                         int found, uk_failure *out)
{
    uk_failure f;
    int failed = locate_units(units, w, n, iri, &f);
    CHECK(failed == !found);
    if (failed) {
        CHECK(f.position >= 0 && f.position <= n);
        CHECK(f.explanation < uk_loc_explanations());
        CHECK(!f.non_ascii || (!iri && f.position < n && cp[f.position] > 0x7F));
        if (f.position < n && uk_loc_userinfo_possible(units, (int)w, f.position) ==
                                  uk_loc_userinfo_possible(units, (int)w, n)) {
            uk_failure g;
            if (locate_units(units, w, f.position, iri, &g)) {
                CHECK(g.position == f.position);
            }
        }
    }
    *out = f;
    out->position = failed ? f.position : -1;
}

/* Scan the code points cp[0..n-1] at every width that holds them, in both grammars. */
static void scan_code_points(const uint32_t *cp, ptrdiff_t n)
{
    uint32_t max = 0;
    for (ptrdiff_t i = 0; i < n; i++) {
        max = cp[i] > max ? cp[i] : max;
    }
    /* Exactly n units: for n == 0 the scanner must not read at all. */
    int fits2 = max <= 0xFFFF, fits1 = max <= 0xFF;
    uint32_t *u4 = malloc((size_t)n * sizeof *u4);
    uint16_t *u2 = fits2 ? malloc((size_t)n * sizeof *u2) : NULL;
    uint8_t *u1 = fits1 ? malloc((size_t)n) : NULL;
    CHECK(n == 0 || (u4 != NULL && (!fits2 || u2 != NULL) && (!fits1 || u1 != NULL)));
    for (ptrdiff_t i = 0; i < n; i++) {
        u4[i] = cp[i];
        if (u2 != NULL) {
            u2[i] = (uint16_t)cp[i];
        }
        if (u1 != NULL) {
            u1[i] = (uint8_t)cp[i];
        }
    }
    scan_result by_grammar[2];
    for (int iri = 0; iri <= 1; iri++) {
        scan_result r4, r2, r1;
        uk_failure f4, f2, f1;
        r4.found = uk_scan_ucs4(u4, n, iri, r4.spans);
        if (r4.found) {
            check_spans(r4.spans, cp, n);
        }
        check_locate(u4, 4, cp, n, iri, r4.found, &f4);
        if (fits2) {
            r2.found = uk_scan_ucs2(u2, n, iri, r2.spans);
            CHECK(same(&r4, &r2));
            check_locate(u2, 2, cp, n, iri, r2.found, &f2);
            CHECK(same_failure(!r4.found, &f4, !r2.found, &f2));
        }
        if (fits1) {
            r1.found = uk_scan_ucs1(u1, n, iri, r1.spans);
            CHECK(same(&r4, &r1));
            check_locate(u1, 1, cp, n, iri, r1.found, &f1);
            CHECK(same_failure(!r4.found, &f4, !r1.found, &f1));
        }
        by_grammar[iri] = r4;
    }
    /* The URI grammar is the IRI grammar restricted to ASCII (RFC 3987 §2.2). */
    if (by_grammar[0].found) {
        CHECK(max < 0x80);
        CHECK(same(&by_grammar[0], &by_grammar[1]));
    }
    free(u1);
    free(u2);
    free(u4);
}

/* UTF-8 to code points, surrogates included; a byte that starts no sequence stands for
 * itself.  Returns the number of code points written to out (at most size). */
static ptrdiff_t decode(const uint8_t *data, size_t size, uint32_t *out)
{
    ptrdiff_t n = 0;
    size_t i = 0;
    while (i < size) {
        uint8_t b = data[i];
        size_t len = b >= 0xF5 ? 1 : b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC2 ? 2 : 1;
        uint32_t c = len == 4 ? b & 0x07u : len == 3 ? b & 0x0Fu : len == 2 ? b & 0x1Fu : b;
        if (len > 1 && i + len <= size) {
            for (size_t k = 1; k < len; k++) {
                if ((data[i + k] & 0xC0) != 0x80) {
                    len = 1;
                    break;
                }
                c = (c << 6) | (data[i + k] & 0x3Fu);
            }
        } else {
            len = 1;
        }
        out[n++] = len == 1 ? b : c;
        i += len;
    }
    return n;
}

/* The octet reader of the column kernel on the octets s[0..n-1], with and without
 * its sixteen-octet runs: reading only the text, and reading on into octets after it
 * (members of every class, or non-members) up to limits on either side of sixteen. */
static void check_octets(const scan_result *want, const uint8_t *s, ptrdiff_t n)
{
    static const ptrdiff_t pads[] = {1, 7, 15, 16, 17, 31};
    static const uint8_t fills[] = {'a', ' '};
    uk_octet_table table;
    uk_octet_table_init(&table);
    int simd = table.simd;
    uint8_t *padded = malloc((size_t)n + 31);
    CHECK(padded != NULL);
    if (n > 0) {
        memcpy(padded, s, (size_t)n);
    }
    for (int wide = 0; wide <= simd; wide++) {
        table.simd = wide;
        scan_result octets;
        octets.found = uk_scan_octets(&table, s, n, s + n, octets.spans);
        CHECK(same(want, &octets));
        for (size_t f = 0; f < sizeof fills; f++) {
            memset(padded + n, fills[f], 31);
            for (size_t p = 0; p < sizeof pads / sizeof pads[0]; p++) {
                octets.found = uk_scan_octets(&table, padded, n, padded + n + pads[p],
                                              octets.spans);
                CHECK(same(want, &octets));
            }
        }
    }
    free(padded);
}

/* Raw code units of width w (native byte order), scanned where they are, exactly sized. */
static void scan_raw(const uint8_t *data, size_t size, size_t w)
{
    ptrdiff_t n = (ptrdiff_t)(size / w);
    void *units = malloc((size_t)n * w);
    uint32_t *cp = malloc((size_t)n * sizeof *cp);
    CHECK(n == 0 || (units != NULL && cp != NULL));
    if (n > 0) {
        memcpy(units, data, (size_t)n * w);
    }
    for (ptrdiff_t i = 0; i < n; i++) {
        cp[i] = w == 1 ? ((uint8_t *)units)[i] : w == 2 ? ((uint16_t *)units)[i]
                                                        : ((uint32_t *)units)[i];
    }
    for (int iri = 0; iri <= 1; iri++) {
        scan_result r;
        r.found = w == 1   ? uk_scan_ucs1(units, n, iri, r.spans)
                  : w == 2 ? uk_scan_ucs2(units, n, iri, r.spans)
                           : uk_scan_ucs4(units, n, iri, r.spans);
        if (r.found) {
            check_spans(r.spans, cp, n);
        }
        uk_failure f;
        check_locate(units, w, cp, n, iri, r.found, &f);
        if (w == 1 && !iri) {
            check_octets(&r, units, n);
        }
    }
    free(cp);
    free(units);
}

/* The UTF-8 reader and locator of the column kernel on the octets s[0..n-1], when they
 * are UTF-8 (RFC 3629), against the readers of code points. */
static void check_utf8(const uint8_t *s, ptrdiff_t n)
{
    uint32_t *cp = malloc((size_t)n * sizeof *cp + 1);
    ptrdiff_t *at = malloc(((size_t)n + 1) * sizeof *at);
    CHECK(cp != NULL && at != NULL);
    ptrdiff_t count = 0;
    for (ptrdiff_t i = 0; i < n;) {
        at[count] = i;
        int32_t c = uk_utf8_next(s, n, &i);
        if (c < 0) {
            free(cp);
            free(at);
            return;
        }
        cp[count++] = (uint32_t)c;
    }
    at[count] = n;
    uint8_t *exact = malloc((size_t)n + 1);
    CHECK(exact != NULL);
    memcpy(exact, s, (size_t)n);
    scan_result by_points, by_octets;
    by_points.found = uk_scan_ucs4(cp, count, 1, by_points.spans);
    by_octets.found = uk_scan_utf8(exact, n, by_octets.spans);
    CHECK(by_points.found == by_octets.found);
    if (by_points.found) {
        for (int k = 0; k < UK_SPANS; k++) {
            ptrdiff_t p = by_points.spans[k];
            CHECK(by_octets.spans[k] == (p < 0 ? -1 : at[p]));
        }
    }
    for (int iri = 0; iri <= 1; iri++) {
        uk_failure f, g;
        int failed = uk_locate(cp, 4, count, iri, &f);
        CHECK(uk_locate_utf8(exact, n, iri, &g) == failed);
        CHECK(same_failure(failed, &f, failed, &g));
    }
    free(exact);
    free(cp);
    free(at);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    scan_raw(data, size, 1);
    scan_raw(data, size, 2);
    scan_raw(data, size, 4);
    uint32_t *cp = malloc(size * sizeof *cp + 1);
    CHECK(cp != NULL);
    ptrdiff_t n = decode(data, size, cp);
    scan_code_points(cp, n);
    free(cp);
    check_utf8(data, (ptrdiff_t)size);
    return 0;
}
