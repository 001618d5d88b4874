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
 * the default) and no retries (and a long timeout under valgrind,
 * SEAWX_UNDER_VALGRIND); a failed CUnit assertion when it cannot be made. */
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

/* Lines of the file log that hold needle, once at least want of them do
 * (seawx-sim writes a line of its access log as each answer completes, a
 * moment after the client has it); gives up after about 10 s and returns
 * what it counted. */
long cu_log_count(const char *log, const char *needle, long want);

/* What a voyage package's tests start from (test_package_build,
 * test_package_quote): a private folder, seawx-sim on a fixed clock with a
 * key and its access log in that folder, the maritime bundle's
 * capabilities, and a voyage along a route sailed at a constant speed. */
struct swx_caps;
struct swx_voyage;
typedef struct cu_voyage_bench {
    cu_sim sim;
    struct swx_caps *caps;
    struct swx_voyage *voyage;
    char dir[64];        /* removed with everything in it by cu_voyage_bench_stop */
    char access_log[96]; /* dir/access.log */
} cu_voyage_bench;

/* name: a word for the folder (/tmp/seawx-test-NAME-XXXXXX); now: the
 * stand-in's clock; route: CSV waypoints; the voyage leaves at depart at kn
 * knots. Returns 0, or -1 after saying why on stderr. */
int cu_voyage_bench_start(cu_voyage_bench *b, const char *name, const char *key, const char *now,
                          const char *route, const char *depart, double kn);
/* Frees, stops the stand-in, removes the folder; 0 or -1. */
int cu_voyage_bench_stop(cu_voyage_bench *b);

#endif
