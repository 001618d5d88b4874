/* readfile.c: a whole small file read into memory, with a limit (see
 * seawx/readfile.h). */
#include "seawx/readfile.h"

#include "seawx/error.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int too_large(const char *path, size_t limit)
{
    if (limit >= (1u << 20) && limit % (1u << 20) == 0)
        return swx_error_set(SWX_EINVAL, "%s is larger than %zu MiB", path, limit >> 20);
    return swx_error_set(SWX_EINVAL, "%s is larger than %zu bytes", path, limit);
}

int swx_read_file(char **out, size_t *len, const char *path, size_t limit)
{
    *out = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return swx_error_set(SWX_EIO, "cannot read %s: %s", path, strerror(errno));
    size_t cap = limit < 65536 ? limit : 65536, n = 0;
    char *b = malloc(cap + 1);
    int rc = 0;
    while (b) {
        n += fread(b + n, 1, cap - n, f);
        if (n < cap || ferror(f))
            break; /* the end, or an error told below */
        if (cap >= limit) {
            if (fgetc(f) != EOF)
                rc = too_large(path, limit);
            break;
        }
        size_t more = cap > limit / 2 ? limit : 2 * cap;
        char *nb = realloc(b, more + 1);
        if (!nb) {
            free(b);
            b = NULL;
            break;
        }
        b = nb;
        cap = more;
    }
    if (!b)
        rc = swx_error_set(SWX_ENOMEM, "out of memory reading %s", path);
    else if (!rc && ferror(f))
        rc = swx_error_set(SWX_EIO, "cannot read %s: %s", path, strerror(errno));
    fclose(f);
    if (rc) {
        free(b);
        return rc;
    }
    /* A UTF-8 byte order mark (Excel and Notepad write one) is not text. */
    if (n >= 3 && memcmp(b, "\xef\xbb\xbf", 3) == 0) {
        memmove(b, b + 3, n - 3);
        n -= 3;
    }
    b[n] = '\0';
    *out = b;
    *len = n;
    return 0;
}
