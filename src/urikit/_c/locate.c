/* The error locator of the compiled core (locate.h) over the generated automata. */
#include "locate.h"

#include "check.h"
#include "locate_tables.h"
#include "text.h"

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

/* Is a userinfo possible in the text s[0..n-1] of code units of type T?  The authority
 * starts after a leading "//" or a leading scheme ":" "//" and ends before the first
 * "/", "?" or "#" (urikit.diagnose.userinfo_possible).  Every character it looks for is
 * ASCII, so UTF-8 is read as octets. */
#define UK_LOC_USERINFO(NAME, T)                                                            \
    static int NAME(const T *s, ptrdiff_t n)                                                \
    {                                                                                       \
        ptrdiff_t i = 0;                                                                    \
        if (n > 0 && uk_loc_scheme_char(s[0], 1)) {                                         \
            i = 1;                                                                          \
            while (i < n && uk_loc_scheme_char(s[i], 0)) {                                  \
                i++;                                                                        \
            }                                                                               \
            if (i >= n || s[i] != ':') {                                                    \
                return 1;                                                                   \
            }                                                                               \
            i++;                                                                            \
        }                                                                                   \
        if (i + 2 > n || s[i] != '/' || s[i + 1] != '/') {                                  \
            return 1;                                                                       \
        }                                                                                   \
        for (i += 2; i < n; i++) {                                                          \
            if (s[i] == '@') {                                                              \
                return 1;                                                                   \
            }                                                                               \
            if (s[i] == '/' || s[i] == '?' || s[i] == '#') {                                \
                return 0;                                                                   \
            }                                                                               \
        }                                                                                   \
        return 0;                                                                           \
    }

UK_LOC_USERINFO(uk_loc_userinfo_ucs1, uint8_t)
UK_LOC_USERINFO(uk_loc_userinfo_ucs2, uint16_t)
UK_LOC_USERINFO(uk_loc_userinfo_ucs4, uint32_t)

int uk_loc_userinfo_possible(const void *s, int width, ptrdiff_t n)
{
    switch (width) {
    case 1:
        return uk_loc_userinfo_ucs1((const uint8_t *)s, n);
    case 2:
        return uk_loc_userinfo_ucs2((const uint16_t *)s, n);
    default:
        return uk_loc_userinfo_ucs4((const uint32_t *)s, n);
    }
}

/* The walk over the text s[0..n-1] from the state *state, reading one character at i
 * with READ(s, n, i, c, len) (which sets the code unit or code point c and its length
 * in units, or returns -1 from the walk for an ill-formed sequence): the index where
 * it stops (n when the text ends) and the state there in *state; the character that
 * stopped it in *failed, or -1 at the end (a code unit of 4 octets is any uint32_t, so
 * *failed is wider).  A run of characters that keep the state is read without waiting
 * on the state (uk_loc_stay). */
#define UK_LOC_WALK(NAME, T, READ)                                                          \
    static ptrdiff_t NAME(const T *s, ptrdiff_t n, unsigned *state, int64_t *failed)        \
    {                                                                                       \
        unsigned at = *state;                                                               \
        ptrdiff_t i = 0, len;                                                               \
        uint32_t c;                                                                         \
        *failed = -1;                                                                       \
        while (i < n) {                                                                     \
            uint64_t stay = uk_loc_stay[at];                                                \
            READ(s, n, i, c, len);                                                          \
            unsigned k = uk_loc_class(c);                                                   \
            while ((stay >> k) & 1u) {                                                      \
                if ((i += len) == n) {                                                      \
                    *state = at;                                                            \
                    return n;                                                               \
                }                                                                           \
                READ(s, n, i, c, len);                                                      \
                k = uk_loc_class(c);                                                        \
            }                                                                               \
            unsigned next = uk_loc_next[at][k];                                             \
            if (next == UK_LOC_NONE) {                                                      \
                *failed = c;                                                                \
                break;                                                                      \
            }                                                                               \
            at = next;                                                                      \
            i += len;                                                                       \
        }                                                                                   \
        *state = at;                                                                        \
        return i;                                                                           \
    }

