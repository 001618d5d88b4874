/* test_http.c: the HTTP core against seawx-sim's test endpoints: retries,
 * Retry-After, no retry where none is due, limits, timeouts, redirects that
 * must not carry the key, error lines, and concurrent fetching. */
#include "cu_support.h"

#include "http_core.h"
#include "seawx/error.h"
#include "seawx/http.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define KEY "SECRET-KEY-7c1e5a"
#define PASSWORD "sim-pw-93d2"

static cu_sim sim;

static long elapsed_ms(struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (t1.tv_sec - t0->tv_sec) * 1000 + (t1.tv_nsec - t0->tv_nsec) / 1000000;
}

static swx_client *client_with(const char *auth, int retries, long timeout_ms, size_t max_body)
{
    swx_client_opts o = {0};
    o.base_url = sim.base_url;
    o.api_key = KEY;
    o.wms_auth = auth;
    o.wms_password = PASSWORD;
    o.max_retries = retries;
    o.retry_base_ms = 50;
    o.retry_max_ms = 200;
    o.max_retry_after_ms = 5000;
    o.timeout_ms = timeout_ms;
    o.max_body = max_body;
    swx_client *c = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_client_new(&c, &o), 0);
    return c;
}

static swx_client *client(void)
{
    return client_with(NULL, 0, 0, 0);
}

/* GET path with query "k=v&k=v" given as alternating strings. */
static int get(swx_client *c, const char *path, const char *const *kv, int wms, const char *accept,
               swx_response **out)
{
    swx_query *q = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_query_new(&q), 0);
    for (int i = 0; kv && kv[i]; i += 2)
        swx_query_add(q, kv[i], kv[i + 1]);
    swx_request req = {0};
    req.path = path;
    req.query = q;
    req.wms = wms;
    req.accept = accept;
    int rc = swx_http_get(out, c, &req);
    swx_query_free(q);
    return rc;
}

static long count_of(const char *id)
{
    swx_client *c = client();
    swx_response *r = NULL;
    const char *kv[] = {"id", id, NULL};
    long n = -1;
    if (get(c, "/_sim/count", kv, 0, NULL, &r) == 0)
        n = strtol(r->body, NULL, 10);
    swx_response_free(r);
    swx_client_free(c);
    return n;
}

static void assert_no_key(void)
{
    CU_ASSERT_PTR_NULL(strstr(swx_error_last(), KEY));
    CU_ASSERT_PTR_NULL(strstr(swx_error_last(), PASSWORD));
}

