/* Percent-encoding of the compiled core (RFC 3986 §2.1), over octets.
 *
 * Plain C11 without the Python API:
 *
 *     uk_percent_decode(s, n, out)     the octets of s, each triplet decoded; -1 when a
 *                                      "%" starts no triplet
 *     uk_percent_encode_length, uk_percent_encode
 *                                      s with every octet outside keep[] as a triplet
 *                                      (upper-case hex); with encoded, a triplet is kept
 *                                      (its hex in upper case) and only a lone "%" is
 *                                      encoded
 */
#ifndef URIKIT_C_PERCENT_H
#define URIKIT_C_PERCENT_H

#include <stddef.h>
#include <stdint.h>

/* The octets that s[0..n-1] stands for, each triplet decoded, into out (at least n
 * octets); the length, or -1 when a "%" starts no triplet. */
ptrdiff_t uk_percent_decode(const uint8_t *s, ptrdiff_t n, uint8_t *out);

/* The length of uk_percent_encode's answer for the octets s[0..n-1]: keep[c] is nonzero
 * for the ASCII octets c a component keeps as they are (RFC 3986 §2.4). */
ptrdiff_t uk_percent_encode_length(const uint8_t *s, ptrdiff_t n, const uint8_t keep[128],
                                   int encoded);

/* s[0..n-1] percent-encoded into out, which holds uk_percent_encode_length(s, n, keep,
 * encoded) octets; that length. */
ptrdiff_t uk_percent_encode(const uint8_t *s, ptrdiff_t n, const uint8_t keep[128], int encoded,
                            uint8_t *out);

#endif /* URIKIT_C_PERCENT_H */
