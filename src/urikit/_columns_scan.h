/* The URI scanner of the column kernel: uk_scan_ucs1 of _speedups_scan.h with the URI
 * grammar (iri == 0), for octets, over a 256-entry class table.
 *
 * Plain C11 without the Python API.  It takes the same steps as uk_scan of
 * _speedups_scan_kind.h and gives the same answer and spans for every octet string
 * (tests/fuzz/scan_fuzz.c checks it against uk_scan_ucs1); what differs is only how
 * the runs are read:
 *
 * - an octet's classes are one load from a table of 256 entries, so an octet at or
 *   above 0x80 (in no class of the URI grammar, RFC 3986 §2) needs no test of its own;
 * - a run of a class reads four octets per step while all four are members;
 * - the authority is read once: its *( userinfo ) run stops at "@" exactly when there
 *   is a userinfo (RFC 3986 §3.2.1), and otherwise the host is the part of that run
 *   before its first ":", as reg-name is userinfo without ":" (RFC 3986 §3.2.2); the
 *   run is read as a reg-name run, continued as a userinfo run from a ":" that ends
 *   it, so the end of the host is known without a second look.
 *
 * Every step looks at each octet a bounded number of times, allocates nothing and
 * reads only s[0..n-1].
 */
#ifndef URIKIT_COLUMNS_SCAN_H
#define URIKIT_COLUMNS_SCAN_H

#include <stddef.h>
#include <stdint.h>

#include "_speedups_scan.h"

/* The classes of every octet: those of uk_ascii_class below 0x80, none above. */
typedef struct {
    uint16_t of[256];
} uk8_table;

static inline void uk8_table_init(uk8_table *t)
{
    for (int c = 0; c < 256; c++) {
        t->of[c] = c < 0x80 ? uk_ascii_class[c] : 0;
    }
}

/* The end of the maximal run of one class bit from i, without pct-encoded. */
static inline ptrdiff_t uk8_run(const uk8_table *t, const uint8_t *s, ptrdiff_t i,
                                ptrdiff_t end, unsigned bit)
{
    const uint16_t *of = t->of;
    while (end - i >= 4 && (of[s[i]] & of[s[i + 1]] & of[s[i + 2]] & of[s[i + 3]] & bit)) {
        i += 4;
    }
    while (i < end && (of[s[i]] & bit)) {
        i++;
    }
    return i;
}

/* The end of the maximal *( class / pct-encoded ) run from i, for one class bit;
 * pct-encoded = "%" HEXDIG HEXDIG (RFC 3986 §2.1), "%" being in no class. */
static inline ptrdiff_t uk8_star(const uk8_table *t, const uint8_t *s, ptrdiff_t i,
                                 ptrdiff_t end, unsigned bit)
{
    const uint16_t *of = t->of;
    for (;;) {
        i = uk8_run(t, s, i, end, bit);
        if (end - i > 2 && s[i] == '%' && (of[s[i + 1]] & of[s[i + 2]] & UK_HEXDIG)) {
            i += 3;
            continue;
        }
        return i;
    }
}

/* URI-reference = URI / relative-ref (RFC 3986 §4.1): 1 with the spans of the eight
 * components in spans (as uk_scan gives them), else 0 with spans unspecified. */
static inline int uk8_scan(const uk8_table *t, const uint8_t *s, ptrdiff_t n,
                           ptrdiff_t spans[UK_SPANS])
{
    const uint16_t *of = t->of;
    ptrdiff_t i = 0;
    for (int k = 0; k < UK_SPANS; k++) {
        spans[k] = -1;
    }

    /* scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ), then ":" (RFC 3986 §3.1) */
    if (n > 0 && (of[s[0]] & UK_SCHEME_FIRST)) {
        ptrdiff_t j = uk8_run(t, s, 1, n, UK_SCHEME);
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
        /* [ userinfo "@" ] (RFC 3986 §3.2.1): no "@" is in userinfo, host or port,
         * so the userinfo run ends at "@" exactly when the authority has one.  That
         * run is read as a reg-name run (userinfo without ":", RFC 3986 §3.2.2) and,
         * from a ":" at its end, on as a userinfo run: without a userinfo, the
         * reg-name run is the host when the host is not an IP-literal. */
        ptrdiff_t reg_end = uk8_star(t, s, i, n, UK_REG_NAME);
        ptrdiff_t run = reg_end;
        if (run < n && s[run] == ':') {
            run = uk8_star(t, s, run + 1, n, UK_USERINFO);
        }
        int has_userinfo = run < n && s[run] == '@';
        if (has_userinfo) {
            spans[UK_G_USERINFO] = i;
            spans[UK_G_USERINFO + 1] = run;
            i = run + 1;
        }
        /* host = IP-literal / IPv4address / reg-name (RFC 3986 §3.2.2) */
        spans[UK_G_HOST] = i;
        if (i < n && s[i] == '[') {
            /* No "]" is inside an IP-literal: it ends at the first one. */
            ptrdiff_t close = i + 1;
            while (close < n && s[close] != ']') {
                close++;
            }
            if (close == n || !uk_ip_literal_ucs1(s, i + 1, close)) {
                return 0;
            }
            i = close + 1;
        } else if (has_userinfo) {
            i = uk8_star(t, s, i, n, UK_REG_NAME);
        } else {
            i = reg_end;
        }
        spans[UK_G_HOST + 1] = i;

        /* ":" port, port = *DIGIT (RFC 3986 §3.2.3) */
        if (i < n && s[i] == ':') {
            spans[UK_G_PORT] = ++i;
            while (i < n && (of[s[i]] & UK_DIGIT)) {
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
            i = uk8_star(t, s, i, n, UK_PATH);
        }
    } else if (spans[UK_G_SCHEME] == 0) {
        /* path-absolute / path-rootless / path-empty */
        i = uk8_star(t, s, i, n, UK_PATH);
    } else if (i < n && s[i] == '/') {
        /* path-absolute */
        i = uk8_star(t, s, i, n, UK_PATH);
    } else {
        /* path-noscheme / path-empty: no ":" in the first segment (RFC 3986 §4.2) */
        i = uk8_star(t, s, i, n, UK_PCHAR_NC);
        if (i < n && s[i] == '/') {
            i = uk8_star(t, s, i, n, UK_PATH);
        }
    }
    spans[UK_G_PATH + 1] = i;

    /* "?" query (RFC 3986 §3.4) */
    if (i < n && s[i] == '?') {
        spans[UK_G_QUERY] = ++i;
        i = uk8_star(t, s, i, n, UK_QUERY);
        spans[UK_G_QUERY + 1] = i;
    }

    /* "#" fragment (RFC 3986 §3.5) */
    if (i < n && s[i] == '#') {
        spans[UK_G_FRAGMENT] = ++i;
        i = uk8_star(t, s, i, n, UK_FRAGMENT);
        spans[UK_G_FRAGMENT + 1] = i;
    }
    return i == n;
}

#endif /* URIKIT_COLUMNS_SCAN_H */
