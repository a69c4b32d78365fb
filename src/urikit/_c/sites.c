/* The lookup of urikit.sites in C: the public suffix and registrable domain of an ASCII
 * host, by a list compiled by urikit.sites._compile (publicsuffix.org/list/).
 *
 * A unit of urikit._speedups:
 *
 *     sites_table(edge_start, edge_labels, edge_targets, answers, /)
 *
 * takes the arrays of a urikit.sites._compile.Table (tuples of ints, and a tuple of
 * str) and returns a capsule holding them: each node's four answers, and every edge
 * in one hash table keyed by its node and label (FNV-1a of the label's UTF-8 octets,
 * mixed with the node's number; linear probing, at most half full).
 *
 *     sites_find(table, host, private, extra, /)
 *
 * reads the ASCII str host as urikit.sites._read does, walks the trie from the right
 * (one hash lookup a label), and returns the last count + extra labels of the host in
 * lower case, with its trailing dot, where count is the node's answer ("more" when a
 * label has no edge, "end" when the labels run out; the ICANN answers unless
 * private): extra 0 gives the public suffix, 1 the registrable domain.  It returns
 * None when the host names no domain (empty; a forbidden domain code point of the URL
 * Standard §3.5, which include the brackets of an IP literal and the ":" of an IPv6
 * address; an empty label; a last label that is a number, an IPv4 address) or has
 * fewer labels than asked, and NotImplemented for a host that is not ASCII or holds a
 * "%": the readable path decodes it (RFC 3986 §3.2.2) and answers.
 */

#include "speedups.h"

#include <stdint.h>
#include <string.h>

typedef struct {
    uint32_t parent, child; /* child 0: an empty slot (the root is no node's child) */
    uint32_t label, length; /* the label: length octets of labels at label */
} uk_sites_slot;

typedef struct {
    uint32_t n_nodes;
    uint32_t mask; /* the number of slots, a power of two, less one */
    uint16_t *answers; /* four a node: end and more with every rule, then with ICANN's */
    uk_sites_slot *slots;
    char *labels;
} uk_sites_table;

#define UK_SITES_CAPSULE "urikit._speedups.sites_table"

/* Answer bits (urikit.sites._compile): the labels of the public suffix. */
#define UK_SITES_COUNT_MASK 0xFFu

static uint32_t uk_sites_hash(uint32_t node, const char *s, Py_ssize_t n)
{
    uint32_t h = 2166136261u ^ (node * 0x9E3779B1u);
    for (Py_ssize_t i = 0; i < n; i++) {
        h ^= (uint8_t)s[i];
        h *= 16777619u;
    }
    return h ^ (h >> 15);
}

/* The node the edge (node, label) leads to, or 0 when there is none. */
static uint32_t uk_sites_child(const uk_sites_table *t, uint32_t node, const char *s,
                               Py_ssize_t n)
{
    uint32_t i = uk_sites_hash(node, s, n) & t->mask;
    for (;;) {
        const uk_sites_slot *slot = &t->slots[i];
        if (slot->child == 0) {
            return 0;
        }
        if (slot->parent == node && (Py_ssize_t)slot->length == n &&
            memcmp(t->labels + slot->label, s, (size_t)n) == 0) {
            return slot->child;
        }
        i = (i + 1) & t->mask;
    }
}

static void uk_sites_free(uk_sites_table *t)
{
    if (t != NULL) {
        PyMem_Free(t->answers);
        PyMem_Free(t->slots);
        PyMem_Free(t->labels);
        PyMem_Free(t);
    }
}

static void uk_sites_capsule_free(PyObject *capsule)
{
    uk_sites_free(PyCapsule_GetPointer(capsule, UK_SITES_CAPSULE));
}

