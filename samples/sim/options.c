/* options.c: command-line parsing; --help is generated from the option table. */
#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "timestamp.h"

enum opt_id {
    O_HOST = 1000,
    O_PORT,
    O_PORT_FILE,
    O_STORAGE_HOST,
    O_STORAGE_PORT,
    O_KEY,
    O_BASIC_PASSWORD,
    O_DENY_BUNDLE,
    O_NOW,
    O_MAX_SIZE,
    O_CACHE_MB,
    O_LATENCY,
    O_P429,
    O_RETRY_AFTER,
    O_P5XX,
    O_PDROP,
    O_PTRUNC,
    O_PEXCEPTION,
    O_FAULT_SEED,
    O_FAULTS_ON,
    O_ACCESS_LOG,
    O_STORAGE_RATE,
    O_HELP
};

struct opt_def {
    const char *name;
    enum opt_id id;
    const char *arg; /* NULL: takes no argument */
    const char *help;
};

static const struct opt_def table[] = {
    {"host", O_HOST, "ADDR", "address of the service (default 127.0.0.1)"},
    {"port", O_PORT, "N", "port of the service, 0 = a free one (default 0)"},
    {"port-file", O_PORT_FILE, "FILE",
     "once listening, write the port and a newline to FILE (atomically)"},
    {"storage-host", O_STORAGE_HOST, "ADDR",
     "address of the file storage host downloads redirect to (default 127.0.0.2)"},
    {"storage-port", O_STORAGE_PORT, "N", "port of the storage host (default 0 = free)"},
    {"key", O_KEY, "KEY", "accepted API key (default $SEAWX_SIM_KEY, else sim-key)"},
    {"basic-password", O_BASIC_PASSWORD, "PW",
     "password of HTTP Basic auth on /ows/wms (default sim-password)"},
    {"deny-bundle", O_DENY_BUNDLE, "B", "bundle B answers 403 (repeatable)"},
    {"now", O_NOW, "ISO8601", "simulated clock, standing still (default: the real time)"},
    {"max-size", O_MAX_SIZE, "N", "largest GetMap width and height (default 4096)"},
    {"cache-mb", O_CACHE_MB, "N", "rendered image cache in MiB, 0 = off (default 256)"},
    {"latency", O_LATENCY, "MS", "delay added before every service answer"},
    {"p429", O_P429, "F", "share 0..1 of service answers that are 429"},
    {"retry-after", O_RETRY_AFTER, "S", "Retry-After seconds of those 429 (default 1)"},
    {"p5xx", O_P5XX, "F", "share of service answers that are 503"},
    {"pdrop", O_PDROP, "F", "share of connections closed without an answer"},
    {"ptrunc", O_PTRUNC, "F", "share of answers cut short of their Content-Length"},
    {"pexception", O_PEXCEPTION, "F",
     "share of WMS answers that are 200 with a ServiceExceptionReport"},
    {"fault-seed", O_FAULT_SEED, "N", "seed of the fault draws (default 1)"},
    {"faults-on", O_FAULTS_ON, "WHAT",
     "requests the faults may hit: all (default), or a comma list of getmap, "
     "getcapabilities, other"},
    {"access-log", O_ACCESS_LOG, "FILE", "append one line per request to FILE"},
    {"storage-rate", O_STORAGE_RATE, "KIB",
     "storage host sends each file answer at most KIB KiB/s (default: no limit)"},
    {"help", O_HELP, NULL, "show this help and exit"},
};

#define NOPTS (sizeof(table) / sizeof(table[0]))

