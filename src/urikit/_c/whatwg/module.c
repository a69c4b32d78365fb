/* urikit._whatwg: the compiled store of urikit.whatwg.URL.
 *
 * A Store is its href (an ASCII str: the input itself when the input was already its own
 * serialization) and the offsets of its components (whatwg.h), from one run of the basic
 * URL parser in C (parser.c).  The interface is that of urikit.whatwg._pure.RecordStore:
 *
 *     Store(input, base=None, *, encoding="utf-8")   inputs other than str (a URL, URI,
 *                             IRI) are read by urikit.whatwg._pure.coerce; an encoding
 *                             other than UTF-8 is parsed by the readable Python
 *     cls._parse(text, base=None, encoding="utf-8", errors=None)
 *     Store.can_parse(input, base=None), Store._components(text, base=None)
 *     s.href, s.protocol ... s.hash     the getters of §6.1, slices of the href
 *     s._record(), s._assign(record)    the URL record, for the setters (readable Python)
 *     s._get_query()
 *
 * Failure raises urikit.whatwg.errors.URLParseError with the validation error's name and
 * the position in the input, as the readable Python does.  The object holds nothing but
 * its href (its query object is found by urikit.whatwg.url), so it is small and in no
 * reference cycle.
 */
#include "whatwg.h"
#include <structmember.h>

const char *const wu_error_names[WU_ERR_COUNT] = {
    [WU_OK] = "",
    [WU_ERR_DOMAIN_TO_ASCII] = "domain-to-ASCII",
    [WU_ERR_HOST_INVALID_CODE_POINT] = "host-invalid-code-point",
    [WU_ERR_IPV4_TOO_MANY_PARTS] = "IPv4-too-many-parts",
    [WU_ERR_IPV4_NON_NUMERIC_PART] = "IPv4-non-numeric-part",
    [WU_ERR_IPV4_OUT_OF_RANGE_PART] = "IPv4-out-of-range-part",
    [WU_ERR_IPV6_UNCLOSED] = "IPv6-unclosed",
    [WU_ERR_IPV6_INVALID_COMPRESSION] = "IPv6-invalid-compression",
    [WU_ERR_IPV6_TOO_MANY_PIECES] = "IPv6-too-many-pieces",
    [WU_ERR_IPV6_MULTIPLE_COMPRESSION] = "IPv6-multiple-compression",
    [WU_ERR_IPV6_INVALID_CODE_POINT] = "IPv6-invalid-code-point",
    [WU_ERR_IPV6_TOO_FEW_PIECES] = "IPv6-too-few-pieces",
    [WU_ERR_IPV4_IN_IPV6_TOO_MANY_PIECES] = "IPv4-in-IPv6-too-many-pieces",
    [WU_ERR_IPV4_IN_IPV6_INVALID_CODE_POINT] = "IPv4-in-IPv6-invalid-code-point",
    [WU_ERR_IPV4_IN_IPV6_OUT_OF_RANGE_PART] = "IPv4-in-IPv6-out-of-range-part",
    [WU_ERR_IPV4_IN_IPV6_TOO_FEW_PARTS] = "IPv4-in-IPv6-too-few-parts",
    [WU_ERR_MISSING_SCHEME_NON_RELATIVE_URL] = "missing-scheme-non-relative-URL",
    [WU_ERR_HOST_MISSING] = "host-missing",
    [WU_ERR_PORT_OUT_OF_RANGE] = "port-out-of-range",
    [WU_ERR_PORT_INVALID] = "port-invalid",
};

typedef struct {
    PyObject_HEAD
    PyObject *href;
    wu_offsets o;
} wu_store;

/* Python objects the module calls, imported on first use. */
static PyObject *py_parse_error;   /* urikit.whatwg.errors.URLParseError */
static PyObject *py_coerce;        /* urikit.whatwg._pure.coerce */
static PyObject *py_api_parser;    /* urikit.whatwg._pure.api_url_parser */
static PyObject *py_basic_parser;  /* urikit.whatwg.parser.basic_url_parser */
static PyObject *py_serialize;     /* urikit.whatwg.record.serialize */

