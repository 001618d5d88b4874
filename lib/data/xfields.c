/*
 * xfields.c: the X-Fields mask (see seawx/xfields.h). A recursive-descent
 * reader, depth-limited, that either only checks the mask or also answers
 * whether one path is selected.
 */
#include "xfields.h"

#include "seawx/error.h"

#include <string.h>

typedef struct reader {
    const char *s;
    size_t at;
    const char *err; /* what was expected where reading stopped */
} reader;

static void blanks(reader *r)
{
    while (r->s[r->at] == ' ' || r->s[r->at] == '\t')
        r->at++;
}

static int name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-' || c == '*';
}

/* Reads one braced level. When path is given, *hit is set to whether the
 * path below this level (path[0..n)) is selected by it. */
static int level(reader *r, int depth, const char *const *path, int n, int *hit)
{
    if (depth > SWX_XFIELDS_MAX_DEPTH) {
        r->err = "fewer nested levels";
        return -1;
    }
    blanks(r);
    if (r->s[r->at] != '{') {
        r->err = "'{'";
        return -1;
    }
    r->at++;
    if (hit)
        *hit = n == 0;
    for (;;) {
        blanks(r);
        size_t start = r->at;
        while (name_char(r->s[r->at]))
            r->at++;
        if (r->at == start) {
            r->err = "a field name";
            return -1;
        }
        size_t len = r->at - start;
        int match = path && n > 0 &&
                    ((len == 1 && r->s[start] == '*') ||
                     (strlen(path[0]) == len && strncmp(path[0], r->s + start, len) == 0));
        blanks(r);
        if (r->s[r->at] == '{') {
            int sub = 0;
            if (level(r, depth + 1, match ? path + 1 : NULL, n - 1, &sub))
                return -1;
            if (match && sub && hit)
                *hit = 1;
        } else if (match && hit) {
            *hit = 1;
        }
        blanks(r);
        if (r->s[r->at] == ',') {
            r->at++;
            continue;
        }
        if (r->s[r->at] == '}') {
            r->at++;
            return 0;
        }
        r->err = "',' or '}'";
        return -1;
    }
}

int swx_xfields_check(const char *mask)
{
    if (!mask || !*mask)
        return swx_error_set(SWX_EINVAL, "fields: the field mask is empty; write it as "
                                         "{data{values{air_temperature,wind_speed}}}");
    if (strlen(mask) > SWX_XFIELDS_MAX_LEN)
        return swx_error_set(SWX_EINVAL, "fields: the field mask is longer than %d characters",
                             SWX_XFIELDS_MAX_LEN);
    reader r = {mask, 0, NULL};
    if (level(&r, 1, NULL, 0, NULL) == 0) {
        blanks(&r);
        if (!r.s[r.at])
            return 0;
        r.err = "the end of the mask";
    }
    return swx_error_set(
        SWX_EINVAL,
        "fields: malformed field mask at character %zu: expected %s; the form "
        "is {name,name{name,...}}, e.g. {data{values{air_temperature,wind_speed}}}",
        r.at + 1, r.err);
}

int swx_xfields_selects(const char *mask, const char *const *path, int n)
{
    reader r = {mask, 0, NULL};
    int hit = 0;
    if (!mask || level(&r, 1, path, n, &hit))
        return 1; /* no usable mask: nothing is filtered */
    return hit;
}
