/* The scanner of the compiled core (scan.h): the host grammar, the readers of runs,
 * and the steps of scan_steps.inc compiled once for each reader. */
#include "scan.h"

#include <string.h>

#include "attributes.h"
#include "check.h"
#include "classes.h"
#include "spans.h"
#include "text.h"

/* UK_SSSE3, UK_FLATTEN: a function compiled for SSSE3 and with every call in it inlined
 * (x86 with GCC or Clang, where the runs of octets are read 16 a step, UK_OCTETS_SIMD). */
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#include <tmmintrin.h>
#define UK_OCTETS_SIMD 1
#define UK_SSSE3 __attribute__((target("ssse3")))
#define UK_FLATTEN __attribute__((flatten))
#else
#define UK_OCTETS_SIMD 0
#define UK_SSSE3
#define UK_FLATTEN
#endif

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <emmintrin.h>
#define UK_TRIPLETS_SIMD 1
#else
#define UK_TRIPLETS_SIMD 0
#endif

/* --- the host (RFC 3986 §3.2.2), over code units of any width ------------------------ */

/* IPv4address = dec-octet "." dec-octet "." dec-octet "." dec-octet, all of s[i..end-1]
 * dec-octet = DIGIT / %x31-39 DIGIT / "1" 2DIGIT / "2" %x30-34 DIGIT / "25" %x30-35:
 * 0 to 255 without a leading zero. */
static int uk_ipv4(const void *s, int width, ptrdiff_t i, ptrdiff_t end)
{
    for (int octet = 0; octet < 4; octet++) {
        if (octet > 0) {
            if (i >= end || uk_unit_at(s, width, i) != '.') {
                return 0;
            }
            i++;
        }
        ptrdiff_t start = i;
        unsigned value = 0;
        while (i < end && i - start < 3 && uk_ascii_is(uk_unit_at(s, width, i), UK_DIGIT)) {
            value = value * 10 + (unsigned)(uk_unit_at(s, width, i) - '0');
            i++;
        }
        if (i == start || value > 255 || (i - start > 1 && uk_unit_at(s, width, start) == '0')) {
            return 0;
        }
    }
    return i == end;
}

/* IPv6address, all of s[i..end-1].  The nine forms say: h16 pieces (1*4HEXDIG) joined
 * by ":", the last two of which may be one IPv4address (ls32); eight pieces, or at
 * most seven around a single "::". */
static int uk_ipv6(const void *s, int width, ptrdiff_t i, ptrdiff_t end)
{
    int pieces = 0;
    int elided = 0;
    if (end - i >= 2 && uk_unit_at(s, width, i) == ':' && uk_unit_at(s, width, i + 1) == ':') {
        elided = 1;
        i += 2;
    }
    while (i < end) {
        ptrdiff_t start = i;
        while (i < end && i - start < 5 && uk_ascii_is(uk_unit_at(s, width, i), UK_HEXDIG)) {
            i++;
        }
        if (i < end && uk_unit_at(s, width, i) == '.') {
            /* ls32 = IPv4address: the last two pieces, up to the end */
            if (!uk_ipv4(s, width, start, end)) {
                return 0;
            }
            pieces += 2;
            break;
        }
        /* h16 = 1*4HEXDIG */
        if (i == start || i - start > 4 || ++pieces > 8) {
            return 0;
        }
        if (i == end) {
            break;
        }
        if (uk_unit_at(s, width, i) != ':') {
            return 0;
        }
        i++;
        if (i < end && uk_unit_at(s, width, i) == ':') {
            if (elided) {
                return 0;
            }
            elided = 1;
            i++;
        } else if (i == end) {
            return 0; /* a single trailing ":" */
        }
    }
    return elided ? pieces <= 7 : pieces == 8;
}

/* The inside of IP-literal = "[" ( IPv6address / IPv6addrz / IPvFuture ) "]", all of
 * s[i..end-1] (RFC 3986 §3.2.2, RFC 6874 §2); every member is ASCII. */
