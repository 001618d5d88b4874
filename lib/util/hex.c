/* hex.c: bytes as hexadecimal digits (see hex.h). */
#include "hex.h"

static const char lower[] = "0123456789abcdef";
static const char upper_[] = "0123456789ABCDEF";

void swx_hex_byte(char out[2], unsigned char c, int upper)
{
    const char *d = upper ? upper_ : lower;
    out[0] = d[c >> 4];
    out[1] = d[c & 15];
}

void swx_hex_encode(char *out, const void *in, size_t n)
{
    const unsigned char *p = in;
    for (size_t i = 0; i < n; i++)
        swx_hex_byte(out + 2 * i, p[i], 0);
    out[2 * n] = '\0';
}

void swx_hex_percent(char out[3], unsigned char c)
{
    out[0] = '%';
    swx_hex_byte(out + 1, c, 1);
}
