/* The scanner for one width of code unit; included by _speedups_scan.h once per
 * width, with UK_CHAR the code-unit type and UK_FN(name) the name for that width.
 * Every function reads only s[i..end-1] for the bounds it is given.
 *
 * The grammar is the one pattern Grammar.reference of grammar.py, and each step
 * below takes the one choice that a full match of that pattern can take:
 *
 * - "scheme:" is taken whenever it is there: without it, the text would have to be
 *   a relative-ref whose first segment holds the ":" (RFC 3986 §4.2).
 * - "//" always starts an authority: every path form without one excludes a leading
 *   "//" (RFC 3986 §3.3), so if the authority fails, the reference fails.
 * - A userinfo is there exactly when the first of "/", "?", "#", "@" after "//" is
 *   "@" (RFC 3986 §3.2.1); without it, the host and port could not end before "@".
 * - Each *( class / pct-encoded ) run is maximal: what follows it is never a member.
 */
#ifndef UK_CHAR
#error "define UK_CHAR and UK_FN before including _speedups_scan_kind.h"
#endif

/* The end of the maximal *( class / pct-encoded ) run from i; pct-encoded =
 * "%" HEXDIG HEXDIG (RFC 3986 §2.1). */
static inline ptrdiff_t UK_FN(uk_star)(const UK_CHAR *s, ptrdiff_t i, ptrdiff_t end,
                                       unsigned bits, uk_ext ext)
{
    while (i < end) {
        uint32_t c = s[i];
        if (c < 0x80) {
            if (uk_ascii_class[c] & bits) {
                i++;
            } else if (c == '%' && end - i > 2 && uk_ascii_is(s[i + 1], UK_HEXDIG) &&
                       uk_ascii_is(s[i + 2], UK_HEXDIG)) {
                i += 3;
                /* the triplets that follow, as a lenient repair writes them (three
                 * for each octet of a character): five at a time in 1-byte text where
                 * the processor can, then each read by one test */
#if UK_SCAN_SIMD
                if (sizeof(UK_CHAR) == 1) {
                    while (end - i >= 16 && uk_five_triplets((const uint8_t *)(s + i))) {
                        i += 15;
                    }
                }
#endif
                while (end - i > 2 && s[i] == '%' && uk_ascii_is(s[i + 1], UK_HEXDIG) &&
                       uk_ascii_is(s[i + 2], UK_HEXDIG)) {
                    i += 3;
                }
            } else {
                break;
            }
        } else if (ext.count != 0 && uk_in_ranges(c, ext)) {
            i++;
        } else {
            break;
        }
    }
    return i;
}

/* IPv4address = dec-octet "." dec-octet "." dec-octet "." dec-octet, all of s[i..end-1]
 * dec-octet = DIGIT / %x31-39 DIGIT / "1" 2DIGIT / "2" %x30-34 DIGIT / "25" %x30-35
 * (RFC 3986 §3.2.2): 0 to 255 without a leading zero. */
static inline int UK_FN(uk_ipv4)(const UK_CHAR *s, ptrdiff_t i, ptrdiff_t end)
{
    for (int octet = 0; octet < 4; octet++) {
        if (octet > 0) {
            if (i >= end || s[i] != '.') {
                return 0;
            }
            i++;
        }
        ptrdiff_t start = i;
        unsigned value = 0;
        while (i < end && i - start < 3 && uk_ascii_is(s[i], UK_DIGIT)) {
            value = value * 10 + (unsigned)(s[i] - '0');
            i++;
        }
        if (i == start || value > 255 || (i - start > 1 && s[start] == '0')) {
            return 0;
        }
    }
    return i == end;
}

/* IPv6address, all of s[i..end-1] (RFC 3986 §3.2.2).  The nine forms say: h16
 * pieces (1*4HEXDIG) joined by ":", the last two of which may be one IPv4address
 * (ls32); eight pieces, or at most seven around a single "::". */
