/* Invariant assertions of the compiled core.
 *
 * UK_ASSERT(cond) states an invariant on offsets and lengths (an end within the text,
 * ends in the order of RFC 3986 §4.1, a length within its buffer): when it fails, the
 * process prints it and aborts.  It is compiled in with UK_CHECKS defined (the
 * sanitizer and fuzzing builds, tools/sanitize.sh and tools/fuzz.sh, and a build with
 * URIKIT_C_CHECKS=1, see setup.py) or without NDEBUG, and compiled out of the release
 * build, whose compiler flags define NDEBUG; cond is then not evaluated.
 */
#ifndef URIKIT_C_CHECK_H
#define URIKIT_C_CHECK_H

#if defined(UK_CHECKS) || !defined(NDEBUG)
#include <stdio.h>
#include <stdlib.h>

#define UK_CHECKING 1
#define UK_ASSERT(cond) ((cond) ? (void)0 : uk_check_failed(#cond, __FILE__, __LINE__))

static inline void uk_check_failed(const char *cond, const char *file, int line)
{
    fprintf(stderr, "urikit: invariant failed at %s:%d: %s\n", file, line, cond);
    abort();
}
#else
#define UK_CHECKING 0
#define UK_ASSERT(cond) ((void)0)
#endif

#endif /* URIKIT_C_CHECK_H */
