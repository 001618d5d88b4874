/* gzip.c: gzip compression and Accept-Encoding negotiation (see gzip.h). */
#include "gzip.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>

int sim_gzip(const void *in, size_t len, int level, char **out, size_t *out_len)
{
    z_stream z;
    uLong bound;
    char *dst = NULL;
    int rc = -1;

    *out = NULL;
    memset(&z, 0, sizeof(z));
    /* windowBits 15 + 16 selects the gzip wrapper */
    if (deflateInit2(&z, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return -1;
    if (len > (uInt)-1)
        goto done;
    bound = deflateBound(&z, (uLong)len);
    dst = malloc(bound);
    if (dst == NULL)
        goto done;
    z.next_in = (Bytef *)(uintptr_t)in;
    z.avail_in = (uInt)len;
    z.next_out = (Bytef *)dst;
    z.avail_out = (uInt)bound;
    if (deflate(&z, Z_FINISH) != Z_STREAM_END)
        goto done;
    *out = dst;
    *out_len = z.total_out;
    dst = NULL;
    rc = 0;
done:
    deflateEnd(&z);
    free(dst);
    return rc;
}

int sim_gzip_accepted(const char *ae)
{
    const char *p = ae;

    if (ae == NULL)
        return 0;
    /* coding [ ";" "q=" qvalue ] ( "," ... )* */
    while (*p != '\0') {
        const char *tok, *end;
        size_t tlen;
        double q = 1.0;

        while (*p == ' ' || *p == '\t' || *p == ',')
            p++;
        tok = p;
        while (*p != '\0' && *p != ',' && *p != ';' && *p != ' ' && *p != '\t')
            p++;
        tlen = (size_t)(p - tok);
        end = strchr(p, ',');
        if (end == NULL)
            end = p + strlen(p);
        for (const char *s = p; s < end; s++) {
            if (*s == ';') {
                const char *v = s + 1;
                while (*v == ' ')
                    v++;
                if ((v[0] == 'q' || v[0] == 'Q') && v[1] == '=')
                    q = strtod(v + 2, NULL);
            }
        }
        if (q > 0 &&
            ((tlen == 4 && strncasecmp(tok, "gzip", 4) == 0) ||
             (tlen == 6 && strncasecmp(tok, "x-gzip", 6) == 0) || (tlen == 1 && tok[0] == '*')))
            return 1;
        p = end;
    }
    return 0;
}