/* items[k] as a number below limit, or -1 with an exception set. */
static long uk_sites_number(PyObject *items, Py_ssize_t k, long limit)
{
    long value = PyLong_AsLong(PyTuple_GET_ITEM(items, k));
    if (value == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (value < 0 || value >= limit) {
        PyErr_Format(PyExc_ValueError, "sites_table(): %ld is out of range", value);
        return -1;
    }
    return value;
}

PyDoc_STRVAR(sites_table_doc,
             "sites_table(edge_start, edge_labels, edge_targets, answers, /)\n--\n\n"
             "A capsule holding the compiled list of urikit.sites._compile.Table, for\n"
             "sites_find.");

static PyObject *sites_table(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 4 || !PyTuple_Check(args[0]) || !PyTuple_Check(args[1]) ||
        !PyTuple_Check(args[2]) || !PyTuple_Check(args[3])) {
        PyErr_SetString(PyExc_TypeError, "sites_table() takes four tuples");
        return NULL;
    }
    PyObject *starts = args[0], *labels = args[1], *targets = args[2], *answers = args[3];
    Py_ssize_t n_nodes = PyTuple_GET_SIZE(starts) - 1;
    Py_ssize_t n_edges = PyTuple_GET_SIZE(labels);
    if (n_nodes < 1 || n_nodes >= (1 << 28) || PyTuple_GET_SIZE(targets) != n_edges ||
        PyTuple_GET_SIZE(answers) != 4 * n_nodes) {
        PyErr_SetString(PyExc_ValueError, "sites_table(): the arrays do not agree");
        return NULL;
    }
    uk_sites_table *t = PyMem_Calloc(1, sizeof(uk_sites_table));
    if (t == NULL) {
        return PyErr_NoMemory();
    }
    t->n_nodes = (uint32_t)n_nodes;
    uint32_t size = 2;
    while (size < 2 * (uint32_t)n_edges + 2) {
        size <<= 1;
    }
    t->mask = size - 1;
    t->answers = PyMem_Calloc((size_t)(4 * n_nodes), sizeof(uint16_t));
    t->slots = PyMem_Calloc(size, sizeof(uk_sites_slot));
    Py_ssize_t octets = 0;
    for (Py_ssize_t e = 0; e < n_edges; e++) {
        Py_ssize_t n;
        PyObject *label = PyTuple_GET_ITEM(labels, e);
        if (!PyUnicode_Check(label) || PyUnicode_AsUTF8AndSize(label, &n) == NULL) {
            PyErr_SetString(PyExc_TypeError, "sites_table(): a label must be a str");
            goto fail;
        }
        octets += n;
    }
    t->labels = PyMem_Malloc((size_t)octets + 1);
    if (t->answers == NULL || t->slots == NULL || t->labels == NULL) {
        PyErr_NoMemory();
        goto fail;
    }
    for (Py_ssize_t k = 0; k < 4 * n_nodes; k++) {
        long value = uk_sites_number(answers, k, 1L << 16);
        if (value < 0) {
            goto fail;
        }
        t->answers[k] = (uint16_t)value;
    }
    Py_ssize_t at = 0;
    for (Py_ssize_t node = 0; node < n_nodes; node++) {
        long first = uk_sites_number(starts, node, (long)n_edges + 1);
        long end = uk_sites_number(starts, node + 1, (long)n_edges + 1);
        if (first < 0 || end < 0) {
            goto fail;
        }
        for (long e = first; e < end; e++) {
            long child = uk_sites_number(targets, e, (long)n_nodes);
            if (child < 0) {
                goto fail;
            }
            if (child == 0) {
                PyErr_SetString(PyExc_ValueError, "sites_table(): an edge leads to the root");
                goto fail;
            }
            Py_ssize_t n;
            const char *s = PyUnicode_AsUTF8AndSize(PyTuple_GET_ITEM(labels, e), &n);
            memcpy(t->labels + at, s, (size_t)n);
            uint32_t i = uk_sites_hash((uint32_t)node, s, n) & t->mask;
            while (t->slots[i].child != 0) {
                i = (i + 1) & t->mask;
            }
            t->slots[i] = (uk_sites_slot){(uint32_t)node, (uint32_t)child, (uint32_t)at,
                                          (uint32_t)n};
            at += n;
        }
    }
    PyObject *capsule = PyCapsule_New(t, UK_SITES_CAPSULE, uk_sites_capsule_free);
    if (capsule == NULL) {
        goto fail;
    }
    return capsule;
fail:
    uk_sites_free(t);
    return NULL;
}

/* Is c a forbidden domain code point of the URL Standard (§3.5), "%" aside? */
static int uk_sites_forbidden(Py_UCS1 c)
{
    switch (c) {
    case ' ': case '#': case '/': case ':': case '<': case '>': case '?': case '@':
    case '[': case '\\': case ']': case '^': case '|': case 0x7F:
        return 1;
    default:
        return c < 0x20;
    }
}

/* Is s[0..n-1], the last label of a host, a number (the URL Standard's "ends in a
 * number checker": ASCII digits, or "0x" and hexadecimal digits)? */