void sim_options_help(FILE *f)
{
    fprintf(f, "Usage: seawx-sim [OPTION]...\n"
               "Local stand-in of the Weather, Ocean and Vessel Data Service, with test\n"
               "endpoints under /_sim/. Stops cleanly on SIGTERM or SIGINT.\n\n");
    for (size_t i = 0; i < NOPTS; i++) {
        char left[64];
        snprintf(left, sizeof(left), "--%s%s%s", table[i].name, table[i].arg ? " " : "",
                 table[i].arg ? table[i].arg : "");
        fprintf(f, "  %-26s %s\n", left, table[i].help);
    }
    fprintf(f, "\nEndpoints: /ows/wms (GetCapabilities, GetMap, GetLegendGraphic),\n"
               "/storm/json, /storm/kmz, /soil-moisture/..., /current/weather/...,\n"
               "/tides/point[/extrema], /forecast/..., /vessels (the Vessels API, same\n"
               "address), and /_sim/test, /_sim/count, /_sim/echo-auth, /_sim/redirect,\n"
               "/_sim/stats, /_sim/reset, /_sim/field; the storage host serves /files/... and\n"
               "/_storage/echo, and refuses any request that carries the key.\n"
               "Environment: SEAWX_SIM_KEY (default key), SEAWX_SIM_FILES_DIR (the sample\n"
               "NetCDF file), SEAWX_SIM_GRIB_DIR (cache of the forecast and current-weather\n"
               "GRIB2 files, made with ecCodes on first request; default\n"
               "$TMPDIR/seawx-sim-grib-VERSION-UID), SEAWX_SIM_VESSELS_TIER (standard or\n"
               "premium), SEAWX_SIM_VESSELS (how many vessels), SEAWX_SIM_JOB_MS (how long a\n"
               "job takes), SEAWX_SIM_STORAGE_CUT=1 (the first whole-file answer of each file\n"
               "is cut short), SEAWX_SIM_STORAGE_RANGE=0 (the storage host ignores Range and\n"
               "answers 200 with the whole file), SEAWX_SIM_STORAGE_RANGES=whole|first|some (a\n"
               "request of several byte ranges answered with the whole file, with the first\n"
               "range alone, or as multipart/byteranges without every second range; default\n"
               "multipart/byteranges of them all), SEAWX_SIM_GRIB_FIELDS=4 (the basic forecast\n"
               "files hold four fields: 10 m wind, gust and pressure), "
               "SEAWX_SIM_GRIB_DAMAGE=html|short|template (GRIB\n"
               "files served as a web page, cut inside their last message, or with a packing no\n"
               "decoder knows), SEAWX_SIM_GRIB_CENTRE=ecmwf|ncep (forecast files encoded as that\n"
               "centre encodes them: ecmwf gives centre ecmf, pressure as msl 0/3/0 on the mean\n"
               "sea level and tp in metres as its own 0/1/193; ncep gives centre kwbc and\n"
               "prmsl 0/3/1, as without it), SEAWX_SIM_ANALYTIC='wind=U,V;current=U,V' (m/s:\n"
               "every grid's 10 m wind and surface current that constant, no storm's vortex;\n"
               "the analytic fields of the route's exact answers).\n"
               "Exit status: 0 stopped by a signal, 1 could not start, 2 bad options.\n");
}

static int bad(const char *opt, const char *what, const char *val)
{
    fprintf(stderr, "seawx-sim: --%s: %s, got '%s'\n", opt, what, val);
    return -1;
}

static int parse_uint(const char *s, unsigned long max, unsigned long *out)
{
    char *end;
    unsigned long v;

    if (*s < '0' || *s > '9')
        return -1;
    errno = 0;
    v = strtoul(s, &end, 10);
    if (errno != 0 || *end != '\0' || v > max)
        return -1;
    *out = v;
    return 0;
}

static int parse_share(const char *s, double *out)
{
    char *end;
    double v;

    errno = 0;
    v = strtod(s, &end);
    if (errno != 0 || end == s || *end != '\0' || !(v >= 0.0 && v <= 1.0))
        return -1;
    *out = v;
    return 0;
}

/* "all", or a comma list of getmap, getcapabilities, other. */
static int parse_faults_on(const char *s, unsigned *out)
{
    unsigned mask = 0;

    if (strcmp(s, "all") == 0) {
        *out = SIM_FAULTS_ON_ALL;
        return 0;
    }
    while (*s != '\0') {
        size_t n = strcspn(s, ",");
        if (n == 6 && strncmp(s, "getmap", n) == 0)
            mask |= SIM_FAULTS_ON_GETMAP;
        else if (n == 15 && strncmp(s, "getcapabilities", n) == 0)
            mask |= SIM_FAULTS_ON_CAPS;
        else if (n == 5 && strncmp(s, "other", n) == 0)
            mask |= SIM_FAULTS_ON_OTHER;
        else
            return -1;
        s += n;
        if (*s == ',' && *++s == '\0')
            return -1;
    }
    if (mask == 0)
        return -1;
    *out = mask;
    return 0;
}

static void defaults(struct sim_options *o)
{
    const char *env = getenv("SEAWX_SIM_KEY");

    memset(o, 0, sizeof(*o));
    o->host = "127.0.0.1";
    o->storage_host = "127.0.0.2";
    o->key = env != NULL && *env != '\0' ? env : "sim-key";
    o->basic_password = "sim-password";
    o->max_size = 4096;
    o->cache_mb = 256;
    o->retry_after = 1;
    o->fault_seed = 1;
    o->faults_on = SIM_FAULTS_ON_ALL;
}

