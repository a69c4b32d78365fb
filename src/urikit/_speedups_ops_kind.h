/* The RFC operations for one width of code unit; included by _speedups_ops.h once per
 * width, with UK_CHAR the code-unit type and UK_FN(name) the name for that width.
 *
 * Each function reads the spans a scan (uk_scan_*) gave for its input, writes into an
 * output buffer the caller sized as the function says, and returns the length written
 * with the spans of the result in the order of the scanner's (so the result needs no
 * second scan).  None allocates, recurses or looks at a code unit more than a bounded
 * number of times (remove_dot_segments included: a segment it takes off the output is
 * read once more, and never again).
 */
#ifndef UK_CHAR
#error "define UK_CHAR and UK_FN before including _speedups_ops_kind.h"
#endif

/* Copy s[start..end-1] to out[o..]; the new end of out. */
static inline ptrdiff_t UK_FN(uk_copy)(UK_CHAR *out, ptrdiff_t o, const UK_CHAR *s,
                                       ptrdiff_t start, ptrdiff_t end)
{
    if (end > start) {
        memcpy(out + o, s + start, (size_t)(end - start) * sizeof(UK_CHAR));
        o += end - start;
    }
    return o;
}

/* The first i in [start, end) with s[i] == c, or end: memchr for octets. */
static inline ptrdiff_t UK_FN(uk_find)(const UK_CHAR *s, ptrdiff_t start, ptrdiff_t end,
                                       UK_CHAR c)
{
    if (sizeof(UK_CHAR) == 1) {
        const void *at = start < end ? memchr(s + start, c, (size_t)(end - start)) : NULL;
        return at == NULL ? end : (const UK_CHAR *)at - s;
    }
    while (start < end && s[start] != c) {
        start++;
    }
    return start;
}

/* Does s[start..end-1] hold an ASCII upper-case letter? */
static inline int UK_FN(uk_has_upper)(const UK_CHAR *s, ptrdiff_t start, ptrdiff_t end)
{
    ptrdiff_t i = start;
    if (sizeof(UK_CHAR) == 1) { /* eight ASCII octets a step */
        const uint64_t ones = 0x0101010101010101u, high = 0x8080808080808080u;
        for (; end - i >= 8; i += 8) {
            uint64_t x;
            memcpy(&x, s + i, 8);
            if (x & high) {
                break;
            }
            /* an octet below 0x80 plus 0x3f reaches the high bit from "A" (0x41) on,
             * plus 0x25 from "[" (0x5b) on, and never carries into the next octet */
            if ((x + 0x3f * ones) & ~(x + 0x25 * ones) & high) {
                return 1;
            }
        }
    }
    for (; i < end; i++) {
        if ((uint32_t)s[i] - 'A' < 26u) {
            return 1;
        }
    }
    return 0;
}

/* Does p[0..n-1] hold a "/." or start with "."?  Without either, no segment begins with
 * "." and remove_dot_segments changes nothing. */
static inline int UK_FN(uk_may_have_dots)(const UK_CHAR *p, ptrdiff_t n)
{
    /* look for the dots, rarer than slashes, and at what comes before each */
    for (ptrdiff_t i = 0; i < n; i++) {
        i = UK_FN(uk_find)(p, i, n, '.');
        if (i < n && (i == 0 || p[i - 1] == '/')) {
            return 1;
        }
    }
    return 0;
}

/* Does p[0..n-1] hold a complete "." or ".." segment (RFC 3986 §3.3)? */
static inline int UK_FN(uk_has_dot_segment)(const UK_CHAR *p, ptrdiff_t n)
{
    ptrdiff_t start = 0;
    for (ptrdiff_t i = 0; i <= n; i++) {
        if (i == n || p[i] == '/') {
            ptrdiff_t len = i - start;
            if ((len == 1 && p[start] == '.') ||
                (len == 2 && p[start] == '.' && p[start + 1] == '.')) {
                return 1;
            }
            start = i + 1;
        }
    }
    return 0;
}

