/* The RFC operations of the compiled core, on the spans of the scanner.
 *
 * Plain C11 without the Python API, so that the column kernel and the fuzz harness call
 * it directly.  For each width of code unit (ucs1 for ASCII or Latin-1 text and for the
 * octets of UTF-8 ASCII, ucs2, ucs4):
 *
 *     uk_transform_references_ucsN(b, bs, r, rs, strict, out, ts)
 *         RFC 3986 §5.2.2 with §5.2.3 merge, §5.2.4 remove_dot_segments and §5.3:
 *         the target of the reference r (spans rs) against the absolute base b (spans
 *         bs); out holds UK_RESOLVE_CAPACITY(len b, len r) units.
 *     uk_normalize_ucsN(s, sp, rules, out, ts)
 *         RFC 3986 §6.2.2, and §6.2.3 with the registry's rules for the scheme, of the
 *         valid reference s (spans sp); out holds UK_NORMALIZE_CAPACITY(len s) units;
 *         -1 when only the readable path can answer (schemes with rules of their own,
 *         relative-path references with dot-segments).
 *     uk_plainly_normal_ucsN(s, n, sp, rules)
 *         1 when the valid reference is plainly the text uk_normalize writes; 0 says
 *         only that this test cannot tell.
 *     uk_remove_dot_segments_ucsN(p, n)
 *         RFC 3986 §5.2.4 in place; the new length.
 *
 * Each writes the result's text and the spans of its components (ts, in the scanner's
 * order), so the result is a value without a second scan.  The answers are those of
 * urikit.resolve.transform_references and urikit.normalize.normalize;
 * tests/test_compiled_ops.py holds them together.  None allocates, recurses or looks at
 * a code unit more than a bounded number of times.
 */
#ifndef URIKIT_C_OPS_H
#define URIKIT_C_OPS_H

#include <stddef.h>
#include <stdint.h>

#include "contracts.h"

/* The rules of its own a scheme may have (schemes.SPECIAL_RULES), one at most here. */
typedef enum {
    UK_RULE_NONE,
    UK_RULE_FILE_LOCALHOST, /* RFC 8089 §2: "localhost", or no authority, is "" */
    UK_RULE_MAILTO_DOMAIN,  /* RFC 6068 §2: the domain of each address without case */
    UK_RULE_URN_NID         /* RFC 8141 §3.1: the NID without case */
} uk_special_rule;

/* What the scheme registry says of one scheme (RFC 3986 §6.2.3): its default port
 * (-1 for none), whether an empty path after an authority is "/", its special rule,
 * and whether it needs what only the readable path applies (case-insensitive
 * components beyond the host, more than one special rule): defer.  For a scheme the
 * registry does not know: -1 and zeros (uk_scheme_rules_of(0)). */
typedef struct {
    int default_port;
    int empty_path_is_root;
    int defer;
    uk_special_rule rule;
} uk_scheme_rules;

/* The rules of one scheme from its code (the layout of contracts.h, packed by
 * urikit._seam.scheme_codes): 0 on success, -1 for a code out of range. */
int uk_scheme_rules_of(long code, uk_scheme_rules *rules);

/* The room the target of a reference of length nr against a base of length nb can take:
 * every component comes from one of them, plus the "/" of a merge after an empty path
 * (§5.2.3) and the "/." before a path that begins with "//" (resolve.rooted_path). */
#define UK_RESOLVE_CAPACITY(nb, nr) ((nb) + (nr) + 4)

/* The room the normal form of a reference of length n can take: nothing grows but an
 * empty path that becomes "/" (§6.2.3) or a path that takes "/." before it, and an IPv6
 * address in the text of RFC 5952, at most 39 characters. */
#define UK_NORMALIZE_CAPACITY(n) ((n) + 3 + 39)

#define UK_OPS_DECLARE(SUFFIX, T)                                                           \
    ptrdiff_t uk_transform_references_##SUFFIX(const T *b, const ptrdiff_t bs[UK_SPANS],     \
                                               const T *r, const ptrdiff_t rs[UK_SPANS],     \
                                               int strict, T *out, ptrdiff_t ts[UK_SPANS]);  \
    ptrdiff_t uk_normalize_##SUFFIX(const T *s, const ptrdiff_t sp[UK_SPANS],                \
                                    const uk_scheme_rules *rules, T *out,                    \
                                    ptrdiff_t ts[UK_SPANS]);                                 \
    int uk_plainly_normal_##SUFFIX(const T *s, ptrdiff_t n, const ptrdiff_t sp[UK_SPANS],    \
                                   const uk_scheme_rules *rules);                            \
    ptrdiff_t uk_remove_dot_segments_##SUFFIX(T *p, ptrdiff_t n);

UK_OPS_DECLARE(ucs1, uint8_t)
UK_OPS_DECLARE(ucs2, uint16_t)
UK_OPS_DECLARE(ucs4, uint32_t)

#undef UK_OPS_DECLARE

/* uk_plainly_normal_ucs1 of the valid URI-reference s[0..n-1] for a row of the column
 * kernel, whose octets may be read up to limit >= s + n (no octet after the row
 * changes the answer), or more cautiously: 0 where that says 1 only for a row whose
 * host starts with ".", which uk_normalize_ucs1 writes unchanged. */
int uk_plainly_normal_octets(const uint8_t *s, ptrdiff_t n, const uint8_t *limit,
                             const ptrdiff_t sp[UK_SPANS], const uk_scheme_rules *rules);

#endif /* URIKIT_C_OPS_H */