int sim_options_parse(int argc, char **argv, struct sim_options *o)
{
    struct option longopts[NOPTS + 1];
    unsigned long u;
    int c;

    defaults(o);
    o->deny = calloc((size_t)argc + 1, sizeof(*o->deny));
    if (o->deny == NULL) {
        fprintf(stderr, "seawx-sim: out of memory\n");
        return -1;
    }
    for (size_t i = 0; i < NOPTS; i++) {
        longopts[i].name = table[i].name;
        longopts[i].has_arg = table[i].arg ? required_argument : no_argument;
        longopts[i].flag = NULL;
        longopts[i].val = (int)table[i].id;
    }
    memset(&longopts[NOPTS], 0, sizeof(longopts[NOPTS]));
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
        const char *a = optarg;
        switch (c) {
        case O_HOST:
            o->host = a;
            break;
        case O_STORAGE_HOST:
            o->storage_host = a;
            break;
        case O_PORT:
            if (parse_uint(a, 65535, &u))
                return bad("port", "expected a port number 0..65535", a);
            o->port = (unsigned)u;
            break;
        case O_STORAGE_PORT:
            if (parse_uint(a, 65535, &u))
                return bad("storage-port", "expected a port number 0..65535", a);
            o->storage_port = (unsigned)u;
            break;
        case O_PORT_FILE:
            o->port_file = a;
            break;
        case O_KEY:
            if (*a == '\0')
                return bad("key", "expected a non-empty key", a);
            o->key = a;
            break;
        case O_BASIC_PASSWORD:
            o->basic_password = a;
            break;
        case O_DENY_BUNDLE:
            if (sim_catalog_bundle(a) == NULL)
                return bad("deny-bundle", "expected a WMS bundle name", a);
            o->deny[o->ndeny++] = a;
            break;
        case O_NOW:
            if (sim_ts_parse(a, &o->now))
                return bad("now", "expected an ISO 8601 time such as 2024-10-01T06:30:00Z", a);
            o->have_now = 1;
            break;
        case O_MAX_SIZE:
            if (parse_uint(a, 16384, &u) || u < 1)
                return bad("max-size", "expected a size 1..16384", a);
            o->max_size = (unsigned)u;
            break;
        case O_CACHE_MB:
            if (parse_uint(a, 1u << 20, &u))
                return bad("cache-mb", "expected MiB 0..1048576", a);
            o->cache_mb = u;
            break;
        case O_LATENCY:
            if (parse_uint(a, 600000, &u))
                return bad("latency", "expected milliseconds 0..600000", a);
            o->latency_ms = (unsigned)u;
            break;
        case O_RETRY_AFTER:
            if (parse_uint(a, 86400, &u))
                return bad("retry-after", "expected seconds 0..86400", a);
            o->retry_after = (unsigned)u;
            break;
        case O_P429:
            if (parse_share(a, &o->p429))
                return bad("p429", "expected a share 0..1", a);
            break;
        case O_P5XX:
            if (parse_share(a, &o->p5xx))
                return bad("p5xx", "expected a share 0..1", a);
            break;
        case O_PDROP:
            if (parse_share(a, &o->pdrop))
                return bad("pdrop", "expected a share 0..1", a);
            break;
        case O_PTRUNC:
            if (parse_share(a, &o->ptrunc))
                return bad("ptrunc", "expected a share 0..1", a);
            break;
        case O_PEXCEPTION:
            if (parse_share(a, &o->pexception))
                return bad("pexception", "expected a share 0..1", a);
            break;
        case O_FAULT_SEED: {
            char *end;
            errno = 0;
            o->fault_seed = strtoull(a, &end, 10);
            if (errno != 0 || *a < '0' || *a > '9' || *end != '\0')
                return bad("fault-seed", "expected an unsigned integer", a);
            break;
        }
        case O_FAULTS_ON:
            if (parse_faults_on(a, &o->faults_on))
                return bad("faults-on",
                           "expected all, or a comma list of getmap, getcapabilities, other", a);
            break;
        case O_ACCESS_LOG:
            o->access_log = a;
            break;
        case O_STORAGE_RATE:
            if (parse_uint(a, 1u << 20, &u) || u < 1)
                return bad("storage-rate", "expected KiB/s 1..1048576", a);
            o->storage_kibps = (unsigned)u;
            break;
        case O_HELP:
            sim_options_help(stdout);
            return 1;
        case ':':
            fprintf(stderr, "seawx-sim: option %s needs a value\n", argv[optind - 1]);
            return -1;
        default:
            fprintf(stderr, "seawx-sim: unknown option '%s' (see --help)\n", argv[optind - 1]);
            return -1;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "seawx-sim: unexpected argument '%s' (see --help)\n", argv[optind]);
        return -1;
    }
    if (o->p429 + o->p5xx + o->pdrop + o->ptrunc + o->pexception > 1.0 + 1e-9) {
        fprintf(stderr, "seawx-sim: the fault shares add up to more than 1\n");
        return -1;
    }
    return 0;
}

void sim_options_free(struct sim_options *o)
{
    free(o->deny);
    o->deny = NULL;
}
