/* The RFC operations of the compiled core (ops.h): the scheme rules, and the steps of
 * ops_steps.inc compiled once per width of code unit. */
#include "ops.h"

#include <string.h>

#include "check.h"
#include "classes.h"
#include "spans.h"
#include "text.h"

int uk_scheme_rules_of(long code, uk_scheme_rules *rules)
{
    if (code < 0 || code >= (65537L << UK_SCHEME_PORT_SHIFT)) {
        return -1;
    }
    rules->default_port = (int)(code >> UK_SCHEME_PORT_SHIFT) - 1;
    rules->empty_path_is_root = (code & UK_SCHEME_EMPTY_PATH_IS_ROOT) != 0;
    rules->defer = (code & UK_SCHEME_DEFER) != 0;
    rules->rule = UK_RULE_NONE;
    switch (code & UK_SCHEME_RULES) {
    case 0:
        break;
    case UK_SCHEME_FILE_LOCALHOST:
        rules->rule = UK_RULE_FILE_LOCALHOST;
        break;
    case UK_SCHEME_MAILTO_DOMAIN:
        rules->rule = UK_RULE_MAILTO_DOMAIN;
        break;
    case UK_SCHEME_URN_NID:
        rules->rule = UK_RULE_URN_NID;
        break;
    default: /* more than one rule, or one only the readable path applies */
        rules->defer = 1;
        break;
    }
    return 0;
}

/* Do the rules of a scheme (NULL below the scheme rung) change the valid reference
 * with the spans sp beyond its characters (RFC 3986 §6.2.3): a deferral or a special
 * rule, a port (omitted when empty or the default), or an empty path after an
 * authority that the scheme wants as "/"?  A reference they change is not plainly
 * its own normal form. */
static inline int uk_rules_may_change(const ptrdiff_t sp[UK_SPANS], const uk_scheme_rules *rules)
{
    return rules != NULL &&
           (rules->defer || rules->rule != UK_RULE_NONE || sp[UK_G_PORT] >= 0 ||
            (sp[UK_G_HOST] >= 0 && sp[UK_G_PATH] == sp[UK_G_PATH + 1] &&
             rules->empty_path_is_root));
}

#define UK_CHAR uint8_t
#define UK_FN(name) name##_ucs1
#include "ops_steps.inc"
#undef UK_CHAR
#undef UK_FN

#define UK_CHAR uint16_t
#define UK_FN(name) name##_ucs2
#include "ops_steps.inc"
#undef UK_CHAR
#undef UK_FN

#define UK_CHAR uint32_t
#define UK_FN(name) name##_ucs4
#include "ops_steps.inc"
#undef UK_CHAR
#undef UK_FN

/* --- the test of the column kernel for a row that is plainly its own normal form ---- */

#if defined(__x86_64__) || defined(_M_X64)
#include <emmintrin.h>
#define UK_PLAIN_SIMD 1

/* The k low bits of a word: none for k <= 0, all for k >= 64. */
static inline uint64_t uk_bits_below(ptrdiff_t k)
{
    return k <= 0 ? 0 : k >= 64 ? UINT64_MAX : ((uint64_t)1 << k) - 1;
}
#else
#define UK_PLAIN_SIMD 0
#endif

/* It is so with no "%", no upper-case letter in its scheme or reg-name host, and no
 * path segment that starts with "." (RFC 3986 §6.2.2), nor anything the rules change
 * (§6.2.3).  On x86-64, when the buffer goes on to a multiple of 16 octets and the row
 * has no userinfo, its octets are read 16 at a time into bit masks of the four that
 * matter ("%", "A" to "Z", ".", "/"), 64 octets to a word: no "%" in the row, no
 * upper-case letter before the end of the host (the scheme, "//" and the host), and no
 * "." at the start of the path or after a "/" before the end of the path.  That last
 * test also stops at a host that starts with "." after "//", which holds no
 * dot-segment: such a row is only left to uk_normalize, which writes it unchanged. */
int uk_plainly_normal_octets(const uint8_t *s, ptrdiff_t n, const uint8_t *limit,
                             const ptrdiff_t sp[UK_SPANS], const uk_scheme_rules *rules)
{
    UK_ASSERT(limit >= s + n && uk_spans_in_order(sp, n));
#if UK_PLAIN_SIMD
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
        if ((percents & uk_bits_below(m)) | (uppers & uk_bits_below(upper_end - g)) |
            (dots & starts & uk_bits_below(path_end - g))) {
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
