/* The basic URL parser of the URL Standard (§4.4), without state override, in C.
 *
 * The states are parser.py's, in the same order and with the same steps; where the
 * Python builds a URL record, this writes its serialization (the URL serializer, §4.5)
 * as it goes, since the states meet the components in the order the serializer writes
 * them: scheme, "//" and the credentials, host and port, path, query, fragment.  What the
 * serializer decides from the whole record is decided at the end (finish): whether the
 * credentials are written, and the "/." before a path that starts with an empty segment
 * when there is no host.  A path is written as "/" and each segment; a segment is
 * judged (single-dot, double-dot, a Windows drive letter) when it ends, and removed or
 * kept there; "shorten a path" removes the last "/segment".
 */
#include "whatwg.h"

#define EOF_CP ((Py_UCS4)0xFFFFFFFF)

typedef enum {
    SCHEME_START,
    SCHEME,
    NO_SCHEME,
    SPECIAL_RELATIVE_OR_AUTHORITY,
    PATH_OR_AUTHORITY,
    RELATIVE,
    RELATIVE_SLASH,
    SPECIAL_AUTHORITY_SLASHES,
    SPECIAL_AUTHORITY_IGNORE_SLASHES,
    AUTHORITY,
    HOST,
    PORT,
    FILE_STATE,
    FILE_SLASH,
    FILE_HOST,
    PATH_START,
    PATH,
    OPAQUE_PATH,
    QUERY,
    FRAGMENT,
} state_t;

static const int32_t default_ports[] = {-1, 80, 443, 80, 443, 21, -1};

/* The parse in progress: the output and what the record would hold beside it. */
typedef struct {
    const wu_input *in;
    const wu_base *base;
    wu_buffer *out;
    wu_offsets *o;
    int special;
    Py_ssize_t path_start;    /* where the path begins in out */
    Py_ssize_t segment_start; /* where the open segment's text begins (after its "/") */
    int segment_open;
    Py_ssize_t path_count;    /* the segments of the path written so far */
    Py_ssize_t username_start;
    Py_ssize_t password_colon; /* the ":" before the password in out, or -1 */
} parse_t;

static int is_ascii_alpha(Py_UCS4 c)
{
    return ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
}

static int is_windows_drive_letter(const char *s, Py_ssize_t n)
{
    return n == 2 && is_ascii_alpha((unsigned char)s[0]) && (s[1] == ':' || s[1] == '|');
}

/* "starts with a Windows drive letter" (§4.2), for in[i:]. */
static int starts_with_windows_drive_letter(const wu_input *in, Py_ssize_t i)
{
    if (in->len - i < 2 || !is_ascii_alpha(wu_at(in, i))) {
        return 0;
    }
    Py_UCS4 second = wu_at(in, i + 1);
    if (second != ':' && second != '|') {
        return 0;
    }
    if (in->len - i == 2) {
        return 1;
    }
    Py_UCS4 third = wu_at(in, i + 2);
    return third == '/' || third == '\\' || third == '?' || third == '#';
}

static int scheme_kind(const char *s, Py_ssize_t n)
{
    switch (n) {
    case 2:
        return memcmp(s, "ws", 2) == 0 ? WU_SCHEME_WS : WU_SCHEME_OTHER;
    case 3:
        return memcmp(s, "wss", 3) == 0   ? WU_SCHEME_WSS
               : memcmp(s, "ftp", 3) == 0 ? WU_SCHEME_FTP
                                          : WU_SCHEME_OTHER;
    case 4:
        return memcmp(s, "http", 4) == 0   ? WU_SCHEME_HTTP
               : memcmp(s, "file", 4) == 0 ? WU_SCHEME_FILE
                                           : WU_SCHEME_OTHER;
    case 5:
        return memcmp(s, "https", 5) == 0 ? WU_SCHEME_HTTPS : WU_SCHEME_OTHER;
    default:
        return WU_SCHEME_OTHER;
    }
}

/* -- the base ----------------------------------------------------------------------------- */

