/* jsonw.c: streaming JSON writer. */
#include "seawx/jsonw.h"

#include "seawx/error.h"
#include "seawx/iso8601.h"

#include "jsonfmt.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct swx_jsonw {
    FILE *f;
    int pretty;
    int depth;
    int count[SWX_JSONW_DEPTH + 1]; /* values written at each level */
    char kind[SWX_JSONW_DEPTH + 1]; /* '{' or '[' */
    int after_key;
    int failed; /* a write failed or the structure was misused */
};

int swx_jsonw_new(swx_jsonw **out, FILE *f, int pretty)
{
    *out = calloc(1, sizeof **out);
    if (!*out)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    (*out)->f = f;
    (*out)->pretty = pretty;
    return 0;
}

void swx_jsonw_free(swx_jsonw *w)
{
    free(w);
}

int swx_jsonw_finish(swx_jsonw *w)
{
    int rc = 0;
    if (w->depth != 0 || w->failed)
        rc = swx_error_set(SWX_EINVAL, "JSON output left incomplete");
    if (!rc && w->pretty)
        fputc('\n', w->f);
    if (!rc && (fflush(w->f) != 0 || ferror(w->f)))
        rc = swx_error_set(SWX_EIO, "writing JSON output failed");
    free(w);
    return rc;
}

static void newline(swx_jsonw *w)
{
    if (!w->pretty)
        return;
    fputc('\n', w->f);
    for (int i = 0; i < w->depth * w->pretty; i++)
        fputc(' ', w->f);
}

/* Puts whatever must come before a value: a comma and indentation. */
static void before_value(swx_jsonw *w)
{
    if (w->after_key) {
        w->after_key = 0;
        return;
    }
    if (w->depth > 0) {
        if (w->kind[w->depth] == '{')
            w->failed = 1; /* a value in an object needs a key */
        if (w->count[w->depth]++)
            fputc(',', w->f);
        newline(w);
    }
}

static void open_container(swx_jsonw *w, char kind)
{
    before_value(w);
    fputc(kind, w->f);
    if (w->depth >= SWX_JSONW_DEPTH) {
        w->failed = 1;
        return;
    }
    w->depth++;
    w->kind[w->depth] = kind;
    w->count[w->depth] = 0;
}

static void close_(swx_jsonw *w, char kind)
{
    if (w->depth == 0 || w->kind[w->depth] != kind || w->after_key) {
        w->failed = 1;
        return;
    }
    int had = w->count[w->depth];
    w->depth--;
    if (had)
        newline(w);
    fputc(kind == '{' ? '}' : ']', w->f);
}

void swx_jsonw_object_begin(swx_jsonw *w)
{
    open_container(w, '{');
}

void swx_jsonw_object_end(swx_jsonw *w)
{
    close_(w, '{');
}

void swx_jsonw_array_begin(swx_jsonw *w)
{
    open_container(w, '[');
}

void swx_jsonw_array_end(swx_jsonw *w)
{
    close_(w, '[');
}

static void put_string(swx_jsonw *w, const char *s)
{
    char tmp[SWX_JSON_ESC_MAX * 256];
    size_t n = strlen(s);
    fputc('"', w->f);
    for (size_t i = 0; i < n; i += 256) {
        size_t k = swx_json_escape(tmp, s + i, n - i < 256 ? n - i : 256);
        fwrite(tmp, 1, k, w->f);
    }
    fputc('"', w->f);
}

void swx_jsonw_key(swx_jsonw *w, const char *key)
{
    if (w->depth == 0 || w->kind[w->depth] != '{' || w->after_key) {
        w->failed = 1;
        return;
    }
    if (w->count[w->depth]++)
        fputc(',', w->f);
    newline(w);
    put_string(w, key);
    fputs(w->pretty ? ": " : ":", w->f);
    w->after_key = 1;
}

void swx_jsonw_string(swx_jsonw *w, const char *s)
{
    before_value(w);
    if (s)
        put_string(w, s);
    else
        fputs("null", w->f);
}

void swx_jsonw_int(swx_jsonw *w, int64_t v)
{
    before_value(w);
    fprintf(w->f, "%lld", (long long)v);
}

void swx_jsonw_number(swx_jsonw *w, double v, int decimals)
{
    before_value(w);
    if (!isfinite(v)) {
        fputs("null", w->f);
        return;
    }
    char tmp[64];
    if (decimals < 0) {
        swx_double_shortest(tmp, v);
    } else {
        snprintf(tmp, sizeof tmp, "%.*f", decimals > 17 ? 17 : decimals, v);
        char *dot = strchr(tmp, '.');
        if (dot) {
            char *end = tmp + strlen(tmp) - 1;
            while (end > dot && *end == '0')
                *end-- = '\0';
            if (end == dot)
                *end = '\0';
        }
        if (strcmp(tmp, "-0") == 0)
            strcpy(tmp, "0");
    }
    fputs(tmp, w->f);
}

void swx_jsonw_bool(swx_jsonw *w, int v)
{
    before_value(w);
    fputs(v ? "true" : "false", w->f);
}

void swx_jsonw_null(swx_jsonw *w)
{
    before_value(w);
    fputs("null", w->f);
}

void swx_jsonw_time(swx_jsonw *w, int64_t t)
{
    char s[SWX_ISO8601_LEN];
    swx_iso8601_format(s, t);
    swx_jsonw_string(w, s);
}
