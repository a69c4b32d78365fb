/* The host parser of the URL Standard (§3.5) and the host serializers (§3.6).
 *
 * wu_parse_host reads in[start:end] and appends the serialized host: a domain (ASCII
 * lowercased; a non-ASCII one through UTS #46, uts46.c), an IPv4 address when the domain
 * ends in a number, an IPv6 address in brackets, or an opaque host for a URL that is not
 * special.  The steps are those of host.py; the names of the failures are the standard's.
 */
#include "whatwg.h"

static int is_hex(Py_UCS4 c)
{
    return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
}

static int hex_value(Py_UCS4 c)
{
    return c <= '9' ? (int)(c - '0') : (int)((c | 0x20) - 'a' + 10);
}

/* A forbidden host code point (§3.2). */
static int is_forbidden_host(Py_UCS4 c)
{
    switch (c) {
    case 0x00: case '\t': case '\n': case '\r': case ' ': case '#': case '/': case ':':
    case '<': case '>': case '?': case '@': case '[': case '\\': case ']': case '^': case '|':
        return 1;
    default:
        return 0;
    }
}

/* A forbidden domain code point (§3.2): a forbidden host code point, a C0 control, "%",
 * or U+007F. */
static int is_forbidden_domain(Py_UCS4 c)
{
    return is_forbidden_host(c) || c < 0x20 || c == '%' || c == 0x7F;
}

/* -- IPv6 (§3.5, §3.6) ---------------------------------------------------------------- */

static wu_status ipv6_parse(const wu_input *in, Py_ssize_t start, Py_ssize_t end,
                            uint16_t address[8], Py_ssize_t *where)
{
#define C(p) ((p) < end ? wu_at(in, (p)) : (Py_UCS4)-1) /* -1: the EOF code point */
    memset(address, 0, 8 * sizeof address[0]);
    int piece_index = 0;
    int compress = -1;
    Py_ssize_t pointer = start;
    if (C(pointer) == ':') {
        if (C(pointer + 1) != ':') {
            *where = pointer;
            return WU_ERR_IPV6_INVALID_COMPRESSION;
        }
        pointer += 2;
        piece_index++;
        compress = piece_index;
    }
    while (C(pointer) != (Py_UCS4)-1) {
        *where = pointer;
        if (piece_index == 8) {
            return WU_ERR_IPV6_TOO_MANY_PIECES;
        }
        if (C(pointer) == ':') {
            if (compress >= 0) {
                return WU_ERR_IPV6_MULTIPLE_COMPRESSION;
            }
            pointer++;
            piece_index++;
            compress = piece_index;
            continue;
        }
        unsigned value = 0;
        int length = 0;
        while (length < 4 && C(pointer) != (Py_UCS4)-1 && is_hex(C(pointer))) {
            value = value * 0x10 + (unsigned)hex_value(C(pointer));
            pointer++;
            length++;
        }
        *where = pointer;
        if (C(pointer) == '.') {
            if (length == 0) {
                return WU_ERR_IPV4_IN_IPV6_INVALID_CODE_POINT;
            }
            pointer -= length;
            *where = pointer;
            if (piece_index > 6) {
                return WU_ERR_IPV4_IN_IPV6_TOO_MANY_PIECES;
            }
            int numbers_seen = 0;
            while (C(pointer) != (Py_UCS4)-1) {
                int ipv4_piece = -1;
                *where = pointer;
                if (numbers_seen > 0) {
                    if (C(pointer) == '.' && numbers_seen < 4) {
                        pointer++;
                    } else {
                        return WU_ERR_IPV4_IN_IPV6_INVALID_CODE_POINT;
                    }
                }
                *where = pointer;
                if (C(pointer) == (Py_UCS4)-1 || C(pointer) < '0' || C(pointer) > '9') {
                    return WU_ERR_IPV4_IN_IPV6_INVALID_CODE_POINT;
                }
                while (C(pointer) != (Py_UCS4)-1 && C(pointer) >= '0' && C(pointer) <= '9') {
                    int number = (int)(C(pointer) - '0');
                    *where = pointer;
                    if (ipv4_piece == -1) {
                        ipv4_piece = number;
                    } else if (ipv4_piece == 0) {
                        return WU_ERR_IPV4_IN_IPV6_INVALID_CODE_POINT;
                    } else {
                        ipv4_piece = ipv4_piece * 10 + number;
                    }
                    if (ipv4_piece > 255) {
                        return WU_ERR_IPV4_IN_IPV6_OUT_OF_RANGE_PART;
                    }
                    pointer++;
                }
                address[piece_index] = (uint16_t)(address[piece_index] * 0x100 + ipv4_piece);
                numbers_seen++;
                if (numbers_seen == 2 || numbers_seen == 4) {
                    piece_index++;
                }
            }
            if (numbers_seen != 4) {
                *where = pointer;
                return WU_ERR_IPV4_IN_IPV6_TOO_FEW_PARTS;
            }
            break;
        } else if (C(pointer) == ':') {
            pointer++;
            if (C(pointer) == (Py_UCS4)-1) {
                *where = pointer;
                return WU_ERR_IPV6_INVALID_CODE_POINT;
            }
        } else if (C(pointer) != (Py_UCS4)-1) {
            return WU_ERR_IPV6_INVALID_CODE_POINT;
        }
        address[piece_index] = (uint16_t)value;
        piece_index++;
    }
    if (compress >= 0) {
        int swaps = piece_index - compress;
        piece_index = 7;
        while (piece_index != 0 && swaps > 0) {
            uint16_t t = address[piece_index];
            address[piece_index] = address[compress + swaps - 1];
            address[compress + swaps - 1] = t;
            piece_index--;
            swaps--;
        }
    } else if (piece_index != 8) {
        *where = pointer;
        return WU_ERR_IPV6_TOO_FEW_PIECES;
    }
    return WU_OK;
#undef C
}

