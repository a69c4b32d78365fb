/* Inline helpers of the column kernel for its loops over rows: reading a row of a
 * column (arrow.h), and writing string views and bits.
 */
#ifndef URIKIT_C_ARROW_INLINE_H
#define URIKIT_C_ARROW_INLINE_H

#include "arrow.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "attributes.h"
#include "check.h"

static inline int uk_column_is_null(const uk_column *c, Py_ssize_t i)
{
    if (!c->has_validity) {
        return 0;
    }
    Py_ssize_t bit = c->offset + i;
    return !((((const uint8_t *)c->validity.buf)[bit >> 3] >> (bit & 7)) & 1);
}

/* Row i of a non-null slot into r; 0 on success, -1 when the offsets or views point
 * outside the data (no exception is set: see uk_column_failure). */
static inline int uk_column_row(const uk_column *c, Py_ssize_t i, uk_row *r)
{
    Py_ssize_t slot = c->offset + i;
    if (c->kind == UK_KIND_VIEW) {
        const uint8_t *v = (const uint8_t *)c->offsets.buf + slot * UK_VIEW_SIZE;
        int32_t n;
        memcpy(&n, v, 4);
        if (n < 0) {
            goto bad;
        }
        r->n = n;
        if (n <= UK_VIEW_INLINE) {
            r->s = v + 4;
            r->buffer = -1;
            r->at = 0;
            r->limit = v + UK_VIEW_SIZE;
            return 0;
        }
        int32_t buffer, at;
        memcpy(&buffer, v + 8, 4);
        memcpy(&at, v + 12, 4);
        if (buffer < 0 || buffer >= c->ndata || at < 0 || at + (int64_t)n > c->data[buffer].len) {
            goto bad;
        }
        r->s = (const uint8_t *)c->data[buffer].buf + at;
        r->buffer = buffer;
        r->at = at;
        r->limit = (const uint8_t *)c->data[buffer].buf + c->data[buffer].len;
        return 0;
    }
    int64_t start, end;
    if (c->kind == UK_KIND_STRING) {
        int32_t pair[2];
        memcpy(pair, (const uint8_t *)c->offsets.buf + slot * 4, 8);
        start = pair[0];
        end = pair[1];
    } else {
        memcpy(&start, (const uint8_t *)c->offsets.buf + slot * 8, 8);
        memcpy(&end, (const uint8_t *)c->offsets.buf + slot * 8 + 8, 8);
    }
    if (start < 0 || end < start || end > c->data[0].len) {
        goto bad;
    }
    r->s = (const uint8_t *)c->data[0].buf + start;
    r->n = (Py_ssize_t)(end - start);
    r->buffer = 0;
    r->at = start;
    r->limit = (const uint8_t *)c->data[0].buf + c->data[0].len;
    UK_ASSERT(r->s + r->n <= r->limit);
    return 0;
bad:
    (void)i;
    return -1;
}

static inline void uk_set_bit(uint8_t *bits, Py_ssize_t i)
{
    bits[i >> 3] |= (uint8_t)(1u << (i & 7));
}

/* The view of s[0..n-1] (Arrow's string_view layout): the length, then the octets
 * when at most 12, zero-padded, else the first 4 octets, the data buffer `buffer`
 * and the offset `at` in it.  0, or -1 (no exception set) when n or at does not fit
 * a view; the 16 octets are written whole either way.  `limit` is the end of the
 * memory that may be read from s on: with 12 octets there, a short string is read
 * as two words and the octets after it masked off. */
