/* The scanner of the compiled core: one pass over a URI or IRI reference.
 *
 * Plain C11 without the Python API, so that the fuzz harness links it directly.  One
 * template of the steps (scan_steps.inc) is compiled once for each way of reading the
 * text, which differ only in how a run of a class is read:
 *
 *     uk_scan_ucs1, uk_scan_ucs2, uk_scan_ucs4
 *         code units of 1, 2 or 4 octets (the three kinds of a Python str), in the
 *         URI grammar or with iri != 0 the IRI grammar; the value type's scanner;
 *     uk_scan_octets, uk_scan_ascii
 *         octets in the URI grammar (no octet >= 0x80 is in it, as no non-ASCII
 *         character is), each octet's classes one load from a table of 256, runs read
 *         16 octets a step with SSSE3 where the processor has it; the column kernel's
 *         scanner of UTF-8 rows, which may read on after the row up to a limit, and
 *         the value type's for a str of ASCII characters;
 *     uk_scan_utf8
 *         UTF-8 in the IRI grammar, each sequence decoded where a run meets it; spans
 *         in octets; the column kernel's scanner for IRIs.
 *
 * Each returns 1 when the text is an URI-reference (RFC 3986 §4.1), or in the IRI
 * grammar an IRI-reference (RFC 3987 §2.2) without bidi formatting characters (RFC
 * 3987 §4.1), else 0.  On 1 the spans of the 8 components are in spans[0..15] as start,
 * end pairs, in the order of contracts.h (the groups of Grammar.reference), -1, -1 for
 * a component that is undefined (RFC 3986 §5.3); the path is always defined.  On 0 the
 * contents of spans are unspecified.  Every step looks at each code unit a bounded
 * number of times (linear time), uses no recursion and allocates nothing.
 */
#ifndef URIKIT_C_SCAN_H
#define URIKIT_C_SCAN_H

#include <stddef.h>
#include <stdint.h>

#include "contracts.h"

int uk_scan_ucs1(const uint8_t *s, ptrdiff_t n, int iri, ptrdiff_t spans[UK_SPANS]);
int uk_scan_ucs2(const uint16_t *s, ptrdiff_t n, int iri, ptrdiff_t spans[UK_SPANS]);
int uk_scan_ucs4(const uint32_t *s, ptrdiff_t n, int iri, ptrdiff_t spans[UK_SPANS]);

typedef struct uk_octet_table uk_octet_table;

/* The URI-reference s[0..n-1] in octets; the octets s[0..limit - s - 1] may be read,
 * limit >= s + n, but none from s[n] on changes the answer. */
typedef int uk_octets_scan(const uk_octet_table *t, const uint8_t *s, ptrdiff_t n,
                           const uint8_t *limit, ptrdiff_t spans[UK_SPANS]);

/* The classes of every octet for uk_scan_octets: those of uk_ascii_class below 0x80,
 * none above.  nibbles[b] is class bit b of the octets < 0x80 split by nibbles: bit h
 * of nibbles[b][l] is set when the octet 16 * h + l is in the class.  simd says
 * whether the runs are read 16 octets a step (the processor has SSSE3), and scan is
 * the scanner for this processor, which a loop over rows calls for each. */
struct uk_octet_table {
    uint16_t of[256];
    uint8_t nibbles[16][16];
    int simd;
    uk_octets_scan *scan;
};

void uk_octet_table_init(uk_octet_table *t);

/* t->scan(t, s, n, limit, spans). */
uk_octets_scan uk_scan_octets;

/* The reference s[0..n-1] of ASCII code units (the kind of a str whose every character
 * is below 0x80): uk_scan_octets over a table of this unit's, made by uk_scan_ascii_init
 * before the first call.  Every member of the IRI grammar that is not in the URI grammar
 * is non-ASCII (RFC 3987 §2.2), as is every bidi formatting character, so the answer
 * and the spans are those of uk_scan_ucs1 in either grammar. */
void uk_scan_ascii_init(void);
int uk_scan_ascii(const uint8_t *s, ptrdiff_t n, ptrdiff_t spans[UK_SPANS]);

/* The IRI-reference s[0..n-1] in UTF-8 octets (0 for a text that is not UTF-8). */
int uk_scan_utf8(const uint8_t *s, ptrdiff_t n, ptrdiff_t spans[UK_SPANS]);

/* Is all of the text a query (RFC 3986 §3.4), or with iri an iquery (RFC 3987 §2.2)? */
int uk_is_query_ucs1(const uint8_t *s, ptrdiff_t n, int iri);
int uk_is_query_ucs2(const uint16_t *s, ptrdiff_t n, int iri);
int uk_is_query_ucs4(const uint32_t *s, ptrdiff_t n, int iri);

/* Is all of the octets s[0..n-1] an IPv4address (RFC 3986 §3.2.2)? */
int uk_is_ipv4(const uint8_t *s, ptrdiff_t n);

#endif /* URIKIT_C_SCAN_H */