static PyObject *import_name(PyObject **slot, const char *module, const char *name)
{
    if (*slot == NULL) {
        PyObject *m = PyImport_ImportModule(module);
        if (m == NULL) {
            return NULL;
        }
        *slot = PyObject_GetAttrString(m, name);
        Py_DECREF(m);
    }
    return *slot;
}

/* -- the input ------------------------------------------------------------------------------ */

/* The code points of a str, ready for wu_parse: leading and trailing C0 controls and spaces
 * removed, tabs and newlines removed, surrogates made scalar values.  map[i] is the offset
 * of code point i in `scalar` (the str as a scalar value string), for error positions. */
typedef struct {
    wu_input in;
    Py_UCS4 *copy;       /* PyMem_Malloc'd when the input needed one */
    Py_ssize_t *map;     /* PyMem_Malloc'd, or NULL: then offset = lead + i */
    Py_ssize_t lead;
    PyObject *scalar;    /* a new reference to the scalar value string */
} prepared;

static void prepared_free(prepared *p)
{
    PyMem_Free(p->copy);
    PyMem_Free(p->map);
    Py_XDECREF(p->scalar);
}

static int is_c0_or_space(Py_UCS4 c)
{
    return c <= 0x20;
}

static int prepare(PyObject *text, prepared *p)
{
    memset(p, 0, sizeof *p);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    if (PyUnicode_KIND(text) == PyUnicode_1BYTE_KIND) {
        const Py_UCS1 *d = PyUnicode_1BYTE_DATA(text);
        Py_ssize_t lo = 0, hi = n;
        while (lo < hi && d[lo] <= 0x20) {
            lo++;
        }
        while (hi > lo && d[hi - 1] <= 0x20) {
            hi--;
        }
        if (!memchr(d + lo, '\t', (size_t)(hi - lo)) && !memchr(d + lo, '\n', (size_t)(hi - lo))
            && !memchr(d + lo, '\r', (size_t)(hi - lo))) {
            p->in.data = d + lo;
            p->in.kind = PyUnicode_1BYTE_KIND;
            p->in.len = hi - lo;
            p->lead = lo;
            Py_INCREF(text);
            p->scalar = text;
            return 0;
        }
    }
    /* The general road: a UCS4 copy, surrogate pairs joined and lone ones replaced. */
    Py_UCS4 *all = PyUnicode_AsUCS4Copy(text);
    if (all == NULL) {
        return -1;
    }
    Py_ssize_t m = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 c = all[i];
        if (c >= 0xD800 && c <= 0xDBFF && i + 1 < n && all[i + 1] >= 0xDC00 && all[i + 1] <= 0xDFFF) {
            c = 0x10000 + ((c - 0xD800) << 10) + (all[i + 1] - 0xDC00);
            i++;
        } else if (c >= 0xD800 && c <= 0xDFFF) {
            c = 0xFFFD;
        }
        all[m++] = c;
    }
    p->scalar = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, all, m);
    if (p->scalar == NULL) {
        PyMem_Free(all);
        return -1;
    }
    Py_ssize_t lo = 0, hi = m;
    while (lo < hi && is_c0_or_space(all[lo])) {
        lo++;
    }
    while (hi > lo && is_c0_or_space(all[hi - 1])) {
        hi--;
    }
    p->map = PyMem_Malloc((size_t)(hi - lo + 1) * sizeof(Py_ssize_t));
    if (p->map == NULL) {
        PyMem_Free(all);
        Py_CLEAR(p->scalar);
        PyErr_NoMemory();
        return -1;
    }
    Py_ssize_t k = 0;
    for (Py_ssize_t i = lo; i < hi; i++) {
        Py_UCS4 c = all[i];
        if (c == '\t' || c == '\n' || c == '\r') {
            continue;
        }
        p->map[k] = i;
        all[k++] = c;
    }
    p->map[k] = k ? p->map[k - 1] + 1 : lo; /* the end of the input */
    p->copy = all;
    p->in.data = all;
    p->in.kind = PyUnicode_4BYTE_KIND;
    p->in.len = k;
    p->lead = lo;
    return 0;
}