/* RFC 3986 5.2.4. Remove Dot Segments, in place over p[0..n-1]; the new length.
 *
 * The input buffer is p[i..n-1] and the output buffer p[0..o-1]; no step writes more
 * than it consumes, so o <= i throughout and the output never overtakes the input. */
static inline ptrdiff_t UK_FN(uk_remove_dot_segments)(UK_CHAR *p, ptrdiff_t n)
{
    if (!UK_FN(uk_may_have_dots)(p, n)) {
        return n;
    }
    ptrdiff_t i = 0, o = 0;
    while (i < n) {
        ptrdiff_t left = n - i;
        if (left >= 3 && p[i] == '.' && p[i + 1] == '.' && p[i + 2] == '/') { /* 2A */
            i += 3;
            continue;
        }
        if (left >= 2 && p[i] == '.' && p[i + 1] == '/') { /* 2A */
            i += 2;
            continue;
        }
        if (p[i] == '/' && left >= 2 && p[i + 1] == '.') {
            if (left == 2) { /* 2B: "/." becomes "/" */
                p[o++] = '/';
                break;
            }
            if (p[i + 2] == '/') { /* 2B: "/./" becomes "/" */
                i += 2;
                continue;
            }
            if (p[i + 2] == '.' && (left == 3 || p[i + 3] == '/')) {
                /* 2C: "/../" or "/.." becomes "/", and the last segment of the output
                 * goes, with the "/" before it */
                while (o > 0 && p[o - 1] != '/') {
                    o--;
                }
                if (o > 0) {
                    o--;
                }
                if (left == 3) {
                    p[o++] = '/';
                    break;
                }
                i += 3;
                continue;
            }
        }
        if (p[i] == '.' && (left == 1 || (left == 2 && p[i + 1] == '.'))) { /* 2D */
            break;
        }
        /* 2E: the first segment, with its "/" if any, up to the next "/" */
        ptrdiff_t j = p[i] == '/' ? i + 1 : i;
        while (j < n && p[j] != '/') {
            j++;
        }
        while (i < j) {
            p[o++] = p[i++];
        }
    }
    return o;
}

/* The spans of the authority's parts (authority, userinfo, host, port) of src, shifted
 * to where the authority now starts in the output. */
static inline void UK_FN(uk_move_authority)(const ptrdiff_t src[UK_SPANS], ptrdiff_t at,
                                            ptrdiff_t dst[UK_SPANS])
{
    ptrdiff_t shift = at - src[UK_G_AUTHORITY];
    for (int g = UK_G_AUTHORITY; g <= UK_G_PORT; g += 2) {
        if (src[g] >= 0) {
            dst[g] = src[g] + shift;
            dst[g + 1] = src[g + 1] + shift;
        } else {
            dst[g] = dst[g + 1] = -1;
        }
    }
}

/* A path with no authority before it must not begin with "//" (RFC 3986 §3.3): with
 * "/." before it, it names the same path after remove_dot_segments and reads back as
 * a path (resolve.rooted_path).  out[start..o-1] is the path; the new end. */
static inline ptrdiff_t UK_FN(uk_rooted_path)(UK_CHAR *out, ptrdiff_t start, ptrdiff_t o)
{
    if (o - start >= 2 && out[start] == '/' && out[start + 1] == '/') {
        memmove(out + start + 2, out + start, (size_t)(o - start) * sizeof(UK_CHAR));
        out[start] = '/';
        out[start + 1] = '.';
        o += 2;
    }
    return o;
}

/* RFC 3986 5.2.2. Transform References, with 5.2.3 Merge Paths and 5.2.4, and the
 * recomposition of 5.3.  b[0..] is an absolute URI (its scheme is defined) with the
 * spans bs, r a reference with the spans rs, both of one grammar; with strict == 0 a
 * scheme of r equal to b's (without case) is ignored (the loophole of §5.2.2).  out
 * holds at least uk_resolve_capacity(len(b), len(r)) units.  Writes the target and its
 * spans ts; returns its length. */
