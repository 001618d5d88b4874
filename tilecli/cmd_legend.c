/* cmd_legend.c: `seawx legend`, the value legend of a map layer as a PNG. */
#include "cli.h"

#include "seawx/atomicfile.h"
#include "seawx/error.h"
#include "seawx/wms.h"
#include "seawx/wms_select.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const cli_opt cmd_legend_opts[] = {
    {"bundle", 'b', "NAME", "the layer's bundle (required)", 0, NULL},
    {"layer", 'l', "NAME", "a leaf layer's full name, e.g. sof-d/20241001/00/t2m:K", 0, NULL},
    {"variable", 'v', "VAR", "instead of --layer: t2m or t2m:K, of the run given by --run", 0,
     NULL},
    {"run", 0, "RUN", "with --variable: latest (default) or YYYYMMDDHH", 0, NULL},
    {"style", 's', "NAME", "one of the layer's styles (default: its first, as the plugin)", 0,
     NULL},
    {"width", 0, "PX", "legend width in pixels, 1-1024 (default: the service's)", 0, NULL},
    {"height", 0, "PX", "legend height in pixels, 1-1024 (default: the service's)", 0, NULL},
    {"output", 'o', "FILE", "the PNG to write (required; '-' for stdout)", 0, NULL},
    {0},
};

/* Writes len bytes to path as a whole file, or to stdout for "-". */
static int write_png(const char *path, const void *data, size_t len)
{
    if (strcmp(path, "-") == 0) {
        if (fwrite(data, 1, len, stdout) != len || fflush(stdout) != 0)
            return swx_error_set(SWX_EIO, "cannot write the legend to stdout");
        return 0;
    }
    swx_atomicfile af = SWX_ATOMICFILE_INIT;
    int rc = swx_atomicfile_open(&af, path, 0666, SWX_ATOMICFILE_STREAM);
    if (rc)
        return rc;
    if (fwrite(data, 1, len, af.f) != len) {
        int e = errno ? errno : EIO;
        swx_atomicfile_abort(&af);
        return swx_error_set(SWX_EIO, "cannot write %s: %s", path, strerror(e));
    }
    return swx_atomicfile_commit(&af);
}

int cmd_legend(const cli_cmd *cmd, int argc, char **argv)
{
    cli_args a;
    swx_client *client = NULL;
    swx_caps *caps = NULL;
    void *png = NULL;
    size_t len = 0;
    long width = 0, height = 0;
    int w = 0, h = 0, rc, exit_code = EXIT_OK;
    int pr = cli_parse(&a, cmd, argc, argv);
    if (pr)
        return pr > 0 ? EXIT_OK : EXIT_USAGE;
    const char *bundle = cli_get(&a, "bundle"), *layer_name = cli_get(&a, "layer");
    const char *var = cli_get(&a, "variable"), *run = cli_get(&a, "run");
    const char *out = cli_get(&a, "output");
    /* Everything the user typed is checked before anything is sent. */
    if (a.npositional) {
        cli_error("unexpected argument '%s' (see 'seawx legend --help')", a.positional[0]);
        return EXIT_USAGE;
    }
    if (!bundle || !out || (!layer_name == !var)) {
        cli_error("give --bundle, one of --layer or --variable, and --output (see 'seawx legend "
                  "--help')");
        return EXIT_USAGE;
    }
    if (swx_wms_bundle_check(bundle))
        return cli_fail(SWX_EINVAL);
    if (run && swx_select_run_parse(NULL, run))
        return cli_fail(SWX_EINVAL);
    if (cli_get_int(&width, &a, "width", 1, SWX_LEGEND_MAX_SIDE) ||
        cli_get_int(&height, &a, "height", 1, SWX_LEGEND_MAX_SIDE))
        return EXIT_USAGE;
    if (strcmp(out, "-") != 0 &&
        (rc = swx_atomicfile_target(NULL, NULL, out, SWX_ATOMICFILE_STREAM, NULL, 0)))
        return cli_fail(rc);

    if ((exit_code = cli_client(&client, &a)))
        goto done;
    const swx_layer *l = NULL;
    const char *style = NULL;
    if ((rc = swx_wms_get_caps(&caps, client, bundle)) ||
        (rc = swx_select_layer(&l, caps, bundle, layer_name, var, run)) ||
        (rc = swx_select_style(&style, l, cli_get(&a, "style"))) ||
        (rc = swx_wms_get_legend(&png, &len, &w, &h, client, bundle, swx_layer_name(l), style,
                                 (int)width, (int)height)) ||
        (rc = write_png(out, png, len))) {
        exit_code = cli_fail(rc);
        goto done;
    }
    if (strcmp(out, "-") != 0)
        cli_info("%s: legend of %s, style %s, %d x %d", out, swx_layer_name(l),
                 *style ? style : "(default)", w, h);
done:
    free(png);
    swx_caps_free(caps);
    swx_client_free(client);
    return exit_code;
}
