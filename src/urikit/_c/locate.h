/* The error locator of the compiled core: where and why a text is not a reference.
 *
 * Plain C11 without the Python API, so that the fuzz harness links it directly.  It
 * walks the automata of locate_tables.h, generated from urikit.diagnose by
 * tools/gen_tables.py, and gives the answers of urikit.diagnose.locate for
 * URI-reference (RFC 3986 §4.1) and, with iri != 0, IRI-reference (RFC 3987 §2.2,
 * §4.1):
 *
 * - the position: the end of the longest viable prefix (the length of the text when
 *   it ends too early), in characters, in the automaton without the userinfo of an
 *   authority when the text's authority holds no "@" (uk_loc_userinfo_possible);
 * - the explanation there, an index of the explanations (its rule and reason), by the
 *   state reached and the kind of the character that failed;
 * - whether that character is above U+007F in a URI, which has its own reason
 *   (uk_loc_non_ascii_reason, RFC 3986 §2).
 *
 * One pass, each character read at most twice, no allocation, no recursion, and only
 * s[0..n-1] is read.
 */
#ifndef URIKIT_C_LOCATE_H
#define URIKIT_C_LOCATE_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    ptrdiff_t position;   /* of the first character that cannot belong to a valid parse */
    unsigned explanation; /* an index of the explanations, below uk_loc_explanations() */
    int non_ascii;        /* the character there is above U+007F, and the grammar a URI's */
} uk_failure;

/* 1 and *out when the text of n code units of `width` octets each (1, 2 or 4: the kinds
 * of a str) is not a reference of the grammar (iri), 0 when it is. */
int uk_locate(const void *s, int width, ptrdiff_t n, int iri, uk_failure *out);

/* The same for the UTF-8 octets s[0..n-1], the position counted in characters; -1 when
 * an ill-formed sequence comes before the answer (RFC 3629 §3). */
int uk_locate_utf8(const uint8_t *s, ptrdiff_t n, int iri, uk_failure *out);

/* 0 when the text's authority holds no "@", so that no userinfo reading exists (RFC
 * 3986 §3.2); 1 otherwise, and when the text has no authority. */
int uk_loc_userinfo_possible(const void *s, int width, ptrdiff_t n);

/* The number of explanations, and the rule and the reason of each (UTF-8). */
unsigned uk_loc_explanations(void);
const char *uk_loc_rule(unsigned explanation);
const char *uk_loc_reason(unsigned explanation);

/* The reason of a character above U+007F in a URI (RFC 3986 §2), UTF-8. */
const char *uk_loc_non_ascii_reason(void);

#endif /* URIKIT_C_LOCATE_H */