static void test_success(void)
{
    swx_client *c = client();
    swx_response *r = NULL;
    const char *kv[] = {"id", "ok1", NULL};
    CU_ASSERT_EQUAL(get(c, "/_sim/test", kv, 0, "text/plain", &r), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_EQUAL(r->status, 200);
    CU_ASSERT_STRING_EQUAL(r->body, "ok");
    CU_ASSERT_EQUAL(r->attempts, 1);
    CU_ASSERT_PTR_NULL(strstr(r->url, KEY));
    swx_response_free(r);
    swx_client_free(c);
    CU_ASSERT_EQUAL(count_of("ok1"), 1);
}

static void retried_then_ok(const char *id, const char *mode, const char *extra_k,
                            const char *extra_v, int fails)
{
    swx_client *c = client();
    swx_response *r = NULL;
    char n[8];
    snprintf(n, sizeof n, "%d", fails);
    const char *kv[] = {"id", id, "fail", n, "mode", mode, extra_k, extra_v, NULL};
    int rc = get(c, "/_sim/test", kv, 0, NULL, &r);
    CU_ASSERT_EQUAL(rc, 0);
    if (rc)
        fprintf(stderr, "\n  %s: %s\n", id, swx_error_last());
    if (r) {
        CU_ASSERT_EQUAL(r->attempts, fails + 1);
        CU_ASSERT_STRING_EQUAL(r->body, "ok");
    }
    swx_response_free(r);
    swx_client_free(c);
    CU_ASSERT_EQUAL(count_of(id), fails + 1);
}

static void test_retry_503(void)
{
    retried_then_ok("r503", "status", "status", "503", 2);
}

static void test_retry_500_502_504(void)
{
    retried_then_ok("r500", "status", "status", "500", 1);
    retried_then_ok("r502", "status", "status", "502", 1);
    retried_then_ok("r504", "status", "status", "504", 1);
}

static void test_retry_drop(void)
{
    retried_then_ok("rdrop", "drop", NULL, NULL, 2);
}

static void test_retry_truncated(void)
{
    retried_then_ok("rtrunc", "trunc", NULL, NULL, 1);
}

static void test_retry_exception_200(void)
{
    retried_then_ok("rexc", "exception", NULL, NULL, 1);
}

static void test_retry_429_no_header(void)
{
    retried_then_ok("r429", "status", "status", "429", 2);
}

static void test_retry_after_seconds(void)
{
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    retried_then_ok("ra1", "status", "retry_after", "1", 1);
    /* The status defaults to 503 in the sim; Retry-After applies to both. */
    CU_ASSERT(elapsed_ms(&t0) >= 1000);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    swx_client *c = client();
    swx_response *r = NULL;
    const char *kv[] = {"id",  "ra429",       "fail", "1",    "mode",       "status", "status",
                        "429", "retry_after", "1",    "body", "json-fault", NULL};
    CU_ASSERT_EQUAL(get(c, "/_sim/test", kv, 0, NULL, &r), 0);
    CU_ASSERT(elapsed_ms(&t0) >= 1000);
    CU_ASSERT(elapsed_ms(&t0) < 3500);
    swx_response_free(r);
    swx_client_free(c);
}

static void test_retry_after_date(void)
{
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    swx_client *c = client();
    swx_response *r = NULL;
    const char *kv[] = {"id",  "radate",           "fail", "1", "mode", "status", "status",
                        "429", "retry_after_date", "2",    NULL};
    CU_ASSERT_EQUAL(get(c, "/_sim/test", kv, 0, NULL, &r), 0);
    /* An HTTP date has whole seconds: now+2 s is at least 1 s away. */
    CU_ASSERT(elapsed_ms(&t0) >= 900);
    swx_response_free(r);
    swx_client_free(c);
    CU_ASSERT_EQUAL(count_of("radate"), 2);
}

static void test_retry_after_too_long(void)
{
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    swx_client *c = client();
    swx_response *r = NULL;
    const char *kv[] = {"id",  "ralong",      "fail", "5",    "mode",       "status", "status",
                        "429", "retry_after", "3600", "body", "json-fault", NULL};
    CU_ASSERT_EQUAL(get(c, "/_sim/test", kv, 0, NULL, &r), SWX_ERATE);
    CU_ASSERT_PTR_NULL(r);
    CU_ASSERT(elapsed_ms(&t0) < 1000);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "3600"));
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "HTTP 429"));
    assert_no_key();
    swx_client_free(c);
    CU_ASSERT_EQUAL(count_of("ralong"), 1);
}

static void no_retry(const char *id, const char *status, const char *body, int expect_rc,
                     const char *const *must_say)
{
    swx_client *c = client();
    swx_response *r = NULL;
    const char *kv[] = {"id",     id,     "fail", "5",  "mode", "status",
                        "status", status, "body", body, "msg",  "the-service-words",
                        NULL};
    CU_ASSERT_EQUAL(get(c, "/_sim/test", kv, 0, NULL, &r), expect_rc);
    CU_ASSERT_PTR_NULL(r);
    for (int i = 0; must_say[i]; i++) {
        CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), must_say[i]));
        if (!strstr(swx_error_last(), must_say[i]))
            fprintf(stderr, "\n  '%s' lacks '%s'\n", swx_error_last(), must_say[i]);
    }
    assert_no_key();
    swx_client_free(c);
    CU_ASSERT_EQUAL(count_of(id), 1);
}

static void test_no_retry_401(void)
{
    const char *say[] = {"HTTP 401", "SEAWX_API_KEY", "the-service-words", "/_sim/test", NULL};
    no_retry("n401", "401", "json-errors", SWX_EAUTH, say);
}

static void test_no_retry_403(void)
{
    const char *say[] = {"HTTP 403", "subscription", "the-service-words", NULL};
    no_retry("n403", "403", "json-errors", SWX_EFORBIDDEN, say);
}

