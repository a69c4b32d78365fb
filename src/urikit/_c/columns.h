/* What the units of the module urikit._columns, the column kernel of urikit.arrow,
 * share: the functions each offers the module.
 *
 *     columns.c       the module
 *     arrow.c         Arrow columns in and out (arrow.h, arrow_inline.h)
 *     column_split.c  split(): the components, host types, port numbers and errors
 *     column_map.c    map(): the compiled operations, row by row, with a fallback
 */
#ifndef URIKIT_C_COLUMNS_H
#define URIKIT_C_COLUMNS_H

#include "arrow.h"

extern PyMethodDef uk_split_methods[]; /* column_split.c */
extern PyMethodDef uk_map_methods[];   /* column_map.c */

#endif /* URIKIT_C_COLUMNS_H */