static int uk_ip_literal(const void *s, int width, ptrdiff_t i, ptrdiff_t end)
{
    if (i < end && (uk_unit_at(s, width, i) == 'v' || uk_unit_at(s, width, i) == 'V')) {
        /* IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" ) */
        ptrdiff_t start = ++i;
        while (i < end && uk_ascii_is(uk_unit_at(s, width, i), UK_HEXDIG)) {
            i++;
        }
        if (i == start || i == end || uk_unit_at(s, width, i) != '.') {
            return 0;
        }
        start = ++i;
        while (i < end && uk_ascii_is(uk_unit_at(s, width, i), UK_IPVFUTURE)) {
            i++;
        }
        return i > start && i == end;
    }
    /* IPv6addrz = IPv6address "%25" ZoneID; no "%" is in an IPv6address */
    ptrdiff_t pct = i;
    while (pct < end && uk_unit_at(s, width, pct) != '%') {
        pct++;
    }
    if (!uk_ipv6(s, width, i, pct)) {
        return 0;
    }
    if (pct == end) {
        return 1;
    }
    if (end - pct < 4 || uk_unit_at(s, width, pct + 1) != '2' ||
        uk_unit_at(s, width, pct + 2) != '5') {
        return 0;
    }
    /* ZoneID = 1*( unreserved / pct-encoded ) */
    for (i = pct + 3; i < end;) {
        uint32_t c = uk_unit_at(s, width, i);
        if (uk_ascii_is(c, UK_ZONE)) {
            i++;
        } else if (c == '%' && end - i > 2 && uk_ascii_is(uk_unit_at(s, width, i + 1), UK_HEXDIG) &&
                   uk_ascii_is(uk_unit_at(s, width, i + 2), UK_HEXDIG)) {
            i += 3;
        } else {
            return 0;
        }
    }
    return 1;
}

int uk_is_ipv4(const uint8_t *s, ptrdiff_t n)
{
    return uk_ipv4(s, 1, 0, n);
}

/* --- the code units of a str: uk_scan_ucs1, uk_scan_ucs2, uk_scan_ucs4 --------------- */

/* The non-ASCII members of iunreserved and of iquery (none in the URI grammar). */
typedef struct {
    uk_ext ext, query_ext;
} uk_units_reader;

#if UK_TRIPLETS_SIMD
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
#endif

/* The end of the maximal *( class / pct-encoded ) run from i, for code units of type T:
 * a code unit below 0x80 by the class table, above by the ranges of ext; pct-encoded
 * = "%" HEXDIG HEXDIG (RFC 3986 §2.1).  The triplets that follow a triplet, as a
 * lenient repair writes them (three for each octet of a character), are read five at
 * a time in 1-byte text where the processor can, then each by one test. */
#define UK_UNITS_STAR(NAME, T)                                                              \
    static inline ptrdiff_t NAME(const T *s, ptrdiff_t i, ptrdiff_t end, unsigned bits,     \
                                 uk_ext ext)                                                \
    {                                                                                       \
        while (i < end) {                                                                   \
            uint32_t c = s[i];                                                              \
            if (c < 0x80) {                                                                 \
                if (uk_ascii_class[c] & bits) {                                             \
                    i++;                                                                    \
                } else if (c == '%' && end - i > 2 && uk_ascii_is(s[i + 1], UK_HEXDIG) &&    \
                           uk_ascii_is(s[i + 2], UK_HEXDIG)) {                              \
                    i += 3;                                                                 \
                    UK_FIVE_TRIPLETS(T)                                                     \
                    while (end - i > 2 && s[i] == '%' && uk_ascii_is(s[i + 1], UK_HEXDIG) && \
                           uk_ascii_is(s[i + 2], UK_HEXDIG)) {                              \
                        i += 3;                                                             \
                    }                                                                       \
                } else {                                                                    \
                    break;                                                                  \
                }                                                                           \
            } else if (ext.count != 0 && uk_in_ranges(c, ext)) {                            \
                i++;                                                                        \
            } else {                                                                        \
                break;                                                                      \
            }                                                                               \
        }                                                                                   \
        return i;                                                                           \
    }

#if UK_TRIPLETS_SIMD
#define UK_FIVE_TRIPLETS(T)                                                                 \
    if (sizeof(T) == 1) {                                                                   \
        while (end - i >= 16 && uk_five_triplets((const uint8_t *)(s + i))) {               \
            i += 15;                                                                        \
        }                                                                                   \
    }
