/* The locator of the compiled core: where and why a text is not a reference.
 *
 * Plain C11 without the Python API, so that a fuzz harness can link it directly.
 * uk_locate walks the automata of _speedups_locate_tables.h, generated from
 * urikit.diagnose by tools/gen_tables.py, and gives the answers of
 * urikit.diagnose.locate for URI-reference (RFC 3986 §4.1) and, with iri != 0,
 * IRI-reference (RFC 3987 §2.2, §4.1):
 *
 * - the position: the end of the longest viable prefix (the length of the text when
 *   it ends too early), in the automaton without the userinfo of an authority when
 *   the text's authority holds no "@" (uk_loc_userinfo_possible);
 * - the explanation there, an index of uk_loc_explanations (its rule and reason), by
 *   the state reached and the kind of the character that failed;
 * - whether that character is above U+007F in a URI, which has its own reason
 *   (uk_loc_non_ascii_reason, RFC 3986 §2).
 *
 * The text is a buffer of 1-, 2- or 4-byte code units (the three kinds of a Python
 * str).  One pass, each code unit read at most twice, no allocation, no recursion,
 * and only s[0..n-1] is read.
 */
#ifndef URIKIT_SPEEDUPS_LOCATE_H
#define URIKIT_SPEEDUPS_LOCATE_H

#include <stddef.h>
#include <stdint.h>

#include "_speedups_locate_tables.h"

typedef struct {
    ptrdiff_t position;   /* of the first character that cannot belong to a valid parse */
    unsigned explanation; /* an index of uk_loc_explanations */
    int non_ascii;        /* the character there is above U+007F, and the grammar a URI's */
} uk_failure;

static inline uint32_t uk_loc_unit(const void *s, int width, ptrdiff_t i)
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

/* The class of the code point c (diagnose.Alphabet). */
static inline unsigned uk_loc_class(uint32_t c)
{
    if (c < 0x80) {
        return uk_loc_ascii[c];
    }
    size_t lo = 0, hi = UK_LOC_WIDE; /* the last start <= c */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (uk_loc_wide_start[mid] <= c) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    return uk_loc_wide_class[lo];
}

static inline int uk_loc_scheme_char(uint32_t c, int first)
{
    int alpha = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
    return alpha || (!first && ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.'));
}

/* 0 when the text's authority holds no "@", so that no userinfo reading exists
 * (RFC 3986 §3.2): the authority starts after a leading "//" or a leading
 * scheme ":" "//" and ends before the first "/", "?" or "#".  1 otherwise, and when
 * the text has no authority (urikit.diagnose.userinfo_possible). */
static int uk_loc_userinfo_possible(const void *s, int width, ptrdiff_t n)
{
    ptrdiff_t i = 0;
    if (n > 0 && uk_loc_scheme_char(uk_loc_unit(s, width, 0), 1)) {
        i = 1;
        while (i < n && uk_loc_scheme_char(uk_loc_unit(s, width, i), 0)) {
            i++;
        }
        if (i >= n || uk_loc_unit(s, width, i) != ':') {
            return 1;
        }
        i++;
    }
    if (i + 2 > n || uk_loc_unit(s, width, i) != '/' || uk_loc_unit(s, width, i + 1) != '/') {
        return 1;
    }
    for (i += 2; i < n; i++) {
        uint32_t c = uk_loc_unit(s, width, i);
        if (c == '@') {
            return 1;
        }
        if (c == '/' || c == '?' || c == '#') {
            return 0;
        }
    }
    return 0;
}

/* The walk over code units of type T: the index where it stops (n at the end of the
 * text) and the state there in *state.  A run of characters that keep the state is
 * read without waiting on the state (uk_loc_stay). */
#define UK_LOC_WALK(NAME, T)                                                             \
    static ptrdiff_t NAME(const T *s, ptrdiff_t n, unsigned *state)                      \
    {                                                                                    \
        unsigned at = *state;                                                            \
        ptrdiff_t i = 0;                                                                 \
        while (i < n) {                                                                  \
            uint64_t stay = uk_loc_stay[at];                                             \
            unsigned k = uk_loc_class(s[i]);                                             \
            while ((stay >> k) & 1u) {                                                   \
                if (++i == n) {                                                          \
                    *state = at;                                                         \
                    return n;                                                            \
                }                                                                        \
                k = uk_loc_class(s[i]);                                                  \
            }                                                                            \
            unsigned next = uk_loc_next[at][k];                                          \
            if (next == UK_LOC_NONE) {                                                   \
                break;                                                                   \
            }                                                                            \
            at = next;                                                                   \
            i++;                                                                         \
        }                                                                                \
        *state = at;                                                                     \
        return i;                                                                        \
    }

UK_LOC_WALK(uk_loc_walk_ucs1, uint8_t)
UK_LOC_WALK(uk_loc_walk_ucs2, uint16_t)
UK_LOC_WALK(uk_loc_walk_ucs4, uint32_t)

/* 1 and *out when the text is not a reference of the grammar (iri), 0 when it is. */
static int uk_locate(const void *s, int width, ptrdiff_t n, int iri, uk_failure *out)
{
    unsigned state = uk_loc_start[iri != 0][uk_loc_userinfo_possible(s, width, n)];
    ptrdiff_t i;
    switch (width) {
    case 1:
        i = uk_loc_walk_ucs1((const uint8_t *)s, n, &state);
        break;
    case 2:
        i = uk_loc_walk_ucs2((const uint16_t *)s, n, &state);
        break;
    default:
        i = uk_loc_walk_ucs4((const uint32_t *)s, n, &state);
        break;
    }
    if (i == n && uk_loc_states[state].accepting) {
        return 0;
    }
    out->position = i;
    out->non_ascii = 0;
    if (i == n) {
        out->explanation = uk_loc_states[state].explanation[0];
        return 1;
    }
    uint32_t c = uk_loc_unit(s, width, i);
    out->explanation = uk_loc_states[state].explanation[uk_loc_kind[uk_loc_class(c)]];
    out->non_ascii = !iri && c > 0x7F;
    return 1;
}

#endif /* URIKIT_SPEEDUPS_LOCATE_H */
