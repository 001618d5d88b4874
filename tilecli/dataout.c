/* dataout.c: output and downloads of the data commands (see dataout.h). */
#include "dataout.h"

#include "seawx/atomicfile.h"
#include "seawx/error.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

volatile sig_atomic_t data_cancel;

static void on_signal(int sig)
{
    (void)sig;
    data_cancel = 1;
}

void data_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcasecmp(s + n - m, suffix) == 0;
}

int data_format(swx_table_format *fmt, const cli_args *a)
{
    const char *f = cli_get(a, "format");
    const char *o = cli_get(a, "output");
    if (f) {
        if (swx_table_format_parse(fmt, f) != 0) {
            cli_error("%s", swx_error_last());
            return -1;
        }
        return 0;
    }
    if (o && strcmp(o, "-") != 0) {
        *fmt = ends_with(o, ".csv")                                    ? SWX_TABLE_CSV
               : ends_with(o, ".geojson") || ends_with(o, ".geojsonl") ? SWX_TABLE_GEOJSON
               : ends_with(o, ".txt")                                  ? SWX_TABLE_TEXT
                                                                       : SWX_TABLE_JSON;
        return 0;
    }
    *fmt = isatty(STDOUT_FILENO) ? SWX_TABLE_TEXT : SWX_TABLE_JSON;
    return 0;
}

int data_check_dest(const char *path, int flags)
{
    if (!path || strcmp(path, "-") == 0)
        return 0;
    int rc = swx_atomicfile_target(NULL, NULL, path, flags, NULL, 0);
    return rc ? cli_fail(rc) : 0;
}

int data_write(const cli_args *a, swx_table_format fmt, const swx_table *t)
{
    const char *o = cli_get(a, "output");
    if (!o || strcmp(o, "-") == 0) {
        int rc = swx_table_write(t, fmt, stdout);
        if (!rc && fflush(stdout) != 0)
            rc = swx_error_set(SWX_EIO, "writing the output failed");
        return rc ? cli_fail(rc) : EXIT_OK;
    }
    /* A table is a stream: a device or a pipe is written through. */
    swx_atomicfile af = SWX_ATOMICFILE_INIT;
    int rc = swx_atomicfile_open(&af, o, 0666, SWX_ATOMICFILE_STREAM);
    if (!rc && (rc = swx_table_write(t, fmt, af.f)) != 0)
        swx_atomicfile_abort(&af);
    else if (!rc)
        rc = swx_atomicfile_commit(&af);
    return rc ? cli_fail(rc) : EXIT_OK;
}

char *data_dest(const cli_args *a, const char *name)
{
    const char *o = cli_get(a, "output");
    const char *dir = cli_get(a, "dir");
    if (o)
        return strdup(o);
    size_t n = strlen(name) + (dir ? strlen(dir) : 0) + 2;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s%s%s", dir ? dir : "", dir ? "/" : "", name);
    return p;
}

static void size_text(double b, char *out, size_t n)
{
    if (b >= 1024.0 * 1024.0)
        snprintf(out, n, "%.1f MiB", b / (1024.0 * 1024.0));
    else if (b >= 1024.0)
        snprintf(out, n, "%.1f KiB", b / 1024.0);
    else
        snprintf(out, n, "%.0f B", b);
}

static int on_progress(void *ud, int64_t done, int64_t total)
{
    data_progress *p = ud;
    if (p->start < 0)
        p->start = done;
    if (!cli_progress_due(&p->last))
        return 0;
    double t = p->last;
    double el = t - p->t0;
    double rate = el > 0 ? (double)(done - p->start) / el : 0;
    char d[32], tot[32] = "?", r[32], eta[32] = "-";
    size_text((double)done, d, sizeof d);
    if (total > 0)
        size_text((double)total, tot, sizeof tot);
    size_text(rate, r, sizeof r);
    if (total > 0 && rate > 0) {
        long e = (long)((double)(total - done) / rate + 0.5);
        snprintf(eta, sizeof eta, "%ld:%02ld", e / 60, e % 60);
    }
    cli_progress(0, "%s: %s of %s (%.0f%%), %s/s, ETA %s", p->label, d, tot,
                 total > 0 ? 100.0 * (double)done / (double)total : 0.0, r, eta);
    return 0;
}

void data_download_opts(swx_download_opts *o, data_progress *p, const char *label)
{
    memset(p, 0, sizeof *p);
    p->label = label;
    p->t0 = cli_now();
    p->last = p->t0;
    p->start = -1;
    memset(o, 0, sizeof *o);
    o->progress = on_progress;
    o->ud = p;
    o->cancel = &data_cancel;
}

int data_download_done(data_progress *p, const char *dest, const swx_download_result *r)
{
    char sz[32];
    double el = cli_now() - p->t0;
    size_text((double)r->bytes, sz, sizeof sz);
    cli_progress(0, NULL);
    if (r->resumed_from > 0) {
        char was[32];
        size_text((double)r->resumed_from, was, sizeof was);
        cli_info("%s: %s written to %s in %.1f s (resumed after %s)", p->label, sz, dest, el, was);
    } else {
        cli_info("%s: %s written to %s in %.1f s", p->label, sz, dest, el);
    }
    return EXIT_OK;
}

