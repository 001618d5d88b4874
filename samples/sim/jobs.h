/* jobs.h: historical soil moisture region jobs in seawx-sim.
 * /soil-moisture/historical/region?region&start_time&end_time creates a job
 * ({"job_uuid","status":"pending"}); /status/UUID reads "pending" for the
 * first third of SEAWX_SIM_JOB_MS, then "processing" (a status the interface
 * does not list, which clients must take as still running), then "complete";
 * /download/UUID redirects to the result on the storage host once complete,
 * and answers 409 before. Unknown uuids are 404. At most 1024 jobs are kept. */
#ifndef SIM_JOBS_H
#define SIM_JOBS_H

#include "http.h"

int sim_jobs_handle(struct sim_request *rq);

#endif
