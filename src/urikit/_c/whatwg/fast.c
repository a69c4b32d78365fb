/* The fast path of the basic URL parser: an input that is already its own serialization.
 *
 * wu_fast_path answers for the common web URL, "http" / "https" / "ws" / "wss" / "ftp"
 * in lower case, "//", a host of lower-case letters, digits, "." and "-" that does not
 * end in a number, a port without leading zeros that is not the scheme's default, a path,
 * a query and a fragment of printable ASCII that no percent-encode set holds, with no dot
 * segment, no "\" and no "%2e".  Such an input is its own href, but for the "/" of an
 * empty path (URL serializer, §4.5, for a special URL whose path is [""]): the parser
 * would write exactly the input, and only locates the components.  Anything else is left
 * to wu_parse (0 is returned); tests/test_whatwg_compiled.py holds the two to the same
 * answers.
 */
#include "whatwg.h"

static int port_default(int kind)
{
    switch (kind) {
    case WU_SCHEME_HTTP:
    case WU_SCHEME_WS:
        return 80;
    case WU_SCHEME_HTTPS:
    case WU_SCHEME_WSS:
        return 443;
    case WU_SCHEME_FTP:
        return 21;
    default:
        return -1;
    }
}

static int special_scheme(const Py_UCS1 *s, Py_ssize_t n, Py_ssize_t *end)
{
    if (n >= 7 && memcmp(s, "http", 4) == 0) {
        if (s[4] == ':') {
            *end = 4;
            return WU_SCHEME_HTTP;
        }
        if (s[4] == 's' && s[5] == ':') {
            *end = 5;
            return WU_SCHEME_HTTPS;
        }
        return 0;
    }
    if (n >= 5 && s[0] == 'w' && s[1] == 's') {
        if (s[2] == ':') {
            *end = 2;
            return WU_SCHEME_WS;
        }
        if (s[2] == 's' && s[3] == ':') {
            *end = 3;
            return WU_SCHEME_WSS;
        }
        return 0;
    }
    if (n >= 6 && memcmp(s, "ftp:", 4) == 0) {
        *end = 3;
        return WU_SCHEME_FTP;
    }
    return 0;
}

/* A character of a domain kept as it is: a-z, 0-9, ".", "-". */
static const uint8_t domain_char[128] = {
    ['-'] = 1, ['.'] = 1,
    ['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1,
    ['5'] = 1, ['6'] = 1, ['7'] = 1, ['8'] = 1, ['9'] = 1,
    ['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1, ['e'] = 1, ['f'] = 1, ['g'] = 1,
    ['h'] = 1, ['i'] = 1, ['j'] = 1, ['k'] = 1, ['l'] = 1, ['m'] = 1, ['n'] = 1,
    ['o'] = 1, ['p'] = 1, ['q'] = 1, ['r'] = 1, ['s'] = 1, ['t'] = 1, ['u'] = 1,
    ['v'] = 1, ['w'] = 1, ['x'] = 1, ['y'] = 1, ['z'] = 1,
};

/* Whether the last label of s[0:n] (a trailing "." aside) could be an IPv4 number: then
 * the host parser may read the domain as an address, and the general parser decides. */
static int may_end_in_a_number(const Py_UCS1 *s, Py_ssize_t n)
{
    if (n > 0 && s[n - 1] == '.') {
        n--;
    }
    Py_ssize_t start = n;
    while (start > 0 && s[start - 1] != '.') {
        start--;
    }
    if (start == n) {
        return 1;
    }
    unsigned char first = s[start];
    if (first >= '0' && first <= '9') {
        return 1; /* decimal, octal or "0x" hexadecimal, or not a number: let wu_parse see */
    }
    return 0;
}

int wu_fast_path(const Py_UCS1 *s, Py_ssize_t n, wu_offsets *o, int *slash)
{
    Py_ssize_t k;
    int kind = special_scheme(s, n, &k);
    if (!kind || n < k + 4 || s[k + 1] != '/' || s[k + 2] != '/') {
        return 0;
    }
    Py_ssize_t i = k + 3, host_start = i;
    while (i < n && s[i] < 0x80 && domain_char[s[i]]) {
        i++;
    }
    Py_ssize_t host_end = i;
    if (host_end == host_start || may_end_in_a_number(s + host_start, host_end - host_start)) {
        return 0;
    }
    int32_t port = -1;
    if (i < n && s[i] == ':') {
        i++;
        Py_ssize_t digits = i;
        int32_t value = 0;
        while (i < n && s[i] >= '0' && s[i] <= '9' && i - digits < 5) {
            value = value * 10 + (s[i] - '0');
            i++;
        }
        if (i == digits || s[digits] == '0' || value > 0xFFFF || value == port_default(kind)) {
            return 0;
        }
        port = value;
    }
    if (i < n && s[i] != '/' && s[i] != '?' && s[i] != '#') {
        return 0; /* "@", "\", "[", "%", upper case, a sixth port digit ... */
    }
    Py_ssize_t pathname_start = i;
    *slash = i == n || s[i] != '/';
    /* The path: segments of characters the path percent-encode set does not hold. */
    while (i < n && s[i] == '/') {
        i++;
        Py_ssize_t segment = i;
        while (i < n) {
            unsigned char c = s[i];
            if (c == '/' || c == '?' || c == '#') {
                break;
            }
            if (c <= 0x20 || c >= 0x7F || (wu_encode_sets[c] & WU_PATH) || c == '\\') {
                return 0;
            }
            if (c == '%' && i + 2 < n && s[i + 1] == '2' && (s[i + 2] | 0x20) == 'e') {
                return 0;
            }
            i++;
        }
        if (i - segment <= 2 && i > segment && s[segment] == '.'
            && (i - segment == 1 || s[segment + 1] == '.')) {
            return 0; /* "." or ".." */
        }
    }
    int32_t search_start = -1, hash_start = -1;
    if (i < n && s[i] == '?') {
        search_start = (int32_t)i++;
        while (i < n && s[i] != '#') {
            unsigned char c = s[i];
            if (c <= 0x20 || c >= 0x7F || (wu_encode_sets[c] & WU_SPECIAL_QUERY)) {
                return 0;
            }
            i++;
        }
    }
    if (i < n && s[i] == '#') {
        hash_start = (int32_t)i++;
        while (i < n) {
            unsigned char c = s[i];
            if (c <= 0x20 || c >= 0x7F || (wu_encode_sets[c] & WU_FRAGMENT)) {
                return 0;
            }
            i++;
        }
    }
    int32_t shift = *slash; /* the "/" written before the query or fragment */
    o->scheme_end = (int32_t)k;
    o->username_end = o->host_start = (int32_t)host_start;
    o->host_end = (int32_t)host_end;
    o->port = port;
    o->pathname_start = (int32_t)pathname_start;
    o->search_start = search_start >= 0 ? search_start + shift : -1;
    o->hash_start = hash_start >= 0 ? hash_start + shift : -1;
    o->has_host = 1;
    o->special = 1;
    o->scheme_kind = (uint8_t)kind;
    return 1;
}
