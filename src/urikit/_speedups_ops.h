/* The RFC operations of the compiled core, on the spans of the scanner.
 *
 * Plain C11 without the Python API, like _speedups_scan.h (which it includes), so that
 * the column kernel and the fuzz harness can call it directly.  For each width of code
 * unit (ucs1 for ASCII or Latin-1 text and for the octets of UTF-8 ASCII, ucs2, ucs4):
 *
 *     uk_transform_references_ucsN(b, bs, r, rs, strict, out, ts)
 *         RFC 3986 §5.2.2 with §5.2.3 merge, §5.2.4 remove_dot_segments and §5.3:
 *         the target of the reference r (spans rs) against the absolute base b (spans
 *         bs); out holds uk_resolve_capacity(len b, len r) units.
 *     uk_normalize_ucsN(s, sp, rules, out, ts)
 *         RFC 3986 §6.2.2, and §6.2.3 with the registry's rules for the scheme, of the
 *         valid reference s (spans sp); out holds uk_normalize_capacity(len s) units;
 *         -1 when only the readable path can answer (schemes with rules of their own,
 *         relative-path references with dot-segments).
 *     uk_remove_dot_segments_ucsN(p, n)
 *         RFC 3986 §5.2.4 in place; the new length.
 *     uk_scheme_rules_of(code, &rules)
 *         the rules of one scheme from its code in urikit._fast.scheme_codes(registry),
 *         the dict a caller looks the lower-cased scheme up in (absent: default_port
 *         -1 and zeros).
 *
 * Each writes the result's text and the spans of its components (ts, in the scanner's
 * order), so the result is a value without a second scan.  The answers are those of
 * resolve.transform_references and normalize.normalize; tests/test_compiled_ops.py holds
 * them together.  And for percent-encoding (RFC 3986 §2.1), over octets:
 *
 *     uk_percent_decode(s, n, out)     the octets of s, each triplet decoded; -1 when a
 *                                      "%" starts no triplet
 *     uk_percent_encode_length, uk_percent_encode
 *                                      s with every octet outside keep[] as a triplet
 *                                      (upper-case hex); with encoded, a triplet is kept
 *                                      (its hex in upper case) and only a lone "%" is
 *                                      encoded
 */
#ifndef URIKIT_SPEEDUPS_OPS_H
#define URIKIT_SPEEDUPS_OPS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "_speedups_scan.h"

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
 * registry does not know: -1 and zeros. */
typedef struct {
    int default_port;
    int empty_path_is_root;
    int defer;
    uk_special_rule rule;
} uk_scheme_rules;

/* The rules of one scheme from its code, as urikit._fast.scheme_codes gives them:
 * (default port + 1) * 256 + the flags 1 (an empty path is "/"), 2 (defer), 4, 8, 16 (the
 * rule file-localhost, mailto-domain, urn-nid); more than one rule defers.  0 on success,
 * -1 for a code out of range. */
static inline int uk_scheme_rules_of(long code, uk_scheme_rules *rules)
{
    if (code < 0 || code >= (65537L << 8)) {
        return -1;
    }
    rules->default_port = (int)(code >> 8) - 1;
    rules->empty_path_is_root = (code & 1) != 0;
    rules->defer = (code & 2) != 0;
    rules->rule = UK_RULE_NONE;
    switch (code & 0xFC) {
    case 0:
        break;
    case 4:
        rules->rule = UK_RULE_FILE_LOCALHOST;
        break;
    case 8:
        rules->rule = UK_RULE_MAILTO_DOMAIN;
        break;
    case 16:
        rules->rule = UK_RULE_URN_NID;
        break;
    default:
        rules->defer = 1;
        break;
    }
    return 0;
}

static inline uint32_t uk_ascii_lower(uint32_t c)
{
    return c - 'A' < 26u ? c + ('a' - 'A') : c;
}

static inline uint32_t uk_ascii_upper(uint32_t c)
{
    return c - 'a' < 26u ? c - ('a' - 'A') : c;
}

/* The value of the hex digit c (RFC 3986 §2.1: HEXDIG, either case). */
static inline unsigned uk_hex_value(uint32_t c)
{
    return c <= '9' ? c - '0' : (uk_ascii_lower(c) - 'a' + 10u);
}