static inline ptrdiff_t UK_FN(uk_transform_references)(const UK_CHAR *b,
                                                       const ptrdiff_t bs[UK_SPANS],
                                                       const UK_CHAR *r,
                                                       const ptrdiff_t rs[UK_SPANS], int strict,
                                                       UK_CHAR *out, ptrdiff_t ts[UK_SPANS])
{
    int r_scheme = rs[UK_G_SCHEME] >= 0;
    if (r_scheme && !strict) {
        ptrdiff_t len = rs[UK_G_SCHEME + 1] - rs[UK_G_SCHEME];
        if (len == bs[UK_G_SCHEME + 1] - bs[UK_G_SCHEME]) {
            int same = 1;
            for (ptrdiff_t k = 0; k < len && same; k++) {
                uint32_t x = r[rs[UK_G_SCHEME] + k], y = b[bs[UK_G_SCHEME] + k];
                same = uk_ascii_lower(x) == uk_ascii_lower(y);
            }
            r_scheme = !same;
        }
    }
    const UK_CHAR *auth = NULL;  /* where T.authority comes from, if defined */
    const ptrdiff_t *auth_spans = NULL;
    const UK_CHAR *query = NULL; /* where T.query comes from, if defined */
    const ptrdiff_t *query_spans = NULL;
    int path_from_ref = 1, merge = 0, dots = 1;
    if (r_scheme || rs[UK_G_AUTHORITY] >= 0) {
        if (rs[UK_G_AUTHORITY] >= 0) {
            auth = r;
            auth_spans = rs;
        }
        query = r;
        query_spans = rs;
    } else {
        if (bs[UK_G_AUTHORITY] >= 0) {
            auth = b;
            auth_spans = bs;
        }
        if (rs[UK_G_PATH + 1] == rs[UK_G_PATH]) {
            path_from_ref = 0; /* T.path = Base.path, as it is */
            dots = 0;
            query = rs[UK_G_QUERY] >= 0 ? r : b;
            query_spans = rs[UK_G_QUERY] >= 0 ? rs : bs;
        } else {
            merge = r[rs[UK_G_PATH]] != '/';
            query = r;
            query_spans = rs;
        }
    }
    const UK_CHAR *scheme = r_scheme ? r : b;
    const ptrdiff_t *scheme_spans = r_scheme ? rs : bs;

    ptrdiff_t o = UK_FN(uk_copy)(out, 0, scheme, scheme_spans[UK_G_SCHEME],
                                 scheme_spans[UK_G_SCHEME + 1]);
    ts[UK_G_SCHEME] = 0;
    ts[UK_G_SCHEME + 1] = o;
    out[o++] = ':';
    if (auth != NULL) {
        out[o++] = '/';
        out[o++] = '/';
        UK_FN(uk_move_authority)(auth_spans, o, ts);
        o = UK_FN(uk_copy)(out, o, auth, auth_spans[UK_G_AUTHORITY],
                           auth_spans[UK_G_AUTHORITY + 1]);
    } else {
        for (int g = UK_G_AUTHORITY; g <= UK_G_PORT + 1; g++) {
            ts[g] = -1;
        }
    }
    ptrdiff_t path = o;
    if (merge) { /* 5.2.3 */
        if (bs[UK_G_AUTHORITY] >= 0 && bs[UK_G_PATH] == bs[UK_G_PATH + 1]) {
            out[o++] = '/';
        } else {
            ptrdiff_t end = bs[UK_G_PATH + 1];
            while (end > bs[UK_G_PATH] && b[end - 1] != '/') {
                end--;
            }
            o = UK_FN(uk_copy)(out, o, b, bs[UK_G_PATH], end);
        }
    }
    if (path_from_ref) {
        o = UK_FN(uk_copy)(out, o, r, rs[UK_G_PATH], rs[UK_G_PATH + 1]);
    } else {
        o = UK_FN(uk_copy)(out, o, b, bs[UK_G_PATH], bs[UK_G_PATH + 1]);
    }
    if (dots) {
        o = path + UK_FN(uk_remove_dot_segments)(out + path, o - path);
    }
    if (auth == NULL) {
        o = UK_FN(uk_rooted_path)(out, path, o);
    }
    ts[UK_G_PATH] = path;
    ts[UK_G_PATH + 1] = o;
    if (query_spans[UK_G_QUERY] >= 0) {
        out[o++] = '?';
        ts[UK_G_QUERY] = o;
        o = UK_FN(uk_copy)(out, o, query, query_spans[UK_G_QUERY], query_spans[UK_G_QUERY + 1]);
        ts[UK_G_QUERY + 1] = o;
    } else {
        ts[UK_G_QUERY] = ts[UK_G_QUERY + 1] = -1;
    }
    if (rs[UK_G_FRAGMENT] >= 0) {
        out[o++] = '#';
        ts[UK_G_FRAGMENT] = o;
        o = UK_FN(uk_copy)(out, o, r, rs[UK_G_FRAGMENT], rs[UK_G_FRAGMENT + 1]);
        ts[UK_G_FRAGMENT + 1] = o;
    } else {
        ts[UK_G_FRAGMENT] = ts[UK_G_FRAGMENT + 1] = -1;
    }
    return o;
}

