/* A libFuzzer target for the RFC operations of the compiled core (src/urikit/_c/ops.h,
 * percent.h).
 *
 * The input is a base and a reference separated by the first tab (the whole input is
 * both when there is none), taken as 1-byte code units and, widened, as 4-byte ones.
 * Every buffer is allocated to its exact length, so the sanitizers see any access past
 * the end.  The harness checks, in both grammars:
 *
 * - resolution (RFC 3986 §5.2.2) of a valid reference against a valid absolute base
 *   stays within UK_RESOLVE_CAPACITY, gives a valid reference whose scan has exactly
 *   the spans the operation reported, and the same text at both widths;
 * - normalization (§6.2.2, §6.2.3, with no scheme rules, a default port and an empty
 *   path of "/", and each special rule) of a valid reference stays within
 *   UK_NORMALIZE_CAPACITY, gives a valid reference with the reported spans, and is
 *   idempotent where it answers again; a reference the plain-normality tests pass
 *   (uk_plainly_normal, and the column kernel's uk_plainly_normal_octets, which must not
 *   depend on the octets after the reference) is written unchanged;
 * - remove_dot_segments (§5.2.4) never grows its input;
 * - percent-encoding writes the length it announced, and decoding it gives the input
 *   back (§2.1).
 *
 * Build and run: tools/fuzz.sh SECONDS.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classes.h"
#include "ops.h"
#include "percent.h"
#include "scan.h"

#define CHECK(cond)                                                                      \
    do {                                                                                 \
        if (!(cond)) {                                                                   \
            fprintf(stderr, "ops_fuzz: invariant failed at line %d: %s\n", __LINE__,     \
                    #cond);                                                              \
            abort();                                                                     \
        }                                                                                \
    } while (0)

static void *allocate(size_t size)
{
    void *p = malloc(size == 0 ? 1 : size);
    CHECK(p != NULL);
    return p;
}

static const uk_scheme_rules RULES[] = {
    {-1, 0, 0, UK_RULE_NONE},
    {80, 1, 0, UK_RULE_NONE},
    {-1, 1, 0, UK_RULE_FILE_LOCALHOST},
    {-1, 0, 0, UK_RULE_MAILTO_DOMAIN},
    {-1, 0, 0, UK_RULE_URN_NID},
};

static void same_spans(const ptrdiff_t *a, const ptrdiff_t *b)
{
    CHECK(memcmp(a, b, UK_SPANS * sizeof(ptrdiff_t)) == 0);
}

/* Resolution at both widths: b, r are the 1-byte texts, wb, wr the same widened. */
static void check_resolve(const uint8_t *b, ptrdiff_t nb, const uint8_t *r, ptrdiff_t nr,
                          const uint32_t *wb, const uint32_t *wr, int iri)
{
    ptrdiff_t bs[UK_SPANS], rs[UK_SPANS], ts[UK_SPANS], ws[UK_SPANS], again[UK_SPANS];
    if (!uk_scan_ucs1(b, nb, iri, bs) || bs[UK_G_SCHEME] < 0 || !uk_scan_ucs1(r, nr, iri, rs)) {
        return;
    }
    for (int strict = 0; strict < 2; strict++) {
        ptrdiff_t capacity = UK_RESOLVE_CAPACITY(nb, nr);
        uint8_t *out = allocate((size_t)capacity);
        uint32_t *wide = allocate((size_t)capacity * sizeof(uint32_t));
        ptrdiff_t n = uk_transform_references_ucs1(b, bs, r, rs, strict, out, ts);
        CHECK(n >= 0 && n <= capacity);
        CHECK(uk_scan_ucs1(out, n, iri, again));
        same_spans(ts, again);
        ptrdiff_t wn = uk_transform_references_ucs4(wb, bs, wr, rs, strict, wide, ws);
        CHECK(wn == n);
        same_spans(ts, ws);
        for (ptrdiff_t i = 0; i < n; i++) {
            CHECK(wide[i] == out[i]);
        }
        free(out);
        free(wide);
    }
}

/* The column kernel's test (uk_plainly_normal_octets) of the valid URI-reference s[0..n-1],
 * in a copy followed by up to 16 octets of "a" and in one followed by "%", "A", "."
 * and "/": it gives the same answer for both, and passes only a reference that
 * uk_normalize writes unchanged. */
