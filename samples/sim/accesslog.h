/* accesslog.h: one line per request, flushed as written:
 *   METHOD HOST:PORT PATH?QUERY STATUS BYTES auth=header|query|basic|none
 * HOST:PORT is the daemon that answered (service or storage host). The value of
 * any service-api-key query parameter is written as REDACTED, so the key never
 * reaches the file. STATUS is 0 for a connection closed without an answer;
 * BYTES counts the body bytes sent (fewer than announced for a truncation). */
#ifndef SIM_ACCESSLOG_H
#define SIM_ACCESSLOG_H

#include "buf.h"
#include "http.h"

struct sim_accesslog;

/* path NULL gives *out == NULL, a log that writes nothing. */
int sim_accesslog_open(const char *path, struct sim_accesslog **out);
void sim_accesslog_close(struct sim_accesslog *log);
void sim_accesslog_write(struct sim_accesslog *log, const char *hostport,
                         const struct sim_request *rq);
/* Appends target with service-api-key values replaced by REDACTED. */
int sim_accesslog_redact(struct sim_buf *out, const char *target);

#endif
