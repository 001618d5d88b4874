/*
 * dataout.h: what the data commands (soil, weather, tides, forecast,
 * vessels) share: --format/-o output of tables, downloads with a progress
 * line, and Ctrl-C that stops cleanly (a partial download stays as FILE.part
 * and the same command resumes it).
 */
#ifndef SEAWX_DATAOUT_H
#define SEAWX_DATAOUT_H

#include "cli.h"

#include "seawx/atomicfile.h"
#include "seawx/files.h"
#include "seawx/point.h"
#include "seawx/table.h"

#include <signal.h>

/* The option table entries every data command has. */
#define DATA_OUTPUT_OPTS                                                                           \
    {"format",                                                                                     \
     'f',                                                                                          \
     "FMT",                                                                                        \
     "json, csv, geojson or table (default: table on a terminal, else from the -o "                \
     "file's extension, else json)",                                                               \
     0,                                                                                            \
     NULL},                                                                                        \
        {"output", 'o', "FILE", "write to FILE (complete or not at all) instead of stdout",        \
         0,        NULL},                                                                          \
    {                                                                                              \
        "quiet", 'q', NULL, "no progress lines", 0, NULL                                           \
    }

/* Set by SIGINT/SIGTERM once data_signals() ran. */
extern volatile sig_atomic_t data_cancel;
void data_signals(void);

/* Reads --format (and -o's extension); prints a usage line and returns -1 when bad. */
int data_format(swx_table_format *fmt, const cli_args *a);
/* Writes t to -o FILE (through FILE.tmp and a rename) or stdout; returns an exit code. */
int data_write(const cli_args *a, swx_table_format fmt, const swx_table *t);

/* Checks, before anything is sent, that path (a -o FILE or a download's
 * destination; NULL or "-": stdout) can be written, by swx_atomicfile_target()
 * with flags (SWX_ATOMICFILE_STREAM for a table, 0 for a resumable download).
 * Returns 0, or the exit code after an error line. */
int data_check_dest(const char *path, int flags);
/* Where a download goes: -o FILE, else --dir DIR/NAME, else ./NAME. Caller frees. */
char *data_dest(const cli_args *a, const char *name);
/* Download options with a progress line labelled label (kept by pointer). */
typedef struct data_progress {
    const char *label;
    double t0, last;
    int64_t start; /* bytes there before this run (resume) */
} data_progress;
void data_download_opts(swx_download_opts *o, data_progress *p, const char *label);
/* Ends the progress line and reports a finished download; returns EXIT_OK. */
int data_download_done(data_progress *p, const char *dest, const swx_download_result *r);

/* The whole of a point command: the query from the options lat, lon, time,
 * start, end, hours, units, tz, fields, bundles (those the command has),
 * checked before anything is sent, then fetched and written. */
int data_point_run(const cli_args *a, swx_point_kind kind);
/* A file listing (options time, regions, bundles as the command has them). */
int data_files_run(const cli_args *a, swx_file_source source);
/* A download of one file of a listing. */
int data_download_run(const cli_args *a, swx_file_source source, const char *file_id);
/* Refuses option name, which applies to `seawx WHERE` only, when given:
 * -1 after one line, else 0. */
int data_only_for(const cli_args *a, const char *name, const char *where);
/* Refuses positional arguments after the action (argument index first). */
int data_no_more_args(const cli_args *a, size_t first);
/* The action a files command was given (def when none). `download ID` is
 * carried out here and its exit code returned; otherwise, after refusing
 * arguments beyond the action, -1 and *action for the caller (or EXIT_USAGE). */
int data_action(const char **action, const cli_args *a, swx_file_source source, const char *def);
/* A point-and-files command's start: its command line parsed into *a, then
 * data_action with "point" as the default action; an exit code, or -1 and
 * *action for the caller. */
int data_start(cli_args *a, const char **action, const cli_cmd *cmd, int argc, char **argv,
               swx_file_source source);

#endif