/* s[start..end-1] with each pct-encoded triplet normalized (RFC 3986 §6.2.2.1,
 * §6.2.2.2): the octet of an ASCII unreserved character decoded, any other with its
 * hex digits in upper case; with fold, ASCII letters (decoded ones too) in lower case,
 * as in a case-insensitive component.  Only ASCII is ever touched (RFC 3987 §5.3.2.1,
 * §5.3.2.3).  The text is valid: every "%" starts a triplet. */
static inline ptrdiff_t UK_FN(uk_normalize_triplets)(const UK_CHAR *s, ptrdiff_t start,
                                                     ptrdiff_t end, int fold, UK_CHAR *out,
                                                     ptrdiff_t o)
{
    if (!fold) { /* the runs between triplets as they are */
        for (ptrdiff_t i = start; i < end; i += 3) {
            ptrdiff_t at = UK_FN(uk_find)(s, i, end, '%');
            o = UK_FN(uk_copy)(out, o, s, i, at);
            if (end - at <= 2) {
                return UK_FN(uk_copy)(out, o, s, at, end);
            }
            uint32_t octet = (uint32_t)(uk_hex_value(s[at + 1]) << 4 | uk_hex_value(s[at + 2]));
            if (uk_ascii_is(octet, UK_UNRESERVED)) {
                out[o++] = (UK_CHAR)octet;
            } else {
                out[o++] = '%';
                out[o++] = (UK_CHAR)uk_ascii_upper(s[at + 1]);
                out[o++] = (UK_CHAR)uk_ascii_upper(s[at + 2]);
            }
            i = at;
        }
        return o;
    }
    for (ptrdiff_t i = start; i < end; i++) {
        uint32_t c = s[i];
        if (c == '%' && end - i > 2) {
            uint32_t octet = (uint32_t)(uk_hex_value(s[i + 1]) << 4 | uk_hex_value(s[i + 2]));
            if (uk_ascii_is(octet, UK_UNRESERVED)) {
                out[o++] = (UK_CHAR)(fold ? uk_ascii_lower(octet) : octet);
            } else {
                out[o++] = '%';
                out[o++] = (UK_CHAR)uk_ascii_upper(s[i + 1]);
                out[o++] = (UK_CHAR)uk_ascii_upper(s[i + 2]);
            }
            i += 2;
        } else {
            out[o++] = (UK_CHAR)(fold ? uk_ascii_lower(c) : c);
        }
    }
    return o;
}

