/* jsonfmt.c: JSON strings and numbers as text (see jsonfmt.h). */
#include "jsonfmt.h"

#include "hex.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bytes a JSON string cannot hold as they are: controls, '"', '\\', DEL. */
/* clang-format off */
static const unsigned char needs_escape[256] = {
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    ['"'] = 1, ['\\'] = 1, [0x7f] = 1};
/* clang-format on */

size_t swx_json_escape(char *out, const char *s, size_t n)
{
    char *p = out;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (!needs_escape[c]) {
            *p++ = (char)c;
            continue;
        }
        *p++ = '\\';
        switch (c) {
        case '"':
        case '\\':
            *p++ = (char)c;
            break;
        case '\n':
            *p++ = 'n';
            break;
        case '\r':
            *p++ = 'r';
            break;
        case '\t':
            *p++ = 't';
            break;
        default:
            memcpy(p, "u00", 3);
            swx_hex_byte(p + 3, c, 0);
            p += 5;
        }
    }
    return (size_t)(p - out);
}

size_t swx_double_shortest(char out[SWX_DOUBLE_TEXT_MAX], double v)
{
    int n = 0;
    for (int prec = 15; prec <= 17; prec++) {
        n = snprintf(out, SWX_DOUBLE_TEXT_MAX, "%.*g", prec, v);
        if (strtod(out, NULL) == v)
            break;
    }
    return n > 0 ? (size_t)n : 0;
}
