/* Arrow columns in and out, for the column kernel (urikit._columns).
 *
 * A column is described by a tuple (kind, length, offset, validity, offsets, data)
 * of the Arrow C data interface layouts: kind 0 is "string" (int32 offsets), 1
 * "large_string" (int64 offsets), 2 "string_view" (16-byte views); validity is the
 * validity bitmap or None; offsets is the offsets or views buffer; data is a tuple
 * of the data buffers (one for kinds 0 and 1).  Any object with the buffer protocol
 * serves as a buffer.  Arrow strings are UTF-8.
 *
 * The answers are filled into new buffers made by the caller's allocate(size), which
 * Python hands to Arrow unchanged: bitmaps (bit i of byte i / 8, least significant bit
 * first), values, string views (Arrow "string_view": 16 bytes per row, strings of at
 * most 12 octets inline, longer ones as a prefix, a data buffer index and an offset),
 * and int32 offsets with their data (Arrow "string").  The inline helpers that read
 * rows and write views are in arrow_inline.h.
 */
#ifndef URIKIT_C_ARROW_H
#define URIKIT_C_ARROW_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>

enum { UK_KIND_STRING = 0, UK_KIND_LARGE = 1, UK_KIND_VIEW = 2 };

#define UK_VIEW_SIZE 16
#define UK_VIEW_INLINE 12

/* A column read by uk_column_read: its buffers held until uk_column_release. */
typedef struct {
    int kind;
    Py_ssize_t length;
    Py_ssize_t offset;
    int has_validity;
    Py_buffer validity;
    Py_buffer offsets;
    Py_ssize_t ndata;
    Py_buffer *data;
} uk_column;

/* One row: its octets s[0..n-1], and where they are: data buffer `buffer` at octet
 * `at`, or buffer -1 when they are inline in a view. */
typedef struct {
    const uint8_t *s;
    Py_ssize_t n;
    int32_t buffer;
    int64_t at;
    const uint8_t *limit; /* the end of the buffer that holds the octets */
} uk_row;

/* Read the column tuple into c, checking that every buffer is large enough for the
 * rows it describes; 0 on success, -1 with an exception set. */
int uk_column_read(PyObject *spec, uk_column *c);
void uk_column_release(uk_column *c);

/* What went wrong in a loop over rows that runs without the GIL. */
enum { UK_FINE = 0, UK_BAD_ROW = 1, UK_NO_FIT = 2, UK_NO_MEMORY = 3 };

/* The exception for a failure of row `row`; returns NULL. */
PyObject *uk_column_failure(int failure, Py_ssize_t row);

/* An output buffer: an object made by the caller's allocate(size), with the buffer
 * protocol and writable, held while the rows are written. */
typedef struct {
    PyObject *obj;
    Py_buffer view;
    int held;
} uk_out;

/* A new output of size octets, zeroed when `zero`; its octets, or NULL with an
 * exception set. */
uint8_t *uk_out_new(uk_out *o, PyObject *allocate, Py_ssize_t size, int zero);

/* Map in the pages of buf[0..size-1] before they are written (runs without the GIL). */
void uk_out_prefault(uint8_t *buf, Py_ssize_t size);
void uk_out_release(uk_out *o);

/* A growing array of row numbers, filled without the GIL. */
typedef struct {
    Py_ssize_t *rows;
    Py_ssize_t n, capacity;
} uk_rows;

/* Append a row; 0, or -1 when out of memory (no exception set). */
int uk_rows_append(uk_rows *r, Py_ssize_t row);

/* The rows as a new list of int, or NULL with an exception set. */
PyObject *uk_rows_list(const uk_rows *r);

/* A growing buffer of octets, for strings that are not slices of the input. */
typedef struct {
    uint8_t *s;
    Py_ssize_t n, capacity;
} uk_extra;

/* Room for n more octets after e->s[0..e->n-1] (uk_extra_reserve of arrow_inline.h
 * grows the buffer by uk_extra_grow when it has not), or the n octets of s appended; 0,
 * or -1 when out of memory (no exception set). */
int uk_extra_grow(uk_extra *e, Py_ssize_t n);
int uk_extra_append(uk_extra *e, const uint8_t *s, Py_ssize_t n);

#endif /* URIKIT_C_ARROW_H */
