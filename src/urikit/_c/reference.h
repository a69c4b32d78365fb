/* The layout of a Reference, the storage of the value type, shared by the units that
 * build and read one (reference.c, reference_calls.c).
 *
 * A reference is its text (an exact str) and the ends of its eight components.  The
 * ends are int32 while the text is at most UK_NARROW_MAX code units long, so that an
 * object is small; a longer text keeps them in an array of ptrdiff_t of its own.
 */
#ifndef URIKIT_C_REFERENCE_H
#define URIKIT_C_REFERENCE_H

#include "speedups.h"

#include <string.h>

#include "check.h"
#include "contracts.h"
#include "spans.h"

#ifndef UK_NARROW_MAX
#define UK_NARROW_MAX INT32_MAX
#endif
#if UK_NARROW_MAX > INT32_MAX || UK_NARROW_MAX < 0
#error "UK_NARROW_MAX must fit an int32_t"
#endif

typedef struct {
    PyObject_HEAD
    PyObject *text;
    union {
        int32_t narrow[UK_COMPONENTS]; /* when len(text) <= UK_NARROW_MAX */
        ptrdiff_t *wide;               /* else: PyMem_Malloc'd, UK_COMPONENTS long */
    } ends;
} uk_reference;

static inline int uk_is_wide(const uk_reference *r)
{
    return PyUnicode_GET_LENGTH(r->text) > UK_NARROW_MAX;
}

/* The ends of the eight components of r, -1 for an undefined one. */
static inline void uk_load_ends(const uk_reference *r, ptrdiff_t ends[UK_COMPONENTS])
{
    if (uk_is_wide(r)) {
        memcpy(ends, r->ends.wide, UK_COMPONENTS * sizeof(ptrdiff_t));
    } else {
        for (int k = 0; k < UK_COMPONENTS; k++) {
            ends[k] = r->ends.narrow[k];
        }
    }
}

#endif /* URIKIT_C_REFERENCE_H */