/* ASCII letters of p[start..end-1] in lower case, but for the hex digits of triplets
 * (already normalized): normalize.normalize_percent_encoding with fold_case on a
 * normalized component (RFC 3986 §6.2.2.1). */
static inline void UK_FN(uk_fold_case)(UK_CHAR *p, ptrdiff_t start, ptrdiff_t end)
{
    for (ptrdiff_t i = start; i < end; i++) {
        if (p[i] == '%') {
            i += 2;
        } else {
            p[i] = (UK_CHAR)uk_ascii_lower(p[i]);
        }
    }
}

/* The special rules of the path (normalize._urn_nid, normalize._mailto_domain) on the
 * normalized path p[start..end-1]. */
static inline void UK_FN(uk_path_rule)(UK_CHAR *p, ptrdiff_t start, ptrdiff_t end,
                                       uk_special_rule rule)
{
    if (rule == UK_RULE_URN_NID) { /* RFC 8141 §3.1: the NID, before the first ":" */
        for (ptrdiff_t i = start; i < end; i++) {
            if (p[i] == ':') {
                UK_FN(uk_fold_case)(p, start, i);
                break;
            }
        }
    } else if (rule == UK_RULE_MAILTO_DOMAIN) {
        /* RFC 6068 §2, RFC 5321 §2.4: in each address (between ","), the domain after
         * its last "@" */
        ptrdiff_t address = start;
        for (ptrdiff_t i = start; i <= end; i++) {
            if (i == end || p[i] == ',') {
                for (ptrdiff_t k = i; k > address; k--) {
                    if (p[k - 1] == '@') {
                        UK_FN(uk_fold_case)(p, k, i);
                        break;
                    }
                }
                address = i + 1;
            }
        }
    }
}

/* The eight hextets of the IPv6address s[i..end-1] (valid, RFC 3986 §3.2.2) into g: the
 * pieces before "::", the zero hextets it stands for, the pieces after it; an ls32
 * IPv4address is the last two. */
static inline void UK_FN(uk_ipv6_hextets)(const UK_CHAR *s, ptrdiff_t i, ptrdiff_t end,
                                          unsigned g[8])
{
    unsigned head[8], tail[8];
    int heads = 0, tails = 0, elided = 0;
    while (i < end) {
        if (s[i] == ':') { /* "::": a single ":" is taken after its piece */
            elided = 1;
            i += 2;
            continue;
        }
        unsigned pieces[2], count = 1, value = 0;
        ptrdiff_t start = i;
        while (i < end && s[i] != ':' && s[i] != '.') {
            value = value << 4 | uk_hex_value(s[i]);
            i++;
        }
        pieces[0] = value;
        if (i < end && s[i] == '.') { /* dec-octet "." dec-octet "." ... to the end */
            unsigned octets[4] = {0, 0, 0, 0}, k = 0;
            for (i = start; i < end; i++) {
                if (s[i] == '.') {
                    k++;
                } else {
                    octets[k] = octets[k] * 10 + (unsigned)(s[i] - '0');
                }
            }
            pieces[0] = octets[0] << 8 | octets[1];
            pieces[1] = octets[2] << 8 | octets[3];
            count = 2;
        }
        for (unsigned k = 0; k < count; k++) {
            if (elided) {
                tail[tails++] = pieces[k];
            } else {
                head[heads++] = pieces[k];
            }
        }
        if (i < end && s[i] == ':' && !(end - i > 1 && s[i + 1] == ':')) {
            i++;
        }
    }
    for (int k = 0; k < 8; k++) {
        int from_tail = k - (8 - tails);
        g[k] = k < heads ? head[k] : from_tail >= 0 ? tail[from_tail] : 0;
    }
}