static Py_ssize_t position(const prepared *p, Py_ssize_t where)
{
    if (where < 0) {
        where = 0;
    }
    if (where > p->in.len) {
        where = p->in.len;
    }
    return p->map != NULL ? p->map[where] : p->lead + where;
}

static void raise_failure(const prepared *p, wu_status status, Py_ssize_t where)
{
    if (import_name(&py_parse_error, "urikit.whatwg.errors", "URLParseError") == NULL) {
        return;
    }
    PyObject *e = PyObject_CallFunction(py_parse_error, "sOn", wu_error_names[status], p->scalar,
                                        position(p, where));
    if (e != NULL) {
        PyErr_SetObject(py_parse_error, e);
        Py_DECREF(e);
    }
}

/* -- parsing ---------------------------------------------------------------------------------- */

/* Parse text (an exact str) against base_text (a str or NULL) into out and o; when the
 * href is text itself, out stays empty and *same is set.  1 on success; 0 on failure,
 * with the URLParseError set when raise is true; -1 with an exception set. */
static int parse_text(PyObject *text, PyObject *base_text, wu_buffer *out, wu_offsets *o,
                      int raise, int *same)
{
    *same = 0;
    wu_buffer base_out;
    wu_base base;
    wu_buffer_init(&base_out);
    int result = -1;
    if (base_text != NULL) {
        int base_same;
        int r = parse_text(base_text, NULL, &base_out, &base.o, raise, &base_same);
        if (r <= 0) {
            wu_buffer_free(&base_out);
            return r;
        }
        if (base_same && wu_write(&base_out, (const char *)PyUnicode_1BYTE_DATA(base_text),
                                  PyUnicode_GET_LENGTH(base_text)) < 0) {
            wu_buffer_free(&base_out);
            return -1;
        }
        base.href = base_out.data;
        base.len = base_out.len;
    }
    prepared p;
    if (prepare(text, &p) < 0) {
        goto done;
    }
    int slash;
    if (p.in.kind == PyUnicode_1BYTE_KIND && p.map == NULL
        && wu_fast_path(p.in.data, p.in.len, o, &slash)) {
        /* The input is its own href (but for the "/" of an empty path). */
        if (!slash && p.in.len == PyUnicode_GET_LENGTH(text)) {
            *same = 1;
            result = 1;
        } else {
            const char *d = p.in.data;
            Py_ssize_t at = o->pathname_start;
            result = wu_write(out, d, at) < 0 || (slash && wu_put(out, '/') < 0)
                             || wu_write(out, d + at, p.in.len - at) < 0
                         ? -1
                         : 1;
        }
        prepared_free(&p);
        goto done;
    }
    Py_ssize_t where = 0;
    wu_status status = wu_parse(&p.in, base_text != NULL ? &base : NULL, out, o, &where);
    if (status == WU_OK) {
        result = 1;
    } else if (status == WU_ERR_MEMORY) {
        result = -1;
    } else {
        result = 0;
        if (raise) {
            raise_failure(&p, status, where);
            result = PyErr_Occurred() && !PyErr_ExceptionMatches(py_parse_error) ? -1 : 0;
        }
    }
    prepared_free(&p);
done:
    wu_buffer_free(&base_out);
    return result;
}

/* The href as a str: text itself when it is the same ASCII text. */
static PyObject *href_of(PyObject *text, const wu_buffer *out)
{
    if (text != NULL && PyUnicode_IS_ASCII(text) && PyUnicode_GET_LENGTH(text) == out->len
        && memcmp(PyUnicode_1BYTE_DATA(text), out->data, (size_t)out->len) == 0) {
        Py_INCREF(text);
        return text;
    }
    PyObject *href = PyUnicode_New(out->len, 127);
    if (href != NULL) {
        memcpy(PyUnicode_1BYTE_DATA(href), out->data, (size_t)out->len);
    }
    return href;
}

static PyObject *store_from(PyTypeObject *cls, PyObject *text, PyObject *base_text)
{
    wu_buffer out;
    wu_offsets o;
    int same;
    wu_buffer_init(&out);
    int r = parse_text(text, base_text, &out, &o, 1, &same);
    if (r <= 0) {
        wu_buffer_free(&out);
        return NULL;
    }
    PyObject *href = same ? Py_NewRef(text) : href_of(text, &out);
    wu_buffer_free(&out);
    if (href == NULL) {
        return NULL;
    }
    wu_store *self = (wu_store *)cls->tp_alloc(cls, 0);
    if (self == NULL) {
        Py_DECREF(href);
        return NULL;
    }
    self->href = href;
    self->o = o;
    return (PyObject *)self;
}