static int ipv6_serialize(const uint16_t address[8], wu_buffer *out)
{
    /* Find the IPv6 address compressed piece index: the first longest run of zeros
     * longer than one piece. */
    int longest_index = -1, longest_size = 1, found_index = -1, found_size = 0;
    for (int i = 0; i < 8; i++) {
        if (address[i] != 0) {
            if (found_size > longest_size) {
                longest_index = found_index;
                longest_size = found_size;
            }
            found_index = -1;
            found_size = 0;
        } else {
            if (found_index < 0) {
                found_index = i;
            }
            found_size++;
        }
    }
    if (found_size > longest_size) {
        longest_index = found_index;
    }
    if (wu_put(out, '[') < 0) {
        return -1;
    }
    int ignore0 = 0;
    for (int i = 0; i < 8; i++) {
        if (ignore0 && address[i] == 0) {
            continue;
        }
        ignore0 = 0;
        if (longest_index == i) {
            if (wu_write(out, i == 0 ? "::" : ":", i == 0 ? 2 : 1) < 0) {
                return -1;
            }
            ignore0 = 1;
            continue;
        }
        char t[8];
        int n = snprintf(t, sizeof t, "%x", (unsigned)address[i]);
        if (wu_write(out, t, n) < 0 || (i != 7 && wu_put(out, ':') < 0)) {
            return -1;
        }
    }
    return wu_put(out, ']');
}

/* -- IPv4 (§3.5, §3.6) ------------------------------------------------------------------ */

/* The IPv4 number parser of s[0:n]: 1 and *value, or 0 for failure.  A value too large
 * for 64 bits is reported as UINT64_MAX (it is out of range whatever its size). */
static int ipv4_number(const char *s, Py_ssize_t n, uint64_t *value)
{
    if (n == 0) {
        return 0;
    }
    int radix = 10;
    if (n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        s += 2;
        n -= 2;
        radix = 16;
    } else if (n >= 2 && s[0] == '0') {
        s += 1;
        n -= 1;
        radix = 8;
    }
    uint64_t v = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        int d;
        if (c >= '0' && c <= '9') {
            d = c - '0';
        } else if (radix == 16 && ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')) {
            d = (c | 0x20) - 'a' + 10;
        } else {
            return 0;
        }
        if (d >= radix) {
            return 0;
        }
        v = v > (UINT64_MAX - (uint64_t)d) / (uint64_t)radix ? UINT64_MAX : v * (uint64_t)radix + (uint64_t)d;
    }
    *value = v;
    return 1;
}

/* The ends in a number checker (§3.5), on the ASCII domain s[0:n]. */
static int ends_in_a_number(const char *s, Py_ssize_t n)
{
    if (n > 0 && s[n - 1] == '.') {
        n--;
        if (n == 0) {
            return 0;
        }
    }
    Py_ssize_t start = n;
    while (start > 0 && s[start - 1] != '.') {
        start--;
    }
    const char *last = s + start;
    Py_ssize_t len = n - start;
    if (len == 0) {
        return 0;
    }
    int digits = 1;
    for (Py_ssize_t i = 0; i < len; i++) {
        if (last[i] < '0' || last[i] > '9') {
            digits = 0;
            break;
        }
    }
    uint64_t value;
    return digits || ipv4_number(last, len, &value);
}

