/* jsonr.c: reading JSON answers (see jsonr.h). */
#include "jsonr.h"

#include "jsonscan.h"
#include "seawx/error.h"
#include "seawx/iso8601.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int key_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A key named twice in one object of the value at js: 1 and the key in dup
 * (cut to cap), 0 when there is none, -1 when the scan stopped (memory, or a
 * syntax json-c took that the scanner does not): no verdict then. Depth is
 * bounded by the scanner's (SWX_JSONSCAN_DEPTH). */
static int find_dup(swx_jsonscan *js, char *dup, size_t cap)
{
    swx_jsonscan_type t = swx_jsonscan_peek(js);
    int more, r = 0;
    if (t == SWX_JSONSCAN_ARRAY) {
        if (swx_jsonscan_enter(js))
            return -1;
        while ((more = swx_jsonscan_element(js)) == 1)
            if ((r = find_dup(js, dup, cap)) != 0)
                return r;
        return more < 0 ? -1 : 0;
    }
    if (t != SWX_JSONSCAN_OBJECT)
        return swx_jsonscan_skip(js) ? -1 : 0;
    if (swx_jsonscan_enter(js))
        return -1;
    char **keys = NULL;
    size_t n = 0, kcap = 0;
    swx_jsonscan_str k;
    while ((more = swx_jsonscan_member(js, &k)) == 1) {
        if (n == kcap) {
            size_t c = kcap ? 2 * kcap : 16;
            char **nk = realloc(keys, c * sizeof *nk);
            if (!nk) {
                r = -1;
                goto done;
            }
            keys = nk;
            kcap = c;
        }
        if (!(keys[n] = malloc(k.n + 1))) {
            r = -1;
            goto done;
        }
        memcpy(keys[n], k.s, k.n);
        keys[n++][k.n] = '\0';
        if ((r = find_dup(js, dup, cap)) != 0)
            goto done;
    }
    if (more < 0) {
        r = -1;
        goto done;
    }
    if (n > 1)
        qsort(keys, n, sizeof *keys, key_cmp);
    for (size_t i = 1; i < n; i++)
        if (strcmp(keys[i - 1], keys[i]) == 0) {
            snprintf(dup, cap, "%s", keys[i]);
            r = 1;
            break;
        }
done:
    for (size_t i = 0; i < n; i++)
        free(keys[i]);
    free(keys);
    return r;
}

int swx_jsonr_parse(json_object **out, const char *body, size_t len, const char *what)
{
    *out = NULL;
    /* A UTF-8 byte order mark before the document is not JSON's, but
     * editors write one: skipped. */
    if (len >= 3 && memcmp(body, "\xef\xbb\xbf", 3) == 0) {
        body += 3;
        len -= 3;
    }
    if (len > INT_MAX)
        return swx_error_set(SWX_ETOOBIG, "%s is too large to read", what);
    json_tokener *tok = json_tokener_new_ex(SWX_JSONR_DEPTH);
    if (!tok)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    json_object *root = json_tokener_parse_ex(tok, body, (int)len);
    enum json_tokener_error err = json_tokener_get_error(tok);
    size_t used = json_tokener_get_parse_end(tok);
    if (!root && err == json_tokener_continue && used == len) {
        /* A number or literal that ends the body is complete only once the
         * tokener sees the end: hand it a terminating NUL. */
        root = json_tokener_parse_ex(tok, "", 1);
        if (root && json_tokener_get_error(tok) == json_tokener_success)
            err = json_tokener_success;
    }
    json_tokener_free(tok);
    if (!root || err != json_tokener_success) {
        json_object_put(root);
        return swx_error_set(SWX_EPARSE, "%s is not valid JSON: %s", what,
                             err == json_tokener_continue ? "it ends too early"
                                                          : json_tokener_error_desc(err));
    }
    for (; used < len; used++)
        if (body[used] != ' ' && body[used] != '\n' && body[used] != '\r' && body[used] != '\t') {
            json_object_put(root);
            return swx_error_set(SWX_EPARSE, "%s is not valid JSON: text after the document", what);
        }
    /* json-c keeps the last of two members of one name, silently; a file
     * that names a key twice says two things: refused. */
    swx_jsonscan js;
    char dup[64];
    memset(&js, 0, sizeof js);
    swx_jsonscan_reset(&js, body, len);
    int d = find_dup(&js, dup, sizeof dup);
    swx_jsonscan_release(&js);
    if (d == 1) {
        json_object_put(root);
        return swx_error_set(SWX_EPARSE,
                             "%s is not valid JSON: the key '%s' appears twice in one "
                             "object",
                             what, dup);
    }
    *out = root;
    return 0;
}

json_object *swx_jsonr_path(json_object *o, ...)
{
    va_list ap;
    va_start(ap, o);
    const char *k;
    while (o && (k = va_arg(ap, const char *)) != NULL) {
        json_object *v = NULL;
        if (!json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, k, &v))
            o = NULL;
        else
            o = v;
    }
    va_end(ap);
    return o;
}

const char *swx_jsonr_str(json_object *o)
{
    return o && json_object_is_type(o, json_type_string) ? json_object_get_string(o) : NULL;
}

int swx_jsonr_num(double *out, json_object *o)
{
    if (!o || !(json_object_is_type(o, json_type_double) || json_object_is_type(o, json_type_int)))
        return 0;
    double v = json_object_get_double(o);
    if (!isfinite(v))
        return 0;
    *out = v;
    return 1;
}

int swx_jsonr_int(int64_t *out, json_object *o)
{
    if (o && json_object_is_type(o, json_type_int)) {
        /* json-c clamps an integer above INT64_MAX to it; such a value is out
         * of range, not INT64_MAX. */
        int64_t v = json_object_get_int64(o);
        if (v == INT64_MAX && json_object_get_uint64(o) > (uint64_t)INT64_MAX)
            return 0;
        *out = v;
        return 1;
    }
    double d;
    if (swx_jsonr_num(&d, o) && d == floor(d) && fabs(d) < 9e15) {
        *out = (int64_t)d;
        return 1;
    }
    return 0;
}

int swx_jsonr_time(int64_t *out, json_object *o)
{
    const char *s = swx_jsonr_str(o);
    return s && swx_iso8601_parse(out, s) == 0;
}
