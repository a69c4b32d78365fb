/* The syntax of a URI Template (RFC 6570 §2), read as urikit.template.syntax reads it: the
 * same steps, failing at the same character.  The literals follow erratum 6937 (the
 * apostrophe is a literal, %x26-3B). */
#include "template.h"

/* literals = %x21 / %x23-24 / %x26-3B / %x3D / %x3F-5B / %x5D / %x5F / %x61-7A / %x7E
 *          / ucschar / iprivate / pct-encoded     ("%" is read as pct-encoded, apart) */
static int is_literal(Py_UCS4 c)
{
    if (c < 0x80) {
        return c == 0x21 || c == 0x23 || c == 0x24 || (c >= 0x26 && c <= 0x3B) || c == 0x3D ||
               (c >= 0x3F && c <= 0x5B) || c == 0x5D || c == 0x5F || (c >= 0x61 && c <= 0x7A) ||
               c == 0x7E;
    }
    /* ucschar = %xA0-D7FF / %xF900-FDCF / %xFDF0-FFEF / %x10000-1FFFD / ... / %xE1000-EFFFD */
    if (c >= 0xA0 && c <= 0xD7FF) {
        return 1;
    }
    /* iprivate = %xE000-F8FF / %xF0000-FFFFD / %x100000-10FFFD */
    if (c >= 0xE000 && c <= 0xF8FF) {
        return 1;
    }
    if (c >= 0xF900 && c <= 0xFDCF) {
        return 1;
    }
    if (c >= 0xFDF0 && c <= 0xFFEF) {
        return 1;
    }
    if (c >= 0x10000) {
        Py_UCS4 low = c & 0xFFFF;
        Py_UCS4 plane = c >> 16;
        if (low > 0xFFFD) {
            return 0;
        }
        return plane <= 13 || (plane == 14 && low >= 0x1000) || plane == 15 || plane == 16;
    }
    return 0;
}

/* is_literal of each code point below 0x100, the code units of a str of the 1-byte kind;
 * made by ut_syntax_init. */
static uint8_t literal_ucs1[256];

void ut_syntax_init(void)
{
    for (Py_UCS4 c = 0; c < 256; c++) {
        literal_ucs1[c] = (uint8_t)is_literal(c);
    }
}

/* The end of the run of literals from i in the 1-byte text s[0..n-1] ("%" is in none). */
static inline Py_ssize_t literal_run_ucs1(const uint8_t *s, Py_ssize_t i, Py_ssize_t n)
{
    while (i < n && literal_ucs1[s[i]]) {
        i++;
    }
    return i;
}

static int is_hex(Py_UCS4 c)
{
    return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F') || (c >= 'a' && c <= 'f');
}

/* varchar = ALPHA / DIGIT / "_" / pct-encoded  ("%" apart) */
static int is_varchar(Py_UCS4 c)
{
    return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

/* The character at i, or 0 past the end: 0 (U+0000) belongs to no rule, so an error there
 * stands where it stands at the end. */
static inline Py_UCS4 at(const ut_text *t, Py_ssize_t i)
{
    return i < t->len ? ut_at(t, i) : 0;
}

/* pct-encoded = "%" HEXDIG HEXDIG, the "%" at i: the position after it, or -1 with *error */
static Py_ssize_t pct_encoded(const ut_text *t, Py_ssize_t i, Py_ssize_t *error)
{
    for (Py_ssize_t k = i + 1; k <= i + 2; k++) {
        if (!is_hex(at(t, k))) {
            *error = k;
            return -1;
        }
    }
    return i + 3;
}

/* varchar at i (after a "." too): the position after it, or -1 with *error */
static Py_ssize_t varchar(const ut_text *t, Py_ssize_t i, Py_ssize_t *error)
{
    Py_UCS4 c = at(t, i);
    if (c == '%') {
        return pct_encoded(t, i, error);
    }
    if (is_varchar(c)) {
        return i + 1;
    }
    *error = i;
    return -1;
}

/* expression = "{" [ operator ] variable-list "}", the "{" at start: the position after
 * it, or -1 with *error */
static Py_ssize_t expression(const ut_text *t, Py_ssize_t start, Py_ssize_t *error)
{
    Py_ssize_t i = start + 1;
    Py_UCS4 c = at(t, i);
    if (c != 0 && c < 0x80 && strchr("+#./;?&", (int)c) != NULL) {
        i++;
    } else if (c != 0 && c < 0x80 && strchr("=,!@|", (int)c) != NULL) {
        *error = i; /* op-reserve */
        return -1;
    }
    for (;;) {
        /* varname = varchar *( ["."] varchar ) */
        i = varchar(t, i, error);
        if (i < 0) {
            return -1;
        }
        for (;;) {
            c = at(t, i);
            if (c == '.') {
                i = varchar(t, i + 1, error);
            } else if (c == '%' || is_varchar(c)) {
                i = varchar(t, i, error);
            } else {
                break;
            }
            if (i < 0) {
                return -1;
            }
        }
        /* modifier-level4 = prefix / explode */
        c = at(t, i);
        if (c == '*') {
            i++;
        } else if (c == ':') {
            /* max-length = %x31-39 0*3DIGIT */
            i++;
            c = at(t, i);
            if (c < '1' || c > '9') {
                *error = i;
                return -1;
            }
            Py_ssize_t digits = i++;
            while ((c = at(t, i)) >= '0' && c <= '9') {
                if (i - digits == 4) {
                    *error = i;
                    return -1;
                }
                i++;
            }
        }
        c = at(t, i);
        if (c == ',') {
            i++;
            continue;
        }
        if (c == '}') {
            return i + 1;
        }
        *error = i;
        return -1;
    }
}

/* URI-Template = *( literals / expression ) */
Py_ssize_t ut_check(const ut_text *t)
{
    Py_ssize_t i = 0, n = t->len, error = -1;
    while (i < n) {
        if (t->kind == PyUnicode_1BYTE_KIND) {
            i = literal_run_ucs1((const uint8_t *)t->data, i, n);
            if (i == n) {
                break;
            }
        }
        Py_UCS4 c = ut_at(t, i);
        if (c == '{') {
            i = expression(t, i, &error);
        } else if (c == '%') {
            i = pct_encoded(t, i, &error);
        } else if (is_literal(c)) {
            i++;
        } else {
            return i;
        }
        if (i < 0) {
            UT_ASSERT(error >= 0 && error <= n);
            return error;
        }
        UT_ASSERT(i <= n);
    }
    return -1;
}
