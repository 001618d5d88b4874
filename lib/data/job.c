/* job.c: historical soil moisture region jobs (see seawx/job.h). */
#include "seawx/job.h"

#include "files_int.h"
#include "job_int.h"
#include "jsonr.h"
#include "params.h"
#include "seawx/error.h"
#include "seawx/iso8601.h"
#include "http_core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define JOB_MAX_BODY (1u * 1024u * 1024u)

int swx_job_check(const char *region, const char *start, const char *end)
{
    int64_t a, b;
    int rc;
    if (!region)
        return swx_error_set(SWX_EINVAL, "region is required: a region identifier such as global");
    if ((rc = swx_param_regions("region", region)))
        return rc;
    if (strchr(region, ','))
        return swx_error_set(SWX_EINVAL, "region names one region, not a list");
    if (!start || !end)
        return swx_error_set(SWX_EINVAL, "start and end are required (ISO 8601 times)");
    if ((rc = swx_param_time(&a, "start", start)) || (rc = swx_param_time(&b, "end", end)))
        return rc;
    return swx_param_order("start", a, "end", b);
}

int swx_job_check_uuid(const char *uuid)
{
    return swx_param_uuid("job", uuid);
}

/* Reads {job_uuid, status}. */
static int read_job(const swx_response *resp, char **uuid, char **status)
{
    json_object *root = NULL;
    int rc = swx_jsonr_parse(&root, resp->body, resp->len, "the job answer");
    if (rc)
        return swx_error_prefix(rc, "%s", resp->url);
    const char *u = swx_jsonr_str(swx_jsonr_path(root, "job_uuid", NULL));
    const char *s = swx_jsonr_str(swx_jsonr_path(root, "status", NULL));
    if (!s || (uuid && !u)) {
        rc = swx_error_set(SWX_ESERVICE, "the job answer from %s has no %s", resp->url,
                           s ? "job_uuid" : "status");
        goto done;
    }
    if (uuid && swx_param_uuid("job_uuid", u) != 0) {
        rc = swx_error_set(SWX_ESERVICE, "the job answer from %s has an unusable job_uuid",
                           resp->url);
        goto done;
    }
    if (uuid && !(*uuid = strdup(u))) {
        rc = swx_error_set(SWX_ENOMEM, "out of memory");
        goto done;
    }
    if (!(*status = strdup(s))) {
        if (uuid) {
            free(*uuid);
            *uuid = NULL;
        }
        rc = swx_error_set(SWX_ENOMEM, "out of memory");
    }
done:
    json_object_put(root);
    return rc;
}

/* The path of a job's resource, "/soil-moisture/historical/WHAT/UUID", once
 * the uuid is checked. */
static int job_path(char *path, size_t size, const char *what, const char *uuid)
{
    int rc = swx_param_uuid("job", uuid);
    if (!rc)
        snprintf(path, size, "/soil-moisture/historical/%s/%s", what, uuid);
    return rc;
}

/* GETs path with query q (may be NULL) and reads the job answer. */
static int ask_job(char **uuid, char **status, swx_client *c, const char *path, swx_query *q)
{
    swx_response *resp = NULL;
    swx_request req = {0};
    req.path = path;
    req.query = q;
    req.accept = "application/json";
    req.max_body = JOB_MAX_BODY;
    int rc = swx_http_get(&resp, c, &req);
    if (!rc)
        rc = read_job(resp, uuid, status);
    swx_response_free(resp);
    return rc;
}

int swx_job_start(char **uuid, char **status, swx_client *c, const char *region, const char *start,
                  const char *end)
{
    swx_query *q = NULL;
    int64_t a, b;
    char s1[SWX_ISO8601_LEN], s2[SWX_ISO8601_LEN];
    int rc;
    *uuid = NULL;
    *status = NULL;
    if ((rc = swx_job_check(region, start, end)))
        return rc;
    swx_iso8601_parse(&a, start);
    swx_iso8601_parse(&b, end);
    swx_iso8601_format(s1, a);
    swx_iso8601_format(s2, b);
    if ((rc = swx_query_new(&q)) || (rc = swx_query_add(q, "region", region)) ||
        (rc = swx_query_add(q, "start_time", s1)) || (rc = swx_query_add(q, "end_time", s2)))
        goto done;
    rc = ask_job(uuid, status, c, "/soil-moisture/historical/region", q);
done:
    swx_query_free(q);
    return rc;
}

int swx_job_status(char **status, swx_client *c, const char *uuid)
{
    char path[160];
    *status = NULL;
    int rc = job_path(path, sizeof path, "status", uuid);
    return rc ? rc : ask_job(NULL, status, c, path, NULL);
}

int swx_job_state(const char *status)
{
    if (!status)
        return 0;
    if (strcmp(status, "complete") == 0)
        return 1;
    if (strcmp(status, "failed") == 0 || strcmp(status, "error") == 0 ||
        strcmp(status, "cancelled") == 0)
        return -1;
    return 0;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Sleeps ms in slices, so that a cancel is seen within 100 ms. */
static int nap(long ms, volatile sig_atomic_t *cancel)
{
    while (ms > 0) {
        if (cancel && *cancel)
            return SWX_ECANCEL;
        long step = ms > 100 ? 100 : ms;
        struct timespec ts = {step / 1000, (step % 1000) * 1000000L};
        nanosleep(&ts, NULL);
        ms -= step;
    }
    return cancel && *cancel ? SWX_ECANCEL : 0;
}

int swx_job_wait(swx_client *c, const char *uuid, const swx_job_wait_opts *opts)
{
    swx_job_wait_opts o = {0};
    if (opts)
        o = *opts;
    long wait = o.first_ms > 0 ? o.first_ms : 1000;
    long cap = o.max_ms > 0 ? o.max_ms : 30000;
    double t0 = now_s();
    int polls = 0, rc;
    if ((rc = swx_param_uuid("job", uuid)))
        return rc;
    for (;;) {
        char *status = NULL;
        if ((rc = swx_job_status(&status, c, uuid)))
            return rc;
        polls++;
        int state = swx_job_state(status);
        double elapsed = now_s() - t0;
        if (wait > cap)
            wait = cap;
        if (o.timeout_ms > 0 && state == 0 && elapsed * 1000 + (double)wait > (double)o.timeout_ms)
            wait = (long)((double)o.timeout_ms - elapsed * 1000);
        if (o.on_status)
            o.on_status(o.ud, status, polls, elapsed,
                        state ? 0 : (double)(wait > 0 ? wait : 0) / 1000);
        if (state == 1) {
            free(status);
            return 0;
        }
        if (state < 0) {
            rc = swx_error_set(SWX_ESERVICE, "job %s ended with status '%.40s'", uuid, status);
            free(status);
            return rc;
        }
        free(status);
        if (o.timeout_ms > 0 && wait <= 0)
            return swx_error_set(SWX_ENET,
                                 "job %s was not complete after %.0f s; watch it again "
                                 "later by its uuid",
                                 uuid, elapsed);
        if ((rc = nap(wait, o.cancel)))
            return swx_error_set(rc, "stopped watching job %s; watch it again by its uuid", uuid);
        wait += wait / 2;
    }
}

int swx_job_download(swx_download_result *res, swx_client *c, const char *uuid, const char *dest,
                     const swx_download_opts *opts)
{
    char path[160];
    int rc = job_path(path, sizeof path, "download", uuid);
    return rc ? rc : swx_files_download_path(res, c, path, dest, opts);
}
