/* cmd_qlr.c: `seawx qlr`, a QGIS layer definition of one run of a variable:
 * one SEAWX layer per valid time, for QGIS's Temporal Controller (the
 * document is written by swx_qlr_write, seawx/wms_qlr.h), with the value
 * legend beside it. */
#define _GNU_SOURCE
#include "cli.h"

#include "seawx/atomicfile.h"
#include "seawx/outputs.h"
#include "seawx/error.h"
#include "seawx/iso8601.h"
#include "seawx/wms.h"
#include "seawx/wms_qlr.h"
#include "seawx/wms_select.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

const cli_opt cmd_qlr_opts[] = {
    {"bundle", 'b', "NAME", "the variable's bundle (required)", 0, NULL},
    {"variable", 'v', "VAR", "t2m or t2m:K: the variable whose valid times the group steps through",
     0, NULL},
    {"layer", 'l', "NAME",
     "instead of --variable: a leaf layer's full name (sof-d/20241001/00/t2m:K)", 0, NULL},
    {"run", 0, "RUN", "with --variable: latest (default: the newest complete run) or YYYYMMDDHH", 0,
     NULL},
    {"style", 's', "NAME", "one of the layer's styles (default: its first, as the plugin)", 0,
     NULL},
    {"crs", 0, "CRS", "EPSG:4326 (default) or EPSG:3857, if the layer advertises it", 0, NULL},
    {"legend", 0, "FILE",
     "where to write the value legend (PNG) every layer shows (default: beside the output, "
     "NAME.legend.png; none with -o - or a pipe unless given)",
     0, NULL},
    {"no-legend", 0, NULL, "no legend image: the layers keep QGIS's default legend", 0, NULL},
    {"output", 'o', "FILE", "the .qlr to write (required; '-' for stdout)", 0, NULL},
    {0},
};

/* NAME.legend.png beside out (NAME: out without ".qlr"); caller frees. */
static char *legend_beside(const char *out)
{
    size_t n = strlen(out);
    if (n > 4 && strcasecmp(out + n - 4, ".qlr") == 0)
        n -= 4;
    char *s = malloc(n + sizeof ".legend.png");
    if (s)
        snprintf(s, n + sizeof ".legend.png", "%.*s.legend.png", (int)n, out);
    return s;
}

/* path made absolute (its folder resolved), as QGIS reads a legend image's
 * path as it is; caller frees. */
static char *absolute(const char *path)
{
    char *a = strdup(path), *b = strdup(path), *out = NULL;
    char dir[PATH_MAX];
    if (a && b && realpath(dirname(a), dir)) {
        const char *base = basename(b);
        size_t n = strlen(dir) + strlen(base) + 2;
        if ((out = malloc(n)))
            snprintf(out, n, "%s%s%s", dir, strcmp(dir, "/") ? "/" : "", base);
    }
    if (!out)
        swx_error_set(SWX_EIO, "cannot resolve the folder of %s: %s", path, strerror(errno));
    free(a);
    free(b);
    return out;
}

static int write_legend(swx_atomicfile *af, const char *path, const void *png, size_t len)
{
    int rc = swx_atomicfile_open(af, path, 0666, SWX_ATOMICFILE_STREAM);
    if (rc)
        return rc;
    if (fwrite(png, 1, len, af->f) != len) {
        int e = errno ? errno : EIO;
        swx_atomicfile_abort(af);
        return swx_error_set(SWX_EIO, "cannot write %s: %s", path, strerror(e));
    }
    return 0;
}

/* What was typed, checked before anything is sent. */
typedef struct qlr_args {
    const char *bundle, *layer_name, *var, *run, *out, *crs_arg;
    int to_stdout; /* -o - */
    int stream;    /* the output is a stream (stdout, a pipe, /dev/null) */
} qlr_args;

/* What the command holds while it runs, freed by run_free. */
typedef struct qlr_run {
    swx_client *client;
    swx_caps *caps;
    void *png; /* the legend image */
    size_t len;
    char *legend, *legend_abs; /* NULL without a legend */
    int legend_existed;
    const swx_layer *l;
    const char *style, *crs;
    const swx_timedim *td;
    swx_atomicfile af_legend, af_qlr;
} qlr_run;

