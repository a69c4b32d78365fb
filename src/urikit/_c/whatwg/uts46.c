/* UTS #46 ToASCII as the URL Standard's domain parser calls it with beStrict false
 * (URL Standard §3.3): CheckHyphens, UseSTD3ASCIIRules and VerifyDnsLength false,
 * CheckBidi and CheckJoiners true, Nontransitional Processing, IgnoreInvalidPunycode
 * false.  The steps are urikit/uts46.py's (UTS #46 §4, §4.1, §4.2; RFC 5893 §2; RFC 5892
 * Appendix A; RFC 3492), on the tables tools/gen_uts46.py generates from the same data
 * (uts46_tables.h), with NFC (UAX #15) on those tables as urikit/_nfc.py does it.
 */
#include "whatwg.h"
#include "uts46_tables.h"

#define IDNA_VALID 0
#define IDNA_MAPPED 1
#define IDNA_IGNORED 2

static unsigned idna_value(Py_UCS4 cp)
{
    if (cp > 0x10FFFF) {
        return 3; /* disallowed */
    }
    return uts46_idna_data[uts46_idna_index[cp / UTS46_BLOCK] * UTS46_BLOCK + cp % UTS46_BLOCK];
}

static uint32_t props(Py_UCS4 cp)
{
    if (cp > 0x10FFFF) {
        return 0;
    }
    return uts46_prop_data[uts46_prop_index[cp / UTS46_BLOCK] * UTS46_BLOCK + cp % UTS46_BLOCK];
}

static int bidi_class(Py_UCS4 cp) { return (int)(props(cp) & 31); }
static int joining_type(Py_UCS4 cp) { return (int)((props(cp) >> 5) & 7); }
static int is_mark(Py_UCS4 cp) { return (int)((props(cp) >> 8) & 1); }
static int ccc(Py_UCS4 cp) { return (int)(props(cp) >> 9); }

/* -- a growable array of code points ---------------------------------------------------- */

typedef struct {
    Py_UCS4 *data;
    Py_ssize_t len, cap;
} cps;

/* Room for more code points; the array is allocated even for none, so that data is never
 * NULL once reserved. */