/* The store of the readable Python's parse: its record serialized, parsed again here. */
static PyObject *store_by_python(PyTypeObject *cls, PyObject *text, PyObject *base,
                                 PyObject *encoding, PyObject *errors)
{
    if (import_name(&py_api_parser, "urikit.whatwg._pure", "api_url_parser") == NULL
        || import_name(&py_serialize, "urikit.whatwg.record", "serialize") == NULL) {
        return NULL;
    }
    PyObject *record = encoding != NULL && encoding != Py_None
                           ? PyObject_CallFunction(py_api_parser, "OOOO", text, base ? base : Py_None,
                                                   encoding, errors ? errors : Py_None)
                           : PyObject_CallFunction(py_api_parser, "OOsO", text, base ? base : Py_None,
                                                   "utf-8", errors ? errors : Py_None);
    if (record == NULL) {
        return NULL;
    }
    PyObject *href = PyObject_CallOneArg(py_serialize, record);
    Py_DECREF(record);
    if (href == NULL) {
        return NULL;
    }
    PyObject *store = store_from(cls, href, NULL);
    Py_DECREF(href);
    return store;
}

static int is_utf8(PyObject *encoding)
{
    return encoding == NULL || encoding == Py_None
           || (PyUnicode_Check(encoding) && PyUnicode_CompareWithASCIIString(encoding, "utf-8") == 0);
}

/* Store(input, base=None, *, encoding="utf-8") */
static PyObject *store_new(PyTypeObject *cls, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"input", "base", "encoding", NULL};
    PyObject *input, *base = Py_None, *encoding = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|O$O:URL", keywords, &input, &base, &encoding)) {
        return NULL;
    }
    if (PyUnicode_CheckExact(input) && (base == Py_None || PyUnicode_CheckExact(base))
        && is_utf8(encoding)) {
        return store_from(cls, input, base == Py_None ? NULL : base);
    }
    if (import_name(&py_coerce, "urikit.whatwg._pure", "coerce") == NULL) {
        return NULL;
    }
    PyObject *texts = PyObject_CallFunctionObjArgs(py_coerce, input, base, NULL);
    if (texts == NULL) {
        return NULL;
    }
    PyObject *text = PyTuple_GET_ITEM(texts, 0), *base_text = PyTuple_GET_ITEM(texts, 1);
    PyObject *result = is_utf8(encoding)
                           ? store_from(cls, text, base_text == Py_None ? NULL : base_text)
                           : store_by_python(cls, text, base_text, encoding, NULL);
    Py_DECREF(texts);
    return result;
}

/* cls(input) for an exact str input, and cls(input, base) for exact str base, without an
 * argument tuple: the class's own vectorcall, set by cls._construct_directly().  Any other
 * call (keywords, other types, a class whose __new__ or __init__ is another) takes
 * type.__call__ and store_new, with the same answer. */
static PyObject *store_vectorcall(PyObject *callable, PyObject *const *args, size_t nargsf,
                                  PyObject *kwnames)
{
    PyTypeObject *cls = (PyTypeObject *)callable;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (kwnames == NULL && (nargs == 1 || nargs == 2) && PyUnicode_CheckExact(args[0])
        && (nargs == 1 || args[1] == Py_None || PyUnicode_CheckExact(args[1]))
        && cls->tp_new == store_new && cls->tp_init == PyBaseObject_Type.tp_init) {
        return store_from(cls, args[0], nargs == 2 && args[1] != Py_None ? args[1] : NULL);
    }
    PyObject *tuple = PyTuple_New(nargs);
    if (tuple == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < nargs; i++) {
        PyTuple_SET_ITEM(tuple, i, Py_NewRef(args[i]));
    }
    PyObject *kwargs = NULL;
    if (kwnames != NULL && PyTuple_GET_SIZE(kwnames) > 0) {
        kwargs = PyDict_New();
        for (Py_ssize_t i = 0; kwargs != NULL && i < PyTuple_GET_SIZE(kwnames); i++) {
            if (PyDict_SetItem(kwargs, PyTuple_GET_ITEM(kwnames, i), args[nargs + i]) < 0) {
                Py_CLEAR(kwargs);
            }
        }
        if (kwargs == NULL) {
            Py_DECREF(tuple);
            return NULL;
        }
    }
    PyObject *result = PyType_Type.tp_call(callable, tuple, kwargs);
    Py_XDECREF(kwargs);
    Py_DECREF(tuple);
    return result;
}