static inline int uk_put_view(uint8_t *view, const uint8_t *s, Py_ssize_t n, int32_t buffer,
                              int64_t at, const uint8_t *limit)
{
    uint64_t first, second;
    if (n <= UK_VIEW_INLINE) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        if (limit - s >= UK_VIEW_INLINE) {
            /* keep[k]: the k first octets of a little-endian word */
            static const uint64_t keep[9] = {
                0, 0xFF, 0xFFFF, 0xFFFFFF, 0xFFFFFFFF, 0xFFFFFFFFFF, 0xFFFFFFFFFFFF,
                0xFFFFFFFFFFFFFF, UINT64_MAX,
            };
            uint64_t low;
            uint32_t high;
            memcpy(&low, s, 8);
            memcpy(&high, s + 8, 4);
            low &= keep[n < 8 ? n : 8];
            high &= (uint32_t)keep[n > 8 ? n - 8 : 0];
            first = (uint64_t)(uint32_t)n | (low << 32);
            second = (low >> 32) | ((uint64_t)high << 32);
            memcpy(view, &first, 8);
            memcpy(view + 8, &second, 8);
            return 0;
        }
#endif
        uint8_t out[UK_VIEW_SIZE] = {0};
        int32_t length = (int32_t)n;
        memcpy(out, &length, 4);
        for (Py_ssize_t k = 0; k < n; k++) {
            out[4 + k] = s[k];
        }
        memcpy(view, out, UK_VIEW_SIZE);
        return 0;
    }
    int32_t length = (int32_t)n, offset = (int32_t)at;
    memcpy(view, &length, 4);
    memcpy(view + 4, s, 4);
    memcpy(view + 8, &buffer, 4);
    memcpy(view + 12, &offset, 4);
    return (uint64_t)n > INT32_MAX || (uint64_t)at > INT32_MAX ? -1 : 0;
}

/* The view of r->s[a..b-1], a slice of row r, into the same data buffer; for kinds
 * 0 and 1 the output's buffer 0 is the input's data from octet `base` on. */
static inline int uk_put_slice(uint8_t *view, const uk_row *r, Py_ssize_t a, Py_ssize_t b,
                               int64_t base)
{
    return uk_put_view(view, r->s + a, b - a, r->buffer, r->at + a - base, r->limit);
}

#if defined(__x86_64__) || defined(_M_X64)
#include <emmintrin.h>
#define UK_WIDE_VIEWS 1
/* The octets read to write a view from s on (uk_put_view_wide). */
#define UK_VIEW_READ 16

/* For a string of k octets, k = min(n, 13): the octets of its view taken from the
 * 16 read at its start and moved 4 up, past the length: the string (up to 12
 * octets), or for a string longer than 12 its first 4, the prefix. */
#define UK_KEPT(m, j) ((j) < (m) ? 0xFF : 0)
#define UK_KEEP(m)                                                                          \
    {0, 0, 0, 0, UK_KEPT(m, 0), UK_KEPT(m, 1), UK_KEPT(m, 2), UK_KEPT(m, 3), UK_KEPT(m, 4), \
     UK_KEPT(m, 5), UK_KEPT(m, 6), UK_KEPT(m, 7), UK_KEPT(m, 8), UK_KEPT(m, 9),             \
     UK_KEPT(m, 10), UK_KEPT(m, 11)}
static _Alignas(16) const uint8_t uk_keep_view[14][UK_VIEW_SIZE] = {
    UK_KEEP(0), UK_KEEP(1), UK_KEEP(2),  UK_KEEP(3),  UK_KEEP(4),  UK_KEEP(5),  UK_KEEP(6),
    UK_KEEP(7), UK_KEEP(8), UK_KEEP(9), UK_KEEP(10), UK_KEEP(11), UK_KEEP(12), UK_KEEP(4),
};
#undef UK_KEEP
#undef UK_KEPT

/* The view of s[0..n-1] as uk_put_view writes it, for 0 <= n <= INT32_MAX when 16
 * octets can be read from s on; `far` is the second word of the view of a string
 * longer than 12 (its data buffer, then its offset).  Without branches on n. */
