/*
 * cli.h: what the subcommands of `seawx` share: the command table, option
 * parsing with generated --help, messages to stderr, exit codes, and the
 * service options every command takes.
 */
#ifndef SEAWX_CLI_H
#define SEAWX_CLI_H

#include <signal.h>
#include "seawx/http.h"
#include "seawx/voyage.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Exit codes, the same for every subcommand (docs/design.md, "Exit codes"). */
enum cli_exit {
    EXIT_OK = 0,       /* everything asked for was done */
    EXIT_PARTIAL = 1,  /* done, but some items failed (they are listed) */
    EXIT_USAGE = 2,    /* bad option or argument; nothing was sent */
    EXIT_CONFIG = 3,   /* missing or bad configuration: key, service address */
    EXIT_AUTH = 4,     /* the key was rejected (401) or lacks access (403) */
    EXIT_NOTFOUND = 5, /* unknown bundle, layer, time, file or id */
    EXIT_NETWORK = 6,  /* service unreachable, timed out, 5xx or rate limited */
    EXIT_SERVICE = 7,  /* the service answered with something unusable */
    EXIT_IO = 8,       /* a local file could not be read or written */
    EXIT_SHARDS = 9,   /* merge: shards missing, incomplete or of another seed (listed) */
    /* seawx storms --route: the voyage runs into a storm's danger area (10),
     * 34-kt (11), 50-kt (12) or 64-kt winds (13): the most severe is told */
    EXIT_RISK_DANGER = 10,
    /* seawx route: no route keeps off land, inside the limits and out of
     * the storms before the forecast ends (the reason is named) */
    EXIT_NO_ROUTE = 14,
    EXIT_SOFTWARE = 70, /* a fault of seawx's own, never the service's (sysexits' EX_SOFTWARE) */
    EXIT_INTERRUPTED = 130,
};

/* One option of a subcommand. arg is the placeholder of its value ("NAME"), or
 * NULL for a flag. A repeatable option collects every value. def is the
 * option's default, written once: the help ends with it ("(default 32)", in
 * --help, the manual page and the docs generated from them) and
 * cli_get_int and cli_get_double read it when the option is not given. */
typedef struct cli_opt {
    const char *name; /* long name without "--" */
    char short_name;  /* 0 for none */
    const char *arg;
    const char *help;
    int repeat;
    const char *def; /* NULL: none, or one the help words itself */
} cli_opt;

/* A number's text for a def ("0.5" of SWX_GRIB_DEFAULT_GRID): the library's
 * default and the row's are then one. */
#define CLI_STR(x) CLI_STR_(x)
#define CLI_STR_(x) #x

#define CLI_MAX_OPTS 48
#define CLI_MAX_VALUES 64

/* Parsed options: values in the order of the option table. */
typedef struct cli_args {
    const cli_opt *flat[CLI_MAX_OPTS]; /* the command's options, then the service options */
    size_t nopts;
    int set[CLI_MAX_OPTS];
    const char *value[CLI_MAX_OPTS][CLI_MAX_VALUES];
    size_t nvalues[CLI_MAX_OPTS];
    const char *positional[CLI_MAX_VALUES];
    size_t npositional;
} cli_args;

typedef struct cli_cmd {
    const char *name;
    int (*run)(const struct cli_cmd *cmd, int argc, char **argv);
    const char *summary;     /* one line for `seawx --help` */
    const char *usage;       /* "seawx layers [options]" */
    const char *description; /* paragraph for `seawx layers --help` */
    const cli_opt *opts;     /* terminated by a zeroed entry */
} cli_cmd;

/* Parses argv (argv[0] is the subcommand). Handles --help by printing the
 * generated help and returning 1; returns 0 when parsed, or -1 after printing
 * a usage error. The service options (cli_service_opts) are accepted by
 * every command in addition to its own. */
int cli_parse(cli_args *a, const cli_cmd *cmd, int argc, char **argv);
int cli_has(const cli_args *a, const char *name);
const char *cli_get(const cli_args *a, const char *name);
/* The value given, else the row's default, else NULL. */
const char *cli_value(const cli_args *a, const char *name);
size_t cli_count(const cli_args *a, const char *name);
const char *cli_get_at(const cli_args *a, const char *name, size_t i);
/* Parses an integer option within [min, max]: the value given, else the
 * row's default, else *out is left as it is (a caller's "none"); prints a
 * usage error on failure. cli_get_double likewise for a number. */
int cli_get_int(long *out, const cli_args *a, const char *name, long min, long max);
/* Parses a number option within [min, max]; prints a usage error on failure. */
/* EXIT_USAGE after one line when v (the value of --name) starts as a number
 * that is not decimal, or holds digits past its number ("0x20kn", "6h5"):
 * a number with its unit is a decimal number and letters; else 0. */
int cli_decimal_unit(const char *name, const char *v);
int cli_get_double(double *out, const cli_args *a, const char *name, double min, double max);
/* --chart-size WxH into *w, *h (320 to 8000 each); not given: defw x defh.
 * 0, or EXIT_USAGE after one line. */