static PyObject *store_construct_directly(PyObject *cls, PyObject *unused)
{
    (void)unused;
    ((PyTypeObject *)cls)->tp_vectorcall = store_vectorcall;
    Py_RETURN_NONE;
}

static PyObject *store_parse(PyObject *cls, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"text", "base", "encoding", "errors", NULL};
    PyObject *text, *base = Py_None, *encoding = NULL, *errors = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "U|OOO:_parse", keywords, &text, &base, &encoding,
                                     &errors)) {
        return NULL;
    }
    if (PyUnicode_CheckExact(text) && (base == Py_None || PyUnicode_CheckExact(base)) && is_utf8(encoding)
        && errors == Py_None) {
        return store_from((PyTypeObject *)cls, text, base == Py_None ? NULL : base);
    }
    return store_by_python((PyTypeObject *)cls, text, base, encoding, errors);
}

static PyObject *can_parse(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    (void)module;
    PyObject *input, *base = Py_None;
    if (kwnames == NULL && (nargs == 1 || nargs == 2)) {
        input = args[0];
        if (nargs == 2) {
            base = args[1];
        }
    } else if (kwnames != NULL && nargs == 1 && PyTuple_GET_SIZE(kwnames) == 1
               && PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, 0), "base") == 0) {
        input = args[0];
        base = args[1];
    } else {
        PyErr_SetString(PyExc_TypeError, "can_parse(input, base=None)");
        return NULL;
    }
    PyObject *texts = NULL;
    if (!PyUnicode_CheckExact(input) || (base != Py_None && !PyUnicode_CheckExact(base))) {
        if (import_name(&py_coerce, "urikit.whatwg._pure", "coerce") == NULL) {
            return NULL;
        }
        texts = PyObject_CallFunctionObjArgs(py_coerce, input, base, NULL);
        if (texts == NULL) {
            return NULL;
        }
        input = PyTuple_GET_ITEM(texts, 0);
        base = PyTuple_GET_ITEM(texts, 1);
    }
    wu_buffer out;
    wu_offsets o;
    int same;
    wu_buffer_init(&out);
    int r = parse_text(input, base == Py_None ? NULL : base, &out, &o, 0, &same);
    wu_buffer_free(&out);
    Py_XDECREF(texts);
    if (r < 0) {
        return NULL;
    }
    return PyBool_FromLong(r);
}

/* -- the getters (§6.1) ------------------------------------------------------------------------ */

static Py_ssize_t path_end(const wu_store *s)
{
    return s->o.search_start >= 0 ? s->o.search_start
           : s->o.hash_start >= 0 ? s->o.hash_start
                                  : PyUnicode_GET_LENGTH(s->href);
}

static Py_ssize_t query_end(const wu_store *s)
{
    return s->o.hash_start >= 0 ? s->o.hash_start : PyUnicode_GET_LENGTH(s->href);
}

static PyObject *slice(const wu_store *s, Py_ssize_t start, Py_ssize_t end)
{
    return PyUnicode_Substring(s->href, start, end);
}

static PyObject *get_href(wu_store *s, void *closure)
{
    (void)closure;
    Py_INCREF(s->href);
    return s->href;
}

static PyObject *get_protocol(wu_store *s, void *closure)
{
    (void)closure;
    return slice(s, 0, s->o.scheme_end + 1);
}

static PyObject *get_username(wu_store *s, void *closure)
{
    (void)closure;
    if (!s->o.has_host) {
        return PyUnicode_New(0, 0);
    }
    return slice(s, s->o.scheme_end + 3, s->o.username_end);
}

