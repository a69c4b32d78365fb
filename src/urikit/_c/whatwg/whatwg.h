/* urikit._whatwg: the WHATWG URL Standard in C, the declarations its units share.
 *
 * The units, each by concern:
 *   buffer.c   the growable output buffer and the percent-encode sets (URL Standard §1.3)
 *   host.c     the host parser (§3.5): domains, IPv4, IPv6, opaque hosts; the serializers (§3.6)
 *   uts46.c    UTS #46 processing for non-ASCII domains, Punycode (RFC 3492), NFC
 *   fast.c     the fast path: an input that is already its own href
 *   parser.c   the basic URL parser (§4.4) without state override, writing the href
 *   module.c   the Python module: the Store type (an href and its offsets), can_parse
 *
 * A parse writes the serialization of the URL (the href, always ASCII) into a wu_buffer
 * and records where each component lies in it, in a wu_offsets.  The diagram, for
 * "https://user:pass@example.com:8080/a/b?q#f":
 *
 *     https://user:pass@example.com:8080/a/b?q#f
 *          |  |   |    |          |    |    | |
 *          |  |   |    |          |    |    | hash_start     (the "#", or -1)
 *          |  |   |    |          |    |    search_start     (the "?", or -1)
 *          |  |   |    |          |    pathname_start
 *          |  |   |    |          host_end                   (the ":" of the port, if any)
 *          |  |   |    host_start
 *          |  |   username_end                               (the ":" or "@", if any)
 *          |  username_start = scheme_end + 3
 *          scheme_end                                        (the ":")
 *
 * Without a host (host null), host_start == host_end == username_end == scheme_end + 1
 * and has_host is 0.  port is the port number or -1.  The path of a URL without a host
 * may be preceded by "/." (URL serializer, §4.5): pathname_start is after it.
 */
#ifndef URIKIT_WHATWG_H
#define URIKIT_WHATWG_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* -- the output buffer ----------------------------------------------------------------- */

typedef struct {
    char *data;
    Py_ssize_t len;
    Py_ssize_t cap;
    char small[256]; /* most hrefs fit here, without an allocation */
} wu_buffer;

void wu_buffer_init(wu_buffer *b);
void wu_buffer_free(wu_buffer *b);
int wu_buffer_grow(wu_buffer *b, Py_ssize_t more); /* 0, or -1 with MemoryError set */

static inline int wu_put(wu_buffer *b, char c)
{
    if (b->len == b->cap && wu_buffer_grow(b, 1) < 0) {
        return -1;
    }
    b->data[b->len++] = c;
    return 0;
}

static inline int wu_write(wu_buffer *b, const char *s, Py_ssize_t n)
{
    if (b->len + n > b->cap && wu_buffer_grow(b, n) < 0) {
        return -1;
    }
    memcpy(b->data + b->len, s, (size_t)n);
    b->len += n;
    return 0;
}

/* -- the percent-encode sets (§1.3) ----------------------------------------------------- */

enum {
    WU_C0_CONTROL = 1,
    WU_FRAGMENT = 2,
    WU_QUERY = 4,
    WU_SPECIAL_QUERY = 8,
    WU_PATH = 16,
    WU_USERINFO = 32,
};

/* Bit s of wu_encode_sets[c] is set when the ASCII code point c is in set s. */
extern const uint8_t wu_encode_sets[128];

/* UTF-8 percent-encode the code point cp using the set (a WU_ constant). */
static inline int wu_put_encoded(wu_buffer *b, Py_UCS4 cp, int set);

int wu_put_utf8_encoded(wu_buffer *b, Py_UCS4 cp);

static inline int wu_put_encoded(wu_buffer *b, Py_UCS4 cp, int set)
{
    if (cp < 0x80) {
        if (!(wu_encode_sets[cp] & set)) {
            return wu_put(b, (char)cp);
        }
        static const char hex[] = "0123456789ABCDEF";
        char t[3] = {'%', hex[cp >> 4], hex[cp & 15]};
        return wu_write(b, t, 3);
    }
    return wu_put_utf8_encoded(b, cp);
}

/* -- the input ------------------------------------------------------------------------- */

/* Code points, read from a str of kind 1 (Latin-1) or from a UCS4 copy. */
typedef struct {
    const void *data;
    int kind; /* PyUnicode_1BYTE_KIND or PyUnicode_4BYTE_KIND */
    Py_ssize_t len;
} wu_input;