static void test_no_retry_404(void)
{
    const char *say[] = {"HTTP 404", "not found", NULL};
    no_retry("n404", "404", "none", SWX_ENOTFOUND, say);
}

static void test_400_wms_exception(void)
{
    const char *say[] = {"HTTP 400", "the-service-words", NULL};
    no_retry("n400w", "400", "wms-exception", SWX_EINVAL, say);
}

static void test_400_ows_exception(void)
{
    const char *say[] = {"HTTP 400", "the-service-words", NULL};
    no_retry("n400o", "400", "ows-exception", SWX_EINVAL, say);
}

static void test_gives_up(void)
{
    swx_client *c = client_with(NULL, 2, 0, 0);
    swx_response *r = NULL;
    const char *kv[] = {"id",  "giveup", "fail",           "100", "mode", "status", "status",
                        "503", "msg",    "overloaded-now", NULL};
    CU_ASSERT_EQUAL(get(c, "/_sim/test", kv, 0, NULL, &r), SWX_EHTTP);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "HTTP 503"));
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "overloaded-now"));
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "3 attempts"));
    assert_no_key();
    swx_client_free(c);
    CU_ASSERT_EQUAL(count_of("giveup"), 3);
}

static void test_permanent_exception_200(void)
{
    swx_client *c = client();
    swx_response *r = NULL;
    const char *kv[] = {"id",   "pexc",          "fail", "5",
                        "mode", "exception",     "code", "LayerNotDefined",
                        "msg",  "no-such-layer", NULL};
    CU_ASSERT_EQUAL(get(c, "/_sim/test", kv, 1, "image/png", &r), SWX_ESERVICE);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "no-such-layer"));
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "LayerNotDefined"));
    swx_client_free(c);
    CU_ASSERT_EQUAL(count_of("pexc"), 1);
}

static void test_wrong_content_type(void)
{
    swx_client *c = client();
    swx_response *r = NULL;
    const char *kv[] = {"id", "ctype", "ctype", "text/html", NULL};
    CU_ASSERT_EQUAL(get(c, "/_sim/test", kv, 0, "image/png", &r), SWX_ESERVICE);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "expected image/png"));
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "text/html"));
    swx_client_free(c);
}

static void test_size_limit(void)
{
    swx_client *c = client_with(NULL, 0, 0, 1000);
    swx_response *r = NULL;
    const char *kv[] = {"id", "big", "size", "100000", NULL};
    CU_ASSERT_EQUAL(get(c, "/_sim/test", kv, 0, NULL, &r), SWX_ETOOBIG);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "1000-byte limit"));
    const char *kv2[] = {"id", "small", "size", "1000", NULL};
    CU_ASSERT_EQUAL(get(c, "/_sim/test", kv2, 0, NULL, &r), 0);
    CU_ASSERT_EQUAL(r ? r->len : 0, 1000);
    swx_response_free(r);
    swx_client_free(c);
}

static void test_gzip(void)
{
    swx_client *c = client();
    swx_response *r = NULL;
    const char *kv[] = {"id", "gz", "size", "50000", "gzip", "1", NULL};
    CU_ASSERT_EQUAL(get(c, "/_sim/test", kv, 0, NULL, &r), 0);
    CU_ASSERT_EQUAL_FATAL(r ? r->len : 0, 50000);
    CU_ASSERT(r->body[0] == 'x' && r->body[49999] == 'x');
    swx_response_free(r);
    swx_client_free(c);
}

static void test_timeout(void)
{
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    swx_client *c = client_with(NULL, 1, 400, 0);
    swx_response *r = NULL;
    const char *kv[] = {"id", "slow", "fail", "5", "mode", "slow", "ms", "3000", NULL};
    CU_ASSERT_EQUAL(get(c, "/_sim/test", kv, 0, NULL, &r), SWX_ENET);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "no complete answer"));
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "2 attempts"));
    long ms = elapsed_ms(&t0);
    CU_ASSERT(ms >= 800 && ms < 2500);
    swx_client_free(c);
}