#define UK_LOC_UNIT(s, n, i, c, len) ((c) = (s)[i], (len) = 1)
#define UK_LOC_UTF8(s, n, i, c, len)                                                        \
    {                                                                                       \
        ptrdiff_t after = (i);                                                              \
        int32_t point = uk_utf8_next(s, n, &after);                                         \
        if (point < 0) {                                                                    \
            return -1;                                                                      \
        }                                                                                   \
        (c) = (uint32_t)point;                                                              \
        (len) = after - (i);                                                                \
    }

UK_LOC_WALK(uk_loc_walk_ucs1, uint8_t, UK_LOC_UNIT)
UK_LOC_WALK(uk_loc_walk_ucs2, uint16_t, UK_LOC_UNIT)
UK_LOC_WALK(uk_loc_walk_ucs4, uint32_t, UK_LOC_UNIT)
UK_LOC_WALK(uk_loc_walk_utf8, uint8_t, UK_LOC_UTF8)

/* The answer of a walk that stopped in `state` at the character `failed` (-1 at the end
 * of the text) after `count` characters, of a text of `length` code units. */
static int uk_loc_answer(unsigned state, ptrdiff_t count, ptrdiff_t length, int64_t failed,
                         int iri, uk_failure *out)
{
    (void)length;
    UK_ASSERT(count >= 0 && count <= length && state < UK_LOC_STATES);
    if (failed < 0 && uk_loc_states[state].accepting) {
        return 0;
    }
    out->position = count;
    out->non_ascii = 0;
    if (failed < 0) {
        out->explanation = uk_loc_states[state].explanation[0];
    } else {
        uint32_t c = (uint32_t)failed;
        out->explanation = uk_loc_states[state].explanation[uk_loc_kind[uk_loc_class(c)]];
        out->non_ascii = !iri && c > 0x7F;
    }
    UK_ASSERT(out->explanation < UK_LOC_EXPLANATIONS);
    return 1;
}

int uk_locate(const void *s, int width, ptrdiff_t n, int iri, uk_failure *out)
{
    unsigned state;
    int64_t failed;
    ptrdiff_t at;
    switch (width) {
    case 1:
        state = uk_loc_start[iri != 0][uk_loc_userinfo_ucs1((const uint8_t *)s, n)];
        at = uk_loc_walk_ucs1((const uint8_t *)s, n, &state, &failed);
        break;
    case 2:
        state = uk_loc_start[iri != 0][uk_loc_userinfo_ucs2((const uint16_t *)s, n)];
        at = uk_loc_walk_ucs2((const uint16_t *)s, n, &state, &failed);
        break;
    default:
        state = uk_loc_start[iri != 0][uk_loc_userinfo_ucs4((const uint32_t *)s, n)];
        at = uk_loc_walk_ucs4((const uint32_t *)s, n, &state, &failed);
        break;
    }
    return uk_loc_answer(state, at, n, failed, iri, out);
}

int uk_locate_utf8(const uint8_t *s, ptrdiff_t n, int iri, uk_failure *out)
{
    unsigned state = uk_loc_start[iri != 0][uk_loc_userinfo_ucs1(s, n)];
    int64_t failed;
    ptrdiff_t at = uk_loc_walk_utf8(s, n, &state, &failed);
    if (at < 0) {
        return -1;
    }
    /* the characters before the octet at: the octets that begin one (RFC 3629 §3) */
    ptrdiff_t count = 0;
    for (ptrdiff_t i = 0; i < at; i++) {
        count += (s[i] & 0xC0) != 0x80;
    }
    return uk_loc_answer(state, count, n, failed, iri, out);
}

unsigned uk_loc_explanations(void)
{
    return UK_LOC_EXPLANATIONS;
}

const char *uk_loc_rule(unsigned explanation)
{
    UK_ASSERT(explanation < UK_LOC_EXPLANATIONS);
    return uk_loc_explanation_texts[explanation].rule;
}

const char *uk_loc_reason(unsigned explanation)
{
    UK_ASSERT(explanation < UK_LOC_EXPLANATIONS);
    return uk_loc_explanation_texts[explanation].reason;
}

const char *uk_loc_non_ascii_reason(void)
{
    return uk_loc_non_ascii_text;
}
