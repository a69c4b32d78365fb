/* The URI scanner of the column kernel: uk_scan_ucs1 of _speedups_scan.h with the URI
 * grammar (iri == 0), for octets, over a 256-entry class table.
 *
 * Plain C11 without the Python API.  It takes the same steps as uk_scan of
 * _speedups_scan_kind.h and gives the same answer and spans for every octet string
 * (tests/fuzz/scan_fuzz.c checks it against uk_scan_ucs1); what differs is only how
 * the runs are read:
 *
 * - an octet's classes are one load from a table of 256 entries, so an octet at or
 *   above 0x80 (in no class of the URI grammar, RFC 3986 §2) needs no test of its own;
 * - a run of a class reads four octets per step while all four are members; on an x86
 *   processor with SSSE3 (built by GCC or Clang) it reads sixteen per step, each step
 *   finding the first non-member of the sixteen (uk8_run16), while sixteen octets can
 *   be read;
 * - the authority is read once: its *( userinfo ) run stops at "@" exactly when there
 *   is a userinfo (RFC 3986 §3.2.1), and otherwise the host is the part of that run
 *   before its first ":", as reg-name is userinfo without ":" (RFC 3986 §3.2.2); the
 *   run is read as a reg-name run, continued as a userinfo run from a ":" that ends
 *   it, so the end of the host is known without a second look.
 *
 * Every step looks at each octet a bounded number of times and allocates nothing.
 * uk8_scan reads only s[0..n-1]; uk8_scan_within may read on up to a limit, but no
 * octet from s[n] on changes its answer.
 */
#ifndef URIKIT_COLUMNS_SCAN_H
#define URIKIT_COLUMNS_SCAN_H

#include <stddef.h>
#include <stdint.h>

#include "_speedups_scan.h"

/* UK8_SIMD: the runs can be read sixteen octets at a time with SSSE3, compiled for
 * the functions marked UK8_SSSE3 alone and used where the processor has it;
 * UK8_FLATTEN: a function with every call in it inlined. */
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define UK8_SIMD 1
#define UK8_SSSE3 __attribute__((target("ssse3")))
#define UK8_FLATTEN __attribute__((flatten))
#include <tmmintrin.h>
#else
#define UK8_SIMD 0
#define UK8_SSSE3
#define UK8_FLATTEN
#endif

/* The classes of every octet: those of uk_ascii_class below 0x80, none above.
 * nibbles[b] is class bit b of the octets < 0x80 split by nibbles: bit h of
 * nibbles[b][l] is set when the octet 16 * h + l is in the class. */
typedef struct {
    uint16_t of[256];
    uint8_t nibbles[16][16];
    int simd; /* whether uk8_run16 reads the runs */
} uk8_table;

static inline void uk8_table_init(uk8_table *t)
{
    for (int c = 0; c < 256; c++) {
        t->of[c] = c < 0x80 ? uk_ascii_class[c] : 0;
    }
    for (int b = 0; b < 16; b++) {
        for (int l = 0; l < 16; l++) {
            unsigned rows = 0;
            for (int h = 0; h < 8; h++) {
                rows |= ((uk_ascii_class[16 * h + l] >> b) & 1u) << h;
            }
            t->nibbles[b][l] = (uint8_t)rows;
        }
    }
#if UK8_SIMD
    __builtin_cpu_init();
    t->simd = __builtin_cpu_supports("ssse3") != 0;
#else
    t->simd = 0;
#endif
}

/* The end of the maximal run of one class bit from i, without pct-encoded. */
static inline ptrdiff_t uk8_run(const uk8_table *t, const uint8_t *s, ptrdiff_t i,
                                ptrdiff_t end, unsigned bit)
{
    const uint16_t *of = t->of;
    while (end - i >= 4 && (of[s[i]] & of[s[i + 1]] & of[s[i + 2]] & of[s[i + 3]] & bit)) {
        i += 4;
    }
    while (i < end && (of[s[i]] & bit)) {
        i++;
    }
    return i;
}

#if UK8_SIMD
/* uk8_run, sixteen octets a step while s[i..i+15] ends at or before limit, the
 * octets from s[end] on not counting.  An octet is in the class when its low nibble's
 * entry in nibbles has the bit of its high nibble (none for an octet >= 0x80). */