static void test_unreachable(void)
{
    swx_client_opts o = {0};
    o.base_url = "http://127.0.0.1:1";
    o.api_key = KEY;
    swx_client *c = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_client_new(&c, &o), 0);
    swx_response *r = NULL;
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    CU_ASSERT_EQUAL(get(c, "/ows/wms", NULL, 1, NULL, &r), SWX_ENET);
    CU_ASSERT(elapsed_ms(&t0) < 1000); /* refused connections are not retried */
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "cannot reach"));
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "SEAWX_BASE_URL"));
    swx_client_free(c);
}

static void test_no_key(void)
{
    swx_client_opts o = {0};
    o.base_url = sim.base_url;
    swx_client *c = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_client_new(&c, &o), 0);
    CU_ASSERT_FALSE(swx_client_has_key(c));
    swx_response *r = NULL;
    const char *kv[] = {"id", "nokey", NULL};
    CU_ASSERT_EQUAL(get(c, "/_sim/test", kv, 0, NULL, &r), SWX_ECONFIG);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "SEAWX_API_KEY"));
    swx_client_free(c);
    CU_ASSERT_EQUAL(count_of("nokey"), 0);
}

static void test_bad_config(void)
{
    swx_client_opts o = {0};
    swx_client *c = NULL;
    CU_ASSERT_EQUAL(swx_client_new(&c, &o), SWX_ECONFIG);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "SEAWX_BASE_URL"));
    o.base_url = "ftp://example.invalid";
    CU_ASSERT_EQUAL(swx_client_new(&c, &o), SWX_ECONFIG);
    o.base_url = sim.base_url;
    o.wms_auth = "cookie";
    CU_ASSERT_EQUAL(swx_client_new(&c, &o), SWX_ECONFIG);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "header, query or basic"));
    o.wms_auth = "basic";
    CU_ASSERT_EQUAL(swx_client_new(&c, &o), SWX_ECONFIG);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "SEAWX_WMS_PASSWORD"));
    CU_ASSERT_PTR_NULL(c);
}

static void redirect_check(const char *auth, int wms, const char *to, const char *expect)
{
    swx_client *c = client_with(auth, 0, 0, 0);
    swx_response *r = NULL;
    const char *kv[] = {"to", to, NULL};
    int rc = get(c, "/_sim/redirect", kv, wms, NULL, &r);
    CU_ASSERT_EQUAL(rc, 0);
    if (rc)
        fprintf(stderr, "\n  redirect %s/%s: %s\n", auth ? auth : "header", to, swx_error_last());
    if (r) {
        CU_ASSERT_STRING_EQUAL(r->body, expect);
        if (strcmp(r->body, expect) != 0)
            fprintf(stderr, "\n  redirect %s/%s: got '%s'\n", auth ? auth : "header", to, r->body);
        CU_ASSERT_PTR_NULL(strstr(r->url, KEY));
    }
    swx_response_free(r);
    swx_client_free(c);
}

static void test_redirect_keeps_key_on_same_host(void)
{
    redirect_check(NULL, 0, "self", "header");
    redirect_check("query", 1, "self", "query");
    redirect_check("basic", 1, "self", "basic");
}

static void test_redirect_to_storage_carries_no_key(void)
{
    redirect_check(NULL, 0, "storage", "storage ok");
    redirect_check(NULL, 1, "storage", "storage ok");
    redirect_check("query", 1, "storage", "storage ok");
    redirect_check("basic", 1, "storage", "storage ok");
}

static void test_auth_forms(void)
{
    swx_response *r = NULL;
    const char *modes[] = {"header", "query", "basic"};
    for (int i = 0; i < 3; i++) {
        swx_client *c = client_with(modes[i], 0, 0, 0);
        CU_ASSERT_EQUAL(get(c, "/_sim/echo-auth", NULL, 1, NULL, &r), 0);
        CU_ASSERT_STRING_EQUAL(r ? r->body : "", modes[i]);
        swx_response_free(r);
        /* Endpoints other than WMS always use the header. */
        CU_ASSERT_EQUAL(get(c, "/_sim/echo-auth", NULL, 0, NULL, &r), 0);
        CU_ASSERT_STRING_EQUAL(r ? r->body : "", "header");
        swx_response_free(r);
        r = NULL;
        swx_client_free(c);
    }
}