static inline int UK_FN(uk_ipv6)(const UK_CHAR *s, ptrdiff_t i, ptrdiff_t end)
{
    int pieces = 0;
    int elided = 0;
    if (end - i >= 2 && s[i] == ':' && s[i + 1] == ':') {
        elided = 1;
        i += 2;
    }
    while (i < end) {
        ptrdiff_t start = i;
        while (i < end && i - start < 5 && uk_ascii_is(s[i], UK_HEXDIG)) {
            i++;
        }
        if (i < end && s[i] == '.') {
            /* ls32 = IPv4address: the last two pieces, up to the end */
            if (!UK_FN(uk_ipv4)(s, start, end)) {
                return 0;
            }
            pieces += 2;
            break;
        }
        /* h16 = 1*4HEXDIG */
        if (i == start || i - start > 4) {
            return 0;
        }
        if (++pieces > 8) {
            return 0;
        }
        if (i == end) {
            break;
        }
        if (s[i] != ':') {
            return 0;
        }
        i++;
        if (i < end && s[i] == ':') {
            if (elided) {
                return 0;
            }
            elided = 1;
            i++;
        } else if (i == end) {
            return 0; /* a single trailing ":" */
        }
    }
    return elided ? pieces <= 7 : pieces == 8;
}

/* The inside of IP-literal = "[" ( IPv6address / IPv6addrz / IPvFuture ) "]", all of
 * s[i..end-1] (RFC 3986 §3.2.2, RFC 6874 §2). */
static inline int UK_FN(uk_ip_literal)(const UK_CHAR *s, ptrdiff_t i, ptrdiff_t end)
{
    if (i < end && (s[i] == 'v' || s[i] == 'V')) {
        /* IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" ) */
        ptrdiff_t start = ++i;
        while (i < end && uk_ascii_is(s[i], UK_HEXDIG)) {
            i++;
        }
        if (i == start || i == end || s[i] != '.') {
            return 0;
        }
        start = ++i;
        while (i < end && uk_ascii_is(s[i], UK_IPVFUTURE)) {
            i++;
        }
        return i > start && i == end;
    }
    /* IPv6addrz = IPv6address "%25" ZoneID; no "%" is in an IPv6address */
    ptrdiff_t pct = i;
    while (pct < end && s[pct] != '%') {
        pct++;
    }
    if (!UK_FN(uk_ipv6)(s, i, pct)) {
        return 0;
    }
    if (pct == end) {
        return 1;
    }
    if (end - pct < 4 || s[pct + 1] != '2' || s[pct + 2] != '5') {
        return 0;
    }
    /* ZoneID = 1*( unreserved / pct-encoded ) */
    return UK_FN(uk_star)(s, pct + 3, end, UK_ZONE, uk_no_ext) == end;
}