UK8_SSSE3 static inline ptrdiff_t uk8_run16(const uk8_table *t, const uint8_t *s, ptrdiff_t i,
                                            ptrdiff_t end, const uint8_t *limit, unsigned bit)
{
    const __m128i nibbles = _mm_loadu_si128((const __m128i *)t->nibbles[__builtin_ctz(bit)]);
    const __m128i rows = _mm_setr_epi8(1, 2, 4, 8, 16, 32, 64, (char)0x80, 0, 0, 0, 0, 0, 0, 0, 0);
    const __m128i low = _mm_set1_epi8(0x0F);
    while (limit - (s + i) >= 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(s + i));
        __m128i in_rows = _mm_shuffle_epi8(nibbles, _mm_and_si128(x, low));
        __m128i row = _mm_shuffle_epi8(rows, _mm_and_si128(_mm_srli_epi16(x, 4), low));
        __m128i out = _mm_cmpeq_epi8(_mm_and_si128(in_rows, row), _mm_setzero_si128());
        unsigned first = (unsigned)_mm_movemask_epi8(out);
        if (first != 0) {
            i += __builtin_ctz(first);
            return i < end ? i : end;
        }
        i += 16;
        if (i >= end) {
            return end;
        }
    }
    return uk8_run(t, s, i, end, bit);
}
#endif

/* The end of the maximal run of one class bit from i: by uk8_run16 with wide, else by
 * uk8_run. */
static inline ptrdiff_t uk8_class_run(const uk8_table *t, const uint8_t *s, ptrdiff_t i,
                                      ptrdiff_t end, const uint8_t *limit, unsigned bit,
                                      int wide)
{
#if UK8_SIMD
    if (wide) {
        return uk8_run16(t, s, i, end, limit, bit);
    }
#endif
    (void)limit;
    (void)wide;
    return uk8_run(t, s, i, end, bit);
}

/* The end of the maximal *( class / pct-encoded ) run from i, for one class bit;
 * pct-encoded = "%" HEXDIG HEXDIG (RFC 3986 §2.1), "%" being in no class. */
static inline ptrdiff_t uk8_star(const uk8_table *t, const uint8_t *s, ptrdiff_t i,
                                 ptrdiff_t end, const uint8_t *limit, unsigned bit, int wide)
{
    const uint16_t *of = t->of;
    for (;;) {
        i = uk8_class_run(t, s, i, end, limit, bit, wide);
        if (end - i > 2 && s[i] == '%' && (of[s[i + 1]] & of[s[i + 2]] & UK_HEXDIG)) {
            i += 3;
            continue;
        }
        return i;
    }
}

/* UK8_INLINE: a function inlined into each caller, so that wide is known there. */
#if defined(__GNUC__) || defined(__clang__)
#define UK8_INLINE __attribute__((always_inline)) inline
#else
#define UK8_INLINE inline
#endif

/* URI-reference = URI / relative-ref (RFC 3986 §4.1): 1 with the spans of the eight
 * components in spans (as uk_scan gives them), else 0 with spans unspecified.  Reads
 * s[0..n-1] and, with wide, octets on up to limit. */
