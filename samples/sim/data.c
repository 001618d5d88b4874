/* data.c: dispatch and shared checks of the point, file, job and vessel
 * endpoints (see data.h). */
#include "data.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "auth.h"
#include "buf.h"
#include "files.h"
#include "jobs.h"
#include "points.h"
#include "timestamp.h"
#include "vessels.h"

static int has_prefix(const char *path, const char *prefix)
{
    size_t n = strlen(prefix);
    return strncmp(path, prefix, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

int sim_data_path(const char *path)
{
    return has_prefix(path, "/soil-moisture") || has_prefix(path, "/current/weather") ||
           has_prefix(path, "/tides") || has_prefix(path, "/forecast") ||
           has_prefix(path, "/vessels");
}

int sim_data_handle(struct sim_request *rq)
{
    const char *p = rq->path;
    int a = sim_auth_require(rq, 0);

    if (a != 0)
        return a < 0 ? -1 : 0;
    if (strcmp(p, "/soil-moisture/region") == 0 || strcmp(p, "/current/weather/file") == 0 ||
        strcmp(p, "/forecast/file") == 0)
        return sim_files_list(rq);
    if (strncmp(p, "/soil-moisture/region/", 22) == 0 ||
        strncmp(p, "/current/weather/file/", 22) == 0 || strncmp(p, "/forecast/file/", 15) == 0)
        return sim_files_redirect(rq);
    if (strncmp(p, "/soil-moisture/historical/region", 32) == 0 ||
        strncmp(p, "/soil-moisture/historical/status/", 33) == 0 ||
        strncmp(p, "/soil-moisture/historical/download/", 35) == 0)
        return sim_jobs_handle(rq);
    if (strcmp(p, "/vessels") == 0)
        return sim_vessels_handle(rq);
    return sim_points_handle(rq);
}

int sim_data_bad(struct sim_request *rq, const char *fmt, ...)
{
    char msg[512];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    return sim_http_reply_json_error(rq, 400, "bad_request", msg);
}

static int number(const char *s, double *out)
{
    char *end;

    if (s == NULL || *s == '\0')
        return -1;
    *out = strtod(s, &end);
    return *end == '\0' && isfinite(*out) ? 0 : -1;
}

int sim_data_latlon(struct sim_request *rq, double *lat, double *lon)
{
    if (number(sim_http_arg(rq, "lat"), lat) != 0 || *lat < -90 || *lat > 90) {
        sim_data_bad(rq, "lat is required: a number from -90 to 90");
        return 1;
    }
    if (number(sim_http_arg(rq, "lon"), lon) != 0 || *lon < -180 || *lon > 180) {
        sim_data_bad(rq, "lon is required: a number from -180 to 180");
        return 1;
    }
    return 0;
}

int sim_data_units(struct sim_request *rq, int *us)
{
    const char *u = sim_http_arg(rq, "unit_system");

    *us = 0;
    if (u == NULL || strcmp(u, "si") == 0)
        return 0;
    if (strcmp(u, "us") == 0) {
        *us = 1;
        return 0;
    }
    sim_data_bad(rq, "unit_system must be si or us");
    return 1;
}

int sim_data_time(struct sim_request *rq, const char *name, int *given, int64_t *t)
{
    const char *s = sim_http_arg(rq, name);
    char day[40];

    *given = 0;
    if (s == NULL)
        return 0;
    /* a bare date is midnight UTC */
    if (strlen(s) == 10 && snprintf(day, sizeof(day), "%sT00:00:00Z", s) > 0 &&
        sim_ts_parse(day, t) == 0) {
        *given = 1;
        return 0;
    }
    if (sim_ts_parse(s, t) != 0) {
        sim_data_bad(rq, "%s must be an ISO 8601 time", name);
        return 1;
    }
    *given = 1;
    return 0;
}

int sim_data_json(struct sim_request *rq, struct sim_buf *b)
{
    size_t len = 0;
    char *body;

    if (b->failed) {
        sim_buf_free(b);
        return -1;
    }
    body = sim_buf_steal(b, &len);
    if (body == NULL)
        return -1;
    return sim_http_reply_take(rq, 200, "application/json", body, len, NULL, 0);
}

long sim_data_env(const char *name, long dflt, long min, long max)
{
    const char *s = getenv(name);
    char *end;
    long v;

    if (s == NULL || *s == '\0')
        return dflt;
    v = strtol(s, &end, 10);
    if (*end != '\0' || v < min || v > max)
        return dflt;
    return v;
}