/* The text of RFC 5952 §4 of the hextets g into out from o (§4.1 no leading zeros,
 * §4.2 the first longest run of two or more zero hextets as "::", §4.3 lower case),
 * and for an IPv4-mapped address "::ffff:" and the dotted quad (§5); the new end. */
static inline ptrdiff_t UK_FN(uk_ipv6_text)(const unsigned g[8], UK_CHAR *out, ptrdiff_t o)
{
    static const char hex[] = "0123456789abcdef";
    if (!(g[0] | g[1] | g[2] | g[3] | g[4]) && g[5] == 0xFFFF) {
        static const char mapped[] = "::ffff:";
        for (int k = 0; k < 7; k++) {
            out[o++] = (UK_CHAR)mapped[k];
        }
        for (int k = 0; k < 4; k++) {
            unsigned octet = g[6 + k / 2] >> (k % 2 ? 0 : 8) & 0xFF;
            if (k > 0) {
                out[o++] = '.';
            }
            if (octet >= 100) {
                out[o++] = (UK_CHAR)('0' + octet / 100);
            }
            if (octet >= 10) {
                out[o++] = (UK_CHAR)('0' + octet / 10 % 10);
            }
            out[o++] = (UK_CHAR)('0' + octet % 10);
        }
        return o;
    }
    int best = -1, best_length = 1, run = 0;
    for (int k = 0; k < 8; k++) {
        run = g[k] == 0 ? run + 1 : 0;
        if (run > best_length) {
            best_length = run;
            best = k - run + 1;
        }
    }
    int separate = 0; /* a ":" before the next hextet */
    for (int k = 0; k < 8;) {
        if (k == best) {
            out[o++] = ':';
            out[o++] = ':';
            k += best_length;
            separate = 0;
            continue;
        }
        if (separate) {
            out[o++] = ':';
        }
        int shift = 12;
        while (shift > 0 && (g[k] >> shift & 0xF) == 0) {
            shift -= 4;
        }
        for (; shift >= 0; shift -= 4) {
            out[o++] = (UK_CHAR)hex[g[k] >> shift & 0xF];
        }
        separate = 1;
        k++;
    }
    return o;
}

/* The IP-literal s[start..end-1] ("[" ... "]", valid) normalized into out from o: its
 * address in lower case (§6.2.2.1: the hex digits, the "v" of IPvFuture), the
 * triplets of an RFC 6874 zone ID normalized but not its case (§6.2.2.2); with
 * canonical (§6.2.3), an IPv6 address in the text of RFC 5952.  The new end. */
static inline ptrdiff_t UK_FN(uk_ip_literal_normal)(const UK_CHAR *s, ptrdiff_t start,
                                                    ptrdiff_t end, int canonical, UK_CHAR *out,
                                                    ptrdiff_t o)
{
    ptrdiff_t inner = start + 1, close = end - 1;
    ptrdiff_t zone = UK_FN(uk_find)(s, inner, close, '%'); /* "%25" ZoneID, or none */
    int future = s[inner] == 'v' || s[inner] == 'V';
    out[o++] = '[';
    if (canonical && !future) {
        unsigned g[8];
        UK_FN(uk_ipv6_hextets)(s, inner, zone, g);
        o = UK_FN(uk_ipv6_text)(g, out, o);
    } else {
        for (ptrdiff_t i = inner; i < zone; i++) {
            out[o++] = (UK_CHAR)uk_ascii_lower(s[i]);
        }
    }
    if (zone < close) {
        o = UK_FN(uk_copy)(out, o, s, zone, zone + 3);
        o = UK_FN(uk_normalize_triplets)(s, zone + 3, close, 0, out, o);
    }
    out[o++] = ']';
    return o;
}

