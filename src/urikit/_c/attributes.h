/* Attributes of functions for the compiler (GCC and Clang; nothing elsewhere).
 *
 *     UK_ALWAYS_INLINE  inlined into each caller, so that a template's constants are
 *                       known there
 *     UK_NOINLINE       compiled on its own
 *     UK_COLD           for the rare cases, kept out of the loops that call it so that
 *                       they stay small
 */
#ifndef URIKIT_C_ATTRIBUTES_H
#define URIKIT_C_ATTRIBUTES_H

#if defined(__GNUC__) || defined(__clang__)
#define UK_ALWAYS_INLINE __attribute__((always_inline)) inline
#define UK_NOINLINE __attribute__((noinline))
#define UK_COLD __attribute__((noinline, cold))
#else
#define UK_ALWAYS_INLINE inline
#define UK_NOINLINE
#define UK_COLD
#endif

#endif /* URIKIT_C_ATTRIBUTES_H */
