/* cmd_qlr.c: `seawx qlr`, a QGIS layer definition of one run of a variable:
 * one SEAWX layer per valid time, for QGIS's Temporal Controller (the
 * document is written by swx_qlr_write, seawx/wms_qlr.h), with the value
 * legend beside it. */
#define _GNU_SOURCE
#include "cli.h"

#include "seawx/atomicfile.h"
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
    {"bundle", 'b', "NAME", "the variable's bundle (required)", 0},
    {"variable", 'v', "VAR", "t2m or t2m:K: the variable whose valid times the group steps through",
     0},
    {"layer", 'l', "NAME",
     "instead of --variable: a leaf layer's full name (sof-d/20241001/00/t2m:K)", 0},
    {"run", 0, "RUN", "with --variable: latest (default: the newest complete run) or YYYYMMDDHH",
     0},
    {"style", 's', "NAME", "one of the layer's styles (default: its first, as the plugin)", 0},
    {"crs", 0, "CRS", "EPSG:4326 (default) or EPSG:3857, if the layer advertises it", 0},
    {"legend", 0, "FILE",
     "where to write the value legend (PNG) every layer shows (default: beside the output, "
     "NAME.legend.png; none with -o - or a pipe unless given)",
     0},
    {"no-legend", 0, NULL, "no legend image: the layers keep QGIS's default legend", 0},
    {"output", 'o', "FILE", "the .qlr to write (required; '-' for stdout)", 0},
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
        swx_atomicfile_abort(af);
        return swx_error_set(SWX_EIO, "cannot write %s", path);
    }
    return 0;
}

