/* Inline helpers on characters, for every unit of the compiled core: class
 * membership (the tables of classes.h), ASCII case and hex digits, and UTF-8.
 *
 * Plain C11 without the Python API.
 */
#ifndef URIKIT_C_TEXT_H
#define URIKIT_C_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "classes.h"

/* The non-ASCII members of a class: none in the URI grammar; in the IRI grammar the
 * ranges of classes.h (RFC 3987 §2.2). */
typedef struct {
    const uk_range *ranges;
    size_t count;
} uk_ext;

#define UK_NO_EXT ((uk_ext){NULL, 0})
#define UK_IRI_EXT ((uk_ext){uk_iri_unreserved_ext, UK_IRI_UNRESERVED_EXT_COUNT})
#define UK_IRI_QUERY_EXT ((uk_ext){uk_iri_query_ext, UK_IRI_QUERY_EXT_COUNT})
#define UK_BIDI_EXT ((uk_ext){uk_bidi_formatting, UK_BIDI_FORMATTING_COUNT})

/* Is the code point c in one of the sorted ranges of ext? */
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

/* Is the code point c an ASCII member of the classes in bits? */
static inline int uk_ascii_is(uint32_t c, unsigned bits)
{
    return c < 0x80 && (uk_ascii_class[c] & bits) != 0;
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

/* The upper-case hex digit of v < 16 (RFC 3986 §2.1: the case a triplet is written in). */
static inline uint8_t uk_upper_hex(unsigned v)
{
    return (uint8_t)"0123456789ABCDEF"[v & 15];
}

/* UTF-8 (RFC 3629 §4): the code point at s[*i..n-1], advancing *i; -1 on an ill-formed
 * sequence (overlong forms, surrogates, beyond U+10FFFF, truncation), *i unchanged. */
static inline int32_t uk_utf8_next(const uint8_t *s, ptrdiff_t n, ptrdiff_t *i)
{
    uint32_t c = s[*i];
    int more;
    uint32_t least;
    if (c < 0x80) {
        (*i)++;
        return (int32_t)c;
    } else if (c >= 0xC2 && c <= 0xDF) {
        more = 1, least = 0x80, c &= 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        more = 2, least = 0x800, c &= 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        more = 3, least = 0x10000, c &= 0x07;
    } else {
        return -1;
    }
    if (n - *i <= more) {
        return -1;
    }
    for (int k = 1; k <= more; k++) {
        uint8_t t = s[*i + k];
        if ((t & 0xC0) != 0x80) {
            return -1;
        }
        c = (c << 6) | (t & 0x3F);
    }
    if (c < least || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) {
        return -1;
    }
    *i += more + 1;
    return (int32_t)c;
}

/* Whether s[0..n-1] is well-formed UTF-8 (RFC 3629 §4) throughout. */
static inline int uk_utf8_valid(const uint8_t *s, ptrdiff_t n)
{
    ptrdiff_t i = 0;
    while (i < n) {
        if (uk_utf8_next(s, n, &i) < 0) {
            return 0;
        }
    }
    return 1;
}

/* The octets of c in UTF-8 (RFC 3629 §3) into octets; their number. */
static inline int uk_utf8_encode(uint32_t c, uint8_t octets[4])
{
    if (c < 0x80) {
        octets[0] = (uint8_t)c;
        return 1;
    }
    if (c < 0x800) {
        octets[0] = (uint8_t)(0xC0 | c >> 6);
        octets[1] = (uint8_t)(0x80 | (c & 0x3F));
        return 2;
    }
    if (c < 0x10000) {
        octets[0] = (uint8_t)(0xE0 | c >> 12);
        octets[1] = (uint8_t)(0x80 | (c >> 6 & 0x3F));
        octets[2] = (uint8_t)(0x80 | (c & 0x3F));
        return 3;
    }
    octets[0] = (uint8_t)(0xF0 | c >> 18);
    octets[1] = (uint8_t)(0x80 | (c >> 12 & 0x3F));
    octets[2] = (uint8_t)(0x80 | (c >> 6 & 0x3F));
    octets[3] = (uint8_t)(0x80 | (c & 0x3F));
    return 4;
}

/* The code unit i of text of `width` octets a unit (1, 2 or 4: the kinds of a str). */
static inline uint32_t uk_unit_at(const void *s, int width, ptrdiff_t i)
{
    switch (width) {
    case 1:
        return ((const uint8_t *)s)[i];
    case 2:
        return ((const uint16_t *)s)[i];
    default:
        return ((const uint32_t *)s)[i];
    }
}

#endif /* URIKIT_C_TEXT_H */