/* URI-reference = URI / relative-ref (RFC 3986 §4.1), or IRI-reference (RFC 3987 §2.2). */
static inline int UK_FN(uk_scan)(const UK_CHAR *s, ptrdiff_t n, int iri,
                                 ptrdiff_t spans[UK_SPANS])
{
    const uk_ext ext = iri ? (uk_ext){uk_iri_unreserved_ext, UK_IRI_UNRESERVED_EXT_COUNT}
                           : uk_no_ext;
    const uk_ext query_ext = iri ? (uk_ext){uk_iri_query_ext, UK_IRI_QUERY_EXT_COUNT}
                                 : uk_no_ext;
    ptrdiff_t i = 0;
    for (int k = 0; k < UK_SPANS; k++) {
        spans[k] = -1;
    }

    /* scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ), then ":" (RFC 3986 §3.1) */
    if (n > 0 && uk_ascii_is(s[0], UK_SCHEME_FIRST)) {
        ptrdiff_t j = 1;
        while (j < n && uk_ascii_is(s[j], UK_SCHEME)) {
            j++;
        }
        if (j < n && s[j] == ':') {
            spans[UK_G_SCHEME] = 0;
            spans[UK_G_SCHEME + 1] = j;
            i = j + 1;
        }
    }

    /* "//" authority (RFC 3986 §3.2) */
    int authority = n - i >= 2 && s[i] == '/' && s[i + 1] == '/';
    if (authority) {
        i += 2;
        spans[UK_G_AUTHORITY] = i;

        /* userinfo "@" (RFC 3986 §3.2.1) when "@" comes before any "/", "?", "#" */
        ptrdiff_t at = i;
        while (at < n && s[at] != '/' && s[at] != '?' && s[at] != '#' && s[at] != '@') {
            at++;
        }
        if (at < n && s[at] == '@') {
            if (UK_FN(uk_star)(s, i, at, UK_USERINFO, ext) != at) {
                return 0;
            }
            spans[UK_G_USERINFO] = i;
            spans[UK_G_USERINFO + 1] = at;
            i = at + 1;
        }

        /* host = IP-literal / IPv4address / reg-name (RFC 3986 §3.2.2): an IPv4address
         * is also a reg-name, so the span is that of either. */
        spans[UK_G_HOST] = i;
        if (i < n && s[i] == '[') {
            /* No "]" is inside an IP-literal: it ends at the first one. */
            ptrdiff_t close = i + 1;
            while (close < n && s[close] != ']') {
                close++;
            }
            if (close == n || !UK_FN(uk_ip_literal)(s, i + 1, close)) {
                return 0;
            }
            i = close + 1;
        } else {
            i = UK_FN(uk_star)(s, i, n, UK_REG_NAME, ext);
        }
        spans[UK_G_HOST + 1] = i;

        /* ":" port, port = *DIGIT (RFC 3986 §3.2.3) */
        if (i < n && s[i] == ':') {
            spans[UK_G_PORT] = ++i;
            while (i < n && uk_ascii_is(s[i], UK_DIGIT)) {
                i++;
            }
            spans[UK_G_PORT + 1] = i;
        }
        spans[UK_G_AUTHORITY + 1] = i;
    }

    /* The path (RFC 3986 §3.3); no "//" is left at i. */
    spans[UK_G_PATH] = i;
    if (authority) {
        /* path-abempty = *( "/" segment ) */
        if (i < n && s[i] == '/') {
            i = UK_FN(uk_star)(s, i, n, UK_PATH, ext);
        }
    } else if (spans[UK_G_SCHEME] == 0) {
        /* path-absolute / path-rootless / path-empty */
        i = UK_FN(uk_star)(s, i, n, UK_PATH, ext);
    } else if (i < n && s[i] == '/') {
        /* path-absolute */
        i = UK_FN(uk_star)(s, i, n, UK_PATH, ext);
    } else {
        /* path-noscheme / path-empty: no ":" in the first segment (RFC 3986 §4.2) */
        i = UK_FN(uk_star)(s, i, n, UK_PCHAR_NC, ext);
        if (i < n && s[i] == '/') {
            i = UK_FN(uk_star)(s, i, n, UK_PATH, ext);
        }
    }
    spans[UK_G_PATH + 1] = i;

    /* "?" query (RFC 3986 §3.4; iprivate only here, RFC 3987 §2.2) */
    if (i < n && s[i] == '?') {
        spans[UK_G_QUERY] = ++i;
        i = UK_FN(uk_star)(s, i, n, UK_QUERY, query_ext);
        spans[UK_G_QUERY + 1] = i;
    }

    /* "#" fragment (RFC 3986 §3.5) */
    if (i < n && s[i] == '#') {
        spans[UK_G_FRAGMENT] = ++i;
        i = UK_FN(uk_star)(s, i, n, UK_FRAGMENT, ext);
        spans[UK_G_FRAGMENT + 1] = i;
    }
    return i == n;
}
