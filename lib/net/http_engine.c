/*
 * http_engine.c: the engine every request runs through, single or concurrent.
 *
 * It runs on the client's curl multi handle (whose connection cache gives keep-alive across
 * requests). A transfer goes through: start -> (redirect -> start)* ->
 * completion, where completion is success, failure, or a retry scheduled for a
 * later time. Retries and redirects reuse the transfer; retries wait in a list
 * ordered by nothing in particular (there are at most max_in_flight of them).
 */
#include "http_engine_int.h"

#include "http_client_int.h"
#include "http_core.h"
#include "http_transfer_int.h"
#include "seawx/error.h"

#include <curl/curl.h>
#include <stdint.h>
#include <stdlib.h>

static int rate_ok(engine *en, int64_t now)
{
    return en->rate <= 0 || now >= en->next_start;
}

static void rate_take(engine *en, int64_t now)
{
    if (en->rate <= 0)
        return;
    double step = 1000.0 / en->rate;
    int64_t base = en->next_start > now - (int64_t)step ? en->next_start : now;
    en->next_start = base + (int64_t)(step + 0.5);
}

static int start(engine *en, xfer *x)
{
    x->attempts++;
    en->stats->requests++;
    if (x->attempts > 1)
        en->stats->retries++;
    if (curl_multi_add_handle(en->c->multi, x->easy) != CURLM_OK)
        return swx_error_set(SWX_ENOMEM, "cannot start a transfer");
    en->active[en->running++] = x;
    return 0;
}

static void stopped(engine *en, xfer *x)
{
    curl_multi_remove_handle(en->c->multi, x->easy);
    for (size_t i = 0; i < en->running; i++)
        if (en->active[i] == x) {
            en->active[i] = en->active[--en->running];
            break;
        }
}

static int finish(engine *en, xfer *x, int rc)
{
    swx_response r = {0};
    int cb;
    if (rc == 0) {
        curl_easy_getinfo(x->easy, CURLINFO_RESPONSE_CODE, &r.status);
        char *ctype = NULL;
        curl_easy_getinfo(x->easy, CURLINFO_CONTENT_TYPE, &ctype);
        r.content_type = ctype;
        r.len = x->body.len;
        r.body = x->body.data ? x->body.data : (char *)"";
        r.attempts = x->attempts;
        r.url = x->display;
        r.range_start = x->range_start;
        r.range_total = x->range_total;
        if (x->nranges) {
            if (!x->parts && !(x->parts = calloc(x->nranges, sizeof *x->parts)))
                return swx_error_set(SWX_ENOMEM, "out of memory");
            r.parts = x->parts;
            r.nparts = x->nranges;
        }
        en->stats->completed++;
        en->stats->bytes +=
            (double)x->body.len + (x->sink_fd >= 0 ? (double)x->sink_got : 0) + (double)x->cb_got;
        cb = en->done(en->ud, x->user, 0, &r);
        if (!r.body) {
            /* swx_http_get took the body over (see single_done). */
            x->body.data = NULL;
            x->body.len = x->body.cap = 0;
        }
    } else {
        en->stats->failed++;
        cb = en->done(en->ud, x->user, rc, NULL);
    }
    return cb;
}

/* Drops every transfer still under way or waiting. */
static void abandon(engine *en, xfer *current)
{
    for (size_t i = 0; i < en->running; i++) {
        xfer *x = en->active[i];
        curl_multi_remove_handle(en->c->multi, x->easy);
        if (x != current)
            swx_http_xfer_free(en->c, x);
    }
    for (size_t i = 0; i < en->waiting_n; i++)
        swx_http_xfer_free(en->c, en->waiting[i]);
    en->waiting_n = 0;
    en->running = 0;
}

static int produce(engine *en)
{
    swx_request req = {0};
    void *user = NULL;
    int got = en->next(en->ud, &req, &user);
    if (got < 0)
        return got;
    if (got == 0) {
        en->producing = 0;
        return 0;
    }
    xfer *x = NULL;
    int rc = swx_http_xfer_new(en->c, &req, user, &x);
    if (!rc && en->sink_opts) {
        x->sink_fd = en->sink_fd;
        x->sink_opts = en->sink_opts;
    }
    if (!rc && en->body_sink)
        x->cb = en->body_sink;
    if (!rc)
        rc = swx_http_xfer_setup(en->c, x);
    if (!rc)
        rc = start(en, x);
    if (rc) {
        /* A request that cannot even be set up fails alone, like any other. */
        int cb = en->done(en->ud, user, rc, NULL);
        en->stats->failed++;
        swx_http_xfer_free(en->c, x);
        return cb < 0 ? cb : 0;
    }
    return 0;
}

