/* fuzz_tilejson.c: an MBTiles file a user gives to `seawx tilejson`: SQLite
 * opens it read only and its metadata rows (bounds, center, zooms, tile size,
 * text) are parsed into TileJSON. SQLite reads from a path, so each input is
 * handed over as an in-memory file. */
#define _GNU_SOURCE
#include "fuzz.h"

#include "seawx/mbtiles.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int fd = -1;
    static char path[64];
    static FILE *sink;
    if (fd < 0) {
        if ((fd = memfd_create("fuzz.mbtiles", 0)) < 0 || !(sink = fopen("/dev/null", "w")))
            abort();
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    }
    if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
        abort();
    swx_mbtiles_tilejson(sink, path, "http://127.0.0.1/{z}/{x}/{y}");
    return 0;
}
