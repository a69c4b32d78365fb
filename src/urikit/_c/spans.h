/* Inline helpers on the spans of a reference: where a component starts given only
 * the ends of all eight (the storage of the value keeps the ends), and the invariant
 * every scan's spans keep.
 *
 * Plain C11 without the Python API.
 */
#ifndef URIKIT_C_SPANS_H
#define URIKIT_C_SPANS_H

#include <stddef.h>

#include "contracts.h"

/* Where component k starts, given only the ends of all eight (ends[j] = spans[2j + 1],
 * -1 for an undefined component) and that component k is defined.  The starts follow
 * from the delimiters of RFC 3986 §4.1, which stand between the components:
 *
 *     [ scheme ":" ] [ "//" [ userinfo "@" ] host [ ":" port ] ] path
 *     [ "?" query ] [ "#" fragment ]
 *
 * so a value can keep the eight ends alone (the authority ends where the path starts). */
static inline ptrdiff_t uk_component_start(const ptrdiff_t ends[UK_COMPONENTS], int k)
{
    ptrdiff_t after_scheme = ends[UK_C_SCHEME] >= 0 ? ends[UK_C_SCHEME] + 1 : 0;
    switch (k) {
    case UK_C_SCHEME:
        return 0;
    case UK_C_AUTHORITY:
    case UK_C_USERINFO:
        return after_scheme + 2; /* "//" */
    case UK_C_HOST:
        return ends[UK_C_USERINFO] >= 0 ? ends[UK_C_USERINFO] + 1 : after_scheme + 2;
    case UK_C_PORT:
        return ends[UK_C_HOST] + 1; /* ":" */
    case UK_C_PATH:
        return ends[UK_C_AUTHORITY] >= 0 ? ends[UK_C_AUTHORITY] : after_scheme;
    case UK_C_QUERY:
        return ends[UK_C_PATH] + 1; /* "?" */
    default: /* UK_C_FRAGMENT, after "#" */
        return (ends[UK_C_QUERY] >= 0 ? ends[UK_C_QUERY] : ends[UK_C_PATH]) + 1;
    }
}

/* Do the spans of a reference of n code units keep the order of RFC 3986 §4.1?  Each
 * component is undefined (-1, -1) or within the text, start <= end <= n; the path is
 * defined; the authority is defined exactly when the host is; each starts where the
 * one before it ends plus its delimiter ("scheme:", "//", "userinfo@", "host:port",
 * "?query", "#fragment"), the authority spans its parts, and the last ends at n.  So
 * the ends are monotonic, and every start is uk_component_start of the ends. */
static inline int uk_spans_in_order(const ptrdiff_t sp[UK_SPANS], ptrdiff_t n)
{
    for (int g = 0; g < UK_SPANS; g += 2) {
        if (sp[g] < 0 ? sp[g] != -1 || sp[g + 1] != -1 : sp[g] > sp[g + 1] || sp[g + 1] > n) {
            return 0;
        }
    }
    if (sp[UK_G_PATH] < 0 || (sp[UK_G_AUTHORITY] < 0) != (sp[UK_G_HOST] < 0)) {
        return 0;
    }
    ptrdiff_t at = 0; /* where the next component starts */
    if (sp[UK_G_SCHEME] >= 0) {
        if (sp[UK_G_SCHEME] != 0 || sp[UK_G_SCHEME + 1] == 0) {
            return 0;
        }
        at = sp[UK_G_SCHEME + 1] + 1;
    }
    if (sp[UK_G_AUTHORITY] >= 0) {
        if (sp[UK_G_AUTHORITY] != at + 2) {
            return 0;
        }
        at += 2;
        if (sp[UK_G_USERINFO] >= 0) {
            if (sp[UK_G_USERINFO] != at) {
                return 0;
            }
            at = sp[UK_G_USERINFO + 1] + 1;
        }
        if (sp[UK_G_HOST] != at) {
            return 0;
        }
        at = sp[UK_G_HOST + 1];
        if (sp[UK_G_PORT] >= 0) {
            if (sp[UK_G_PORT] != at + 1) {
                return 0;
            }
            at = sp[UK_G_PORT + 1];
        }
        if (sp[UK_G_AUTHORITY + 1] != at) {
            return 0;
        }
    } else if (sp[UK_G_USERINFO] >= 0 || sp[UK_G_PORT] >= 0) {
        return 0;
    }
    if (sp[UK_G_PATH] != at) {
        return 0;
    }
    at = sp[UK_G_PATH + 1];
    for (int g = UK_G_QUERY; g <= UK_G_FRAGMENT; g += 2) {
        if (sp[g] >= 0) {
            if (sp[g] != at + 1) {
                return 0;
            }
            at = sp[g + 1];
        }
    }
    return at == n;
}

/* Do the ends of the eight components (-1 for an undefined one) of a reference of n
 * code units, with the starts uk_component_start derives, keep that order? */
static inline int uk_ends_in_order(const ptrdiff_t ends[UK_COMPONENTS], ptrdiff_t n)
{
    ptrdiff_t spans[UK_SPANS];
    for (int k = 0; k < UK_COMPONENTS; k++) {
        spans[2 * k] = ends[k] < 0 ? -1 : uk_component_start(ends, k);
        spans[2 * k + 1] = ends[k];
    }
    return uk_spans_in_order(spans, n);
}

#endif /* URIKIT_C_SPANS_H */