#else
#define UK_FIVE_TRIPLETS(T)
#endif

UK_UNITS_STAR(uk_star_ucs1, uint8_t)
UK_UNITS_STAR(uk_star_ucs2, uint16_t)
UK_UNITS_STAR(uk_star_ucs4, uint32_t)

/* The end of the run of the ASCII class bits from i. */
#define UK_UNITS_RUN(NAME, T)                                                               \
    static inline ptrdiff_t NAME(const T *s, ptrdiff_t i, ptrdiff_t end, unsigned bits)     \
    {                                                                                       \
        while (i < end && uk_ascii_is(s[i], bits)) {                                        \
            i++;                                                                            \
        }                                                                                   \
        return i;                                                                           \
    }

UK_UNITS_RUN(uk_run_ucs1, uint8_t)
UK_UNITS_RUN(uk_run_ucs2, uint16_t)
UK_UNITS_RUN(uk_run_ucs4, uint32_t)

static inline uk_units_reader uk_units_reader_of(int iri)
{
    uk_units_reader r = {UK_NO_EXT, UK_NO_EXT};
    if (iri) {
        r.ext = UK_IRI_EXT;
        r.query_ext = UK_IRI_QUERY_EXT;
    }
    return r;
}

#define UK_READER const uk_units_reader *
#define UK_STAR(r, s, i, end, bits, query)                                                  \
    UK_UNITS_STAR_OF(s, i, end, bits, (query) ? (r)->query_ext : (r)->ext)

#define UK_UNIT uint8_t
#define UK_STEPS uk_steps_ucs1
#define UK_UNITS_STAR_OF uk_star_ucs1
#define UK_RUN(r, s, i, end, bits) uk_run_ucs1(s, i, end, bits)
#include "scan_steps.inc"
#undef UK_UNIT
#undef UK_STEPS
#undef UK_UNITS_STAR_OF
#undef UK_RUN

#define UK_UNIT uint16_t
#define UK_STEPS uk_steps_ucs2
#define UK_UNITS_STAR_OF uk_star_ucs2
#define UK_RUN(r, s, i, end, bits) uk_run_ucs2(s, i, end, bits)
#include "scan_steps.inc"
#undef UK_UNIT
#undef UK_STEPS
#undef UK_UNITS_STAR_OF
#undef UK_RUN

#define UK_UNIT uint32_t
#define UK_STEPS uk_steps_ucs4
#define UK_UNITS_STAR_OF uk_star_ucs4
#define UK_RUN(r, s, i, end, bits) uk_run_ucs4(s, i, end, bits)
#include "scan_steps.inc"
#undef UK_UNIT
#undef UK_STEPS
#undef UK_UNITS_STAR_OF
#undef UK_RUN

#undef UK_READER
#undef UK_STAR

int uk_scan_ucs1(const uint8_t *s, ptrdiff_t n, int iri, ptrdiff_t spans[UK_SPANS])
{
    uk_units_reader r = uk_units_reader_of(iri);
    return uk_steps_ucs1(&r, s, n, spans);
}

int uk_scan_ucs2(const uint16_t *s, ptrdiff_t n, int iri, ptrdiff_t spans[UK_SPANS])
{
    uk_units_reader r = uk_units_reader_of(iri);
    return uk_steps_ucs2(&r, s, n, spans);
}

int uk_scan_ucs4(const uint32_t *s, ptrdiff_t n, int iri, ptrdiff_t spans[UK_SPANS])
{
    uk_units_reader r = uk_units_reader_of(iri);
    return uk_steps_ucs4(&r, s, n, spans);
}

int uk_is_query_ucs1(const uint8_t *s, ptrdiff_t n, int iri)
{
    return uk_star_ucs1(s, 0, n, UK_QUERY, iri ? UK_IRI_QUERY_EXT : UK_NO_EXT) == n;
}

int uk_is_query_ucs2(const uint16_t *s, ptrdiff_t n, int iri)
{
    return uk_star_ucs2(s, 0, n, UK_QUERY, iri ? UK_IRI_QUERY_EXT : UK_NO_EXT) == n;
}