static UK8_INLINE int uk8_scan_body(const uk8_table *t, const uint8_t *s, ptrdiff_t n,
                                    const uint8_t *limit, ptrdiff_t spans[UK_SPANS], int wide)
{
    const uint16_t *of = t->of;
    ptrdiff_t i = 0;
    for (int k = 0; k < UK_SPANS; k++) {
        spans[k] = -1;
    }

    /* scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ), then ":" (RFC 3986 §3.1) */
    if (n > 0 && (of[s[0]] & UK_SCHEME_FIRST)) {
        ptrdiff_t j = uk8_class_run(t, s, 1, n, limit, UK_SCHEME, wide);
        if (j < n && s[j] == ':') {
            spans[UK_G_SCHEME] = 0;
            spans[UK_G_SCHEME + 1] = j;
            i = j + 1;
        }
    }

    /* "//" authority (RFC 3986 §3.2) */
    int authority = n - i >= 2 && s[i] == '/' && s[i + 1] == '/';
    if (authority) {
        i += 2;
        spans[UK_G_AUTHORITY] = i;
        /* [ userinfo "@" ] (RFC 3986 §3.2.1): no "@" is in userinfo, host or port,
         * so the userinfo run ends at "@" exactly when the authority has one.  That
         * run is read as a reg-name run (userinfo without ":", RFC 3986 §3.2.2) and,
         * from a ":" at its end, on as a userinfo run: without a userinfo, the
         * reg-name run is the host when the host is not an IP-literal. */
        ptrdiff_t reg_end = uk8_star(t, s, i, n, limit, UK_REG_NAME, wide);
        ptrdiff_t run = reg_end;
        if (run < n && s[run] == ':') {
            run = uk8_star(t, s, run + 1, n, limit, UK_USERINFO, wide);
        }
        int has_userinfo = run < n && s[run] == '@';
        if (has_userinfo) {
            spans[UK_G_USERINFO] = i;
            spans[UK_G_USERINFO + 1] = run;
            i = run + 1;
        }
        /* host = IP-literal / IPv4address / reg-name (RFC 3986 §3.2.2) */
        spans[UK_G_HOST] = i;
        if (i < n && s[i] == '[') {
            /* No "]" is inside an IP-literal: it ends at the first one. */
            ptrdiff_t close = i + 1;
            while (close < n && s[close] != ']') {
                close++;
            }
            if (close == n || !uk_ip_literal_ucs1(s, i + 1, close)) {
                return 0;
            }
            i = close + 1;
        } else if (has_userinfo) {
            i = uk8_star(t, s, i, n, limit, UK_REG_NAME, wide);
        } else {
            i = reg_end;
        }
        spans[UK_G_HOST + 1] = i;

        /* ":" port, port = *DIGIT (RFC 3986 §3.2.3) */
        if (i < n && s[i] == ':') {
            spans[UK_G_PORT] = ++i;
            while (i < n && (of[s[i]] & UK_DIGIT)) {
                i++;
            }
            spans[UK_G_PORT + 1] = i;
        }
        spans[UK_G_AUTHORITY + 1] = i;
    }

    /* The path (RFC 3986 §3.3); no "//" is left at i. */
    spans[UK_G_PATH] = i;
    if (authority) {
        /* path-abempty = *( "/" segment ) */
        if (i < n && s[i] == '/') {
            i = uk8_star(t, s, i, n, limit, UK_PATH, wide);
        }
    } else if (spans[UK_G_SCHEME] == 0) {
        /* path-absolute / path-rootless / path-empty */
        i = uk8_star(t, s, i, n, limit, UK_PATH, wide);
    } else if (i < n && s[i] == '/') {
        /* path-absolute */
        i = uk8_star(t, s, i, n, limit, UK_PATH, wide);
    } else {
        /* path-noscheme / path-empty: no ":" in the first segment (RFC 3986 §4.2) */
        i = uk8_star(t, s, i, n, limit, UK_PCHAR_NC, wide);
        if (i < n && s[i] == '/') {
            i = uk8_star(t, s, i, n, limit, UK_PATH, wide);
        }
    }
    spans[UK_G_PATH + 1] = i;

    /* "?" query (RFC 3986 §3.4) */
    if (i < n && s[i] == '?') {
        spans[UK_G_QUERY] = ++i;
        i = uk8_star(t, s, i, n, limit, UK_QUERY, wide);
        spans[UK_G_QUERY + 1] = i;
    }

    /* "#" fragment (RFC 3986 §3.5) */
    if (i < n && s[i] == '#') {
        spans[UK_G_FRAGMENT] = ++i;
        i = uk8_star(t, s, i, n, limit, UK_FRAGMENT, wide);
        spans[UK_G_FRAGMENT + 1] = i;
    }
    return i == n;
}

/* uk8_scan_body with the runs read by uk8_run16 (every call in it inlined), and
 * without. */
UK8_SSSE3 UK8_FLATTEN static int uk8_scan_wide(const uk8_table *t, const uint8_t *s,
                                               ptrdiff_t n, const uint8_t *limit,
                                               ptrdiff_t spans[UK_SPANS])
{
    return uk8_scan_body(t, s, n, limit, spans, 1);
}

static int uk8_scan_narrow(const uk8_table *t, const uint8_t *s, ptrdiff_t n,
                           const uint8_t *limit, ptrdiff_t spans[UK_SPANS])
{
    return uk8_scan_body(t, s, n, limit, spans, 0);
}

/* URI-reference = URI / relative-ref (RFC 3986 §4.1), as uk8_scan_body: the octets
 * s[0..limit - s - 1] may be read, limit >= s + n. */
static inline int uk8_scan_within(const uk8_table *t, const uint8_t *s, ptrdiff_t n,
                                  const uint8_t *limit, ptrdiff_t spans[UK_SPANS])
{
    return t->simd ? uk8_scan_wide(t, s, n, limit, spans)
                   : uk8_scan_narrow(t, s, n, limit, spans);
}

/* uk8_scan_within, reading only s[0..n-1]. */
static inline int uk8_scan(const uk8_table *t, const uint8_t *s, ptrdiff_t n,
                           ptrdiff_t spans[UK_SPANS])
{
    return uk8_scan_within(t, s, n, s + n, spans);
}

#endif /* URIKIT_COLUMNS_SCAN_H */