int data_no_more_args(const cli_args *a, size_t first)
{
    if (a->npositional > first) {
        cli_error("unexpected argument '%s'", a->positional[first]);
        return -1;
    }
    return 0;
}

int data_only_for(const cli_args *a, const char *name, const char *where)
{
    if (cli_get(a, name)) {
        cli_error("--%s applies to 'seawx %s' only", name, where);
        return -1;
    }
    return 0;
}

/* Fetches a table with fetch(c, q) and writes it: the end of every listing
 * command, once its query has been checked. */
static int table_run(const cli_args *a, int (*fetch)(swx_client *, const void *, swx_table **),
                     const void *q)
{
    swx_table_format fmt;
    swx_client *c = NULL;
    swx_table *t = NULL;
    int rc, exit_code;
    if (data_format(&fmt, a))
        return EXIT_USAGE;
    if ((exit_code = data_check_dest(cli_get(a, "output"), SWX_ATOMICFILE_STREAM)))
        return exit_code;
    if ((exit_code = cli_client(&c, a)))
        return exit_code;
    if ((rc = fetch(c, q, &t)))
        exit_code = cli_fail(rc);
    else
        exit_code = data_write(a, fmt, t);
    swx_table_free(t);
    swx_client_free(c);
    return exit_code;
}

static int fetch_point(swx_client *c, const void *q, swx_table **t)
{
    return swx_point_get(t, c, q);
}

static int fetch_files(swx_client *c, const void *q, swx_table **t)
{
    return swx_files_list(t, c, q);
}

int data_point_run(const cli_args *a, swx_point_kind kind)
{
    swx_point_query q = {0};
    q.kind = kind;
    q.lat = cli_get(a, "lat");
    q.lon = cli_get(a, "lon");
    q.time = cli_get(a, "time");
    q.start = cli_get(a, "start");
    q.end = cli_get(a, "end");
    q.hours = cli_get(a, "hours");
    q.units = cli_get(a, "units");
    q.tz = cli_get(a, "tz");
    q.fields = cli_get(a, "fields");
    q.bundles = cli_get(a, "bundles");
    if (swx_point_check(&q) != 0)
        return cli_fail(SWX_EINVAL);
    return table_run(a, fetch_point, &q);
}

int data_files_run(const cli_args *a, swx_file_source source)
{
    swx_files_query q = {0};
    q.source = source;
    q.time = cli_get(a, "time");
    q.regions = cli_get(a, "regions");
    q.bundles = cli_get(a, "bundles");
    if (swx_files_check(&q) != 0)
        return cli_fail(SWX_EINVAL);
    return table_run(a, fetch_files, &q);
}

int data_action(const char **action, const cli_args *a, swx_file_source source, const char *def)
{
    *action = a->npositional ? a->positional[0] : def;
    if (strcmp(*action, "download") == 0) {
        if (data_no_more_args(a, 2))
            return EXIT_USAGE;
        return data_download_run(a, source, a->npositional > 1 ? a->positional[1] : NULL);
    }
    return data_no_more_args(a, 1) ? EXIT_USAGE : -1;
}

int data_start(cli_args *a, const char **action, const cli_cmd *cmd, int argc, char **argv,
               swx_file_source source)
{
    int pr = cli_parse(a, cmd, argc, argv);
    if (pr)
        return pr > 0 ? EXIT_OK : EXIT_USAGE;
    return data_action(action, a, source, "point");
}

static int part_exists(const char *dest)
{
    char part[4096];
    snprintf(part, sizeof part, "%s.part", dest);
    return access(part, F_OK) == 0;
}

int data_download_run(const cli_args *a, swx_file_source source, const char *file_id)
{
    swx_client *c = NULL;
    swx_download_opts o;
    swx_download_result r = {0};
    data_progress p;
    char *dest = NULL;
    int rc, exit_code;
    if (!file_id) {
        cli_error("name the file to download (see the files listing)");
        return EXIT_USAGE;
    }
    swx_files_query none = {0};
    none.source = source;
    if (swx_files_check(&none) != 0 || cli_get(a, "format")) {
        cli_error("--format does not apply to downloads");
        return EXIT_USAGE;
    }
    /* The file name is checked before anything is sent. */
    if (swx_files_check_id(file_id) != 0)
        return cli_fail(SWX_EINVAL);
    if (!(dest = data_dest(a, file_id)))
        return cli_fail(swx_error_set(SWX_ENOMEM, "out of memory"));
    if ((exit_code = data_check_dest(dest, 0))) /* resumable: a regular file */
        goto done;
    if (cli_has(a, "quiet"))
        cli_set_quiet(1);
    if ((exit_code = cli_client(&c, a)))
        goto done;
    data_signals();
    data_download_opts(&o, &p, file_id);
    if ((rc = swx_files_download(&r, c, source, file_id, dest, &o))) {
        cli_progress(0, NULL);
        exit_code = cli_fail(rc);
        if ((rc == SWX_ECANCEL || rc == SWX_ENET) && part_exists(dest))
            cli_info("the partial file is kept as %s.part: run the same command to resume", dest);
    } else {
        exit_code = data_download_done(&p, dest, &r);
    }
done:
    swx_download_result_clear(&r);
    swx_client_free(c);
    free(dest);
    return exit_code;
}
