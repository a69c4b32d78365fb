/* Arrow columns in and out (arrow.h): reading a column's buffers, and the buffers and
 * growing arrays the kernel writes. */
#include "arrow.h"

#include <stdlib.h>
#include <string.h>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

#include "check.h"

/* --- columns ------------------------------------------------------------------------ */

void uk_column_release(uk_column *c)
{
    if (c->has_validity) {
        PyBuffer_Release(&c->validity);
        c->has_validity = 0;
    }
    if (c->offsets.obj != NULL) {
        PyBuffer_Release(&c->offsets);
    }
    if (c->data != NULL) {
        for (Py_ssize_t k = 0; k < c->ndata; k++) {
            if (c->data[k].obj != NULL) {
                PyBuffer_Release(&c->data[k]);
            }
        }
        PyMem_Free(c->data);
        c->data = NULL;
    }
}

static int column_fail(uk_column *c, const char *message)
{
    uk_column_release(c);
    PyErr_SetString(PyExc_ValueError, message);
    return -1;
}

int uk_column_read(PyObject *spec, uk_column *c)
{
    memset(c, 0, sizeof(*c));
    PyObject *validity, *offsets, *data;
    if (!PyArg_ParseTuple(spec, "innOOO!;column: (kind, length, offset, validity, offsets, data)",
                          &c->kind, &c->length, &c->offset, &validity, &offsets,
                          &PyTuple_Type, &data)) {
        return -1;
    }
    if (c->kind < UK_KIND_STRING || c->kind > UK_KIND_VIEW || c->length < 0 ||
        c->offset < 0) {
        PyErr_SetString(PyExc_ValueError, "column: bad kind, length or offset");
        return -1;
    }
    Py_ssize_t rows = c->offset + c->length;
    if (validity != Py_None) {
        if (PyObject_GetBuffer(validity, &c->validity, PyBUF_SIMPLE) < 0) {
            return -1;
        }
        c->has_validity = 1;
        if (c->validity.len < (rows + 7) / 8) {
            return column_fail(c, "column: the validity bitmap is too short");
        }
    }
    if (PyObject_GetBuffer(offsets, &c->offsets, PyBUF_SIMPLE) < 0) {
        uk_column_release(c);
        return -1;
    }
    Py_ssize_t need = c->kind == UK_KIND_STRING  ? (rows + 1) * 4
                      : c->kind == UK_KIND_LARGE ? (rows + 1) * 8
                                                 : rows * UK_VIEW_SIZE;
    if (c->offsets.len < need) {
        return column_fail(c, "column: the offsets or views buffer is too short");
    }
    c->ndata = PyTuple_GET_SIZE(data);
    if (c->kind != UK_KIND_VIEW && c->ndata != 1) {
        return column_fail(c, "column: a string column has one data buffer");
    }
    c->data = PyMem_Calloc((size_t)(c->ndata > 0 ? c->ndata : 1), sizeof(Py_buffer));
    if (c->data == NULL) {
        uk_column_release(c);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t k = 0; k < c->ndata; k++) {
        if (PyObject_GetBuffer(PyTuple_GET_ITEM(data, k), &c->data[k], PyBUF_SIMPLE) < 0) {
            uk_column_release(c);
            return -1;
        }
    }
    return 0;
}

PyObject *uk_column_failure(int failure, Py_ssize_t row)
{
    if (failure == UK_BAD_ROW) {
        PyErr_Format(PyExc_ValueError, "column: row %zd points outside its data", row);
    } else if (failure == UK_NO_FIT) {
        PyErr_SetString(PyExc_OverflowError, "a string or offset does not fit a string view");
    } else {
        PyErr_NoMemory();
    }
    return NULL;
}

/* --- output buffers --------------------------------------------------------------- */

uint8_t *uk_out_new(uk_out *o, PyObject *allocate, Py_ssize_t size, int zero)
{
    o->obj = PyObject_CallFunction(allocate, "n", size);
    if (o->obj == NULL) {
        return NULL;
    }
    if (PyObject_GetBuffer(o->obj, &o->view, PyBUF_WRITABLE) < 0) {
        return NULL;
    }
    o->held = 1;
    if (o->view.len < size) {
        PyErr_SetString(PyExc_ValueError, "allocate() gave a buffer shorter than asked");
        return NULL;
    }
    if (zero && size > 0) {
        memset(o->view.buf, 0, (size_t)size);
    }
    return (uint8_t *)o->view.buf;
}

/* Map in the pages of buf[0..size-1] before they are written, with one call to the
 * kernel rather than a page fault a page (Linux 5.14 and later; elsewhere, or when
 * the kernel refuses, the pages fault in as they are written).  Runs without the
 * GIL. */
void uk_out_prefault(uint8_t *buf, Py_ssize_t size)
{
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
    long page = sysconf(_SC_PAGESIZE);
    if (page <= 0 || size < 64 * (Py_ssize_t)page) {
        return;
    }
    uintptr_t mask = (uintptr_t)page - 1;
    uintptr_t from = ((uintptr_t)buf + mask) & ~mask;
    uintptr_t to = ((uintptr_t)buf + (uintptr_t)size) & ~mask;
    if (to > from) {
        (void)madvise((void *)from, to - from, MADV_POPULATE_WRITE);
    }
#else
    (void)buf;
    (void)size;
#endif
}

void uk_out_release(uk_out *o)
{
    if (o->held) {
        PyBuffer_Release(&o->view);
        o->held = 0;
    }
    Py_CLEAR(o->obj);
}

/* --- growing arrays ---------------------------------------------------------------- */

static int uk_rows_grow(uk_rows *r)
{
    Py_ssize_t capacity = r->capacity ? 2 * r->capacity : 16;
    Py_ssize_t *grown = PyMem_RawRealloc(r->rows, (size_t)capacity * sizeof(Py_ssize_t));
    if (grown == NULL) {
        return -1;
    }
    r->rows = grown;
    r->capacity = capacity;
    return 0;
}

int uk_rows_append(uk_rows *r, Py_ssize_t row)
{
    if (r->n == r->capacity && uk_rows_grow(r) < 0) {
        return -1;
    }
    r->rows[r->n++] = row;
    return 0;
}

PyObject *uk_rows_list(const uk_rows *r)
{
    PyObject *list = PyList_New(r->n);
    if (list == NULL) {
        return NULL;
    }
    for (Py_ssize_t k = 0; k < r->n; k++) {
        PyObject *row = PyLong_FromSsize_t(r->rows[k]);
        if (row == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, k, row);
    }
    return list;
}

int uk_extra_grow(uk_extra *e, Py_ssize_t n)
{
    Py_ssize_t capacity = e->capacity ? e->capacity : 4096;
    while (capacity < e->n + n) {
        capacity *= 2;
    }
    uint8_t *grown = PyMem_RawRealloc(e->s, (size_t)capacity);
    if (grown == NULL) {
        return -1;
    }
    e->s = grown;
    e->capacity = capacity;
    return 0;
}

int uk_extra_append(uk_extra *e, const uint8_t *s, Py_ssize_t n)
{
    if (n == 0) { /* e->s may be NULL before the first octet: no pointer arithmetic on it */
        return 0;
    }
    if (e->n + n > e->capacity && uk_extra_grow(e, n) < 0) {
        return -1;
    }
    memcpy(e->s + e->n, s, (size_t)n);
    e->n += n;
    return 0;
}