static void test_display_url_has_no_key(void)
{
    swx_client *c = client_with("query", 0, 0, 0);
    swx_query *q = NULL;
    swx_query_new(&q);
    swx_query_add(q, "layers", "sof-d/20241001/00/t2m:K");
    swx_query_add(q, "bbox", "-90,-180,90,180");
    swx_query_add(q, "odd", "a&b=c d");
    swx_request req = {0};
    req.path = "/ows/wms";
    req.query = q;
    req.wms = 1;
    char *u = swx_request_display_url(c, &req);
    CU_ASSERT_PTR_NOT_NULL_FATAL(u);
    CU_ASSERT_PTR_NULL(strstr(u, KEY));
    CU_ASSERT_PTR_NOT_NULL(strstr(u, "layers=sof-d/20241001/00/t2m:K"));
    CU_ASSERT_PTR_NOT_NULL(strstr(u, "bbox=-90,-180,90,180"));
    CU_ASSERT_PTR_NOT_NULL(strstr(u, "odd=a%26b%3Dc%20d"));
    free(u);
    swx_query_free(q);
    swx_client_free(c);
}

/* ---- concurrent fetching ---- */

typedef struct batch {
    int n, next, ok, failed, abort_after;
    int max_seen_attempts;
    swx_query *q;
    char id[32];
} batch;

static int batch_next(void *ud, swx_request *req, void **user)
{
    batch *b = ud;
    if (b->next >= b->n)
        return 0;
    int i = b->next++;
    swx_query_free(b->q);
    swx_query_new(&b->q);
    snprintf(b->id, sizeof b->id, "batch-%d-%d", b->n, i);
    swx_query_add(b->q, "id", b->id);
    swx_query_add(b->q, "fail", i % 5 == 0 ? "1" : "0");
    swx_query_add(b->q, "mode", i % 10 == 0 ? "drop" : "status");
    memset(req, 0, sizeof *req);
    req->path = "/_sim/test";
    req->query = b->q;
    *user = (void *)(long)i;
    return 1;
}

static int batch_done(void *ud, void *user, int rc, const swx_response *resp)
{
    batch *b = ud;
    if (rc == 0 && resp && strcmp(resp->body, "ok") == 0) {
        b->ok++;
        if (resp->attempts > b->max_seen_attempts)
            b->max_seen_attempts = resp->attempts;
    } else {
        b->failed++;
    }
    if (b->abort_after && b->ok + b->failed >= b->abort_after)
        return -42;
    return 0;
}

static void test_fetch_many(void)
{
    swx_client *c = client();
    batch b = {0};
    b.n = 60;
    swx_fetch_opts o = {8, 0, NULL};
    swx_fetch_stats st = {0};
    CU_ASSERT_EQUAL(swx_fetch_run(&st, c, &o, batch_next, batch_done, &b), 0);
    CU_ASSERT_EQUAL(b.ok, 60);
    CU_ASSERT_EQUAL(b.failed, 0);
    CU_ASSERT_EQUAL(st.completed, 60);
    /* Six requests answer 503 once: each is retried. Six drop the connection
     * once: libcurl itself re-sends a request whose reused connection died
     * before any answer, so those may or may not need a retry of ours. */
    CU_ASSERT(st.retries >= 6 && st.retries <= 12);
    CU_ASSERT_EQUAL(st.requests, 60 + st.retries);
    for (int i = 0; i < 60; i += 5) {
        char id[32];
        snprintf(id, sizeof id, "batch-60-%d", i);
        CU_ASSERT_EQUAL(count_of(id), 2); /* the service saw the failure and the retry */
    }
    CU_ASSERT_EQUAL(b.max_seen_attempts, 2);
    swx_query_free(b.q);
    swx_client_free(c);
}

static void test_fetch_abort(void)
{
    swx_client *c = client();
    batch b = {0};
    b.n = 40;
    b.abort_after = 5;
    swx_fetch_opts o = {4, 0, NULL};
    CU_ASSERT_EQUAL(swx_fetch_run(NULL, c, &o, batch_next, batch_done, &b), -42);
    CU_ASSERT(b.next < 40);
    swx_query_free(b.q);
    /* The client stays usable after an aborted run. */
    swx_response *r = NULL;
    const char *kv[] = {"id", "after-abort", NULL};
    CU_ASSERT_EQUAL(get(c, "/_sim/test", kv, 0, NULL, &r), 0);
    swx_response_free(r);
    swx_client_free(c);
}