/* The normal form (RFC 3986 §6.2.2, and with rules != NULL §6.2.3) of the valid
 * reference s with the spans sp, as normalize.normalize gives it, into out (at least
 * uk_normalize_capacity(len(s)) units) with its spans ts; the length, or -1 when the
 * reference needs what only the readable path does: a scheme with rules->defer, or a
 * relative-path reference with dot-segments.  rules
 * holds what the registry says of the scheme (default_port -1 and zeros for a scheme
 * it does not know); NULL asks for the syntax rung alone. */
static inline ptrdiff_t UK_FN(uk_normalize)(const UK_CHAR *s, const ptrdiff_t sp[UK_SPANS],
                                            const uk_scheme_rules *rules, UK_CHAR *out,
                                            ptrdiff_t ts[UK_SPANS])
{
    uk_special_rule rule = rules == NULL ? UK_RULE_NONE : rules->rule;
    if (rules != NULL && rules->defer) {
        return -1;
    }
    int has_host = sp[UK_G_HOST] >= 0;
    int ip_literal = has_host && sp[UK_G_HOST + 1] > sp[UK_G_HOST] && s[sp[UK_G_HOST]] == '[';
    /* RFC 8089 §2: a file path without an authority has the empty one */
    int empty_authority = !has_host && rule == UK_RULE_FILE_LOCALHOST &&
                          sp[UK_G_PATH + 1] > sp[UK_G_PATH] && s[sp[UK_G_PATH]] == '/';
    ptrdiff_t o = 0;
    if (sp[UK_G_SCHEME] >= 0) { /* 6.2.2.1: the scheme without case */
        for (ptrdiff_t i = sp[UK_G_SCHEME]; i < sp[UK_G_SCHEME + 1]; i++) {
            out[o++] = (UK_CHAR)uk_ascii_lower(s[i]);
        }
        ts[UK_G_SCHEME] = 0;
        ts[UK_G_SCHEME + 1] = o;
        out[o++] = ':';
    } else {
        ts[UK_G_SCHEME] = ts[UK_G_SCHEME + 1] = -1;
    }
    for (int g = UK_G_AUTHORITY; g <= UK_G_PORT + 1; g++) {
        ts[g] = -1;
    }
    if (has_host) {
        out[o++] = '/';
        out[o++] = '/';
        ts[UK_G_AUTHORITY] = o;
        if (sp[UK_G_USERINFO] >= 0) { /* 6.2.2.2 */
            ts[UK_G_USERINFO] = o;
            o = UK_FN(uk_normalize_triplets)(s, sp[UK_G_USERINFO], sp[UK_G_USERINFO + 1], 0, out,
                                             o);
            ts[UK_G_USERINFO + 1] = o;
            out[o++] = '@';
        }
        ptrdiff_t port_start = sp[UK_G_PORT], port_end = sp[UK_G_PORT + 1];
        int port = port_start >= 0;
        if (port && rules != NULL) {
            /* 6.2.3: the port is a decimal number, and an empty one or the scheme's
             * default is omitted (§3.2.3) */
            port = port_end > port_start;
            while (port_end - port_start > 1 && s[port_start] == '0') {
                port_start++;
            }
            if (port && rules->default_port >= 0) {
                unsigned value = 0;
                int digits = 0;
                for (ptrdiff_t i = port_start; i < port_end && digits < 6; i++, digits++) {
                    value = value * 10 + (unsigned)(s[i] - '0');
                }
                port = digits >= 6 || value != (unsigned)rules->default_port;
            }
        }
        ts[UK_G_HOST] = o; /* 6.2.2.1: the host without case, and 6.2.2.2 */
        if (ip_literal) {
            o = UK_FN(uk_ip_literal_normal)(s, sp[UK_G_HOST], sp[UK_G_HOST + 1], rules != NULL,
                                            out, o);
        } else {
            o = UK_FN(uk_normalize_triplets)(s, sp[UK_G_HOST], sp[UK_G_HOST + 1], 1, out, o);
        }
        if (rule == UK_RULE_FILE_LOCALHOST && !port && sp[UK_G_USERINFO] < 0 &&
            o - ts[UK_G_HOST] == 9) {
            static const char localhost[] = "localhost"; /* RFC 8089 §2 */
            int same = 1;
            for (int k = 0; k < 9 && same; k++) {
                same = out[ts[UK_G_HOST] + k] == (UK_CHAR)localhost[k];
            }
            if (same) {
                o = ts[UK_G_HOST];
            }
        }
        ts[UK_G_HOST + 1] = o;
        if (port) {
            out[o++] = ':';
            ts[UK_G_PORT] = o;
            o = UK_FN(uk_copy)(out, o, s, port_start, port_end);
            ts[UK_G_PORT + 1] = o;
        }
        ts[UK_G_AUTHORITY + 1] = o;
    } else if (empty_authority) {
        out[o++] = '/';
        out[o++] = '/';
        ts[UK_G_AUTHORITY] = ts[UK_G_AUTHORITY + 1] = o;
        ts[UK_G_HOST] = ts[UK_G_HOST + 1] = o;
    }
    ptrdiff_t path = o; /* 6.2.2.2, then 6.2.2.3 */
    o = UK_FN(uk_normalize_triplets)(s, sp[UK_G_PATH], sp[UK_G_PATH + 1], 0, out, o);
    if (has_host || (o > path && out[path] == '/')) {
        o = path + UK_FN(uk_remove_dot_segments)(out + path, o - path);
    } else if (sp[UK_G_SCHEME] < 0 && UK_FN(uk_has_dot_segment)(out + path, o - path)) {
        return -1;
    }
    if (has_host) {
        if (o == path && rules != NULL && rules->empty_path_is_root) { /* 6.2.3 */
            out[o++] = '/';
        }
    } else if (!empty_authority) {
        o = UK_FN(uk_rooted_path)(out, path, o);
    }
    UK_FN(uk_path_rule)(out, path, o, rule);
    ts[UK_G_PATH] = path;
    ts[UK_G_PATH + 1] = o;
    for (int g = UK_G_QUERY; g <= UK_G_FRAGMENT; g += 2) {
        if (sp[g] >= 0) {
            out[o++] = g == UK_G_QUERY ? '?' : '#';
            ts[g] = o;
            o = UK_FN(uk_normalize_triplets)(s, sp[g], sp[g + 1], 0, out, o);
            ts[g + 1] = o;
        } else {
            ts[g] = ts[g + 1] = -1;
        }
    }
    return o;
}

