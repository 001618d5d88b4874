/*
 * seawx/job.h: historical soil moisture region jobs.
 *
 * A job is started with a region and a time range and answers a job_uuid
 * with status "pending". Its status is polled until it reads "complete";
 * "failed", "error" and "cancelled" end the wait with an error, and any other
 * status (the interface lists only the two) means still running. Polls wait
 * first_ms, then half as long again each time, up to max_ms. The result is
 * downloaded like any file (seawx/files.h).
 *
 * Reading a status text (swx_job_state) is the wait loop's own: lib/data/job_int.h.
 */
#ifndef SEAWX_JOB_H
#define SEAWX_JOB_H

#include "seawx/files.h"
#include "seawx/http.h"
#include "seawx/visibility.h"

#include <signal.h>

#ifdef __cplusplus
extern "C" {
#endif

SWX_API int swx_job_check(const char *region, const char *start, const char *end);
/* A job uuid: hexadecimal digits and '-', 8 to 64 characters. */
SWX_API int swx_job_check_uuid(const char *uuid);
/* Starts a job; *uuid and *status are the caller's (free()). */
SWX_API int swx_job_start(char **uuid, char **status, swx_client *c, const char *region,
                          const char *start, const char *end);
SWX_API int swx_job_status(char **status, swx_client *c, const char *uuid);

/* Called after every poll: the status read, polls so far, seconds since the
 * wait began, and the seconds until the next poll (0 when done). */
typedef void (*swx_job_status_fn)(void *ud, const char *status, int polls, double elapsed,
                                  double next_wait);
typedef struct swx_job_wait_opts {
    long first_ms;   /* default 1000 */
    long max_ms;     /* cap of one wait, default 30000 */
    long timeout_ms; /* give up after this long; 0: never */
    swx_job_status_fn on_status;
    void *ud;
    volatile sig_atomic_t *cancel;
} swx_job_wait_opts;

/* Polls until the job is complete (0), failed, the timeout passed (SWX_ENET)
 * or the caller cancelled (SWX_ECANCEL). */
SWX_API int swx_job_wait(swx_client *c, const char *uuid, const swx_job_wait_opts *opts);
SWX_API int swx_job_download(swx_download_result *res, swx_client *c, const char *uuid,
                             const char *dest, const swx_download_opts *opts);

#ifdef __cplusplus
}
#endif
#endif