/* The IPv4 parser (§3.5) of the ASCII domain s[0:n]. */
static wu_status ipv4_parse(const char *s, Py_ssize_t n, uint32_t *address)
{
    uint64_t numbers[4];
    int count = 0;
    if (n > 0 && s[n - 1] == '.') {
        n--; /* an empty last part: IPv4-empty-part, removed when there are others */
    }
    int parts = 1;
    for (Py_ssize_t i = 0; i < n; i++) {
        parts += s[i] == '.';
    }
    if (parts > 4) {
        return WU_ERR_IPV4_TOO_MANY_PARTS;
    }
    Py_ssize_t part = 0;
    for (Py_ssize_t i = 0; i <= n; i++) {
        if (i == n || s[i] == '.') {
            if (!ipv4_number(s + part, i - part, &numbers[count])) {
                return WU_ERR_IPV4_NON_NUMERIC_PART;
            }
            count++;
            part = i + 1;
        }
    }
    for (int i = 0; i < count - 1; i++) {
        if (numbers[i] > 255) {
            return WU_ERR_IPV4_OUT_OF_RANGE_PART;
        }
    }
    uint64_t limit = (uint64_t)1 << (8 * (5 - count));
    if (numbers[count - 1] >= limit) {
        return WU_ERR_IPV4_OUT_OF_RANGE_PART;
    }
    uint64_t ipv4 = numbers[count - 1];
    for (int i = 0; i < count - 1; i++) {
        ipv4 += numbers[i] << (8 * (3 - i));
    }
    *address = (uint32_t)ipv4;
    return WU_OK;
}

static int ipv4_serialize(uint32_t address, wu_buffer *out)
{
    char t[16];
    int n = snprintf(t, sizeof t, "%u.%u.%u.%u", (address >> 24) & 255, (address >> 16) & 255,
                     (address >> 8) & 255, address & 255);
    return wu_write(out, t, n);
}

/* -- the opaque-host parser (§3.5) ------------------------------------------------------ */

static wu_status opaque_host(const wu_input *in, Py_ssize_t start, Py_ssize_t end,
                             wu_buffer *out, Py_ssize_t *where)
{
    for (Py_ssize_t i = start; i < end; i++) {
        if (is_forbidden_host(wu_at(in, i))) {
            *where = i;
            return WU_ERR_HOST_INVALID_CODE_POINT;
        }
    }
    for (Py_ssize_t i = start; i < end; i++) {
        if (wu_put_encoded(out, wu_at(in, i), WU_C0_CONTROL) < 0) {
            return WU_ERR_MEMORY;
        }
    }
    return WU_OK;
}

/* -- the host parser (§3.5) --------------------------------------------------------------- */

/* The UTF-8 decoding (with replacement) of the percent-decoding of in[start:end], as code
 * points in *domain (PyMem_Malloc'd), its length in *len.  0, or -1 with an exception. */
static int percent_decoded(const wu_input *in, Py_ssize_t start, Py_ssize_t end,
                           Py_UCS4 **domain, Py_ssize_t *len)
{
    wu_buffer octets;
    wu_buffer_init(&octets);
    for (Py_ssize_t i = start; i < end; i++) {
        Py_UCS4 c = wu_at(in, i);
        if (c == '%' && i + 2 < end && is_hex(wu_at(in, i + 1)) && is_hex(wu_at(in, i + 2))) {
            if (wu_put(&octets, (char)(hex_value(wu_at(in, i + 1)) * 16
                                        + hex_value(wu_at(in, i + 2)))) < 0) {
                goto error;
            }
            i += 2;
        } else if (c < 0x80) {
            if (wu_put(&octets, (char)c) < 0) {
                goto error;
            }
        } else {
            char u[4];
            Py_ssize_t n;
            if (c < 0x800) {
                u[0] = (char)(0xC0 | (c >> 6)); u[1] = (char)(0x80 | (c & 0x3F)); n = 2;
            } else if (c < 0x10000) {
                u[0] = (char)(0xE0 | (c >> 12)); u[1] = (char)(0x80 | ((c >> 6) & 0x3F));
                u[2] = (char)(0x80 | (c & 0x3F)); n = 3;
            } else {
                u[0] = (char)(0xF0 | (c >> 18)); u[1] = (char)(0x80 | ((c >> 12) & 0x3F));
                u[2] = (char)(0x80 | ((c >> 6) & 0x3F)); u[3] = (char)(0x80 | (c & 0x3F)); n = 4;
            }
            if (wu_write(&octets, u, n) < 0) {
                goto error;
            }
        }
    }
    PyObject *text = PyUnicode_DecodeUTF8(octets.data, octets.len, "replace");
    wu_buffer_free(&octets);
    if (text == NULL) {
        return -1;
    }
    *domain = PyUnicode_AsUCS4Copy(text);
    *len = PyUnicode_GET_LENGTH(text);
    Py_DECREF(text);
    return *domain == NULL ? -1 : 0;
error:
    wu_buffer_free(&octets);
    return -1;
}