int uk_is_query_ucs4(const uint32_t *s, ptrdiff_t n, int iri)
{
    return uk_star_ucs4(s, 0, n, UK_QUERY, iri ? UK_IRI_QUERY_EXT : UK_NO_EXT) == n;
}

/* --- octets in the URI grammar: uk_scan_octets ------------------------------------------ */

static uk_octets_scan uk_scan_octets_wide, uk_scan_octets_narrow;

void uk_octet_table_init(uk_octet_table *t)
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
#if UK_OCTETS_SIMD
    __builtin_cpu_init();
    t->simd = __builtin_cpu_supports("ssse3") != 0;
#else
    t->simd = 0;
#endif
    t->scan = t->simd ? uk_scan_octets_wide : uk_scan_octets_narrow;
}

/* What uk_scan_octets reads with: the table, how far it may read, and whether the
 * runs are read 16 octets a step. */
typedef struct {
    const uk_octet_table *t;
    const uint8_t *limit;
    int wide;
} uk_octets_reader;

/* The end of the maximal run of one class bit from i, four octets a step while all four
 * are members (an octet at or above 0x80 is in no class: one load from the table). */
static inline ptrdiff_t uk_octets_run4(const uk_octet_table *t, const uint8_t *s, ptrdiff_t i,
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

#if UK_OCTETS_SIMD
/* uk_octets_run4, sixteen octets a step while s[i..i+15] ends at or before limit, the
 * octets from s[end] on not counting.  An octet is in the class when its low nibble's
 * entry in nibbles has the bit of its high nibble (none for an octet >= 0x80). */
UK_SSSE3 static inline ptrdiff_t uk_octets_run16(const uk_octet_table *t, const uint8_t *s,
                                                 ptrdiff_t i, ptrdiff_t end,
                                                 const uint8_t *limit, unsigned bit)
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
    return uk_octets_run4(t, s, i, end, bit);
}
#endif

/* The end of the maximal run of one class bit from i: 16 octets a step when the reader
 * is wide, else four. */
static UK_ALWAYS_INLINE ptrdiff_t uk_octets_run(uk_octets_reader r, const uint8_t *s,
                                                ptrdiff_t i, ptrdiff_t end, unsigned bit)
{
#if UK_OCTETS_SIMD
    if (r.wide) {
        return uk_octets_run16(r.t, s, i, end, r.limit, bit);
    }
#endif
    return uk_octets_run4(r.t, s, i, end, bit);
}

/* The end of the maximal *( class / pct-encoded ) run from i, for one class bit;
 * pct-encoded = "%" HEXDIG HEXDIG (RFC 3986 §2.1), "%" being in no class.  The triplets
 * that follow a triplet (a lenient repair writes three for each octet of a character)
 * are read five at a time where the processor can, then each by one test, before the
 * next run of the class. */
static UK_ALWAYS_INLINE ptrdiff_t uk_octets_star(uk_octets_reader r, const uint8_t *s,
                                                 ptrdiff_t i, ptrdiff_t end, unsigned bit)
{
    const uint16_t *of = r.t->of;
    for (;;) {
        i = uk_octets_run(r, s, i, end, bit);
        if (!(end - i > 2 && s[i] == '%' && (of[s[i + 1]] & of[s[i + 2]] & UK_HEXDIG))) {
            return i;
        }
        i += 3;
#if UK_TRIPLETS_SIMD
        while (end - i >= 16 && uk_five_triplets(s + i)) {
            i += 15;
        }
#endif
        while (end - i > 2 && s[i] == '%' && (of[s[i + 1]] & of[s[i + 2]] & UK_HEXDIG)) {
            i += 3;
        }
    }
}

#define UK_UNIT uint8_t
#define UK_STEPS uk_steps_octets
#define UK_READER uk_octets_reader
#define UK_STAR(r, s, i, end, bits, query) uk_octets_star(r, s, i, end, bits)
#define UK_RUN(r, s, i, end, bits) uk_octets_run(r, s, i, end, bits)
#include "scan_steps.inc"
#undef UK_UNIT
#undef UK_STEPS
#undef UK_READER
#undef UK_STAR
#undef UK_RUN

