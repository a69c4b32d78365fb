/* The two passes of lenient_encode for one width of code unit; included by
 * _speedups_lenient.h once per width, with UK_CHAR the code-unit type and UK_FN(name)
 * the name for that width. */
#ifndef UK_CHAR
#error "define UK_CHAR and UK_FN before including _speedups_lenient_kind.h"
#endif

/* The code of the ASCII character s[i] (UK_L_KEPT when it stays as it is). */
static inline int UK_FN(uk_lenient_ascii)(const uk_lenient *l, const UK_CHAR *s, Py_ssize_t i)
{
    int code = l->ascii[s[i]];
    if (code != UK_L_PLACED) {
        return code;
    }
    Py_UCS4 c2 = l->n - i > 1 ? s[i + 1] : 0, c3 = l->n - i > 2 ? s[i + 2] : 0;
    return uk_lenient_placed(l, i, s[i], c2, c3);
}

/* The end of the stretch from i of code units equal to s[i] (a non-ASCII one, whose
 * code does not depend on where it stands). */
static inline Py_ssize_t UK_FN(uk_lenient_same)(const UK_CHAR *s, Py_ssize_t i, Py_ssize_t n)
{
    Py_ssize_t j = i + 1;
    while (j < n && s[j] == s[i]) {
        j++;
    }
    return j;
}

/* The end of the stretch from i of ASCII characters that stay as they are but for "%"
 * (RFC 3986 §3.4). */
static inline Py_ssize_t UK_FN(uk_lenient_plain)(const uk_lenient *l, const UK_CHAR *s,
                                                 Py_ssize_t i)
{
    while (i < l->n && s[i] < 0x80 && l->ascii[s[i]] == UK_L_KEPT) {
        i++;
    }
    return i;
}

/* The first pass: the runs of each code into r, the widest character kept into
 * *widest; the length of the result, or -1 with an exception set, or -2 - i for a
 * lone surrogate at i. */
static Py_ssize_t UK_FN(uk_lenient_measure)(uk_lenient *l, const UK_CHAR *s,
                                            uk_lenient_runs *r, Py_UCS4 *widest)
{
    Py_ssize_t length = 0, run_start = 0;
    int run_code = UK_L_KEPT; /* the code of the run s[run_start..i-1] */
    Py_ssize_t next;
    for (Py_ssize_t i = 0; i < l->n; i = next) {
        Py_UCS4 c = s[i];
        int code;
        if (c < 0x80) {
            code = UK_FN(uk_lenient_ascii)(l, s, i);
            next = code == UK_L_KEPT ? UK_FN(uk_lenient_plain)(l, s, i + 1) : i + 1;
            length += code == UK_L_KEPT ? next - i : code == UK_L_EMBEDDED ? 0 : 3;
        } else {
            const uk_wide_seen *e = uk_lenient_wide(l, c);
            code = e->code;
            if (code == UK_L_SURROGATE) {
                return -2 - i;
            }
            next = UK_FN(uk_lenient_same)(s, i, l->n);
            length += (next - i) * (code == UK_L_KEPT ? 1 : e->n);
            if (code == UK_L_KEPT && c > *widest) {
                *widest = c;
            }
        }
        /* a run ends where another code starts; a "#" or bracket is a run alone */
        if (code != run_code || code == UK_L_HASH || code == UK_L_BRACKET) {
            if (run_code != UK_L_KEPT && uk_lenient_run(r, run_code, run_start, i) < 0) {
                return -1;
            }
            run_code = code;
            run_start = i;
        }
    }
    if (run_code != UK_L_KEPT && uk_lenient_run(r, run_code, run_start, l->n) < 0) {
        return -1;
    }
    return length;
}

/* The second pass: the result into out, of the length the first pass gave; in octets
 * when narrow (every character of the result is below U+0100), else in code units of
 * the width of s. */
static void UK_FN(uk_lenient_write)(uk_lenient *l, const UK_CHAR *s, void *out,
                                    Py_ssize_t length, int narrow)
{
    Py_UCS1 *octets_out = out;
    UK_CHAR *units_out = out;
    Py_ssize_t o = 0;
    for (Py_ssize_t i = 0; i < l->n; i++) {
        Py_UCS4 c = s[i];
        if (c < 0x80) {
            int code = UK_FN(uk_lenient_ascii)(l, s, i);
            if (code == UK_L_EMBEDDED) {
                continue;
            }
            if (code == UK_L_KEPT) {
                Py_ssize_t end = UK_FN(uk_lenient_plain)(l, s, i + 1);
                if (narrow && sizeof(UK_CHAR) > 1) {
                    for (; i < end; i++) {
                        octets_out[o++] = (Py_UCS1)s[i];
                    }
                } else {
                    memcpy(units_out + o, s + i, (size_t)(end - i) * sizeof(UK_CHAR));
                    o += end - i;
                }
                i = end - 1;
                continue;
            }
            /* each unit stored as it is made: a triplet built on the stack first was
             * read back two octets at a time, which waits for the stores */
            Py_UCS1 high = (Py_UCS1)uk_upper_hex[c >> 4], low = (Py_UCS1)uk_upper_hex[c & 0xF];
            if (narrow) {
                octets_out[o] = '%';
                octets_out[o + 1] = high;
                octets_out[o + 2] = low;
            } else {
                units_out[o] = '%';
                units_out[o + 1] = high;
                units_out[o + 2] = low;
            }
            o += 3;
            continue;
        }
        const uk_wide_seen *e = uk_lenient_wide(l, c);
        if (e->code == UK_L_KEPT) {
            if (narrow) {
                octets_out[o++] = (Py_UCS1)c;
            } else {
                units_out[o++] = (UK_CHAR)c;
            }
            continue;
        }
        Py_ssize_t first = o;
        if (narrow && length - o >= 12) { /* a copy of fixed size: no call */
            memcpy(octets_out + o, e->triplets, 12);
            o += e->n;
        } else {
            for (int k = 0; k < e->n; k++) {
                if (narrow) {
                    octets_out[o++] = e->triplets[k];
                } else {
                    units_out[o++] = e->triplets[k];
                }
            }
        }
        /* the same character again (a hostile run): its triplets copied, the copy
         * doubling at each step */
        Py_ssize_t end = UK_FN(uk_lenient_same)(s, i, l->n), total = (end - i) * e->n;
        size_t unit = narrow ? 1 : sizeof(UK_CHAR);
        char *base = (char *)out + (size_t)first * unit;
        for (Py_ssize_t done = e->n; done < total; done *= 2) {
            Py_ssize_t part = done < total - done ? done : total - done;
            memcpy(base + (size_t)done * unit, base, (size_t)part * unit);
        }
        o = first + total;
        i = end - 1;
    }
}