static void check_plain_octets(const uint8_t *s, ptrdiff_t n, const ptrdiff_t sp[UK_SPANS],
                               const uk_scheme_rules *rules, int unchanged)
{
    ptrdiff_t padded = (n + 15) & ~(ptrdiff_t)15;
    int answers[2];
    for (int k = 0; k < 2; k++) {
        uint8_t *copy = allocate((size_t)padded);
        memcpy(copy, s, (size_t)n);
        for (ptrdiff_t i = n; i < padded; i++) {
            copy[i] = k == 0 ? 'a' : (uint8_t)"%A./"[i % 4];
        }
        answers[k] = uk_plainly_normal_octets(copy, n, copy + padded, sp, rules);
        free(copy);
    }
    CHECK(answers[0] == answers[1]);
    if (answers[0]) {
        CHECK(unchanged);
    }
}

static void check_normalize(const uint8_t *s, ptrdiff_t n, int iri)
{
    ptrdiff_t sp[UK_SPANS], ts[UK_SPANS], again[UK_SPANS], twice[UK_SPANS];
    if (!uk_scan_ucs1(s, n, iri, sp)) {
        return;
    }
    size_t count = sizeof RULES / sizeof RULES[0];
    for (size_t k = 0; k <= count; k++) {
        const uk_scheme_rules *rules = k == count ? NULL : &RULES[k];
        ptrdiff_t capacity = UK_NORMALIZE_CAPACITY(n);
        uint8_t *out = allocate((size_t)capacity);
        ptrdiff_t m = uk_normalize_ucs1(s, sp, rules, out, ts);
        int unchanged = m == n && memcmp(out, s, (size_t)n) == 0;
        if (uk_plainly_normal_ucs1(s, n, sp, rules)) {
            CHECK(unchanged);
        }
        if (!iri) {
            check_plain_octets(s, n, sp, rules, unchanged);
        }
        if (m >= 0) {
            CHECK(m <= capacity);
            CHECK(uk_scan_ucs1(out, m, iri, again));
            same_spans(ts, again);
            ptrdiff_t capacity2 = UK_NORMALIZE_CAPACITY(m);
            uint8_t *out2 = allocate((size_t)capacity2);
            ptrdiff_t m2 = uk_normalize_ucs1(out, again, rules, out2, twice);
            if (m2 >= 0) {
                CHECK(m2 == m && memcmp(out, out2, (size_t)m) == 0);
            }
            free(out2);
        }
        free(out);
    }
}

static void check_percent(const uint8_t *s, ptrdiff_t n)
{
    uint8_t keep[128];
    for (int c = 0; c < 128; c++) {
        keep[c] = (uint8_t)((uk_ascii_class[c] & UK_PCHAR) != 0 && c != '%');
    }
    for (int encoded = 0; encoded < 2; encoded++) {
        ptrdiff_t length = uk_percent_encode_length(s, n, keep, encoded);
        uint8_t *out = allocate((size_t)length);
        CHECK(uk_percent_encode(s, n, keep, encoded, out) == length);
        uint8_t *back = allocate((size_t)length);
        ptrdiff_t m = uk_percent_decode(out, length, back);
        CHECK(m >= 0);
        if (!encoded) {
            CHECK(m == n && memcmp(back, s, (size_t)n) == 0);
        }
        free(out);
        free(back);
    }
    uint8_t *decoded = allocate((size_t)n);
    ptrdiff_t m = uk_percent_decode(s, n, decoded);
    CHECK(m <= n);
    free(decoded);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ptrdiff_t n = (ptrdiff_t)size, tab = 0;
    while (tab < n && data[tab] != '\t') {
        tab++;
    }
    ptrdiff_t nb = tab, nr = tab < n ? n - tab - 1 : n;
    uint8_t *b = allocate((size_t)nb), *r = allocate((size_t)nr);
    memcpy(b, data, (size_t)nb);
    memcpy(r, tab < n ? data + tab + 1 : data, (size_t)nr);
    uint32_t *wb = allocate((size_t)nb * sizeof(uint32_t));
    uint32_t *wr = allocate((size_t)nr * sizeof(uint32_t));
    for (ptrdiff_t i = 0; i < nb; i++) {
        wb[i] = b[i];
    }
    for (ptrdiff_t i = 0; i < nr; i++) {
        wr[i] = r[i];
    }
    for (int iri = 0; iri < 2; iri++) {
        check_resolve(b, nb, r, nr, wb, wr, iri);
        check_normalize(b, nb, iri);
        check_normalize(r, nr, iri);
    }
    uint8_t *path = allocate((size_t)nr);
    memcpy(path, r, (size_t)nr);
    CHECK(uk_remove_dot_segments_ucs1(path, nr) <= nr);
    check_percent(r, nr);
    free(path);
    free(b);
    free(r);
    free(wb);
    free(wr);
    return 0;
}
