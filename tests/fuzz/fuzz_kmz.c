/* fuzz_kmz.c: a storm KMZ file as the driver and `seawx storms --kmz` read it:
 * the zip directory checks, the inflate limits and the KML inside. minizip
 * reads from a path, so each input is handed over as an in-memory file. */
#define _GNU_SOURCE
#include "fuzz.h"

#include "kmz_priv.h"
#include "seawx/kmz.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static int on_storm(void *ud, const swx_storm *s)
{
    (void)ud;
    return s->atcf_id ? 0 : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int fd = -1;
    static char path[64];
    if (fd < 0) {
        if ((fd = memfd_create("fuzz.kmz", 0)) < 0)
            abort();
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    }
    if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
        abort();
    swx_kmz_read_storms(path, on_storm, NULL);
    return 0;
}
