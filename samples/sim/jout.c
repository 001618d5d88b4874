/* jout.c: JSON writing with X-Fields masks (see jout.h). */
#include "jout.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

struct mreader {
    const char *s;
    size_t at;
};

static void blanks(struct mreader *r)
{
    while (r->s[r->at] == ' ' || r->s[r->at] == '\t')
        r->at++;
}

static int name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-' || c == '*';
}

/* One braced level; with a path, *hit tells whether it selects path[0..n). */
static int level(struct mreader *r, int depth, const char *const *path, int n, int *hit)
{
    if (depth > 16)
        return -1;
    blanks(r);
    if (r->s[r->at] != '{')
        return -1;
    r->at++;
    if (hit != NULL)
        *hit = n == 0;
    for (;;) {
        size_t start, len;
        int match;
        blanks(r);
        start = r->at;
        while (name_char(r->s[r->at]))
            r->at++;
        if (r->at == start)
            return -1;
        len = r->at - start;
        match = path != NULL && n > 0 &&
                ((len == 1 && r->s[start] == '*') ||
                 (strlen(path[0]) == len && strncmp(path[0], r->s + start, len) == 0));
        blanks(r);
        if (r->s[r->at] == '{') {
            int sub = 0;
            if (level(r, depth + 1, match ? path + 1 : NULL, n - 1, &sub) != 0)
                return -1;
            if (match && sub && hit != NULL)
                *hit = 1;
        } else if (match && hit != NULL) {
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
        return -1;
    }
}

int sim_xfields_valid(const char *mask)
{
    struct mreader r = {mask, 0};

    if (mask == NULL || strlen(mask) > 1024 || level(&r, 1, NULL, 0, NULL) != 0)
        return -1;
    blanks(&r);
    return r.s[r.at] == '\0' ? 0 : -1;
}

int sim_xfields_selects(const char *mask, const char *const *path, int n)
{
    struct mreader r = {mask, 0};
    int hit = 0;

    if (mask == NULL || level(&r, 1, path, n, &hit) != 0)
        return 1;
    return hit;
}

void sim_jout_init(struct sim_jout *j, struct sim_buf *b, const char *mask)
{
    memset(j, 0, sizeof(*j));
    j->b = b;
    j->mask = mask;
    j->first[0] = 1;
}

static int cur_len(const struct sim_jout *j)
{
    return j->depth > 0 ? j->npath[j->depth - 1] : 0;
}

/* Writes the comma and key of a member if the mask selects it. */
static int member(struct sim_jout *j, const char *key)
{
    int n = cur_len(j);
    if (key != NULL) {
        if (n >= SIM_JOUT_DEPTH)
            return 0;
        j->path[n] = key;
        if (j->mask != NULL && !sim_xfields_selects(j->mask, j->path, n + 1))
            return 0;
    }
    if (!j->first[j->depth])
        sim_buf_puts(j->b, ",");
    j->first[j->depth] = 0;
    if (key != NULL) {
        sim_buf_puts(j->b, "\"");
        sim_buf_json(j->b, key);
        sim_buf_puts(j->b, "\":");
    }
    return 1;
}

int sim_jout_begin(struct sim_jout *j, const char *key, char open)
{
    if (j->depth + 1 >= SIM_JOUT_DEPTH || !member(j, key))
        return 0;
    j->npath[j->depth] = cur_len(j) + (key != NULL ? 1 : 0);
    j->depth++;
    j->first[j->depth] = 1;
    sim_buf_append(j->b, &open, 1);
    return 1;
}

void sim_jout_end(struct sim_jout *j, char close)
{
    if (j->depth > 0)
        j->depth--;
    sim_buf_append(j->b, &close, 1);
}

void sim_jout_num(struct sim_jout *j, const char *key, double v, int decimals)
{
    if (!member(j, key))
        return;
    if (!isfinite(v))
        sim_buf_puts(j->b, "null");
    else
        sim_buf_printf(j->b, "%.*f", decimals, v);
}

void sim_jout_int(struct sim_jout *j, const char *key, long long v)
{
    if (member(j, key))
        sim_buf_printf(j->b, "%lld", v);
}

void sim_jout_str(struct sim_jout *j, const char *key, const char *s)
{
    if (!member(j, key))
        return;
    if (s == NULL) {
        sim_buf_puts(j->b, "null");
        return;
    }
    sim_buf_puts(j->b, "\"");
    sim_buf_json(j->b, s);
    sim_buf_puts(j->b, "\"");
}

void sim_jout_bool(struct sim_jout *j, const char *key, int v)
{
    if (member(j, key))
        sim_buf_puts(j->b, v ? "true" : "false");
}

void sim_jout_null(struct sim_jout *j, const char *key)
{
    if (member(j, key))
        sim_buf_puts(j->b, "null");
}