static int uk_sites_number_label(const char *s, Py_ssize_t n)
{
    Py_ssize_t i = 0;
    int hex = n >= 2 && s[0] == '0' && s[1] == 'x';
    if (hex) {
        i = 2;
    }
    for (; i < n; i++) {
        char c = s[i];
        if (!((c >= '0' && c <= '9') || (hex && c >= 'a' && c <= 'f'))) {
            return 0;
        }
    }
    return 1;
}

PyDoc_STRVAR(sites_find_doc,
             "sites_find(table, host, private, extra, /)\n--\n\n"
             "The last count + extra labels of the ASCII host in lower case, count being the\n"
             "labels of its public suffix by the compiled list table (sites_table); None\n"
             "when host names no domain or has fewer labels; NotImplemented when host is\n"
             "not ASCII or holds a \"%\".");

static PyObject *sites_find(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 4 || !PyUnicode_Check(args[1]) || !PyLong_Check(args[3])) {
        PyErr_SetString(PyExc_TypeError, "sites_find() takes a table, a str, a flag and an int");
        return NULL;
    }
    const uk_sites_table *t = PyCapsule_GetPointer(args[0], UK_SITES_CAPSULE);
    if (t == NULL) {
        return NULL;
    }
    PyObject *host = args[1];
    int private = PyObject_IsTrue(args[2]); /* any object, as the readable path reads it */
    if (private < 0) {
        return NULL;
    }
    long extra = PyLong_AsLong(args[3]);
    if (extra < 0 || extra > 1) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_ValueError, "sites_find(): extra is 0 or 1");
        }
        return NULL;
    }
    if (!PyUnicode_IS_ASCII(host)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    const Py_UCS1 *s = PyUnicode_1BYTE_DATA(host);
    Py_ssize_t n = PyUnicode_GET_LENGTH(host);
    char small[256];
    char *name = n <= (Py_ssize_t)sizeof small ? small : PyMem_Malloc((size_t)n);
    if (name == NULL) {
        return PyErr_NoMemory();
    }
    PyObject *result = Py_None;
    /* The host in lower case; what names no domain. */
    Py_ssize_t labels = 1;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS1 c = s[i];
        if (c == '%') {
            result = Py_NotImplemented;
            goto done;
        }
        if (uk_sites_forbidden(c)) {
            goto done;
        }
        name[i] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
        labels += c == '.';
    }
    Py_ssize_t end = n; /* the end of the domain without its trailing dot */
    if (end > 0 && name[end - 1] == '.') {
        end--;
        labels--;
    }
    if (end == 0 || name[0] == '.' || name[end - 1] == '.') {
        goto done;
    }
    for (Py_ssize_t i = 1; i < end; i++) {
        if (name[i] == '.' && name[i - 1] == '.') {
            goto done;
        }
    }
    /* Walk the labels from the right. */
    Py_ssize_t stop = end, start;
    uint32_t node = 0;
    unsigned answer;
    for (;;) {
        start = stop;
        while (start > 0 && name[start - 1] != '.') {
            start--;
        }
        if (stop == end && uk_sites_number_label(name + start, stop - start)) {
            goto done;
        }
        uint32_t child = uk_sites_child(t, node, name + start, stop - start);
        if (child == 0) {
            answer = t->answers[4 * node + (private ? 1 : 3)];
            break;
        }
        node = child;
        if (start == 0) {
            answer = t->answers[4 * node + (private ? 0 : 2)];
            break;
        }
        stop = start - 1;
    }
    Py_ssize_t count = (Py_ssize_t)(answer & UK_SITES_COUNT_MASK) + extra;
    if (count > labels) {
        goto done;
    }
    /* The start of the count-th label from the right. */
    Py_ssize_t from = end;
    for (Py_ssize_t k = 0; k < count; k++) {
        from--;
        while (from > 0 && name[from - 1] != '.') {
            from--;
        }
        if (k + 1 < count) {
            from--;
        }
    }
    result = PyUnicode_New(n - from, 127);
    if (result != NULL) {
        memcpy(PyUnicode_1BYTE_DATA(result), name + from, (size_t)(n - from));
    }
    if (name != small) {
        PyMem_Free(name);
    }
    return result;
done:
    if (name != small) {
        PyMem_Free(name);
    }
    return Py_NewRef(result);
}

PyMethodDef uk_sites_methods[] = {
    {"sites_table", (PyCFunction)(void (*)(void))sites_table, METH_FASTCALL, sites_table_doc},
    {"sites_find", (PyCFunction)(void (*)(void))sites_find, METH_FASTCALL, sites_find_doc},
    {NULL, NULL, 0, NULL},
};
