/* The test of the column kernel for a row that is plainly its own normal form.
 *
 * Plain C11 without the Python API.  uk8_plainly_normal answers as uk_plainly_normal_ucs1
 * of _speedups_ops_kind.h or more cautiously (0 where that says 1 only for a row whose
 * host starts with "."), reading a row whose buffer goes on 16 octets at a time;
 * tests/fuzz/ops_fuzz.c checks that uk_normalize_ucs1 writes every row it passes
 * unchanged, and that no octet after the row changes its answer.
 */
#ifndef URIKIT_COLUMNS_PLAIN_H
#define URIKIT_COLUMNS_PLAIN_H

#include <stddef.h>
#include <stdint.h>

#include "_speedups_ops.h"

#if defined(__x86_64__) || defined(_M_X64)
#include <emmintrin.h>
#define UK8_PLAIN_SIMD 1
#else
#define UK8_PLAIN_SIMD 0
#endif

#if UK8_PLAIN_SIMD
/* The k low bits of a word: none for k <= 0, all for k >= 64. */
static inline uint64_t uk8_bits_below(ptrdiff_t k)
{
    return k <= 0 ? 0 : k >= 64 ? UINT64_MAX : ((uint64_t)1 << k) - 1;
}
#endif

/* Is the valid URI-reference s[0..n-1] (spans sp, octets readable up to limit >= s + n)
 * plainly its own normal form with the scheme's rules (NULL below the scheme rung)?
 * So it is with no "%", no upper-case letter in its scheme or reg-name host, and no
 * path segment that starts with "." (RFC 3986 §6.2.2), nor anything the rules change
 * (§6.2.3).  On x86-64, when the buffer goes on to a multiple of 16 octets and the
 * row has no userinfo, its octets are read 16 at a time into bit masks of the four
 * that matter ("%", "A" to "Z", ".", "/"), 64 octets to a word: no "%" in the row, no
 * upper-case letter before the end of the host (the scheme, "//" and the host), and
 * no "." at the start of the path or after a "/" before the end of the path.  That
 * last test also stops at a host that starts with "." after "//", which holds no
 * dot-segment: such a row is only left to uk_normalize, which writes it unchanged.
 * 0 says only that this test cannot tell. */
static inline int uk8_plainly_normal(const uint8_t *s, ptrdiff_t n, const uint8_t *limit,
                                     const ptrdiff_t sp[UK_SPANS], const uk_scheme_rules *rules)
{
#if UK8_PLAIN_SIMD
    if (limit - s < ((n + 15) & ~(ptrdiff_t)15) || sp[UK_G_USERINFO] >= 0) {
        return uk_plainly_normal_ucs1(s, n, sp, rules);
    }
    if (uk_rules_may_change(sp, rules)) {
        return 0;
    }
    ptrdiff_t host = sp[UK_G_HOST], host_end = sp[UK_G_HOST + 1];
    if (host >= 0 && host_end > host && s[host] == '[') {
        return 0;
    }
    ptrdiff_t upper_end = host >= 0 ? host_end : sp[UK_G_SCHEME] >= 0 ? sp[UK_G_SCHEME + 1] : 0;
    ptrdiff_t path = sp[UK_G_PATH], path_end = sp[UK_G_PATH + 1];
    const __m128i percent = _mm_set1_epi8('%'), dot = _mm_set1_epi8('.'),
                  slash = _mm_set1_epi8('/'), before_a = _mm_set1_epi8('A' - 1),
                  after_z = _mm_set1_epi8('Z' + 1);
    uint64_t slash_before = 0; /* the last octet of the 64 before was "/" */
    for (ptrdiff_t g = 0; g < n; g += 64) {
        ptrdiff_t m = n - g < 64 ? n - g : 64;
        uint64_t percents = 0, uppers = 0, dots = 0, slashes = 0;
        for (ptrdiff_t b = 0; b < m; b += 16) {
            __m128i x = _mm_loadu_si128((const __m128i *)(s + g + b));
            /* signed comparisons: an octet >= 0x80 is below "A" */
            __m128i upper = _mm_and_si128(_mm_cmpgt_epi8(x, before_a), _mm_cmplt_epi8(x, after_z));
            percents |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, percent)) << b;
            uppers |= (uint64_t)(unsigned)_mm_movemask_epi8(upper) << b;
            dots |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, dot)) << b;
            slashes |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, slash)) << b;
        }
        uint64_t path_start = path >= g && path - g < 64 ? (uint64_t)1 << (path - g) : 0;
        uint64_t starts = (slashes << 1) | slash_before | path_start;
        if ((percents & uk8_bits_below(m)) | (uppers & uk8_bits_below(upper_end - g)) |
            (dots & starts & uk8_bits_below(path_end - g))) {
            return 0;
        }
        slash_before = slashes >> 63;
    }
    return 1;
#else
    (void)limit;
    return uk_plainly_normal_ucs1(s, n, sp, rules);
#endif
}

#endif /* URIKIT_COLUMNS_PLAIN_H */