static Py_ssize_t base_path_end(const wu_base *b)
{
    return b->o.search_start >= 0 ? b->o.search_start
           : b->o.hash_start >= 0 ? b->o.hash_start
                                  : b->len;
}

static int base_has_opaque_path(const wu_base *b)
{
    Py_ssize_t start = b->o.pathname_start;
    return !b->o.has_host && (start == base_path_end(b) || b->href[start] != '/');
}

/* Copy the base's scheme and ":" (the relative, file and no-scheme states). */
static int copy_scheme(parse_t *p)
{
    const wu_base *b = p->base;
    if (wu_write(p->out, b->href, b->o.scheme_end + 1) < 0) {
        return -1;
    }
    p->o->scheme_end = b->o.scheme_end;
    p->o->scheme_kind = b->o.scheme_kind;
    p->special = p->o->special = b->o.special;
    return 0;
}

/* Copy the base's credentials, host and port: "//" and all up to the path. */
static int copy_authority(parse_t *p)
{
    const wu_base *b = p->base;
    if (!b->o.has_host) {
        return 0;
    }
    Py_ssize_t from = b->o.scheme_end + 1;
    if (wu_write(p->out, b->href + from, b->o.pathname_start - from) < 0) {
        return -1;
    }
    p->o->has_host = 1;
    p->o->username_end = b->o.username_end;
    p->o->host_start = b->o.host_start;
    p->o->host_end = b->o.host_end;
    p->o->port = b->o.port;
    return 0;
}

/* Copy the base's host alone, after the "//" already written (the file states). */
static int copy_host(parse_t *p)
{
    const wu_base *b = p->base;
    p->o->host_start = (int32_t)p->out->len;
    if (b->o.has_host
        && wu_write(p->out, b->href + b->o.host_start, b->o.host_end - b->o.host_start) < 0) {
        return -1;
    }
    p->o->host_end = (int32_t)p->out->len;
    return 0;
}

static int copy_path(parse_t *p)
{
    const wu_base *b = p->base;
    Py_ssize_t start = b->o.pathname_start, end = base_path_end(b);
    p->path_start = p->out->len;
    if (wu_write(p->out, b->href + start, end - start) < 0) {
        return -1;
    }
    p->path_count = 0;
    for (Py_ssize_t i = start; i < end; i++) {
        p->path_count += b->href[i] == '/';
    }
    return 0;
}

/* Copy the base's query, "?" included, when it has one. */
static int copy_query(parse_t *p)
{
    const wu_base *b = p->base;
    if (b->o.search_start < 0) {
        return 0;
    }
    Py_ssize_t end = b->o.hash_start >= 0 ? b->o.hash_start : b->len;
    p->o->search_start = (int32_t)p->out->len;
    return wu_write(p->out, b->href + b->o.search_start, end - b->o.search_start);
}

/* -- the path ------------------------------------------------------------------------------ */

/* Shorten a URL's path (§4.2): remove its last "/segment", but a file URL's lone
 * normalized Windows drive letter. */
static void shorten_path(parse_t *p)
{
    if (p->path_count == 0) {
        return;
    }
    char *d = p->out->data;
    if (p->o->scheme_kind == WU_SCHEME_FILE && p->path_count == 1
        && p->out->len - p->path_start == 3 && is_ascii_alpha((unsigned char)d[p->path_start + 1])
        && d[p->path_start + 2] == ':') {
        return;
    }
    Py_ssize_t i = p->out->len;
    while (i > p->path_start && d[i - 1] != '/') {
        i--;
    }
    p->out->len = i - 1;
    p->path_count--;
}

static int begin_segment(parse_t *p)
{
    if (wu_put(p->out, '/') < 0) {
        return -1;
    }
    p->segment_start = p->out->len;
    p->segment_open = 1;
    return 0;
}

static int ascii_ieq(const char *s, Py_ssize_t n, const char *lower)
{
    if ((Py_ssize_t)strlen(lower) != n) {
        return 0;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        char c = s[i];
        if (c >= 'A' && c <= 'Z') {
            c |= 0x20;
        }
        if (c != lower[i]) {
            return 0;
        }
    }
    return 1;
}

