/* options.h: the command line of seawx-sim. */
#ifndef SIM_OPTIONS_H
#define SIM_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Which service requests the injected faults may hit (--faults-on). */
#define SIM_FAULTS_ON_GETMAP 1u
#define SIM_FAULTS_ON_CAPS 2u
#define SIM_FAULTS_ON_OTHER 4u
#define SIM_FAULTS_ON_ALL 7u

struct sim_options {
    const char *host;           /* --host, default 127.0.0.1 */
    unsigned port;              /* --port, 0 = any free port */
    const char *port_file;      /* --port-file */
    const char *storage_host;   /* --storage-host, default 127.0.0.2 */
    unsigned storage_port;      /* --storage-port */
    const char *key;            /* --key, else $SEAWX_SIM_KEY, else "sim-key" */
    const char *basic_password; /* --basic-password */
    const char **deny;          /* --deny-bundle, repeatable */
    size_t ndeny;
    int have_now; /* --now given: the clock stands still at now */
    int64_t now;
    unsigned max_size;   /* --max-size, largest GetMap width/height */
    size_t cache_mb;     /* --cache-mb */
    unsigned latency_ms; /* --latency */
    double p429, p5xx, pdrop, ptrunc, pexception;
    unsigned retry_after;   /* --retry-after, seconds */
    uint64_t fault_seed;    /* --fault-seed */
    unsigned faults_on;     /* --faults-on: SIM_FAULTS_ON_* the faults may hit */
    const char *access_log; /* --access-log */
    unsigned storage_kibps; /* --storage-rate, KiB/s per storage answer, 0 = no limit */
};

/* Parses argv (strings are kept, not copied). Returns 0 to run, 1 when --help was
 * printed (exit 0), -1 after printing one error line to stderr (exit 2). */
int sim_options_parse(int argc, char **argv, struct sim_options *o);
void sim_options_free(struct sim_options *o);
void sim_options_help(FILE *f);

#endif