static PyObject *get_password(wu_store *s, void *closure)
{
    (void)closure;
    const Py_UCS1 *d = PyUnicode_1BYTE_DATA(s->href);
    if (!s->o.has_host || s->o.username_end >= s->o.host_start || d[s->o.username_end] != ':') {
        return PyUnicode_New(0, 0);
    }
    return slice(s, s->o.username_end + 1, s->o.host_start - 1);
}

static PyObject *get_host(wu_store *s, void *closure)
{
    (void)closure;
    if (!s->o.has_host) {
        return PyUnicode_New(0, 0);
    }
    return slice(s, s->o.host_start, s->o.pathname_start);
}

static PyObject *get_hostname(wu_store *s, void *closure)
{
    (void)closure;
    return slice(s, s->o.host_start, s->o.host_end);
}

static PyObject *get_port(wu_store *s, void *closure)
{
    (void)closure;
    if (s->o.port < 0) {
        return PyUnicode_New(0, 0);
    }
    return slice(s, s->o.host_end + 1, s->o.pathname_start);
}

static PyObject *get_pathname(wu_store *s, void *closure)
{
    (void)closure;
    return slice(s, s->o.pathname_start, path_end(s));
}

static PyObject *get_search(wu_store *s, void *closure)
{
    (void)closure;
    if (s->o.search_start < 0 || query_end(s) - s->o.search_start <= 1) {
        return PyUnicode_New(0, 0);
    }
    return slice(s, s->o.search_start, query_end(s));
}

static PyObject *get_hash(wu_store *s, void *closure)
{
    (void)closure;
    Py_ssize_t n = PyUnicode_GET_LENGTH(s->href);
    if (s->o.hash_start < 0 || n - s->o.hash_start <= 1) {
        return PyUnicode_New(0, 0);
    }
    return slice(s, s->o.hash_start, n);
}

static PyObject *store_get_query(wu_store *s, PyObject *unused)
{
    (void)unused;
    if (s->o.search_start < 0) {
        Py_RETURN_NONE;
    }
    return slice(s, s->o.search_start + 1, query_end(s));
}

/* The ten getters in one tuple, for urikit.whatwg.components. */
static PyObject *components_of(wu_store *s)
{
    PyObject *(*getters[10])(wu_store *, void *) = {
        get_href, get_protocol, get_username, get_password, get_host,
        get_hostname, get_port, get_pathname, get_search, get_hash,
    };
    PyObject *tuple = PyTuple_New(10);
    if (tuple == NULL) {
        return NULL;
    }
    for (int i = 0; i < 10; i++) {
        PyObject *item = getters[i](s, NULL);
        if (item == NULL) {
            Py_DECREF(tuple);
            return NULL;
        }
        PyTuple_SET_ITEM(tuple, i, item);
    }
    return tuple;
}

static PyTypeObject StoreType;

static PyObject *store_components(PyObject *unused, PyObject *args, PyObject *kwargs)
{
    (void)unused;
    static char *keywords[] = {"text", "base", NULL};
    PyObject *text, *base = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "U|O:_components", keywords, &text, &base)) {
        return NULL;
    }
    if (base != Py_None && !PyUnicode_Check(base)) {
        PyErr_SetString(PyExc_TypeError, "base must be a str or None");
        return NULL;
    }
    PyObject *store = store_from(&StoreType, text, base == Py_None ? NULL : base);
    if (store == NULL) {
        return NULL;
    }
    PyObject *tuple = components_of((wu_store *)store);
    Py_DECREF(store);
    return tuple;
}

/* -- the record, for the setters ------------------------------------------------------------ */

static PyObject *store_record(wu_store *s, PyObject *unused)
{
    (void)unused;
    if (import_name(&py_basic_parser, "urikit.whatwg.parser", "basic_url_parser") == NULL) {
        return NULL;
    }
    return PyObject_CallOneArg(py_basic_parser, s->href);
}

