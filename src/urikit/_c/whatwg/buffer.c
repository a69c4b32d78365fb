/* The output buffer of a parse, and the percent-encode sets of the URL Standard (§1.3). */
#include "whatwg.h"

void wu_buffer_init(wu_buffer *b)
{
    b->data = b->small;
    b->len = 0;
    b->cap = (Py_ssize_t)sizeof b->small;
}

void wu_buffer_free(wu_buffer *b)
{
    if (b->data != b->small) {
        PyMem_Free(b->data);
    }
    b->data = b->small;
    b->len = 0;
    b->cap = (Py_ssize_t)sizeof b->small;
}

int wu_buffer_grow(wu_buffer *b, Py_ssize_t more)
{
    if (more > PY_SSIZE_T_MAX / 2 - b->len) {
        PyErr_NoMemory();
        return -1;
    }
    Py_ssize_t cap = b->cap * 2;
    if (cap < b->len + more) {
        cap = b->len + more;
    }
    char *data;
    if (b->data == b->small) {
        data = PyMem_Malloc((size_t)cap);
        if (data != NULL) {
            memcpy(data, b->small, (size_t)b->len);
        }
    } else {
        data = PyMem_Realloc(b->data, (size_t)cap);
    }
    if (data == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    b->data = data;
    b->cap = cap;
    return 0;
}

/* Each set is built from the one before it, as §1.3 defines them:
 *   C0 control: C0 controls and U+007F (and every code point above, by value)
 *   fragment:   C0 control, space, ", <, >, `
 *   query:      C0 control, space, ", #, <, >
 *   special-query: query, '
 *   path:       query, ?, ^, `, {, }
 *   userinfo:   path, /, :, ;, =, @, [ to ], |
 */
#define C0 (WU_C0_CONTROL | WU_FRAGMENT | WU_QUERY | WU_SPECIAL_QUERY | WU_PATH | WU_USERINFO)
#define F (WU_FRAGMENT)
#define Q (WU_QUERY | WU_SPECIAL_QUERY | WU_PATH | WU_USERINFO)
#define S (WU_SPECIAL_QUERY)
#define P (WU_PATH | WU_USERINFO)
#define U (WU_USERINFO)

const uint8_t wu_encode_sets[128] = {
    C0, C0, C0, C0, C0, C0, C0, C0, C0, C0, C0, C0, C0, C0, C0, C0, /* 0x00 */
    C0, C0, C0, C0, C0, C0, C0, C0, C0, C0, C0, C0, C0, C0, C0, C0, /* 0x10 */
    F | Q, 0, F | Q, Q, 0, 0, 0, S, 0, 0, 0, 0, 0, 0, 0, U,         /* space ! " # $ % & ' ( ) * + , - . / */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, U, U, F | Q, U, F | Q, P,         /* 0-9 : ; < = > ? */
    U, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,                 /* @ A-O */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, U, U, U, P, 0,                 /* P-Z [ \ ] ^ _ */
    F | P, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,             /* ` a-o */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, P, U, P, 0, C0,                /* p-z { | } ~ DEL */
};

#undef C0
#undef F
#undef Q
#undef S
#undef P
#undef U

int wu_put_utf8_encoded(wu_buffer *b, Py_UCS4 cp)
{
    static const char hex[] = "0123456789ABCDEF";
    unsigned char octets[4];
    int n;
    if (cp < 0x800) {
        octets[0] = (unsigned char)(0xC0 | (cp >> 6));
        octets[1] = (unsigned char)(0x80 | (cp & 0x3F));
        n = 2;
    } else if (cp < 0x10000) {
        octets[0] = (unsigned char)(0xE0 | (cp >> 12));
        octets[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        octets[2] = (unsigned char)(0x80 | (cp & 0x3F));
        n = 3;
    } else {
        octets[0] = (unsigned char)(0xF0 | (cp >> 18));
        octets[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
        octets[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        octets[3] = (unsigned char)(0x80 | (cp & 0x3F));
        n = 4;
    }
    if (b->len + 3 * n > b->cap && wu_buffer_grow(b, 3 * n) < 0) {
        return -1;
    }
    char *d = b->data + b->len;
    for (int i = 0; i < n; i++) {
        d[3 * i] = '%';
        d[3 * i + 1] = hex[octets[i] >> 4];
        d[3 * i + 2] = hex[octets[i] & 15];
    }
    b->len += 3 * n;
    return 0;
}
