/* Percent-encoding of the compiled core (percent.h), RFC 3986 §2.1. */
#include "percent.h"

#include "check.h"
#include "classes.h"
#include "text.h"

ptrdiff_t uk_percent_decode(const uint8_t *s, ptrdiff_t n, uint8_t *out)
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
    UK_ASSERT(o <= n);
    return o;
}

/* Is s[i..n-1] a triplet at i? */
static inline int uk_triplet_at(const uint8_t *s, ptrdiff_t n, ptrdiff_t i)
{
    return s[i] == '%' && n - i >= 3 && uk_ascii_is(s[i + 1], UK_HEXDIG) &&
           uk_ascii_is(s[i + 2], UK_HEXDIG);
}

ptrdiff_t uk_percent_encode_length(const uint8_t *s, ptrdiff_t n, const uint8_t keep[128],
                                   int encoded)
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

ptrdiff_t uk_percent_encode(const uint8_t *s, ptrdiff_t n, const uint8_t keep[128], int encoded,
                            uint8_t *out)
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
            out[o++] = uk_upper_hex(c >> 4);
            out[o++] = uk_upper_hex(c & 15);
        }
    }
    UK_ASSERT(o >= n && o <= 3 * n);
    return o;
}