static void test_fetch_rate_limit(void)
{
    swx_client *c = client();
    batch b = {0};
    b.n = 21;
    swx_fetch_opts o = {8, 40.0, NULL};
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    CU_ASSERT_EQUAL(swx_fetch_run(NULL, c, &o, batch_next, batch_done, &b), 0);
    /* 21 requests plus their retries at 40/s take at least half a second. */
    CU_ASSERT(elapsed_ms(&t0) >= 480);
    CU_ASSERT_EQUAL(b.ok, 21);
    swx_query_free(b.q);
    swx_client_free(c);
}

static void test_fetch_cancel(void)
{
    swx_client *c = client();
    batch b = {0};
    b.n = 10;
    volatile sig_atomic_t cancel = 1;
    swx_fetch_opts o = {4, 0, &cancel};
    CU_ASSERT_EQUAL(swx_fetch_run(NULL, c, &o, batch_next, batch_done, &b), SWX_ECANCEL);
    swx_query_free(b.q);
    swx_client_free(c);
}

/* ---- the callback sink ---- */

struct sink_rec {
    size_t got;   /* bytes since the last restart */
    size_t total; /* bytes over all attempts */
    int chunks, restarts, bad;
    size_t stop_after; /* > 0: fail once this many bytes came */
};

static int rec_write(void *ud, const char *data, size_t len)
{
    struct sink_rec *r = ud;
    for (size_t i = 0; i < len; i++)
        if (data[i] != 'x' && data[i] != 'o' && data[i] != 'k')
            r->bad++;
    r->got += len;
    r->total += len;
    r->chunks++;
    if (r->stop_after && r->got >= r->stop_after)
        return swx_error_set(SWX_EPARSE, "sink-test: stopped after %zu bytes", r->got);
    return 0;
}

static int rec_restart(void *ud)
{
    struct sink_rec *r = ud;
    r->restarts++;
    r->got = 0;
    return 0;
}

static int get_sink(swx_client *c, const char *const *kv, const char *accept, int restartable,
                    struct sink_rec *rec, swx_response **out)
{
    swx_query *q = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_query_new(&q), 0);
    for (int i = 0; kv && kv[i]; i += 2)
        swx_query_add(q, kv[i], kv[i + 1]);
    swx_request req = {0};
    req.path = "/_sim/test";
    req.query = q;
    req.accept = accept;
    swx_body_sink sink = {rec_write, restartable ? rec_restart : NULL, rec};
    int rc = swx_http_get_sink(out, c, &req, &sink);
    swx_query_free(q);
    return rc;
}

static void test_sink_streams(void)
{
    swx_client *c = client();
    swx_response *r = NULL;
    struct sink_rec rec = {0};
    const char *kv[] = {"id", "sink1", "size", "300000", NULL};
    CU_ASSERT_EQUAL(get_sink(c, kv, "text/plain", 1, &rec, &r), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_EQUAL(r->status, 200);
    CU_ASSERT_EQUAL(r->len, 0);
    CU_ASSERT_STRING_EQUAL(r->body, "");
    CU_ASSERT_EQUAL(rec.got, 300000);
    CU_ASSERT(rec.chunks > 1); /* handed on as it came, not as one block */
    CU_ASSERT_EQUAL(rec.restarts, 0);
    CU_ASSERT_EQUAL(rec.bad, 0);
    swx_response_free(r);
    swx_client_free(c);
}

static void test_sink_restart(void)
{
    /* The first answer breaks off half way: the sink is told to start over,
     * and the second delivers the whole body once. */
    swx_client *c = client_with(NULL, 3, 0, 0);
    swx_response *r = NULL;
    struct sink_rec rec = {0};
    const char *kv[] = {"id", "sinkr", "fail", "1", "mode", "trunc", "size", "100000", NULL};
    CU_ASSERT_EQUAL(get_sink(c, kv, NULL, 1, &rec, &r), 0);
    CU_ASSERT_EQUAL(rec.restarts, 1);
    CU_ASSERT_EQUAL(rec.got, 100000);
    CU_ASSERT(rec.total > 100000 && rec.total < 200000);
    CU_ASSERT_EQUAL(r ? r->attempts : 0, 2);
    swx_response_free(r);
    swx_client_free(c);
    CU_ASSERT_EQUAL(count_of("sinkr"), 2);
}

static void test_sink_no_restart(void)
{
    /* Without restart, data already delivered makes the request final. */
    swx_client *c = client_with(NULL, 3, 0, 0);
    swx_response *r = NULL;
    struct sink_rec rec = {0};
    const char *kv[] = {"id", "sinknr", "fail", "1", "mode", "trunc", "size", "100000", NULL};
    CU_ASSERT_EQUAL(get_sink(c, kv, NULL, 0, &rec, &r), SWX_ENET);
    CU_ASSERT_PTR_NULL(r);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "broke off"));
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "1 attempt"));
    CU_ASSERT(rec.total > 0 && rec.total < 100000);
    assert_no_key();
    swx_client_free(c);
    CU_ASSERT_EQUAL(count_of("sinknr"), 1);
}

