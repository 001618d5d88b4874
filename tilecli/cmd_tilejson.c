/* cmd_tilejson.c: `seawx tilejson`, the TileJSON that web maps (MapLibre GL
 * JS) need to show a seeded MBTiles file served by a tile server. */
#include "cli.h"

#include "seawx/atomicfile.h"
#include "seawx/error.h"
#include "seawx/mbtiles.h"

#include <string.h>

const cli_opt cmd_tilejson_opts[] = {
    {"url", 'u', "TEMPLATE",
     "where the tiles are served, with {z}, {x} and {y} (XYZ rows; required)", 0, NULL},
    {"output", 'o', "FILE", "write the TileJSON to FILE (default: stdout)", 0, NULL},
    {0},
};

int cmd_tilejson(const cli_cmd *cmd, int argc, char **argv)
{
    cli_args a;
    swx_atomicfile af = SWX_ATOMICFILE_INIT;
    int pr = cli_parse(&a, cmd, argc, argv), rc;
    if (pr)
        return pr > 0 ? EXIT_OK : EXIT_USAGE;
    const char *url = cli_get(&a, "url"), *out = cli_get(&a, "output");
    if (a.npositional != 1) {
        cli_error("name one MBTiles file");
        return EXIT_USAGE;
    }
    if (!url || !strstr(url, "{z}") || !strstr(url, "{x}") || !strstr(url, "{y}")) {
        cli_error("--url must give the tiles' address with {z}, {x} and {y}");
        return EXIT_USAGE;
    }
    if (!out)
        return (rc = swx_mbtiles_tilejson(stdout, a.positional[0], url)) ? cli_fail(rc) : EXIT_OK;
    /* A stream: a device or a pipe is written through; never the file read. */
    if ((rc = swx_atomicfile_target(NULL, NULL, out, SWX_ATOMICFILE_STREAM, a.positional, 1)) ||
        (rc = swx_atomicfile_open(&af, out, 0644, SWX_ATOMICFILE_STREAM)))
        return cli_fail(rc);
    if ((rc = swx_mbtiles_tilejson(af.f, a.positional[0], url))) {
        swx_atomicfile_abort(&af);
        return cli_fail(rc);
    }
    return (rc = swx_atomicfile_commit(&af)) ? cli_fail(rc) : EXIT_OK;
}