static inline Py_UCS4 wu_at(const wu_input *in, Py_ssize_t i)
{
    return in->kind == PyUnicode_1BYTE_KIND ? ((const Py_UCS1 *)in->data)[i]
                                            : ((const Py_UCS4 *)in->data)[i];
}

/* -- the result of a parse --------------------------------------------------------------- */

typedef struct {
    int32_t scheme_end;
    int32_t username_end;
    int32_t host_start;
    int32_t host_end;
    int32_t port; /* -1: null */
    int32_t pathname_start;
    int32_t search_start; /* -1: null query */
    int32_t hash_start;   /* -1: null fragment */
    uint8_t has_host;
    uint8_t special;      /* the scheme is special */
    uint8_t scheme_kind;  /* WU_SCHEME_* */
} wu_offsets;

enum {
    WU_SCHEME_OTHER = 0,
    WU_SCHEME_HTTP,
    WU_SCHEME_HTTPS,
    WU_SCHEME_WS,
    WU_SCHEME_WSS,
    WU_SCHEME_FTP,
    WU_SCHEME_FILE,
};

/* The failures, by the validation error the standard names (errors.py VALIDATION_ERRORS). */
typedef enum {
    WU_OK = 0,
    WU_ERR_DOMAIN_TO_ASCII,
    WU_ERR_HOST_INVALID_CODE_POINT,
    WU_ERR_IPV4_TOO_MANY_PARTS,
    WU_ERR_IPV4_NON_NUMERIC_PART,
    WU_ERR_IPV4_OUT_OF_RANGE_PART,
    WU_ERR_IPV6_UNCLOSED,
    WU_ERR_IPV6_INVALID_COMPRESSION,
    WU_ERR_IPV6_TOO_MANY_PIECES,
    WU_ERR_IPV6_MULTIPLE_COMPRESSION,
    WU_ERR_IPV6_INVALID_CODE_POINT,
    WU_ERR_IPV6_TOO_FEW_PIECES,
    WU_ERR_IPV4_IN_IPV6_TOO_MANY_PIECES,
    WU_ERR_IPV4_IN_IPV6_INVALID_CODE_POINT,
    WU_ERR_IPV4_IN_IPV6_OUT_OF_RANGE_PART,
    WU_ERR_IPV4_IN_IPV6_TOO_FEW_PARTS,
    WU_ERR_MISSING_SCHEME_NON_RELATIVE_URL,
    WU_ERR_HOST_MISSING,
    WU_ERR_PORT_OUT_OF_RANGE,
    WU_ERR_PORT_INVALID,
    WU_ERR_COUNT,
    WU_ERR_MEMORY = -1, /* a Python exception is set */
} wu_status;

extern const char *const wu_error_names[WU_ERR_COUNT];

/* The parse of a base, kept for the relative states. */
typedef struct {
    const char *href;
    Py_ssize_t len;
    wu_offsets o;
} wu_base;

/* The basic URL parser (§4.4) of in against base (or NULL), writing the href to out and
 * its offsets to o.  WU_OK, a failure (*where the position in the input), or
 * WU_ERR_MEMORY. */
wu_status wu_parse(const wu_input *in, const wu_base *base, wu_buffer *out, wu_offsets *o,
                   Py_ssize_t *where);

/* The fast path (fast.c): 1 when s[0:n] is a special URL that is its own serialization,
 * but for the "/" of an empty path (*slash), with o filled for the href; else 0. */
int wu_fast_path(const Py_UCS1 *s, Py_ssize_t n, wu_offsets *o, int *slash);

/* The host parser (§3.5) of in[start:end], appending the serialized host to out. */
wu_status wu_parse_host(const wu_input *in, Py_ssize_t start, Py_ssize_t end, int special,
                        wu_buffer *out, Py_ssize_t *where);

/* UTS #46 ToASCII as the URL Standard's domain parser calls it (beStrict false), for a
 * domain that is not ASCII: code points in, the ASCII domain appended to out.
 * 1 on success, 0 on failure, -1 with a Python exception set. */
int wu_domain_to_ascii(const Py_UCS4 *domain, Py_ssize_t len, wu_buffer *out);

#endif