/* The path state's steps when a segment ends at c (slash says c is "/", or "\" in a
 * special URL): the segment judged, kept or removed. */
static int end_segment(parse_t *p, int slash)
{
    char *seg = p->out->data + p->segment_start;
    Py_ssize_t n = p->out->len - p->segment_start;
    p->segment_open = 0;
    int single = n <= 3 && (ascii_ieq(seg, n, ".") || ascii_ieq(seg, n, "%2e"));
    int dotdot = !single && n >= 2 && n <= 6
                 && (ascii_ieq(seg, n, "..") || ascii_ieq(seg, n, ".%2e")
                     || ascii_ieq(seg, n, "%2e.") || ascii_ieq(seg, n, "%2e%2e"));
    if (dotdot) {
        p->out->len = p->segment_start - 1;
        shorten_path(p);
        if (!slash) {
            return begin_segment(p) < 0 ? -1 : (p->segment_open = 0, p->path_count++, 0);
        }
        return 0;
    }
    if (single) {
        p->out->len = p->segment_start - 1;
        if (!slash) {
            return begin_segment(p) < 0 ? -1 : (p->segment_open = 0, p->path_count++, 0);
        }
        return 0;
    }
    if (p->o->scheme_kind == WU_SCHEME_FILE && p->path_count == 0
        && is_windows_drive_letter(seg, n)) {
        seg[1] = ':';
    }
    p->path_count++;
    return 0;
}

/* -- the credentials ------------------------------------------------------------------------ */

/* The authority state's steps at "@": the buffer in[from:to] percent-encoded into the
 * username or the password. */
static int take_credentials(parse_t *p, Py_ssize_t from, Py_ssize_t to, int at_sign_seen)
{
    if (at_sign_seen && wu_write(p->out, "%40", 3) < 0) {
        return -1;
    }
    for (Py_ssize_t i = from; i < to; i++) {
        Py_UCS4 c = wu_at(p->in, i);
        if (c == ':' && p->password_colon < 0) {
            p->password_colon = p->out->len;
            if (wu_put(p->out, ':') < 0) {
                return -1;
            }
            continue;
        }
        if (wu_put_encoded(p->out, c, WU_USERINFO) < 0) {
            return -1;
        }
    }
    return 0;
}

/* The credentials as the URL serializer writes them: nothing when both are empty, no
 * ":" when the password is; then "@". */
static int finish_credentials(parse_t *p)
{
    Py_ssize_t end = p->out->len;
    Py_ssize_t colon = p->password_colon;
    Py_ssize_t username_end = colon >= 0 ? colon : end;
    int has_password = colon >= 0 && end > colon + 1;
    if (username_end == p->username_start && !has_password) {
        p->out->len = p->username_start;
        p->o->username_end = (int32_t)p->username_start;
        return 0;
    }
    if (colon >= 0 && !has_password) {
        p->out->len = colon;
    }
    p->o->username_end = (int32_t)username_end;
    return wu_put(p->out, '@');
}

/* -- the parser --------------------------------------------------------------------------- */

static void finish(parse_t *p)
{
    wu_offsets *o = p->o;
    char *d = p->out->data;
    if (!o->has_host) {
        o->username_end = o->host_start = o->host_end = o->scheme_end + 1;
    }
    o->pathname_start = (int32_t)p->path_start;
    Py_ssize_t path_end = o->search_start >= 0 ? o->search_start
                          : o->hash_start >= 0 ? o->hash_start
                                               : p->out->len;
    /* URL serializer step 3: "/." before a path whose first segment is empty, when
     * there is no host. */
    if (!o->has_host && p->path_count > 1 && path_end - p->path_start >= 2
        && d[p->path_start] == '/' && d[p->path_start + 1] == '/') {
        /* The room was kept by wu_parse: two bytes are free at the end. */
        memmove(d + p->path_start + 2, d + p->path_start, (size_t)(p->out->len - p->path_start));
        d[p->path_start] = '/';
        d[p->path_start + 1] = '.';
        p->out->len += 2;
        o->pathname_start += 2;
        if (o->search_start >= 0) {
            o->search_start += 2;
        }
        if (o->hash_start >= 0) {
            o->hash_start += 2;
        }
    }
}