int cmd_qlr(const cli_cmd *cmd, int argc, char **argv)
{
    cli_args a;
    swx_client *client = NULL;
    swx_caps *caps = NULL;
    void *png = NULL;
    size_t len = 0;
    char *legend = NULL, *legend_abs = NULL;
    swx_atomicfile af_legend = SWX_ATOMICFILE_INIT, af_qlr = SWX_ATOMICFILE_INIT;
    int rc, exit_code = EXIT_OK, legend_existed = 0;
    int pr = cli_parse(&a, cmd, argc, argv);
    if (pr)
        return pr > 0 ? EXIT_OK : EXIT_USAGE;
    const char *bundle = cli_get(&a, "bundle"), *layer_name = cli_get(&a, "layer");
    const char *var = cli_get(&a, "variable"), *run = cli_get(&a, "run");
    const char *out = cli_get(&a, "output"), *crs_arg = cli_get(&a, "crs");
    int to_stdout = out && strcmp(out, "-") == 0;
    /* Everything the user typed is checked before anything is sent. */
    if (a.npositional) {
        cli_error("unexpected argument '%s' (see 'seawx qlr --help')", a.positional[0]);
        return EXIT_USAGE;
    }
    if (!bundle || !out || (!layer_name == !var)) {
        cli_error("give --bundle, one of --variable or --layer, and --output (see 'seawx qlr "
                  "--help')");
        return EXIT_USAGE;
    }
    if (run && layer_name) {
        cli_error("--run goes with --variable; --layer names its run already");
        return EXIT_USAGE;
    }
    if (cli_has(&a, "legend") && cli_has(&a, "no-legend")) {
        cli_error("give --legend FILE or --no-legend, not both");
        return EXIT_USAGE;
    }
    if (swx_wms_bundle_check(bundle))
        return cli_fail(SWX_EINVAL);
    if (run && swx_select_run_parse(NULL, run))
        return cli_fail(SWX_EINVAL);
    /* A stream (stdout, a pipe, /dev/null) has no folder for the legend:
     * only --legend FILE gives one then. */
    int stream = to_stdout;
    if (!to_stdout &&
        (rc = swx_atomicfile_target(NULL, &stream, out, SWX_ATOMICFILE_STREAM, NULL, 0)))
        return cli_fail(rc);
    if (!cli_has(&a, "no-legend")) {
        if (cli_has(&a, "legend"))
            legend = strdup(cli_get(&a, "legend"));
        else if (!stream)
            legend = legend_beside(out);
        if ((cli_has(&a, "legend") || !stream) && !legend)
            return cli_fail(swx_error_set(SWX_ENOMEM, "out of memory"));
    }
    if (legend) {
        struct stat st;
        char *target = NULL;
        if (strcmp(legend, "-") == 0) {
            cli_error("--legend needs a file: QGIS reads the legend from one");
            exit_code = EXIT_USAGE;
            goto done;
        }
        /* the same file under another name too (a link, a hard link): the
         * .qlr would be put in place over the legend just written */
        struct stat ls, os;
        if (!to_stdout &&
            (strcmp(legend, out) == 0 || (stat(legend, &ls) == 0 && stat(out, &os) == 0 &&
                                          ls.st_dev == os.st_dev && ls.st_ino == os.st_ino))) {
            cli_error("--legend and --output name the same file");
            exit_code = EXIT_USAGE;
            goto done;
        }
        if ((rc = swx_atomicfile_target(&target, NULL, legend, SWX_ATOMICFILE_STREAM, NULL, 0))) {
            exit_code = cli_fail(rc);
            goto done;
        }
        legend_existed = lstat(legend, &st) == 0;
        legend_abs = absolute(target);
        free(target);
        if (!legend_abs) {
            exit_code = cli_fail(SWX_EIO);
            goto done;
        }
    }

    if ((exit_code = cli_client(&client, &a)))
        goto done;
    const swx_layer *l = NULL;
    const char *style = NULL, *crs = NULL;
    int epsg = 0;
    if ((rc = swx_wms_get_caps(&caps, client, bundle)) ||
        (rc = swx_select_layer(&l, caps, bundle, layer_name, var, run)) ||
        (rc = swx_select_style(&style, l, cli_get(&a, "style"))) ||
        (crs_arg && (rc = swx_select_crs(&crs, &epsg, l, crs_arg)))) {
        exit_code = cli_fail(rc);
        goto done;
    }
    const swx_timedim *td = swx_layer_time(l);
    if (!td || swx_timedim_count(td) == 0) {
        exit_code = cli_fail(swx_error_set(SWX_ENOTFOUND,
                                           "layer %s has no valid times to step through; see "
                                           "'seawx layers --bundle %s'",
                                           swx_layer_name(l), bundle));
        goto done;
    }
    if (legend && (rc = swx_wms_get_legend(&png, &len, NULL, NULL, client, bundle,
                                           swx_layer_name(l), style, 0, 0))) {
        exit_code = cli_fail(rc);
        goto done;
    }

    swx_qlr_opts qo = SWX_QLR_OPTS_INIT;
    qo.bundle = bundle;
    qo.layer = l;
    qo.style = cli_get(&a, "style") ? style : NULL;
    qo.crs = crs;
    qo.url = cli_get(&a, "base-url");
    qo.legend = legend_abs;
    /* Both files are written in full before either is put in place. */
    if (legend && (rc = write_legend(&af_legend, legend, png, len))) {
        exit_code = cli_fail(rc);
        goto done;
    }
    if (to_stdout) {
        af_qlr.f = stdout;
    } else if ((rc = swx_atomicfile_open(&af_qlr, out, 0666, SWX_ATOMICFILE_STREAM))) {
        exit_code = cli_fail(rc);
        goto done;
    }
    rc = swx_qlr_write(af_qlr.f, &qo);
    if (rc) {
        exit_code = cli_fail(rc);
        goto done;
    }
    if (legend && (rc = swx_atomicfile_commit(&af_legend))) {
        exit_code = cli_fail(rc);
        goto done;
    }
    if (to_stdout) {
        af_qlr.f = NULL;
        if (fflush(stdout) != 0) {
            cli_error("writing the output failed");
            exit_code = EXIT_IO;
        }
    } else if ((rc = swx_atomicfile_commit(&af_qlr))) {
        if (legend && !legend_existed)
            unlink(legend);
        exit_code = cli_fail(rc);
        goto done;
    }
    if (exit_code == EXIT_OK) {
        size_t n = swx_timedim_count(td);
        char first[SWX_ISO8601_LEN], last[SWX_ISO8601_LEN];
        swx_iso8601_format(first, swx_timedim_first(td));
        swx_iso8601_format(last, swx_timedim_last(td));
        cli_info("%s: %zu layers of %s, %s to %s%s%s", to_stdout ? "(stdout)" : out, n,
                 swx_layer_name(l), first, last, legend ? ", legend " : "", legend ? legend : "");
    }
done:
    if (af_qlr.f == stdout)
        af_qlr.f = NULL;
    swx_atomicfile_abort(&af_legend);
    swx_atomicfile_abort(&af_qlr);
    free(png);
    free(legend);
    free(legend_abs);
    swx_caps_free(caps);
    swx_client_free(client);
    return exit_code;
}
