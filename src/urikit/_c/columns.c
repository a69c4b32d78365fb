/* urikit._columns: the column kernel of urikit.arrow, the scanner and the RFC operations
 * of the compiled core over the buffers of Arrow columns of strings (arrow.h).
 *
 * split() scans every row (column_split.c); map() answers each row by a compiled
 * operation where it can, and by a fallback elsewhere (column_map.c).  The loops over
 * the rows touch no Python object and run with the GIL released.
 */
#include "columns.h"

static int columns_exec(PyObject *module)
{
    if (PyModule_AddFunctions(module, uk_split_methods) < 0 ||
        PyModule_AddFunctions(module, uk_map_methods) < 0) {
        return -1;
    }
    return 0;
}

/* The module keeps no state, so it is safe in every interpreter.  map() calls back
 * into Python, so it relies on the GIL, as any caller of Python code does. */
static PyModuleDef_Slot columns_slots[] = {
    {Py_mod_exec, columns_exec},
#if PY_VERSION_HEX >= 0x030C0000
    {Py_mod_multiple_interpreters, Py_MOD_PER_INTERPRETER_GIL_SUPPORTED},
#endif
    {0, NULL},
};

PyDoc_STRVAR(columns_doc, "The compiled kernels of urikit.arrow: split() and map().");

static struct PyModuleDef columns_module = {
    PyModuleDef_HEAD_INIT,
    "urikit._columns",
    columns_doc,
    0,
    NULL,
    columns_slots,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC PyInit__columns(void)
{
    return PyModuleDef_Init(&columns_module);
}