/* Is the valid reference s[0..n-1] with the spans sp plainly its own normal form, the
 * text uk_normalize would write with the same rules?  So it is with no "%" in it, no
 * ASCII upper-case letter in the scheme or a reg-name host, no segment of the path
 * that starts with "." and, at the scheme rung, a scheme without a special rule or
 * deferral, no port and no empty path after an authority where the scheme wants "/".
 * 0 says only that this test cannot tell. */
static inline int UK_FN(uk_plainly_normal)(const UK_CHAR *s, ptrdiff_t n,
                                           const ptrdiff_t sp[UK_SPANS],
                                           const uk_scheme_rules *rules)
{
    if (uk_rules_may_change(sp, rules)) {
        return 0;
    }
    if (UK_FN(uk_find)(s, 0, n, '%') < n) {
        return 0;
    }
    for (int g = UK_G_SCHEME; g <= UK_G_HOST; g += UK_G_HOST - UK_G_SCHEME) {
        if (sp[g] < 0) {
            continue;
        }
        if (g == UK_G_HOST && sp[g + 1] > sp[g] && s[sp[g]] == '[') {
            return 0;
        }
        if (UK_FN(uk_has_upper)(s, sp[g], sp[g + 1])) {
            return 0;
        }
    }
    return !UK_FN(uk_may_have_dots)(s + sp[UK_G_PATH], sp[UK_G_PATH + 1] - sp[UK_G_PATH]);
}