int cli_chart_size(int *w, int *h, const cli_args *a, int defw, int defh);
/* The help of an option as --help and the manual print it: its text and,
 * with a default, " (default DEF)". */
void cli_opt_help(char *out, size_t n, const cli_opt *t);

/* Messages: one line each, to stderr, prefixed "seawx: ". */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A command's closing summary: printed as cli_info, even with -q (which
 * keeps "only errors and the summary"). */
void cli_summary(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_set_quiet(int quiet);
/* Progress: on a terminal one line that rewrites itself in place (final ends
 * it with a newline); when stderr is not a terminal, one plain line per call.
 * Nothing when quiet. cli_progress(0, NULL) only ends an open line: call it
 * before another message. */
void cli_progress(int final, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prints swx_error_last() and returns the exit code that goes with code. */
int cli_fail(int code);
/* 1 when work ended because it was stopped: the call cancelled (rc
 * SWX_ECANCEL) or Ctrl-C or SIGTERM caught (cli_stop_soft). */
int cli_stopped(int rc);
/* The one line of an interruption, "interrupted: " and what was left (for
 * example "nothing written"); returns EXIT_INTERRUPTED. */
int cli_interrupted(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The end of a command's work that rc ended: 0 when it went through, else
 * the exit code after its one line, the interruption (with what, as "nothing
 * written") when it was stopped, or the error. */
int cli_stop_or_fail(int rc, const char *what);
int cli_exit_code(int swx_code);

/* The options every command takes, to reach the service. */
extern const cli_opt cli_service_opts[];
/* Builds a client from those options and the SEAWX_* environment. */
int cli_client(swx_client **out, const cli_args *a);

/* The tile options `seawx seed`, `seawx voyage` and `seawx fleet` share,
 * described once for their option tables. */
#define CLI_OPT_TILE_RUN                                                                           \
    {                                                                                              \
        "run", 0, "RUN",                                                                           \
            "latest (default: the newest complete run), YYYYMMDDHH or an ISO 8601 instant", 0,     \
            NULL                                                                                   \
    }
#define CLI_OPT_TILE_SIZE                                                                          \
    {                                                                                              \
        "tile-size", 0, "PX", "256 or 512", 0, "256"                                               \
    }
#define CLI_OPT_BUFFER                                                                             \
    {                                                                                              \
        "buffer", 0, "NM", "nautical miles around the route, geodesic", 0, "10"                    \
    }
#define CLI_OPT_GETMAPS_IN_FLIGHT                                                                  \
    {                                                                                              \
        "in-flight", 'j', "N", "requests under way at once", 0, "32"                               \
    }
#define CLI_OPT_NOW                                                                                \
    {                                                                                              \
        "now", 0, "TIME",                                                                          \
            "count valid times as past from this instant, ISO 8601 (default: the clock)", 0, NULL  \
    }

/* The options of the storms' danger settings, for the option tables. */
#define CLI_OPT_CONE_RADII                                                                         \
    {                                                                                              \
        "cone-radii", 0, "TABLE",                                                                  \
            "cone radii in nm at 12,24,36,48,60,72,96,120 h: BASIN[/SEASON]:R12,...,R120 entries " \
            "separated by ';', BASIN one of NA SA EP WP NI SI SP or * (default: NHC 2023)",        \
            0, NULL                                                                                \
    }
#define CLI_OPT_DANGER_ERRORS                                                                      \
    {                                                                                              \
        "danger-errors", 0, "E24,E48,E72",                                                         \
            "1-2-3 rule track errors in nm at 24, 48 and 72 h (default: 100,200,300)", 0, NULL     \
    }
/* --depart and --speed: both or neither (voyage_opts.c), as the sailing of
 * a route without waypoint times (swx_voyage_open). */
typedef swx_voyage_sailing cli_voyage_opts;
/* Reads --depart and --speed into *v. Returns 0, or EXIT_USAGE after one line
 * (one without the other, a departure not ISO 8601, a bad speed). */
int cli_voyage_read(cli_voyage_opts *v, const cli_args *a);

/* The voyage GRIB of a package (seawx voyage, seawx fleet): its options for
 * the option tables, and reading them. */
#define CLI_OPTS_GRIB                                                                              \
    {"grib",                                                                                       \
     0,                                                                                            \
     "VARS",                                                                                       \
     "also a voyage GRIB for routing software (voyage.grb2, as seawx grib cuts it to the "         \
     "package's voyage and buffer): variables wind, gust, prmsl, temp, rain, waves, wind100, "     \
     "comma-separated",                                                                            \
     0,                                                                                            \
     NULL},                                                                                        \
        {"grib-grid", 0,                                                                           \
         "DEG",       "the voyage GRIB's grid spacing in degrees",                                 \
         0,           CLI_STR(SWX_GRIB_DEFAULT_GRID)},                                             \
        {"grib-step", 0,                                                                           \
         "H",         "hours between the voyage GRIB's forecast times",                            \
         0,           CLI_STR(SWX_GRIB_DEFAULT_STEP)},                                             \
        {"grib-cut",                                                                               \
         0,                                                                                        \
         "HOW",                                                                                    \
         "route (default: one grid, which the QGIS project shows) or window (smaller; left out "   \
         "of the project), as seawx grib --cut",                                                   \
         0,                                                                                        \
         NULL},                                                                                    \
        {"cache",                                                                                  \
         0,                                                                                        \
         "DIR",                                                                                    \
         "where the voyage GRIB's messages are kept (default $SEAWX_CACHE_DIR/grib, else "         \
         "~/.cache/seawx/grib)",                                                                   \
         0,                                                                                        \
         NULL},                                                                                    \
    {                                                                                              \
        "no-cache", 0, NULL, "keep no voyage GRIB message on disk", 0, NULL                        \
    }
struct swx_package_grib;
struct swx_diskcache;
/* --grib and its settings into *g (*given 0 without --grib: then the others
 * are refused), the cache into *cache (the caller frees it). Returns 0 or
 * the exit code after one line. */
int cli_grib_read(struct swx_package_grib *g, int *given, struct swx_diskcache **cache,
                  const cli_args *a);

/* The voyage GRIB's message cache from --cache DIR / --no-cache: DIR, else
 * $SEAWX_CACHE_DIR/grib, else $XDG_CACHE_HOME/seawx/grib or
 * ~/.cache/seawx/grib, within SEAWX_CACHE_MAX_MB (*dc NULL: none). Returns
 * 0 or the exit code after one line. */
int cli_grib_cache(struct swx_diskcache **dc, const cli_args *a);

struct swx_storm_danger;
/* --cone-radii and --danger-errors into *out (NULL when neither is given).
 * Returns 0, or the exit code after one line (EXIT_USAGE for a bad table). */
int cli_danger_read(struct swx_storm_danger **out, const cli_args *a);

struct swx_storm;
/* The storm callback of seawx plan and route (swx_storm_fetch,
 * swx_storm_read_file): each storm copied into the swx_storm_list list;
 * SWX_ECANCEL at the first Ctrl-C or SIGTERM. */
int cli_keep_storm(void *list, const struct swx_storm *s);

/* The subcommands. */
int cmd_layers(const cli_cmd *cmd, int argc, char **argv);
int cmd_legend(const cli_cmd *cmd, int argc, char **argv);
int cmd_qlr(const cli_cmd *cmd, int argc, char **argv);
int cmd_seed(const cli_cmd *cmd, int argc, char **argv);
int cmd_voyage(const cli_cmd *cmd, int argc, char **argv);
int cmd_fleet(const cli_cmd *cmd, int argc, char **argv);
int cmd_storms(const cli_cmd *cmd, int argc, char **argv);
int cmd_soil(const cli_cmd *cmd, int argc, char **argv);
int cmd_weather(const cli_cmd *cmd, int argc, char **argv);
int cmd_tides(const cli_cmd *cmd, int argc, char **argv);
int cmd_forecast(const cli_cmd *cmd, int argc, char **argv);
int cmd_vessels(const cli_cmd *cmd, int argc, char **argv);
int cmd_merge(const cli_cmd *cmd, int argc, char **argv);
int cmd_grib(const cli_cmd *cmd, int argc, char **argv);
int cmd_plan(const cli_cmd *cmd, int argc, char **argv);
int cmd_route(const cli_cmd *cmd, int argc, char **argv);
int cmd_tilejson(const cli_cmd *cmd, int argc, char **argv);

/* docgen.c: one manual page per command (and seawx.1) written into dir, and
 * the bash completion, from the command and option tables. Return exit codes. */
int cli_man_dir(const char *dir, const cli_cmd *cmds, size_t n);
int cli_completion_bash(FILE *f, const cli_cmd *cmds, size_t n);

/* Ctrl-C and SIGTERM during long work: the first sets cli_stop_soft (no new
 * requests; what is under way may finish) and, 0.3 s later or at a
 * second signal, cli_stop_hard (cancel what is under way: every request of
 * a client of cli_client() stops). cli_signals_catch clears both and
 * installs the handler; cli_signals_release puts back what was there. */
extern volatile sig_atomic_t cli_stop_soft, cli_stop_hard;
typedef struct cli_signals {
    struct sigaction old_int, old_term;
    int set;
} cli_signals;
void cli_signals_catch(cli_signals *s);
void cli_signals_release(cli_signals *s);

/* Seconds on the monotonic clock, for rates and elapsed times. */
double cli_now(void);
/* The stop callback of the seeder and the package builder: 1 once a first
 * Ctrl-C or SIGTERM came (cli_stop_soft); ud unused. */
int cli_stop_asked(void *ud);
/* 1 when a progress line is due (every 0.25 s on a terminal, 2 s in a log),
 * the time of the last one in *last (cli_now()), updated then. */
int cli_progress_due(double *last);

#endif
