/* jobs.c: historical region jobs (see jobs.h). */
#include "jobs.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app.h"
#include "buf.h"
#include "data.h"
#include "files.h"

#define MAX_JOBS 1024
#define UUID_LEN 36

struct job {
    char uuid[UUID_LEN + 1];
    double created; /* monotonic seconds */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct job jobs[MAX_JOBS];
static size_t njobs, next_slot;
static unsigned long long seed;

static double mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static unsigned long long rnd(void)
{
    /* splitmix64: uuids only need to differ */
    unsigned long long z = (seed += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static const char *status_of(const struct job *j)
{
    double ms = (mono() - j->created) * 1000;
    long total = sim_data_env("SEAWX_SIM_JOB_MS", 1500, 0, 3600000);
    if (ms >= (double)total)
        return "complete";
    return ms < (double)total / 3 ? "pending" : "processing";
}

static int reply_job(struct sim_request *rq, const char *uuid, const char *status)
{
    struct sim_buf b;
    sim_buf_init(&b, 4096);
    sim_buf_printf(&b, "{\"job_uuid\":\"%s\",\"status\":\"%s\"}", uuid, status);
    return sim_data_json(rq, &b);
}

static int create(struct sim_request *rq)
{
    const char *region = sim_http_arg(rq, "region");
    int64_t a, b;
    int g1, g2;
    struct job j;

    if (region == NULL || *region == '\0' || strlen(region) > 64)
        return sim_data_bad(rq, "region is required");
    for (const char *p = region; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '_' || *p == '-'))
            return sim_data_bad(rq, "region must be a region identifier");
    if (sim_data_time(rq, "start_time", &g1, &a) || sim_data_time(rq, "end_time", &g2, &b))
        return 0;
    if (!g1 || !g2)
        return sim_data_bad(rq, "start_time and end_time are required (ISO 8601)");
    if (b <= a)
        return sim_data_bad(rq, "end_time must be after start_time");
    pthread_mutex_lock(&lock);
    if (seed == 0)
        seed = (unsigned long long)time(NULL) ^ ((unsigned long long)(mono() * 1e6) << 16);
    unsigned long long r1 = rnd(), r2 = rnd();
    snprintf(j.uuid, sizeof(j.uuid), "%08llx-%04llx-4%03llx-a%03llx-%012llx", r1 >> 32,
             (r1 >> 16) & 0xffff, r1 & 0xfff, (r2 >> 48) & 0xfff, r2 & 0xffffffffffffULL);
    j.created = mono();
    jobs[next_slot] = j;
    next_slot = (next_slot + 1) % MAX_JOBS;
    if (njobs < MAX_JOBS)
        njobs++;
    pthread_mutex_unlock(&lock);
    return reply_job(rq, j.uuid, "pending");
}

/* Copies the job of uuid; 0 if there is none. */
static int find(const char *uuid, struct job *out)
{
    int found = 0;
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < njobs && !found; i++)
        if (strcmp(jobs[i].uuid, uuid) == 0) {
            *out = jobs[i];
            found = 1;
        }
    pthread_mutex_unlock(&lock);
    return found;
}

int sim_jobs_handle(struct sim_request *rq)
{
    const char *p = rq->path;
    struct job j;
    char name[64];

    if (strcmp(p, "/soil-moisture/historical/region") == 0)
        return create(rq);
    const char *uuid = strrchr(p, '/') + 1;
    int status = strncmp(p, "/soil-moisture/historical/status/", 33) == 0;
    if (strlen(uuid) != UUID_LEN || !find(uuid, &j))
        return sim_http_reply_json_error(rq, 404, "not_found", "No such job");
    if (status)
        return reply_job(rq, j.uuid, status_of(&j));
    if (strcmp(status_of(&j), "complete") != 0)
        return sim_http_reply_json_error(rq, 409, "not_complete", "The job is not complete yet");
    snprintf(name, sizeof(name), "%s.nc", j.uuid);
    return sim_files_redirect_to(rq, "jobs", name);
}