wu_status wu_parse(const wu_input *in, const wu_base *base, wu_buffer *out, wu_offsets *o,
                   Py_ssize_t *where)
{
    parse_t p = {in, base, out, o, 0, 0, 0, 0, 0, 0, -1};
    memset(o, 0, sizeof *o);
    o->port = o->search_start = o->hash_start = -1;
    state_t state = SCHEME_START;
    Py_ssize_t n = in->len;
    Py_ssize_t pointer = 0;
    Py_ssize_t buffer_start = 0; /* the start in the input of the state's buffer */
    int at_sign_seen = 0, inside_brackets = 0;
    wu_status status;
#define FAIL(e, at)        \
    do {                   \
        *where = (at);     \
        return (e);        \
    } while (0)
#define CHECK(call)              \
    do {                         \
        if ((call) < 0) {        \
            return WU_ERR_MEMORY; \
        }                        \
    } while (0)
#define REMAINING_STARTS(ch) (pointer + 1 < n && wu_at(in, pointer + 1) == (ch))

    for (;;) {
        Py_UCS4 c = pointer < n ? wu_at(in, pointer) : EOF_CP;
        switch (state) {
        case SCHEME_START:
            if (c != EOF_CP && is_ascii_alpha(c)) {
                buffer_start = pointer;
                state = SCHEME;
            } else {
                state = NO_SCHEME;
                pointer--;
            }
            break;

        case SCHEME:
            if (c != EOF_CP && (is_ascii_alpha(c) || (c >= '0' && c <= '9') || c == '+' || c == '-'
                                || c == '.')) {
                break;
            }
            if (c == ':') {
                for (Py_ssize_t i = buffer_start; i < pointer; i++) {
                    Py_UCS4 s = wu_at(in, i);
                    CHECK(wu_put(out, (char)(s >= 'A' && s <= 'Z' ? s | 0x20 : s)));
                }
                o->scheme_kind = (uint8_t)scheme_kind(out->data, out->len);
                p.special = o->special = o->scheme_kind != WU_SCHEME_OTHER;
                o->scheme_end = (int32_t)out->len;
                CHECK(wu_put(out, ':'));
                if (o->scheme_kind == WU_SCHEME_FILE) {
                    state = FILE_STATE;
                } else if (p.special && base != NULL && base->o.scheme_kind == o->scheme_kind) {
                    state = SPECIAL_RELATIVE_OR_AUTHORITY;
                } else if (p.special) {
                    state = SPECIAL_AUTHORITY_SLASHES;
                } else if (REMAINING_STARTS('/')) {
                    state = PATH_OR_AUTHORITY;
                    pointer++;
                } else {
                    p.path_start = out->len;
                    state = OPAQUE_PATH;
                }
            } else {
                state = NO_SCHEME;
                pointer = -1;
            }
            break;

        case NO_SCHEME:
            if (base == NULL || (base_has_opaque_path(base) && c != '#')) {
                FAIL(WU_ERR_MISSING_SCHEME_NON_RELATIVE_URL, pointer);
            }
            if (base_has_opaque_path(base) && c == '#') {
                /* The base's scheme, path and query, and an empty fragment. */
                Py_ssize_t end = base->o.hash_start >= 0 ? base->o.hash_start : base->len;
                CHECK(wu_write(out, base->href, end));
                o->scheme_end = base->o.scheme_end;
                o->scheme_kind = base->o.scheme_kind;
                p.special = o->special = base->o.special;
                p.path_start = base->o.pathname_start;
                o->search_start = base->o.search_start;
                o->hash_start = (int32_t)out->len;
                CHECK(wu_put(out, '#'));
                state = FRAGMENT;
            } else if (base->o.scheme_kind != WU_SCHEME_FILE) {
                state = RELATIVE;
                pointer--;
            } else {
                state = FILE_STATE;
                pointer--;
            }
            break;

        case SPECIAL_RELATIVE_OR_AUTHORITY:
            if (c == '/' && REMAINING_STARTS('/')) {
                state = SPECIAL_AUTHORITY_IGNORE_SLASHES;
                pointer++;
            } else {
                /* The scheme was written: the relative state writes the base's again. */
                out->len = 0;
                state = RELATIVE;
                pointer--;
            }
            break;

        case PATH_OR_AUTHORITY:
            if (c == '/') {
                state = AUTHORITY;
                CHECK(wu_write(out, "//", 2));
                p.username_start = out->len;
                buffer_start = pointer + 1;
            } else {
                p.path_start = out->len;
                state = PATH;
                pointer--;
            }
            break;

        case RELATIVE:
            CHECK(copy_scheme(&p));
            if (c == '/' || (p.special && c == '\\')) {
                state = RELATIVE_SLASH;
            } else {
                CHECK(copy_authority(&p));
                CHECK(copy_path(&p));
                if (c == '?') {
                    o->search_start = (int32_t)out->len;
                    CHECK(wu_put(out, '?'));
                    state = QUERY;
                } else if (c == '#') {
                    CHECK(copy_query(&p));
                    o->hash_start = (int32_t)out->len;
                    CHECK(wu_put(out, '#'));
                    state = FRAGMENT;
                } else if (c != EOF_CP) {
                    shorten_path(&p);
                    state = PATH;
                    pointer--;
                } else {
                    CHECK(copy_query(&p));
                }
            }
            break;

        case RELATIVE_SLASH:
            if (p.special && (c == '/' || c == '\\')) {
                state = SPECIAL_AUTHORITY_IGNORE_SLASHES;
            } else if (c == '/') {
                state = AUTHORITY;
                CHECK(wu_write(out, "//", 2));
                p.username_start = out->len;
                buffer_start = pointer + 1;
            } else {
                CHECK(copy_authority(&p));
                p.path_start = out->len;
                state = PATH;
                pointer--;
            }
            break;

        case SPECIAL_AUTHORITY_SLASHES:
            if (c == '/' && REMAINING_STARTS('/')) {
                pointer++;
            } else {
                pointer--;
            }
            state = SPECIAL_AUTHORITY_IGNORE_SLASHES;
            break;

        case SPECIAL_AUTHORITY_IGNORE_SLASHES:
            if (c != '/' && c != '\\') {
                state = AUTHORITY;
                CHECK(wu_write(out, "//", 2));
                p.username_start = out->len;
                buffer_start = pointer;
                pointer--;
            }
            break;

        case AUTHORITY:
            if (c == '@') {
                CHECK(take_credentials(&p, buffer_start, pointer, at_sign_seen));
                at_sign_seen = 1;
                buffer_start = pointer + 1;
            } else if (c == EOF_CP || c == '/' || c == '?' || c == '#' || (p.special && c == '\\')) {
                if (at_sign_seen && buffer_start == pointer) {
                    FAIL(WU_ERR_HOST_MISSING, pointer);
                }
                CHECK(finish_credentials(&p));
                pointer = buffer_start - 1;
                state = HOST;
            }
            break;

        case HOST:
            if (c == ':' && !inside_brackets) {
                if (buffer_start == pointer) {
                    FAIL(WU_ERR_HOST_MISSING, pointer);
                }
                o->host_start = (int32_t)out->len;
                status = wu_parse_host(in, buffer_start, pointer, p.special, out, where);
                if (status != WU_OK) {
                    return status;
                }
                o->host_end = (int32_t)out->len;
                o->has_host = 1;
                buffer_start = pointer + 1;
                state = PORT;
            } else if (c == EOF_CP || c == '/' || c == '?' || c == '#' || (p.special && c == '\\')) {
                if (p.special && buffer_start == pointer) {
                    FAIL(WU_ERR_HOST_MISSING, pointer);
                }
                o->host_start = (int32_t)out->len;
                status = wu_parse_host(in, buffer_start, pointer, p.special, out, where);
                if (status != WU_OK) {
                    return status;
                }
                o->host_end = (int32_t)out->len;
                o->has_host = 1;
                state = PATH_START;
                pointer--;
            } else if (c == '[') {
                inside_brackets = 1;
            } else if (c == ']') {
                inside_brackets = 0;
            }
            break;

        case PORT:
            if (c >= '0' && c <= '9' && c != EOF_CP) {
                break;
            }
            if (c == EOF_CP || c == '/' || c == '?' || c == '#' || (p.special && c == '\\')) {
                if (buffer_start < pointer) {
                    int32_t port = 0;
                    for (Py_ssize_t i = buffer_start; i < pointer; i++) {
                        port = port * 10 + (int32_t)(wu_at(in, i) - '0');
                        if (port > 0xFFFF) {
                            FAIL(WU_ERR_PORT_OUT_OF_RANGE, buffer_start);
                        }
                    }
                    if (port != default_ports[o->scheme_kind]) {
                        char t[8];
                        int k = snprintf(t, sizeof t, ":%d", (int)port);
                        CHECK(wu_write(out, t, k));
                        o->port = port;
                    }
                }
                state = PATH_START;
                pointer--;
            } else {
                FAIL(WU_ERR_PORT_INVALID, pointer);
            }
            break;

        case FILE_STATE:
            if (out->len == 0) {
                CHECK(wu_write(out, "file:", 5));
                o->scheme_end = 4;
                o->scheme_kind = WU_SCHEME_FILE;
                p.special = o->special = 1;
            }
            CHECK(wu_write(out, "//", 2));
            o->has_host = 1;
            p.username_start = out->len;
            o->username_end = o->host_start = o->host_end = (int32_t)out->len;
            if (c == '/' || c == '\\') {
                state = FILE_SLASH;
            } else if (base != NULL && base->o.scheme_kind == WU_SCHEME_FILE) {
                CHECK(copy_host(&p));
                CHECK(copy_path(&p));
                if (c == '?') {
                    o->search_start = (int32_t)out->len;
                    CHECK(wu_put(out, '?'));
                    state = QUERY;
                } else if (c == '#') {
                    CHECK(copy_query(&p));
                    o->hash_start = (int32_t)out->len;
                    CHECK(wu_put(out, '#'));
                    state = FRAGMENT;
                } else if (c != EOF_CP) {
                    if (!starts_with_windows_drive_letter(in, pointer)) {
                        shorten_path(&p);
                    } else {
                        out->len = p.path_start;
                        p.path_count = 0;
                    }
                    state = PATH;
                    pointer--;
                } else {
                    CHECK(copy_query(&p));
                }
            } else {
                p.path_start = out->len;
                state = PATH;
                pointer--;
            }
            break;

        case FILE_SLASH:
            if (c == '/' || c == '\\') {
                state = FILE_HOST;
                buffer_start = pointer + 1;
            } else {
                if (base != NULL && base->o.scheme_kind == WU_SCHEME_FILE) {
                    CHECK(copy_host(&p));
                    p.path_start = out->len;
                    Py_ssize_t bs = base->o.pathname_start, be = base_path_end(base);
                    const char *bp = base->href + bs;
                    if (!starts_with_windows_drive_letter(in, pointer) && be - bs >= 3
                        && bp[0] == '/' && is_ascii_alpha((unsigned char)bp[1]) && bp[2] == ':'
                        && (be - bs == 3 || bp[3] == '/')) {
                        CHECK(wu_write(out, bp, 3));
                        p.path_count = 1;
                    }
                } else {
                    p.path_start = out->len;
                }
                state = PATH;
                pointer--;
            }
            break;

        case FILE_HOST:
            if (c == EOF_CP || c == '/' || c == '\\' || c == '?' || c == '#') {
                pointer--;
                Py_ssize_t len = pointer + 1 - buffer_start;
                int drive = len == 2 && is_ascii_alpha(wu_at(in, buffer_start))
                            && (wu_at(in, buffer_start + 1) == ':' || wu_at(in, buffer_start + 1) == '|');
                if (drive) {
                    /* The buffer stays: the path state reads it as the first segment. */
                    p.path_start = out->len;
                    CHECK(begin_segment(&p));
                    CHECK(wu_put(out, (char)wu_at(in, buffer_start)));
                    CHECK(wu_put(out, (char)wu_at(in, buffer_start + 1)));
                    state = PATH;
                } else if (len == 0) {
                    state = PATH_START;
                } else {
                    o->host_start = (int32_t)out->len;
                    status = wu_parse_host(in, buffer_start, pointer + 1, 1, out, where);
                    if (status != WU_OK) {
                        return status;
                    }
                    if (out->len - o->host_start == 9
                        && memcmp(out->data + o->host_start, "localhost", 9) == 0) {
                        out->len = o->host_start;
                    }
                    o->host_end = (int32_t)out->len;
                    state = PATH_START;
                }
            }
            break;

        case PATH_START:
            if (p.special) {
                p.path_start = out->len;
                state = PATH;
                if (c != '/' && c != '\\') {
                    pointer--;
                }
            } else if (c == '?') {
                p.path_start = out->len;
                o->search_start = (int32_t)out->len;
                CHECK(wu_put(out, '?'));
                state = QUERY;
            } else if (c == '#') {
                p.path_start = out->len;
                o->hash_start = (int32_t)out->len;
                CHECK(wu_put(out, '#'));
                state = FRAGMENT;
            } else if (c != EOF_CP) {
                p.path_start = out->len;
                state = PATH;
                if (c != '/') {
                    pointer--;
                }
            } else {
                p.path_start = out->len;
            }
            break;

        case PATH:
            if (!p.segment_open) {
                CHECK(begin_segment(&p));
            }
            if (c == EOF_CP || c == '/' || (p.special && c == '\\') || c == '?' || c == '#') {
                CHECK(end_segment(&p, c == '/' || (p.special && c == '\\')));
                if (c == '?') {
                    o->search_start = (int32_t)out->len;
                    CHECK(wu_put(out, '?'));
                    state = QUERY;
                } else if (c == '#') {
                    o->hash_start = (int32_t)out->len;
                    CHECK(wu_put(out, '#'));
                    state = FRAGMENT;
                }
            } else {
                CHECK(wu_put_encoded(out, c, WU_PATH));
            }
            break;

        case OPAQUE_PATH:
            if (c == '?') {
                o->search_start = (int32_t)out->len;
                CHECK(wu_put(out, '?'));
                state = QUERY;
            } else if (c == '#') {
                o->hash_start = (int32_t)out->len;
                CHECK(wu_put(out, '#'));
                state = FRAGMENT;
            } else if (c == ' ') {
                Py_UCS4 next = pointer + 1 < n ? wu_at(in, pointer + 1) : EOF_CP;
                if (next == '?' || next == '#') {
                    CHECK(wu_write(out, "%20", 3));
                } else {
                    CHECK(wu_put(out, ' '));
                }
            } else if (c != EOF_CP) {
                CHECK(wu_put_encoded(out, c, WU_C0_CONTROL));
            }
            break;

        case QUERY:
            if (c == '#') {
                o->hash_start = (int32_t)out->len;
                CHECK(wu_put(out, '#'));
                state = FRAGMENT;
            } else if (c != EOF_CP) {
                CHECK(wu_put_encoded(out, c, p.special ? WU_SPECIAL_QUERY : WU_QUERY));
            }
            break;

        case FRAGMENT:
            if (c != EOF_CP) {
                CHECK(wu_put_encoded(out, c, WU_FRAGMENT));
            }
            break;
        }
        if (pointer >= n) {
            break;
        }
        pointer++;
    }
    /* Two bytes of room for the "/." that finish may insert. */
    CHECK(wu_write(out, "..", 2));
    out->len -= 2;
    finish(&p);
    return WU_OK;
#undef FAIL
#undef CHECK
#undef REMAINING_STARTS
}
