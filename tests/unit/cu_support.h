/* cu_support.h: what every unit test program shares: running the CUnit
 * registry, reading fixtures, and starting seawx-sim on a free loopback port. */
#ifndef CU_SUPPORT_H
#define CU_SUPPORT_H

#include <CUnit/CUnit.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Runs every registered suite verbosely; returns the process exit status
 * (0 when all passed). Cleans the registry up. */
int cu_run(void);

/* Reads $SEAWX_FIXTURES/<rel> whole; NUL-terminated; aborts the test program
 * with a message if the file is missing. Caller frees. */
char *cu_fixture(const char *rel, size_t *len);
/* The path of $SEAWX_FIXTURES/<rel> (a static buffer, valid until the next call). */
const char *cu_fixture_path(const char *rel);

/* An instant from ISO 8601 text the test itself wrote; aborts the test
 * program on a typo. */
int64_t cu_time(const char *iso8601);

/* A client of base_url with key (may be NULL), WMS auth mode auth (NULL:
 * the default) and no retries; a failed CUnit assertion when it cannot be made. */
struct swx_client;
struct swx_client *cu_client(const char *base_url, const char *key, const char *auth);

/* A seawx-sim process started for one test program. */
typedef struct cu_sim {
    pid_t pid;
    int port;
    char base_url[64];
    char dir[64]; /* private temporary folder: port file, access log */
} cu_sim;

/* Starts $SEAWX_SIM with --port 0 plus the given NULL-terminated extra
 * arguments, waits until it listens, fills sim. Returns 0 or -1. */
int cu_sim_start(cu_sim *sim, const char *const *extra_args);
void cu_sim_stop(cu_sim *sim);

#endif