static void run_free(qlr_run *r)
{
    if (r->af_qlr.f == stdout)
        r->af_qlr.f = NULL;
    swx_atomicfile_abort(&r->af_legend);
    swx_atomicfile_abort(&r->af_qlr);
    free(r->png);
    free(r->legend);
    free(r->legend_abs);
    swx_caps_free(r->caps);
    swx_client_free(r->client);
}

static int read_args(qlr_args *q, const cli_args *a)
{
    int rc;
    q->bundle = cli_get(a, "bundle");
    q->layer_name = cli_get(a, "layer");
    q->var = cli_get(a, "variable");
    q->run = cli_get(a, "run");
    q->out = cli_get(a, "output");
    q->crs_arg = cli_get(a, "crs");
    q->to_stdout = q->out && strcmp(q->out, "-") == 0;
    if (a->npositional) {
        cli_error("unexpected argument '%s' (see 'seawx qlr --help')", a->positional[0]);
        return EXIT_USAGE;
    }
    if (!q->bundle || !q->out || (!q->layer_name == !q->var)) {
        cli_error("give --bundle, one of --variable or --layer, and --output (see 'seawx qlr "
                  "--help')");
        return EXIT_USAGE;
    }
    if (q->run && q->layer_name) {
        cli_error("--run goes with --variable; --layer names its run already");
        return EXIT_USAGE;
    }
    if (cli_has(a, "legend") && cli_has(a, "no-legend")) {
        cli_error("give --legend FILE or --no-legend, not both");
        return EXIT_USAGE;
    }
    if (swx_wms_bundle_check(q->bundle))
        return cli_fail(SWX_EINVAL);
    if (q->run && swx_select_run_parse(NULL, q->run))
        return cli_fail(SWX_EINVAL);
    /* A stream (stdout, a pipe, /dev/null) has no folder for the legend:
     * only --legend FILE gives one then. */
    q->stream = q->to_stdout;
    if (!q->to_stdout &&
        (rc = swx_atomicfile_target(NULL, &q->stream, q->out, SWX_ATOMICFILE_STREAM, NULL, 0)))
        return cli_fail(rc);
    return 0;
}

/* The legend's file into r->legend (none with --no-legend, or for a stream
 * without --legend), checked, and its absolute path into r->legend_abs. */
static int read_legend(qlr_run *r, const qlr_args *q, const cli_args *a)
{
    int rc;
    if (!cli_has(a, "no-legend")) {
        if (cli_has(a, "legend"))
            r->legend = strdup(cli_get(a, "legend"));
        else if (!q->stream)
            r->legend = legend_beside(q->out);
        if ((cli_has(a, "legend") || !q->stream) && !r->legend)
            return cli_fail(swx_error_set(SWX_ENOMEM, "out of memory"));
    }
    if (!r->legend)
        return 0;
    const char *legend = r->legend;
    struct stat st;
    char *target = NULL;
    if (strcmp(legend, "-") == 0) {
        cli_error("--legend needs a file: QGIS reads the legend from one");
        return EXIT_USAGE;
    }
    /* the same file under another name too (a link, a hard link): the
     * .qlr would be put in place over the legend just written */
    const char *outs[2] = {legend, q->to_stdout ? NULL : q->out};
    static const char *const names[2] = {"--legend", "--output"};
    if ((rc = swx_outputs_distinct(outs, names, 2)))
        return cli_fail(rc);
    if ((rc = swx_atomicfile_target(&target, NULL, legend, SWX_ATOMICFILE_STREAM, NULL, 0)))
        return cli_fail(rc);
    r->legend_existed = lstat(legend, &st) == 0;
    r->legend_abs = absolute(target);
    free(target);
    if (!r->legend_abs)
        return cli_fail(SWX_EIO);
    return 0;
}

/* The layer, its style and CRS, its valid times and its legend image, from
 * the service. */