static void test_sink_retry_before_data(void)
{
    /* Failures that delivered nothing are retried as usual, without restart;
     * their error bodies never reach the sink. */
    swx_client *c = client_with(NULL, 3, 0, 0);
    swx_response *r = NULL;
    struct sink_rec rec = {0};
    const char *kv[] = {"id",     "sink503", "fail", "2",    "mode", "status",
                        "status", "503",     "size", "5000", NULL};
    CU_ASSERT_EQUAL(get_sink(c, kv, NULL, 0, &rec, &r), 0);
    CU_ASSERT_EQUAL(r ? r->attempts : 0, 3);
    CU_ASSERT_EQUAL(rec.total, 5000);
    CU_ASSERT_EQUAL(rec.restarts, 0);
    CU_ASSERT_EQUAL(rec.bad, 0);
    swx_response_free(r);
    /* A WMS exception with status 200 is not the accepted type: buffered,
     * recognised and retried. */
    struct sink_rec rec2 = {0};
    const char *kv2[] = {"id", "sinkexc", "fail", "1", "mode", "exception", NULL};
    CU_ASSERT_EQUAL(get_sink(c, kv2, "text/plain", 0, &rec2, &r), 0);
    CU_ASSERT_EQUAL(r ? r->attempts : 0, 2);
    CU_ASSERT_EQUAL(rec2.total, 2); /* "ok" */
    CU_ASSERT_EQUAL(rec2.bad, 0);
    swx_response_free(r);
    swx_client_free(c);
}

static void test_sink_error_body(void)
{
    swx_client *c = client_with(NULL, 3, 0, 0);
    swx_response *r = NULL;
    struct sink_rec rec = {0};
    const char *kv[] = {"id",     "sink401", "fail", "5",           "mode", "status",
                        "status", "401",     "body", "json-errors", "msg",  "the-service-words",
                        NULL};
    CU_ASSERT_EQUAL(get_sink(c, kv, NULL, 1, &rec, &r), SWX_EAUTH);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "HTTP 401"));
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "the-service-words"));
    CU_ASSERT_EQUAL(rec.total, 0);
    assert_no_key();
    const char *kv2[] = {"id",     "sink503x",   "fail", "5",    "mode",
                         "status", "status",     "503",  "body", "wms-exception",
                         "msg",    "busy-words", NULL};
    CU_ASSERT_EQUAL(get_sink(c, kv2, NULL, 1, &rec, &r), SWX_EHTTP);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "HTTP 503"));
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "busy-words"));
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "4 attempts"));
    CU_ASSERT_EQUAL(rec.total, 0);
    CU_ASSERT_EQUAL(rec.restarts, 0);
    swx_client_free(c);
    CU_ASSERT_EQUAL(count_of("sink401"), 1);
}