static inline void uk_put_view_wide(uint8_t *view, const uint8_t *s, ptrdiff_t n, uint64_t far)
{
    size_t k = n < UK_VIEW_INLINE + 1 ? (size_t)n : UK_VIEW_INLINE + 1;
    uint64_t long_string = 0 - (uint64_t)(n > UK_VIEW_INLINE); /* all ones or none */
    __m128i octets = _mm_slli_si128(_mm_loadu_si128((const __m128i *)s), 4);
    octets = _mm_and_si128(octets, _mm_load_si128((const __m128i *)uk_keep_view[k]));
    __m128i words = _mm_set_epi64x((long long)(far & long_string), (long long)(uint32_t)n);
    _mm_storeu_si128((__m128i *)view, _mm_or_si128(octets, words));
}
#elif defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define UK_WIDE_VIEWS 1
#define UK_VIEW_READ 12
/* For a string of k octets, k = min(n, 13): the octets kept of the first 8 and of
 * the next 4 read from its start (a string longer than 12 keeps its first 4 as the
 * prefix). */
static const uint64_t uk_keep_first[14] = {
    0, 0xFF, 0xFFFF, 0xFFFFFF, 0xFFFFFFFF, 0xFFFFFFFFFF, 0xFFFFFFFFFFFF, 0xFFFFFFFFFFFFFF,
    UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX,
};
static const uint32_t uk_keep_next[14] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFFFF, 0xFFFFFF, 0xFFFFFFFF, 0,
};

/* The view of s[0..n-1] as uk_put_view writes it, for 0 <= n <= INT32_MAX when 12
 * octets can be read from s on; `far` is the second word of the view of a string
 * longer than 12 (its data buffer, then its offset).  Without branches on n. */
static inline void uk_put_view_wide(uint8_t *view, const uint8_t *s, ptrdiff_t n, uint64_t far)
{
    size_t k = n < UK_VIEW_INLINE + 1 ? (size_t)n : UK_VIEW_INLINE + 1;
    uint64_t low;
    uint32_t high;
    memcpy(&low, s, 8);
    memcpy(&high, s + 8, 4);
    low &= uk_keep_first[k];
    uint64_t first = (uint64_t)(uint32_t)n | (low << 32);
    uint64_t near = (low >> 32) | ((uint64_t)(high & uk_keep_next[k]) << 32);
    uint64_t long_string = 0 - (uint64_t)(n > UK_VIEW_INLINE); /* all ones or none */
    uint64_t second = (far & long_string) | (near & ~long_string);
    memcpy(view, &first, 8);
    memcpy(view + 8, &second, 8);
}
#else
#define UK_WIDE_VIEWS 0
#define UK_VIEW_READ 12
#endif

/* Whether the views of every slice of row r can be written by uk_put_view_wide:
 * UK_VIEW_READ octets can be read after the row, and every offset from base fits an
 * int32. */
static inline int uk_row_is_wide(const uk_row *r, int64_t base)
{
    if (!UK_WIDE_VIEWS || r->limit - (r->s + r->n) < UK_VIEW_READ || r->at < base ||
        r->n > INT32_MAX) {
        return 0;
    }
    return (uint64_t)r->at - (uint64_t)base <= (uint64_t)(INT32_MAX - r->n);
}

/* The view of the whole row r, as uk_put_slice writes it: 0, or -1 when it does not fit. */
static inline int uk_put_row(uint8_t *view, const uk_row *r, int64_t base)
{
#if UK_WIDE_VIEWS
    if (uk_row_is_wide(r, base)) {
        uk_put_view_wide(view, r->s, r->n,
                         (uint32_t)r->buffer | (((uint64_t)r->at - (uint64_t)base) << 32));
        return 0;
    }
#endif
    return uk_put_slice(view, r, 0, r->n, base);
}

/* Room for n more octets after e->s[0..e->n-1]; 0, or -1 when out of memory (no
 * exception set). */
static inline int uk_extra_reserve(uk_extra *e, Py_ssize_t n)
{
    return e->n + n <= e->capacity ? 0 : uk_extra_grow(e, n);
}

#endif /* URIKIT_C_ARROW_INLINE_H */