int swx_http_engine_run(engine *en, volatile sig_atomic_t *cancel)
{
    swx_client *c = en->c;
    int rc = 0;
    en->waiting = calloc((size_t)en->cap, sizeof *en->waiting);
    en->active = calloc((size_t)en->cap, sizeof *en->active);
    if (!en->waiting || !en->active) {
        free(en->waiting);
        free(en->active);
        return swx_error_set(SWX_ENOMEM, "out of memory");
    }
    size_t want_idle = (size_t)en->cap;
    if (c->idle_cap < want_idle) {
        CURL **idle = realloc(c->idle, want_idle * sizeof *idle);
        if (!idle) {
            free(en->waiting);
            free(en->active);
            return swx_error_set(SWX_ENOMEM, "out of memory");
        }
        c->idle = idle;
        c->idle_cap = want_idle;
    }
    curl_multi_setopt(c->multi, CURLMOPT_MAXCONNECTS, (long)(en->cap * 2 > 16 ? en->cap * 2 : 16));
    en->producing = 1;

    for (;;) {
        if ((cancel && *cancel) || (c->cancel && *c->cancel)) {
            rc = swx_error_set(SWX_ECANCEL, "interrupted");
            break;
        }
        int64_t now = swx_http_now_ms();
        /* Retries whose time has come go first. */
        for (size_t i = 0; i < en->waiting_n && rate_ok(en, now);) {
            xfer *x = en->waiting[i];
            if (x->not_before > now) {
                i++;
                continue;
            }
            en->waiting[i] = en->waiting[--en->waiting_n];
            rate_take(en, now);
            if ((rc = swx_http_xfer_setup(c, x)) || (rc = start(en, x))) {
                int cb = finish(en, x, rc);
                swx_http_xfer_free(c, x);
                rc = cb < 0 ? cb : 0;
                if (rc)
                    goto out;
            }
        }
        while (en->producing && en->running + en->waiting_n < (size_t)en->cap && rate_ok(en, now)) {
            rate_take(en, now);
            if ((rc = produce(en)) < 0)
                goto out;
        }
        if (!en->producing && en->running == 0 && en->waiting_n == 0)
            break;

        int still = 0;
        curl_multi_perform(c->multi, &still);
        CURLMsg *m;
        int left;
        while ((m = curl_multi_info_read(c->multi, &left))) {
            if (m->msg != CURLMSG_DONE)
                continue;
            xfer *x = NULL;
            CURL *easy = m->easy_handle;
            CURLcode res = m->data.result;
            curl_easy_getinfo(easy, CURLINFO_PRIVATE, (char **)&x);
            stopped(en, x);
            long delay = 0;
            int code = 0;
            enum outcome o = swx_http_classify(c, x, res, &delay, &code);
            if (o == OUT_REDIRECT) {
                x->attempts--; /* a redirect is not another attempt */
                en->stats->requests--;
                if ((rc = start(en, x)) == 0)
                    continue;
                o = OUT_FAIL;
                code = rc;
            }
            if (o == OUT_RETRY && x->cb && x->cb_got > 0) {
                /* Part of the body was delivered: the callback starts over,
                 * or the request ends here (see swx_http_get_sink). */
                int rrc = x->cb->restart ? x->cb->restart(x->cb->ud) : -1;
                if (rrc < 0) {
                    o = OUT_FAIL;
                    if (x->cb->restart)
                        code = rrc;
                }
            }
            if (o == OUT_RETRY) {
                x->not_before = swx_http_now_ms() + delay;
                en->waiting[en->waiting_n++] = x;
                continue;
            }
            int cb = finish(en, x, o == OUT_OK ? 0 : code);
            if (cb < 0) {
                abandon(en, x);
                swx_http_xfer_free(c, x);
                rc = cb;
                goto out;
            }
            swx_http_xfer_free(c, x);
        }
        if (!en->producing && en->running == 0 && en->waiting_n == 0)
            break;

        /* Sleep until curl has work, a retry is due or the rate limit allows more. */
        now = swx_http_now_ms();
        int64_t wait = 1000;
        for (size_t i = 0; i < en->waiting_n; i++)
            if (en->waiting[i]->not_before - now < wait)
                wait = en->waiting[i]->not_before - now;
        if (en->rate > 0 && en->producing && en->next_start - now < wait)
            wait = en->next_start - now;
        if (en->producing && en->running + en->waiting_n < (size_t)en->cap && rate_ok(en, now))
            wait = 0;
        if (wait < 0)
            wait = 0;
        if ((cancel || c->cancel) && wait > 100)
            wait = 100;
        if (en->running > 0 || wait > 0)
            curl_multi_poll(c->multi, NULL, 0, (int)wait, NULL);
    }
out:
    if (rc < 0)
        abandon(en, NULL);
    free(en->waiting);
    free(en->active);
    en->waiting = NULL;
    en->active = NULL;
    return rc;
}

int swx_fetch_run(swx_fetch_stats *stats, swx_client *c, const swx_fetch_opts *opts,
                  swx_fetch_next_fn next, swx_fetch_done_fn done, void *ud)
{
    swx_fetch_stats local = {0};
    engine en = {0};
    en.c = c;
    en.next = next;
    en.done = done;
    en.ud = ud;
    en.stats = stats ? stats : &local;
    en.cap = opts && opts->max_in_flight > 0 ? opts->max_in_flight : 8;
    if (en.cap > 1024)
        en.cap = 1024;
    en.rate = opts ? opts->max_rate : 0;
    return swx_http_engine_run(&en, opts ? opts->cancel : NULL);
}