static void test_sink_stop_and_limit(void)
{
    /* The callback stops the transfer: its code and line come back, no retry. */
    swx_client *c = client_with(NULL, 3, 0, 0);
    swx_response *r = NULL;
    struct sink_rec rec = {0};
    rec.stop_after = 1;
    const char *kv[] = {"id", "sinkstop", "size", "200000", NULL};
    CU_ASSERT_EQUAL(get_sink(c, kv, NULL, 1, &rec, &r), SWX_EPARSE);
    CU_ASSERT_PTR_NULL(r);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "sink-test: stopped after"));
    CU_ASSERT_EQUAL(rec.chunks, 1);
    CU_ASSERT_EQUAL(rec.restarts, 0);
    swx_client_free(c);
    CU_ASSERT_EQUAL(count_of("sinkstop"), 1);
    /* The body limit holds for what is delivered. */
    c = client_with(NULL, 0, 0, 1000);
    struct sink_rec rec2 = {0};
    const char *kv2[] = {"id", "sinkbig", "size", "100000", NULL};
    CU_ASSERT_EQUAL(get_sink(c, kv2, NULL, 1, &rec2, &r), SWX_ETOOBIG);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "1000-byte limit"));
    CU_ASSERT(rec2.total <= 1000);
    swx_client_free(c);
}

int main(void)
{
    const char *args[] = {"--key", KEY, "--basic-password", PASSWORD, NULL};
    if (cu_sim_start(&sim, args))
        return 1;
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("http", NULL, NULL);
    CU_add_test(s, "success", test_success);
    CU_add_test(s, "retry 503", test_retry_503);
    CU_add_test(s, "retry 500 502 504", test_retry_500_502_504);
    CU_add_test(s, "retry dropped connection", test_retry_drop);
    CU_add_test(s, "retry truncated body", test_retry_truncated);
    CU_add_test(s, "retry 200 exception", test_retry_exception_200);
    CU_add_test(s, "retry 429 without Retry-After", test_retry_429_no_header);
    CU_add_test(s, "Retry-After seconds", test_retry_after_seconds);
    CU_add_test(s, "Retry-After HTTP date", test_retry_after_date);
    CU_add_test(s, "Retry-After too long", test_retry_after_too_long);
    CU_add_test(s, "no retry on 401", test_no_retry_401);
    CU_add_test(s, "no retry on 403", test_no_retry_403);
    CU_add_test(s, "no retry on 404", test_no_retry_404);
    CU_add_test(s, "400 with WMS exception", test_400_wms_exception);
    CU_add_test(s, "400 with OWS exception", test_400_ows_exception);
    CU_add_test(s, "gives up after retries", test_gives_up);
    CU_add_test(s, "permanent exception in 200", test_permanent_exception_200);
    CU_add_test(s, "wrong content type", test_wrong_content_type);
    CU_add_test(s, "size limit", test_size_limit);
    CU_add_test(s, "gzip", test_gzip);
    CU_add_test(s, "timeout", test_timeout);
    CU_add_test(s, "unreachable", test_unreachable);
    CU_add_test(s, "no key", test_no_key);
    CU_add_test(s, "bad configuration", test_bad_config);
    CU_add_test(s, "auth forms", test_auth_forms);
    CU_add_test(s, "redirect on the same host keeps the key", test_redirect_keeps_key_on_same_host);
    CU_add_test(s, "redirect to storage carries no key", test_redirect_to_storage_carries_no_key);
    CU_add_test(s, "display URL has no key", test_display_url_has_no_key);
    CU_add_test(s, "fetch many with retries", test_fetch_many);
    CU_add_test(s, "fetch abort", test_fetch_abort);
    CU_add_test(s, "fetch rate limit", test_fetch_rate_limit);
    CU_add_test(s, "fetch cancel", test_fetch_cancel);
    CU_add_test(s, "sink: the body handed on as it comes", test_sink_streams);
    CU_add_test(s, "sink: restarted after a broken answer", test_sink_restart);
    CU_add_test(s, "sink: no restart, no retry after data", test_sink_no_restart);
    CU_add_test(s, "sink: retried while nothing was delivered", test_sink_retry_before_data);
    CU_add_test(s, "sink: error bodies read into the message", test_sink_error_body);
    CU_add_test(s, "sink: the callback stops; the limit holds", test_sink_stop_and_limit);
    int rc = cu_run();
    cu_sim_stop(&sim);
    return rc;
}
