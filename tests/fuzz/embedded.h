/* What the libFuzzer targets that embed an interpreter share (whatwg_fuzz.c,
 * template_fuzz.c): the check of an invariant and the reading of the input bytes as UTF-8.
 * Included after Python.h (through the header of the units under test), with FUZZ_NAME
 * defined as the target's name.
 */
#ifndef URIKIT_FUZZ_EMBEDDED_H
#define URIKIT_FUZZ_EMBEDDED_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(cond)                                                                      \
    do {                                                                                 \
        if (!(cond)) {                                                                   \
            fprintf(stderr, FUZZ_NAME ": invariant failed at line %d: %s\n", __LINE__,   \
                    #cond);                                                              \
            abort();                                                                     \
        }                                                                                \
    } while (0)

/* UTF-8 to code points, a byte that starts no sequence standing for itself; a surrogate
 * kept (a str may hold one) or, with `no_surrogates`, read as U+FFFD, as is a code point
 * above U+10FFFF.  Returns the number of code points written to out (at most size). */
static Py_ssize_t decode_utf8(const uint8_t *data, size_t size, Py_UCS4 *out, int no_surrogates)
{
    Py_ssize_t n = 0;
    for (size_t i = 0; i < size;) {
        uint8_t b = data[i];
        int len = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 0;
        Py_UCS4 cp = b;
        if (len > 1 && i + (size_t)len <= size) {
            cp = b & (0x7F >> len);
            for (int k = 1; k < len; k++) {
                if ((data[i + k] & 0xC0) != 0x80) {
                    len = 1;
                    cp = b;
                    break;
                }
                cp = (cp << 6) | (data[i + k] & 0x3F);
            }
            if (cp > 0x10FFFF || (no_surrogates && cp >= 0xD800 && cp <= 0xDFFF)) {
                len = 1;
                cp = 0xFFFD;
            }
        } else {
            len = 1;
        }
        out[n++] = cp;
        i += (size_t)len;
    }
    return n;
}

#endif