static PyObject *store_assign(wu_store *s, PyObject *record)
{
    if (import_name(&py_serialize, "urikit.whatwg.record", "serialize") == NULL) {
        return NULL;
    }
    PyObject *href = PyObject_CallOneArg(py_serialize, record);
    if (href == NULL) {
        return NULL;
    }
    if (!PyUnicode_CheckExact(href)) {
        Py_DECREF(href);
        PyErr_SetString(PyExc_TypeError, "serialize() did not return a str");
        return NULL;
    }
    wu_buffer out;
    wu_offsets o;
    int same;
    wu_buffer_init(&out);
    int r = parse_text(href, NULL, &out, &o, 1, &same);
    if (r <= 0) {
        wu_buffer_free(&out);
        Py_DECREF(href);
        return NULL;
    }
    PyObject *text = same ? Py_NewRef(href) : href_of(href, &out);
    wu_buffer_free(&out);
    Py_DECREF(href);
    if (text == NULL) {
        return NULL;
    }
    Py_SETREF(s->href, text);
    s->o = o;
    Py_RETURN_NONE;
}

/* -- the type -------------------------------------------------------------------------------- */

static void store_dealloc(wu_store *s)
{
    Py_XDECREF(s->href);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

static PyGetSetDef store_getset[] = {
    {"href", (getter)get_href, NULL, "The serialization of the URL (URL Standard §4.5).", NULL},
    {"protocol", (getter)get_protocol, NULL, "The scheme and \":\".", NULL},
    {"username", (getter)get_username, NULL, "The username.", NULL},
    {"password", (getter)get_password, NULL, "The password.", NULL},
    {"host", (getter)get_host, NULL, "The host, and \":\" and the port.", NULL},
    {"hostname", (getter)get_hostname, NULL, "The host, serialized.", NULL},
    {"port", (getter)get_port, NULL, "The port, or \"\".", NULL},
    {"pathname", (getter)get_pathname, NULL, "The path, serialized.", NULL},
    {"search", (getter)get_search, NULL, "\"?\" and the query, or \"\".", NULL},
    {"hash", (getter)get_hash, NULL, "\"#\" and the fragment, or \"\".", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef store_methods[] = {
    {"_parse", (PyCFunction)(void (*)(void))store_parse, METH_VARARGS | METH_KEYWORDS | METH_CLASS,
     "A URL from text, against base; raises URLParseError."},
    {"can_parse", (PyCFunction)(void (*)(void))can_parse, METH_FASTCALL | METH_KEYWORDS | METH_STATIC,
     "Whether input parses against base (URL.canParse)."},
    {"_components", (PyCFunction)(void (*)(void))store_components,
     METH_VARARGS | METH_KEYWORDS | METH_STATIC, "The ten getters of a parse, in a tuple."},
    {"_construct_directly", (PyCFunction)store_construct_directly, METH_NOARGS | METH_CLASS,
     "Make cls(text) parse without an argument tuple (the class's vectorcall)."},
    {"_record", (PyCFunction)store_record, METH_NOARGS, "The URL record (readable Python)."},
    {"_assign", (PyCFunction)store_assign, METH_O, "Make the URL the serialization of a record."},
    {"_get_query", (PyCFunction)store_get_query, METH_NOARGS, "The query, or None."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject StoreType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "urikit._whatwg.Store",
    .tp_basicsize = sizeof(wu_store),
    .tp_dealloc = (destructor)store_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "A WHATWG URL: its href and the offsets of its components.",
    .tp_methods = store_methods,
    .tp_getset = store_getset,
    .tp_new = store_new,
};

static PyMethodDef module_methods[] = {
    {"can_parse", (PyCFunction)(void (*)(void))can_parse, METH_FASTCALL | METH_KEYWORDS,
     "Whether input parses against base (URL.canParse)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef whatwg_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "urikit._whatwg",
    .m_doc = "The WHATWG URL Standard's basic URL parser in C: the store of urikit.whatwg.URL.",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__whatwg(void)
{
    if (PyType_Ready(&StoreType) < 0) {
        return NULL;
    }
    PyObject *m = PyModule_Create(&whatwg_module);
    if (m == NULL) {
        return NULL;
    }
    Py_INCREF(&StoreType);
    if (PyModule_AddObject(m, "Store", (PyObject *)&StoreType) < 0) {
        Py_DECREF(&StoreType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