/* The room the target of a reference of length nr against a base of length nb can take:
 * every component comes from one of them, plus the "/" of a merge after an empty path
 * (§5.2.3) and the "/." before a path that begins with "//" (resolve.rooted_path). */
static inline ptrdiff_t uk_resolve_capacity(ptrdiff_t nb, ptrdiff_t nr)
{
    return nb + nr + 4;
}

/* The room the normal form of a reference of length n can take: nothing grows but an
 * empty path that becomes "/" (§6.2.3) or a path that takes "/." before it, and an IPv6
 * address in the text of RFC 5952, which takes at most 39 characters. */
static inline ptrdiff_t uk_normalize_capacity(ptrdiff_t n)
{
    return n + 3 + 39;
}

static const char uk_upper_hex[] = "0123456789ABCDEF";

/* The octets that s[0..n-1] stands for, each triplet decoded (RFC 3986 §2.1), into out
 * (at least n octets); the length, or -1 when a "%" starts no triplet. */
static inline ptrdiff_t uk_percent_decode(const uint8_t *s, ptrdiff_t n, uint8_t *out)
{
    ptrdiff_t o = 0;
    for (ptrdiff_t i = 0; i < n; i++) {
        uint8_t c = s[i];
        if (c == '%') {
            if (n - i < 3 || !uk_ascii_is(s[i + 1], UK_HEXDIG) ||
                !uk_ascii_is(s[i + 2], UK_HEXDIG)) {
                return -1;
            }
            out[o++] = (uint8_t)(uk_hex_value(s[i + 1]) << 4 | uk_hex_value(s[i + 2]));
            i += 2;
        } else {
            out[o++] = c;
        }
    }
    return o;
}

/* Is s[i..n-1] a triplet at i? */
static inline int uk_triplet_at(const uint8_t *s, ptrdiff_t n, ptrdiff_t i)
{
    return s[i] == '%' && n - i >= 3 && uk_ascii_is(s[i + 1], UK_HEXDIG) &&
           uk_ascii_is(s[i + 2], UK_HEXDIG);
}

/* The length of uk_percent_encode's answer for the octets s[0..n-1]: keep[c] is nonzero
 * for the ASCII octets c a component keeps as they are (RFC 3986 §2.4). */
static inline ptrdiff_t uk_percent_encode_length(const uint8_t *s, ptrdiff_t n,
                                                 const uint8_t keep[128], int encoded)
{
    ptrdiff_t length = 0;
    for (ptrdiff_t i = 0; i < n; i++) {
        if (encoded && uk_triplet_at(s, n, i)) {
            length += 3;
            i += 2;
        } else {
            length += s[i] < 0x80 && keep[s[i]] ? 1 : 3;
        }
    }
    return length;
}

/* s[0..n-1] percent-encoded (RFC 3986 §2.1: upper-case hex) into out, which holds
 * uk_percent_encode_length(s, n, keep, encoded) octets; that length. */
static inline ptrdiff_t uk_percent_encode(const uint8_t *s, ptrdiff_t n, const uint8_t keep[128],
                                          int encoded, uint8_t *out)
{
    ptrdiff_t o = 0;
    for (ptrdiff_t i = 0; i < n; i++) {
        uint8_t c = s[i];
        if (encoded && uk_triplet_at(s, n, i)) {
            out[o++] = '%';
            out[o++] = (uint8_t)uk_ascii_upper(s[i + 1]);
            out[o++] = (uint8_t)uk_ascii_upper(s[i + 2]);
            i += 2;
        } else if (c < 0x80 && keep[c]) {
            out[o++] = c;
        } else {
            out[o++] = '%';
            out[o++] = (uint8_t)uk_upper_hex[c >> 4];
            out[o++] = (uint8_t)uk_upper_hex[c & 15];
        }
    }
    return o;
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
#include "_speedups_ops_kind.h"
#undef UK_CHAR
#undef UK_FN

#define UK_CHAR uint16_t
#define UK_FN(name) name##_ucs2
#include "_speedups_ops_kind.h"
#undef UK_CHAR
#undef UK_FN

#define UK_CHAR uint32_t
#define UK_FN(name) name##_ucs4
#include "_speedups_ops_kind.h"
#undef UK_CHAR
#undef UK_FN

#endif /* URIKIT_SPEEDUPS_OPS_H */