static int cps_reserve(cps *a, Py_ssize_t more)
{
    if (a->len + more <= a->cap && a->data != NULL) {
        return 0;
    }
    Py_ssize_t cap = a->cap * 2 + more + 16;
    Py_UCS4 *data = PyMem_Realloc(a->data, (size_t)cap * sizeof(Py_UCS4));
    if (data == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    a->data = data;
    a->cap = cap;
    return 0;
}

static int cps_put(cps *a, Py_UCS4 c)
{
    if (cps_reserve(a, 1) < 0) {
        return -1;
    }
    a->data[a->len++] = c;
    return 0;
}

/* -- NFC (UAX #15, Unicode §3.11, §3.12) -------------------------------------------------- */

#define S_BASE 0xAC00
#define L_BASE 0x1100
#define V_BASE 0x1161
#define T_BASE 0x11A7
#define L_COUNT 19
#define V_COUNT 21
#define T_COUNT 28
#define N_COUNT (V_COUNT * T_COUNT)
#define S_COUNT (L_COUNT * N_COUNT)

static int decompose(Py_UCS4 cp, cps *out)
{
    if (cp >= S_BASE && cp < S_BASE + S_COUNT) {
        Py_UCS4 s = cp - S_BASE;
        if (cps_put(out, L_BASE + s / N_COUNT) < 0 || cps_put(out, V_BASE + (s % N_COUNT) / T_COUNT) < 0) {
            return -1;
        }
        return s % T_COUNT ? cps_put(out, T_BASE + s % T_COUNT) : 0;
    }
    Py_ssize_t lo = 0, hi = UTS46_DECOMPOSITION_COUNT;
    while (lo < hi) {
        Py_ssize_t mid = (lo + hi) / 2;
        if (uts46_decomp_cp[mid] < cp) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    if (lo == UTS46_DECOMPOSITION_COUNT || uts46_decomp_cp[lo] != cp) {
        return cps_put(out, cp);
    }
    for (uint16_t i = uts46_decomp_offset[lo]; i < uts46_decomp_offset[lo + 1]; i++) {
        if (decompose(uts46_decomp_text[i], out) < 0) {
            return -1;
        }
    }
    return 0;
}

static Py_UCS4 compose_pair(Py_UCS4 a, Py_UCS4 b)
{
    if (a >= L_BASE && a < L_BASE + L_COUNT && b >= V_BASE && b < V_BASE + V_COUNT) {
        return S_BASE + ((a - L_BASE) * V_COUNT + (b - V_BASE)) * T_COUNT;
    }
    if (a >= S_BASE && a < S_BASE + S_COUNT && (a - S_BASE) % T_COUNT == 0 && b > T_BASE
        && b < T_BASE + T_COUNT) {
        return a + (b - T_BASE);
    }
    Py_ssize_t lo = 0, hi = UTS46_COMPOSITION_COUNT;
    while (lo < hi) {
        Py_ssize_t mid = (lo + hi) / 2;
        if (uts46_compose_first[mid] < a || (uts46_compose_first[mid] == a && uts46_compose_second[mid] < b)) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    if (lo < UTS46_COMPOSITION_COUNT && uts46_compose_first[lo] == a && uts46_compose_second[lo] == b) {
        return uts46_compose_result[lo];
    }
    return 0;
}

/* a[0:len] in Normalization Form C, in place (composition only shortens). */
static int nfc(cps *a)
{
    int simple = 1;
    for (Py_ssize_t i = 0; i < a->len; i++) {
        if (a->data[i] >= 0x300) {
            simple = 0;
            break;
        }
    }
    if (simple) {
        return 0;
    }
    cps d = {NULL, 0, 0};
    for (Py_ssize_t i = 0; i < a->len; i++) {
        if (decompose(a->data[i], &d) < 0) {
            PyMem_Free(d.data);
            return -1;
        }
    }
    /* The canonical ordering algorithm: each run of non-starters sorted stably by combining
     * class (a counting sort, so that a long run takes linear time). */
    for (Py_ssize_t i = 0; i < d.len;) {
        if (ccc(d.data[i]) == 0) {
            i++;
            continue;
        }
        Py_ssize_t j = i;
        int sorted = 1, previous = 0;
        while (j < d.len && ccc(d.data[j]) != 0) {
            sorted &= ccc(d.data[j]) >= previous;
            previous = ccc(d.data[j]);
            j++;
        }
        if (!sorted) {
            Py_ssize_t counts[257] = {0};
            Py_UCS4 *run = PyMem_Malloc((size_t)(j - i) * sizeof(Py_UCS4));
            if (run == NULL) {
                PyMem_Free(d.data);
                PyErr_NoMemory();
                return -1;
            }
            memcpy(run, d.data + i, (size_t)(j - i) * sizeof(Py_UCS4));
            for (Py_ssize_t k = 0; k < j - i; k++) {
                counts[ccc(run[k]) + 1]++;
            }
            for (int c = 1; c < 257; c++) {
                counts[c] += counts[c - 1];
            }
            for (Py_ssize_t k = 0; k < j - i; k++) {
                d.data[i + counts[ccc(run[k])]++] = run[k];
            }
            PyMem_Free(run);
        }
        i = j;
    }
    /* Canonical composition with the last starter that nothing blocks. */
    Py_ssize_t out = 0, starter = -1;
    int last = 256;
    for (Py_ssize_t i = 0; i < d.len; i++) {
        Py_UCS4 cp = d.data[i];
        int c = ccc(cp);
        if (starter >= 0 && (last == -1 || last < c)) {
            Py_UCS4 composite = compose_pair(d.data[starter], cp);
            if (composite) {
                d.data[starter] = composite;
                continue;
            }
        }
        if (c == 0) {
            starter = out;
            last = -1;
        } else {
            last = c;
        }
        d.data[out++] = cp;
    }
    PyMem_Free(a->data);
    a->data = d.data;
    a->len = out;
    a->cap = d.cap;
    return 0;
}

/* -- Punycode (RFC 3492) ------------------------------------------------------------------ */

#define BASE 36
#define TMIN 1
#define TMAX 26
#define SKEW 38
#define DAMP 700
#define INITIAL_BIAS 72
#define INITIAL_N 0x80
#define MAXINT 0x7FFFFFFF

static uint32_t adapt(uint32_t delta, uint32_t numpoints, int firsttime)
{
    delta = firsttime ? delta / DAMP : delta / 2;
    delta += delta / numpoints;
    uint32_t k = 0;
    while (delta > ((BASE - TMIN) * TMAX) / 2) {
        delta /= BASE - TMIN;
        k += BASE;
    }
    return k + (((BASE - TMIN + 1) * delta) / (delta + SKEW));
}

static uint32_t threshold(uint32_t k, uint32_t bias)
{
    return k <= bias ? TMIN : k >= bias + TMAX ? TMAX : k - bias;
}

/* The output of RFC 3492 §6.2 (punycode.py place_insertions): the b basic code points,
 * into which the k-th insertion puts cp[k] at index at[k], for k from 0 to m - 1, written
 * to dst (room for b + m).  Read in reverse, the k-th insertion ends at the at[k]-th (from
 * 0) of the places that no later one takes, and the basic code points fill the places
 * none takes; a binary indexed tree over the places counts those still free and finds
 * that place in O(log n) steps, so the whole takes O(n log n), where inserting into an
 * array takes O(n²).  0, -1 on error. */
static int place_insertions(const Py_UCS4 *basic, Py_ssize_t b, const uint32_t *at, const Py_UCS4 *cp,
                            Py_ssize_t m, Py_UCS4 *dst)
{
    Py_ssize_t size = b + m, top = 1;
    while (top < size) {
        top <<= 1;
    }
    /* tree[p] counts the free places p - lowbit(p) + 1 to p (from 1); the places past size
     * count as free, but come after every place of the output, and at[k] is less than the
     * b + k + 1 places of the output still free, so none of them is ever taken. */
    Py_ssize_t *tree = PyMem_Malloc((size_t)(top + 1) * sizeof(Py_ssize_t));
    if (tree == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t p = 1; p <= top; p++) {
        tree[p] = p & -p;
    }
    for (Py_ssize_t p = 0; p < size; p++) {
        dst[p] = 0xFFFFFFFF; /* free: no code point has this value */
    }
    for (Py_ssize_t k = m - 1; k >= 0; k--) {
        /* Descend from the root: step over a node whose free places all come before the
         * one sought; a node not stepped over holds it, and has one free place less. */
        Py_ssize_t place = 0, rank = at[k];
        for (Py_ssize_t step = top; step > 0; step >>= 1) {
            Py_ssize_t node = place + step;
            if (tree[node] <= rank) {
                place = node;
                rank -= tree[node];
            } else {
                tree[node]--;
            }
        }
        dst[place] = cp[k];
    }
    for (Py_ssize_t p = 0, j = 0; p < size; p++) {
        if (dst[p] == 0xFFFFFFFF) {
            dst[p] = basic[j++];
        }
    }
    PyMem_Free(tree);
    return 0;
}

/* RFC 3492 §6.2 of s[0:n] (ASCII), appended to out; the step "insert n into output at
 * position i" is recorded, and place_insertions makes the output.  1, 0 for failure,
 * -1 on error. */
static int punycode_decode(const Py_UCS4 *s, Py_ssize_t n, cps *out)
{
    Py_ssize_t b = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (s[i] == '-') {
            b = i;
        }
    }
    for (Py_ssize_t i = 0; i < b; i++) {
        if (s[i] >= 0x80) {
            return 0;
        }
    }
    /* At most one insertion per input code point after the delimiter. */
    Py_ssize_t most = n - b;
    uint32_t *at = PyMem_Malloc((size_t)(most + 1) * sizeof(uint32_t));
    Py_UCS4 *cp = PyMem_Malloc((size_t)(most + 1) * sizeof(Py_UCS4));
    int result = -1;
    if (at == NULL || cp == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t m = 0; /* the insertions; length(output) is b + m */
    uint64_t nn = INITIAL_N, i = 0, bias = INITIAL_BIAS;
    result = 0;
    for (Py_ssize_t pos = b > 0 ? b + 1 : 0; pos < n;) {
        uint64_t oldi = i, w = 1;
        for (uint64_t k = BASE;; k += BASE) {
            if (pos >= n) {
                goto done;
            }
            Py_UCS4 c = s[pos++];
            uint64_t digit = c >= '0' && c <= '9' ? c - 22 : (c | 0x20) >= 'a' && (c | 0x20) <= 'z' ? (c | 0x20) - 'a' : BASE;
            if (digit >= BASE || digit > (MAXINT - i) / w) {
                goto done;
            }
            i += digit * w;
            uint64_t t = threshold((uint32_t)k, (uint32_t)bias);
            if (digit < t) {
                break;
            }
            if (w > MAXINT / (BASE - t)) {
                goto done;
            }
            w *= BASE - t;
        }
        uint64_t count = (uint64_t)(b + m) + 1;
        bias = adapt((uint32_t)(i - oldi), (uint32_t)count, oldi == 0);
        if (i / count > MAXINT - nn) {
            goto done;
        }
        nn += i / count;
        i %= count;
        if (nn > 0x10FFFF || (nn >= 0xD800 && nn <= 0xDFFF)) {
            goto done;
        }
        at[m] = (uint32_t)i;
        cp[m] = (Py_UCS4)nn;
        m++;
        i++;
    }
    result = -1;
    if (cps_reserve(out, b + m) < 0 || place_insertions(s, b, at, cp, m, out->data + out->len) < 0) {
        goto done;
    }
    out->len += b + m;
    result = 1;
done:
    PyMem_Free(at);
    PyMem_Free(cp);
    return result;
}

static char digit_char(uint32_t d)
{
    return (char)(d < 26 ? 'a' + d : '0' + (d - 26));
}

/* RFC 3492 §6.3 of s[0:n], appended to dst; the code points below n before each
 * occurrence counted with a binary indexed tree (punycode.py encode).  1, 0 for
 * overflow, -1 on error. */
static int punycode_encode(const Py_UCS4 *s, Py_ssize_t n, wu_buffer *dst)
{
    Py_ssize_t *order = PyMem_Malloc((size_t)(n + 1) * sizeof(Py_ssize_t));
    uint32_t *tree = PyMem_Calloc((size_t)n + 1, sizeof(uint32_t));
    int result = -1;
    if (order == NULL || tree == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t h = 0, count = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (s[i] < INITIAL_N) {
            if (wu_put(dst, (char)s[i]) < 0) {
                goto done;
            }
            h++;
            for (Py_ssize_t p = i + 1; p <= n; p += p & -p) {
                tree[p]++;
            }
        } else {
            order[count++] = i;
        }
    }
    Py_ssize_t b = h;
    if (b > 0 && wu_put(dst, '-') < 0) {
        goto done;
    }
    /* The non-basic positions by (code point, position): an insertion sort is quadratic, so
     * a merge sort. */
    Py_ssize_t *tmp = PyMem_Malloc((size_t)(count + 1) * sizeof(Py_ssize_t));
    if (tmp == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t width = 1; width < count; width *= 2) {
        for (Py_ssize_t lo = 0; lo < count; lo += 2 * width) {
            Py_ssize_t mid = lo + width < count ? lo + width : count;
            Py_ssize_t hi = lo + 2 * width < count ? lo + 2 * width : count;
            Py_ssize_t x = lo, y = mid, z = lo;
            while (x < mid && y < hi) {
                tmp[z++] = s[order[y]] < s[order[x]] ? order[y++] : order[x++];
            }
            while (x < mid) {
                tmp[z++] = order[x++];
            }
            while (y < hi) {
                tmp[z++] = order[y++];
            }
        }
        memcpy(order, tmp, (size_t)count * sizeof(Py_ssize_t));
    }
    PyMem_Free(tmp);
    uint64_t nn = INITIAL_N, delta = 0, bias = INITIAL_BIAS;
    for (Py_ssize_t j = 0; j < count;) {
        Py_UCS4 m = s[order[j]];
        Py_ssize_t first = j;
        delta += (uint64_t)(m - nn) * (uint64_t)(h + 1);
        if (delta > MAXINT) {
            result = 0;
            goto done;
        }
        nn = m;
        uint64_t previous = 0;
        for (; j < count && s[order[j]] == m; j++) {
            uint64_t before = 0;
            for (Py_ssize_t p = order[j]; p > 0; p -= p & -p) {
                before += tree[p];
            }
            delta += before - previous;
            previous = before;
            if (delta > MAXINT) {
                result = 0;
                goto done;
            }
            uint64_t q = delta;
            for (uint64_t k = BASE;; k += BASE) {
                uint64_t t = threshold((uint32_t)k, (uint32_t)bias);
                if (q < t) {
                    break;
                }
                if (wu_put(dst, digit_char((uint32_t)(t + (q - t) % (BASE - t)))) < 0) {
                    goto done;
                }
                q = (q - t) / (BASE - t);
            }
            if (wu_put(dst, digit_char((uint32_t)q)) < 0) {
                goto done;
            }
            bias = adapt((uint32_t)delta, (uint32_t)(h + 1), h == b);
            delta = 0;
            h++;
        }
        uint64_t all = 0;
        for (Py_ssize_t p = n; p > 0; p -= p & -p) {
            all += tree[p];
        }
        delta += all - previous;
        for (Py_ssize_t x = first; x < j; x++) {
            for (Py_ssize_t p = order[x] + 1; p <= n; p += p & -p) {
                tree[p]++;
            }
        }
        delta++;
        nn++;
    }
    result = 1;
done:
    PyMem_Free(order);
    PyMem_Free(tree);
    return result;
}

/* -- UTS #46 §4 and §4.1 ----------------------------------------------------------------- */

static int starts_with_xn(const Py_UCS4 *s, Py_ssize_t n)
{
    return n >= 4 && s[0] == 'x' && s[1] == 'n' && s[2] == '-' && s[3] == '-';
}

/* RFC 5892 Appendix A.1 and A.2 (ContextJ): 1 when every joiner is in its context. */
static int context_j(const Py_UCS4 *s, Py_ssize_t n)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        if (s[i] != 0x200C && s[i] != 0x200D) {
            continue;
        }
        if (i > 0 && ccc(s[i - 1]) == 9) { /* after a virama */
            continue;
        }
        if (s[i] == 0x200D) {
            return 0;
        }
        /* (Joining_Type:{L,D})(Joining_Type:T)*\u200C(Joining_Type:T)*(Joining_Type:{R,D}) */
        Py_ssize_t j = i - 1;
        while (j >= 0 && joining_type(s[j]) == UTS46_JOINING_T) {
            j--;
        }
        if (j < 0 || (joining_type(s[j]) != UTS46_JOINING_L && joining_type(s[j]) != UTS46_JOINING_D)) {
            return 0;
        }
        j = i + 1;
        while (j < n && joining_type(s[j]) == UTS46_JOINING_T) {
            j++;
        }
        if (j >= n || (joining_type(s[j]) != UTS46_JOINING_R && joining_type(s[j]) != UTS46_JOINING_D)) {
            return 0;
        }
    }
    return 1;
}

/* UTS #46 §4.1, the validity criteria (but 9), Nontransitional Processing, CheckHyphens and
 * UseSTD3ASCIIRules false, CheckJoiners true; criterion 1 (NFC) when decoded. */
static int valid_label(const Py_UCS4 *s, Py_ssize_t n, int decoded)
{
    if (decoded) {
        cps copy = {NULL, 0, 0};
        if (cps_reserve(&copy, n) < 0) {
            return -1;
        }
        memcpy(copy.data, s, (size_t)n * sizeof(Py_UCS4));
        copy.len = n;
        if (nfc(&copy) < 0) {
            PyMem_Free(copy.data);
            return -1;
        }
        int same = copy.len == n && memcmp(copy.data, s, (size_t)n * sizeof(Py_UCS4)) == 0;
        PyMem_Free(copy.data);
        if (!same) {
            return 0; /* V1 */
        }
    }
    if (starts_with_xn(s, n)) {
        return 0; /* V4 */
    }
    if (n > 0 && is_mark(s[0])) {
        return 0; /* V6 */
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (s[i] == '.' || (idna_value(s[i]) & 3) != IDNA_VALID) {
            return 0; /* V5, V7 */
        }
    }
    return context_j(s, n); /* C1, C2 */
}

/* RFC 5893 §2, the Bidi Rule, for one label. */
static int bidi_rule(const Py_UCS4 *s, Py_ssize_t n)
{
    if (n == 0) {
        return 1;
    }
    int first = bidi_class(s[0]);
    if (first != UTS46_BIDI_L && first != UTS46_BIDI_R && first != UTS46_BIDI_AL) {
        return 0; /* 1 */
    }
    Py_ssize_t end = n;
    while (end > 0 && bidi_class(s[end - 1]) == UTS46_BIDI_NSM) {
        end--;
    }
    int last = end > 0 ? bidi_class(s[end - 1]) : UTS46_BIDI_NSM;
    int en = 0, an = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        int c = bidi_class(s[i]);
        en |= c == UTS46_BIDI_EN;
        an |= c == UTS46_BIDI_AN;
        if (first == UTS46_BIDI_L) {
            if (c != UTS46_BIDI_L && c != UTS46_BIDI_EN && c != UTS46_BIDI_ES && c != UTS46_BIDI_CS
                && c != UTS46_BIDI_ET && c != UTS46_BIDI_ON && c != UTS46_BIDI_BN && c != UTS46_BIDI_NSM) {
                return 0; /* 5 */
            }
        } else if (c != UTS46_BIDI_R && c != UTS46_BIDI_AL && c != UTS46_BIDI_AN && c != UTS46_BIDI_EN
                   && c != UTS46_BIDI_ES && c != UTS46_BIDI_CS && c != UTS46_BIDI_ET && c != UTS46_BIDI_ON
                   && c != UTS46_BIDI_BN && c != UTS46_BIDI_NSM) {
            return 0; /* 2 */
        }
    }
    if (first == UTS46_BIDI_L) {
        return last == UTS46_BIDI_L || last == UTS46_BIDI_EN; /* 6 */
    }
    if (last != UTS46_BIDI_R && last != UTS46_BIDI_AL && last != UTS46_BIDI_EN && last != UTS46_BIDI_AN) {
        return 0; /* 3 */
    }
    return !(en && an); /* 4 */
}