wu_status wu_parse_host(const wu_input *in, Py_ssize_t start, Py_ssize_t end, int special,
                        wu_buffer *out, Py_ssize_t *where)
{
    *where = start;
    /* 1. An IPv6 address in brackets. */
    if (end > start && wu_at(in, start) == '[') {
        if (wu_at(in, end - 1) != ']' || end - start < 2) {
            *where = end;
            return WU_ERR_IPV6_UNCLOSED;
        }
        uint16_t address[8];
        wu_status s = ipv6_parse(in, start + 1, end - 1, address, where);
        if (s != WU_OK) {
            return s;
        }
        return ipv6_serialize(address, out) < 0 ? WU_ERR_MEMORY : WU_OK;
    }
    /* 2. The host of a URL that is not special is an opaque host. */
    if (!special) {
        return opaque_host(in, start, end, out, where);
    }
    /* 3-6. The domain: percent-decoded as UTF-8, then the domain parser.  An ASCII domain
     * without "%" is only lowercased (§3.3, domain parser step 4). */
    Py_ssize_t domain_start = out->len;
    int plain = 1;
    for (Py_ssize_t i = start; i < end; i++) {
        Py_UCS4 c = wu_at(in, i);
        if (c >= 0x80 || c == '%') {
            plain = 0;
            break;
        }
    }
    if (plain) {
        if (out->len + (end - start) > out->cap && wu_buffer_grow(out, end - start) < 0) {
            return WU_ERR_MEMORY;
        }
        for (Py_ssize_t i = start; i < end; i++) {
            Py_UCS4 c = wu_at(in, i);
            if (is_forbidden_domain(c)) {
                return WU_ERR_DOMAIN_TO_ASCII; /* reported at the start of the host */
            }
            out->data[out->len++] = (char)(c >= 'A' && c <= 'Z' ? c | 0x20 : c);
        }
    } else {
        Py_UCS4 *domain;
        Py_ssize_t len;
        if (percent_decoded(in, start, end, &domain, &len) < 0) {
            return WU_ERR_MEMORY;
        }
        int ascii = 1;
        for (Py_ssize_t i = 0; i < len; i++) {
            if (domain[i] >= 0x80) {
                ascii = 0;
                break;
            }
        }
        int ok = 1;
        if (ascii) {
            for (Py_ssize_t i = 0; i < len && ok; i++) {
                Py_UCS4 c = domain[i];
                ok = wu_put(out, (char)(c >= 'A' && c <= 'Z' ? c | 0x20 : c)) == 0 ? 1 : -1;
            }
        } else {
            ok = wu_domain_to_ascii(domain, len, out);
        }
        PyMem_Free(domain);
        if (ok < 0) {
            return WU_ERR_MEMORY;
        }
        if (!ok) {
            return WU_ERR_DOMAIN_TO_ASCII;
        }
        /* 6-7: an empty result or a forbidden domain code point is failure. */
        if (out->len == domain_start) {
            return WU_ERR_DOMAIN_TO_ASCII;
        }
        for (Py_ssize_t i = domain_start; i < out->len; i++) {
            if (is_forbidden_domain((unsigned char)out->data[i])) {
                return WU_ERR_DOMAIN_TO_ASCII;
            }
        }
    }
    /* 7. A domain that ends in a number is an IPv4 address. */
    const char *domain = out->data + domain_start;
    Py_ssize_t n = out->len - domain_start;
    if (ends_in_a_number(domain, n)) {
        uint32_t address;
        wu_status s = ipv4_parse(domain, n, &address);
        if (s != WU_OK) {
            return s;
        }
        out->len = domain_start;
        return ipv4_serialize(address, out) < 0 ? WU_ERR_MEMORY : WU_OK;
    }
    return WU_OK;
}
