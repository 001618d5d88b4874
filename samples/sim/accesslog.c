/* accesslog.c: the access log (see accesslog.h). */
#include "accesslog.h"

#include "util/internal/hex.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct sim_accesslog {
    FILE *f;
    pthread_mutex_t lock;
};

int sim_accesslog_open(const char *path, struct sim_accesslog **out)
{
    struct sim_accesslog *log;

    *out = NULL;
    if (path == NULL)
        return 0;
    log = calloc(1, sizeof(*log));
    if (log == NULL)
        return -1;
    log->f = fopen(path, "a");
    if (log->f == NULL) {
        free(log);
        return -1;
    }
    pthread_mutex_init(&log->lock, NULL);
    *out = log;
    return 0;
}

void sim_accesslog_close(struct sim_accesslog *log)
{
    if (log == NULL)
        return;
    fclose(log->f);
    pthread_mutex_destroy(&log->lock);
    free(log);
}

/* Whether the raw (percent-encoded) parameter name [s, s + n) decodes to
 * service-api-key, in any letter case. */
static int is_key_name(const char *s, size_t n)
{
    static const char want[] = "service-api-key";
    size_t k = 0;

    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c == '%' && i + 2 < n && swx_hex_value(s[i + 1]) >= 0 && swx_hex_value(s[i + 2]) >= 0) {
            c = (char)(swx_hex_value(s[i + 1]) * 16 + swx_hex_value(s[i + 2]));
            i += 2;
        } else if (c == '+') {
            c = ' ';
        }
        if (k >= sizeof(want) - 1)
            return 0;
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c != want[k++])
            return 0;
    }
    return k == sizeof(want) - 1;
}

int sim_accesslog_redact(struct sim_buf *out, const char *target)
{
    const char *q = strchr(target, '?');
    const char *p;

    if (q == NULL)
        return sim_buf_puts(out, target);
    sim_buf_append(out, target, (size_t)(q + 1 - target));
    p = q + 1;
    while (*p != '\0') {
        const char *amp = strchr(p, '&');
        const char *end = amp != NULL ? amp : p + strlen(p);
        const char *eq = memchr(p, '=', (size_t)(end - p));
        size_t nlen = (size_t)((eq != NULL ? eq : end) - p);

        if (eq != NULL && is_key_name(p, nlen)) {
            sim_buf_append(out, p, nlen);
            sim_buf_puts(out, "=REDACTED");
        } else {
            sim_buf_append(out, p, (size_t)(end - p));
        }
        if (amp == NULL)
            break;
        sim_buf_puts(out, "&");
        p = amp + 1;
    }
    return out->failed ? -1 : 0;
}

void sim_accesslog_write(struct sim_accesslog *log, const char *hostport,
                         const struct sim_request *rq)
{
    struct sim_buf line;
    const char *form;

    if (log == NULL)
        return;
    form = rq->used_form == SIM_AUTH_HEADER  ? "header"
           : rq->used_form == SIM_AUTH_QUERY ? "query"
           : rq->used_form == SIM_AUTH_BASIC ? "basic"
                                             : "none";
    sim_buf_init(&line, 64 * 1024);
    sim_buf_printf(&line, "%s %s ", rq->method != NULL ? rq->method : "-", hostport);
    sim_accesslog_redact(&line, rq->target != NULL ? rq->target : "-");
    sim_buf_printf(&line, " %u %llu auth=%s\n", rq->status, (unsigned long long)rq->bytes, form);
    if (!line.failed) {
        pthread_mutex_lock(&log->lock);
        fwrite(line.data, 1, line.len, log->f);
        fflush(log->f);
        pthread_mutex_unlock(&log->lock);
    }
    sim_buf_free(&line);
}
