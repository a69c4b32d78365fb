/* The scanner of the compiled core: one pass over a URI or IRI reference.
 *
 * Plain C11 without the Python API, so that a fuzz harness can link it directly.
 * uk_scan_ucs1, uk_scan_ucs2 and uk_scan_ucs4 take a buffer of 1-, 2- or 4-byte
 * code units (the three kinds of a Python str) and return 1 when it is an
 * URI-reference (RFC 3986 §4.1), or with iri != 0 an IRI-reference (RFC 3987 §2.2)
 * without bidi formatting characters (RFC 3987 §4.1), else 0.  On 1 the spans of
 * the 8 components are in spans[0..15] as start, end pairs, in the order of the
 * groups of Grammar.reference in grammar.py:
 *
 *     0 scheme, 1 authority, 2 userinfo, 3 host, 4 port, 5 path, 6 query, 7 fragment
 *
 * with -1, -1 for a component that is undefined (RFC 3986 §5.3).  The path is
 * always defined.  On 0 the contents of spans are unspecified.
 *
 * Every step looks at each code unit a bounded number of times (linear time), uses
 * no recursion, allocates nothing and reads only s[0..n-1].
 */
#ifndef URIKIT_SPEEDUPS_SCAN_H
#define URIKIT_SPEEDUPS_SCAN_H

#include <stddef.h>
#include <stdint.h>

#include "_speedups_tables.h"

enum {
    UK_G_SCHEME = 0,
    UK_G_AUTHORITY = 2,
    UK_G_USERINFO = 4,
    UK_G_HOST = 6,
    UK_G_PORT = 8,
    UK_G_PATH = 10,
    UK_G_QUERY = 12,
    UK_G_FRAGMENT = 14,
    UK_SPANS = 16
};

/* The non-ASCII members of a class: none in the URI grammar; in the IRI grammar the
 * ranges of the generated tables. */
typedef struct {
    const uk_range *ranges;
    size_t count;
} uk_ext;

static const uk_ext uk_no_ext = {NULL, 0};

static inline int uk_in_ranges(uint32_t c, uk_ext ext)
{
    size_t lo = 0, hi = ext.count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (c < ext.ranges[mid].lo) {
            hi = mid;
        } else if (c > ext.ranges[mid].hi) {
            lo = mid + 1;
        } else {
            return 1;
        }
    }
    return 0;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <emmintrin.h>
#define UK_SCAN_SIMD 1

/* Are the 16 octets at p five triplets (pct-encoded = "%" HEXDIG HEXDIG, RFC 3986
 * §2.1) and one more octet: "%" at 0, 3, 6, 9 and 12 and a HEXDIG at the other ten of
 * the first fifteen?  A run of triplets, as a lenient repair writes for the octets of
 * characters, is read fifteen code units a step. */
static inline int uk_five_triplets(const uint8_t *p)
{
    const __m128i x = _mm_loadu_si128((const __m128i *)p);
    /* the signed comparisons fail for an octet above 0x7F; "A"-"F" | 0x20 is "a"-"f" */
    const __m128i lower = _mm_or_si128(x, _mm_set1_epi8(0x20));
    const __m128i digit = _mm_and_si128(_mm_cmpgt_epi8(x, _mm_set1_epi8('0' - 1)),
                                        _mm_cmplt_epi8(x, _mm_set1_epi8('9' + 1)));
    const __m128i letter = _mm_and_si128(_mm_cmpgt_epi8(lower, _mm_set1_epi8('a' - 1)),
                                         _mm_cmplt_epi8(lower, _mm_set1_epi8('f' + 1)));
    unsigned percents = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8('%')));
    unsigned hexdigs = (unsigned)_mm_movemask_epi8(_mm_or_si128(digit, letter));
    return (percents & 0x7FFF) == 0x1249 && (hexdigs & 0x7FFF) == 0x6DB6;
}
#else
#define UK_SCAN_SIMD 0
#endif

/* Whether the code point c is an ASCII member of the classes in bits. */
static inline int uk_ascii_is(uint32_t c, unsigned bits)
{
    return c < 0x80 && (uk_ascii_class[c] & bits) != 0;
}

/* The components by number, in the order of the spans: component k has the span
 * spans[2k], spans[2k + 1]. */
enum {
    UK_C_SCHEME,
    UK_C_AUTHORITY,
    UK_C_USERINFO,
    UK_C_HOST,
    UK_C_PORT,
    UK_C_PATH,
    UK_C_QUERY,
    UK_C_FRAGMENT,
    UK_COMPONENTS
};

/* Where component k starts, given only the ends of all eight (ends[j] = spans[2j + 1],
 * -1 for an undefined component) and that component k is defined.  The starts follow
 * from the delimiters of RFC 3986 §4.1, which stand between the components:
 *
 *     [ scheme ":" ] [ "//" [ userinfo "@" ] host [ ":" port ] ] path
 *     [ "?" query ] [ "#" fragment ]
 *
 * so a value can keep the eight ends alone (the authority ends where the path starts). */
static inline ptrdiff_t uk_component_start(const ptrdiff_t ends[UK_COMPONENTS], int k)
{
    ptrdiff_t after_scheme = ends[UK_C_SCHEME] >= 0 ? ends[UK_C_SCHEME] + 1 : 0;
    switch (k) {
    case UK_C_SCHEME:
        return 0;
    case UK_C_AUTHORITY:
    case UK_C_USERINFO:
        return after_scheme + 2; /* "//" */
    case UK_C_HOST:
        return ends[UK_C_USERINFO] >= 0 ? ends[UK_C_USERINFO] + 1 : after_scheme + 2;
    case UK_C_PORT:
        return ends[UK_C_HOST] + 1; /* ":" */
    case UK_C_PATH:
        return ends[UK_C_AUTHORITY] >= 0 ? ends[UK_C_AUTHORITY] : after_scheme;
    case UK_C_QUERY:
        return ends[UK_C_PATH] + 1; /* "?" */
    default: /* UK_C_FRAGMENT, after "#" */
        return (ends[UK_C_QUERY] >= 0 ? ends[UK_C_QUERY] : ends[UK_C_PATH]) + 1;
    }
}

#define UK_CHAR uint8_t
#define UK_FN(name) name##_ucs1
#include "_speedups_scan_kind.h"
#undef UK_CHAR
#undef UK_FN

#define UK_CHAR uint16_t
#define UK_FN(name) name##_ucs2
#include "_speedups_scan_kind.h"
#undef UK_CHAR
#undef UK_FN

#define UK_CHAR uint32_t
#define UK_FN(name) name##_ucs4
#include "_speedups_scan_kind.h"
#undef UK_CHAR
#undef UK_FN

#endif /* URIKIT_SPEEDUPS_SCAN_H */