/* The steps with the runs read 16 octets a step (every call in it inlined), and with
 * four. */
UK_SSSE3 UK_FLATTEN static int uk_scan_octets_wide(const uk_octet_table *t, const uint8_t *s,
                                                   ptrdiff_t n, const uint8_t *limit,
                                                   ptrdiff_t spans[UK_SPANS])
{
    UK_ASSERT(limit >= s + n);
    uk_octets_reader r = {t, limit, 1};
    return uk_steps_octets(r, s, n, spans);
}

static int uk_scan_octets_narrow(const uk_octet_table *t, const uint8_t *s, ptrdiff_t n,
                                 const uint8_t *limit, ptrdiff_t spans[UK_SPANS])
{
    UK_ASSERT(limit >= s + n);
    uk_octets_reader r = {t, limit, 0};
    return uk_steps_octets(r, s, n, spans);
}

int uk_scan_octets(const uk_octet_table *t, const uint8_t *s, ptrdiff_t n, const uint8_t *limit,
                   ptrdiff_t spans[UK_SPANS])
{
    return t->scan(t, s, n, limit, spans);
}

/* The table of uk_scan_ascii, the same for every module that links this unit. */
static uk_octet_table uk_ascii_table;

void uk_scan_ascii_init(void)
{
    if (uk_ascii_table.scan == NULL) {
        uk_octet_table_init(&uk_ascii_table);
    }
}

/* A text this long or shorter is copied before a run of zeros as long as a step of the
 * wide reader, so that every run of it is read 16 octets a step to its end. */
#define UK_ASCII_PADDED 256

int uk_scan_ascii(const uint8_t *s, ptrdiff_t n, ptrdiff_t spans[UK_SPANS])
{
    const uk_octet_table *t = &uk_ascii_table;
    UK_ASSERT(t->scan != NULL);
#ifndef UK_NO_PAD
    if (t->simd && n <= UK_ASCII_PADDED) {
        uint8_t padded[UK_ASCII_PADDED + 16];
        memcpy(padded, s, (size_t)n);
        memset(padded + n, 0, 16);
        return t->scan(t, padded, n, padded + n + 16, spans);
    }
#endif
    return t->scan(t, s, n, s + n, spans);
}

/* --- UTF-8 in the IRI grammar: uk_scan_utf8 ------------------------------------------------- */

/* The end of the maximal *( class / pct-encoded ) run from i over UTF-8 octets: an ASCII
 * octet by the class table, a sequence of a non-ASCII character decoded and looked up
 * in the ranges of ext (an ill-formed one is in no class, RFC 3629 §3). */
static inline ptrdiff_t uk_utf8_star(const uint8_t *s, ptrdiff_t i, ptrdiff_t end,
                                     unsigned bits, uk_ext ext)
{
    while (i < end) {
        uint32_t c = s[i];
        if (c < 0x80) {
            if (uk_ascii_class[c] & bits) {
                i++;
            } else if (c == '%' && end - i > 2 && uk_ascii_is(s[i + 1], UK_HEXDIG) &&
                       uk_ascii_is(s[i + 2], UK_HEXDIG)) {
                i += 3;
            } else {
                break;
            }
            continue;
        }
        ptrdiff_t next = i;
        int32_t point = uk_utf8_next(s, end, &next);
        if (point < 0 || !uk_in_ranges((uint32_t)point, ext)) {
            break;
        }
        i = next;
    }
    return i;
}

#define UK_UNIT uint8_t
#define UK_STEPS uk_steps_utf8
#define UK_READER int
#define UK_STAR(r, s, i, end, bits, query)                                                  \
    uk_utf8_star(s, i, end, bits, (query) ? UK_IRI_QUERY_EXT : UK_IRI_EXT)
#define UK_RUN(r, s, i, end, bits) uk_run_ucs1(s, i, end, bits)
#include "scan_steps.inc"
#undef UK_UNIT
#undef UK_STEPS
#undef UK_READER
#undef UK_STAR
#undef UK_RUN

int uk_scan_utf8(const uint8_t *s, ptrdiff_t n, ptrdiff_t spans[UK_SPANS])
{
    return uk_steps_utf8(0, s, n, spans);
}