static int fetch_layer(qlr_run *r, const qlr_args *q, const cli_args *a)
{
    int rc, epsg = 0, exit_code;
    if ((exit_code = cli_client(&r->client, a)))
        return exit_code;
    if ((rc = swx_wms_get_caps(&r->caps, r->client, q->bundle)) ||
        (rc = swx_select_layer(&r->l, r->caps, q->bundle, q->layer_name, q->var, q->run)) ||
        (rc = swx_select_style(&r->style, r->l, cli_get(a, "style"))) ||
        (q->crs_arg && (rc = swx_select_crs(&r->crs, &epsg, r->l, q->crs_arg))))
        return cli_fail(rc);
    r->td = swx_layer_time(r->l);
    if (!r->td || swx_timedim_count(r->td) == 0)
        return cli_fail(swx_error_set(SWX_ENOTFOUND,
                                      "layer %s has no valid times to step through; see "
                                      "'seawx layers --bundle %s'",
                                      swx_layer_name(r->l), q->bundle));
    if (r->legend && (rc = swx_wms_get_legend(&r->png, &r->len, NULL, NULL, r->client, q->bundle,
                                              swx_layer_name(r->l), r->style, 0, 0)))
        return cli_fail(rc);
    return 0;
}

/* The legend and the .qlr, both written in full before either is put in
 * place. */
static int write_files(qlr_run *r, const qlr_args *q, const cli_args *a)
{
    int rc;
    swx_qlr_opts qo = SWX_QLR_OPTS_INIT;
    qo.bundle = q->bundle;
    qo.layer = r->l;
    qo.style = cli_get(a, "style") ? r->style : NULL;
    qo.crs = r->crs;
    qo.url = cli_get(a, "base-url");
    qo.legend = r->legend_abs;
    if (r->legend && (rc = write_legend(&r->af_legend, r->legend, r->png, r->len)))
        return cli_fail(rc);
    if (q->to_stdout)
        r->af_qlr.f = stdout;
    else if ((rc = swx_atomicfile_open(&r->af_qlr, q->out, 0666, SWX_ATOMICFILE_STREAM)))
        return cli_fail(rc);
    if ((rc = swx_qlr_write(r->af_qlr.f, &qo)))
        return cli_fail(rc);
    if (r->legend && (rc = swx_atomicfile_commit(&r->af_legend)))
        return cli_fail(rc);
    if (q->to_stdout) {
        r->af_qlr.f = NULL;
        if (fflush(stdout) != 0) {
            cli_error("writing the output failed");
            return EXIT_IO;
        }
    } else if ((rc = swx_atomicfile_commit(&r->af_qlr))) {
        if (r->legend && !r->legend_existed)
            unlink(r->legend);
        return cli_fail(rc);
    }
    return 0;
}

int cmd_qlr(const cli_cmd *cmd, int argc, char **argv)
{
    cli_args a;
    qlr_args q;
    qlr_run r = {.af_legend = SWX_ATOMICFILE_INIT, .af_qlr = SWX_ATOMICFILE_INIT};
    int exit_code;
    int pr = cli_parse(&a, cmd, argc, argv);
    if (pr)
        return pr > 0 ? EXIT_OK : EXIT_USAGE;
    /* Everything the user typed is checked before anything is sent. */
    if ((exit_code = read_args(&q, &a)))
        return exit_code;
    if (!(exit_code = read_legend(&r, &q, &a)) && !(exit_code = fetch_layer(&r, &q, &a)) &&
        !(exit_code = write_files(&r, &q, &a))) {
        char first[SWX_ISO8601_LEN], last[SWX_ISO8601_LEN];
        swx_iso8601_format(first, swx_timedim_first(r.td));
        swx_iso8601_format(last, swx_timedim_last(r.td));
        cli_info("%s: %zu layers of %s, %s to %s%s%s", q.to_stdout ? "(stdout)" : q.out,
                 swx_timedim_count(r.td), swx_layer_name(r.l), first, last,
                 r.legend ? ", legend " : "", r.legend ? r.legend : "");
    }
    run_free(&r);
    return exit_code;
}
