/*
 * job_int.h: how a job's status text reads (the wait loop's own).
 */
#ifndef SEAWX_JOB_INT_H
#define SEAWX_JOB_INT_H

#include "seawx/job.h"

/* 1 "complete", -1 a failed job, 0 anything else (still running). */
int swx_job_state(const char *status);

#endif
