/* jsonr.c: reading JSON answers (see jsonr.h). */
#include "jsonr.h"

#include "seawx/error.h"
#include "seawx/iso8601.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>

int swx_jsonr_parse(json_object **out, const char *body, size_t len, const char *what)
{
    *out = NULL;
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