int wu_domain_to_ascii(const Py_UCS4 *domain, Py_ssize_t len, wu_buffer *out)
{
    cps mapped = {NULL, 0, 0}, labels = {NULL, 0, 0};
    Py_ssize_t *bounds = NULL; /* start and end of each label in labels.data */
    int result = -1;
    if (cps_reserve(&mapped, len) < 0 || cps_reserve(&labels, len) < 0) {
        goto done; /* both allocated, even when empty */
    }
    /* 1. Map. */
    for (Py_ssize_t i = 0; i < len; i++) {
        unsigned v = idna_value(domain[i]);
        if ((v & 3) == IDNA_MAPPED) {
            unsigned m = v >> 2;
            for (uint32_t k = uts46_map_offset[m]; k < uts46_map_offset[m + 1]; k++) {
                if (cps_put(&mapped, uts46_map_text[k]) < 0) {
                    goto done;
                }
            }
        } else if ((v & 3) != IDNA_IGNORED && cps_put(&mapped, domain[i]) < 0) {
            goto done;
        }
    }
    /* 2. Normalize. */
    if (nfc(&mapped) < 0) {
        goto done;
    }
    /* 3. Break, and 4. Convert/Validate, each label into `labels`. */
    Py_ssize_t count = 1;
    for (Py_ssize_t i = 0; i < mapped.len; i++) {
        count += mapped.data[i] == '.';
    }
    bounds = PyMem_Malloc((size_t)(2 * count) * sizeof(Py_ssize_t));
    if (bounds == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    int ok = 1, bidi_domain = 0;
    Py_ssize_t label = 0, start = 0;
    for (Py_ssize_t i = 0; i <= mapped.len; i++) {
        if (i < mapped.len && mapped.data[i] != '.') {
            continue;
        }
        const Py_UCS4 *s = mapped.data + start;
        Py_ssize_t n = i - start;
        bounds[2 * label] = labels.len;
        if (starts_with_xn(s, n)) {
            int ascii = 1;
            for (Py_ssize_t k = 4; k < n; k++) {
                ascii &= s[k] < 0x80;
            }
            int r = ascii ? punycode_decode(s + 4, n - 4, &labels) : 0;
            if (r < 0) {
                goto done;
            }
            Py_ssize_t m = labels.len - bounds[2 * label];
            int all_ascii = 1;
            for (Py_ssize_t k = bounds[2 * label]; k < labels.len; k++) {
                all_ascii &= labels.data[k] < 0x80;
            }
            if (!r || m == 0 || all_ascii) {
                ok = 0; /* P4 */
            } else {
                int v = valid_label(labels.data + bounds[2 * label], m, 1);
                if (v < 0) {
                    goto done;
                }
                ok &= v;
            }
        } else {
            if (cps_reserve(&labels, n) < 0) {
                goto done;
            }
            memcpy(labels.data + labels.len, s, (size_t)n * sizeof(Py_UCS4));
            labels.len += n;
            int v = valid_label(s, n, 0);
            if (v < 0) {
                goto done;
            }
            ok &= v;
        }
        bounds[2 * label + 1] = labels.len;
        for (Py_ssize_t k = bounds[2 * label]; k < labels.len; k++) {
            int c = bidi_class(labels.data[k]);
            bidi_domain |= c == UTS46_BIDI_R || c == UTS46_BIDI_AL || c == UTS46_BIDI_AN;
        }
        label++;
        start = i + 1;
    }
    /* §4.1 criterion 9: a Bidi domain name's labels obey the Bidi Rule. */
    for (Py_ssize_t k = 0; ok && bidi_domain && k < count; k++) {
        ok &= bidi_rule(labels.data + bounds[2 * k], bounds[2 * k + 1] - bounds[2 * k]);
    }
    if (!ok) {
        result = 0;
        goto done;
    }
    /* ToASCII 3: each label with a non-ASCII character to Punycode, prefixed by "xn--". */
    for (Py_ssize_t k = 0; k < count; k++) {
        const Py_UCS4 *s = labels.data + bounds[2 * k];
        Py_ssize_t n = bounds[2 * k + 1] - bounds[2 * k];
        int ascii = 1;
        for (Py_ssize_t x = 0; x < n; x++) {
            ascii &= s[x] < 0x80;
        }
        if (k > 0 && wu_put(out, '.') < 0) {
            goto done;
        }
        if (ascii) {
            for (Py_ssize_t x = 0; x < n; x++) {
                if (wu_put(out, (char)s[x]) < 0) {
                    goto done;
                }
            }
        } else {
            if (wu_write(out, "xn--", 4) < 0) {
                goto done;
            }
            int r = punycode_encode(s, n, out);
            if (r <= 0) {
                result = r;
                goto done;
            }
        }
    }
    result = 1;
done:
    PyMem_Free(mapped.data);
    PyMem_Free(labels.data);
    PyMem_Free(bounds);
    return result;
}
