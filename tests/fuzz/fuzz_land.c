/* fuzz_land.c: one GSHHG bin as land_read.c hands it to land_bins.c after
 * reading it from netCDF: the bin's arrays (segments' info words and first
 * points, the points' offsets) from bytes. A bin is refused with one line
 * and leaves the rings as they were, or adds closed rings whose points lie
 * in the bin.
 *
 * Bytes (little-endian): u8 bin size code (60, 120, 300, 600 or 1200
 * minutes), u16 bin number (modulo the bins of that size), u16 corner
 * levels, u8 segments, then per segment i32 info and u16 first point, then
 * the points as i16 dx, dy pairs. The corpus (corpus/land/) holds real bins
 * of binned_GSHHS_{c,l,i,h,f}.nc in this form: coasts, islands, lakes and
 * bins a shore crosses several times. */
#include "fuzz.h"

#include "land_bins.h"
#include "seawx/error.h"

#include <stdlib.h>
#include <string.h>

static unsigned get16(const uint8_t *p)
{
    return (unsigned)p[0] | (unsigned)p[1] << 8;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const int sizes[] = {60, 120, 300, 600, 1200};
    if (size < 6)
        return 0;
    swx__gshhg_bin b = {.bin_size = sizes[data[0] % 5]};
    int nbins = (21600 / b.bin_size) * (10800 / b.bin_size);
    b.index = (int)(get16(data + 1) % (unsigned)nbins);
    b.node_info = get16(data + 3);
    b.nseg = data[5];
    size_t off = 6;
    if (size < off + (size_t)b.nseg * 6)
        return 0;
    int32_t *info = malloc((size_t)b.nseg * sizeof *info + 1);
    int32_t *start = malloc((size_t)b.nseg * sizeof *start + 1);
    size_t npts = (size - off - (size_t)b.nseg * 6) / 4;
    int16_t *dx = malloc(npts * sizeof *dx + 1), *dy = malloc(npts * sizeof *dy + 1);
    if (!info || !start || !dx || !dy)
        abort();
    for (int i = 0; i < b.nseg; i++, off += 6) {
        info[i] = (int32_t)((uint32_t)get16(data + off) | (uint32_t)get16(data + off + 2) << 16);
        start[i] = (int32_t)get16(data + off + 4);
    }
    for (size_t k = 0; k < npts; k++, off += 4) {
        dx[k] = (int16_t)get16(data + off);
        dy[k] = (int16_t)get16(data + off + 2);
    }
    b.seg_info = info;
    b.seg_start = start;
    b.npts = npts;
    b.dx = dx;
    b.dy = dy;

    /* a ring already there, which a refused bin must leave alone */
    swx__land_rings r = {0};
    swx__gshhg_bin full = {.bin_size = 1200, .index = 0, .node_info = 01111};
    if (swx__land_bin_rings(&r, &full, 0) || r.nrings != 1)
        abort();
    size_t npts0 = r.npts;
    int rc = swx__land_bin_rings(&r, &b, 360);
    if (rc) {
        const char *e = swx_error_last();
        if (r.nrings != 1 || r.npts != npts0 || !*e || strchr(e, '\n'))
            abort();
    } else {
        int nx = 21600 / b.bin_size;
        double bs = b.bin_size / 60.0, w = (b.index % nx) * bs + 360;
        double s = 90 - (b.index / nx + 1) * bs;
        for (size_t i = 1; i < r.nrings; i++) {
            size_t a = r.start[i], z = r.start[i + 1];
            if (z < a + 4 || r.xy[2 * a] != r.xy[2 * z - 2] || r.xy[2 * a + 1] != r.xy[2 * z - 1])
                abort();
            for (size_t k = a; k < z; k++)
                if (r.xy[2 * k] < w || r.xy[2 * k] > w + bs || r.xy[2 * k + 1] < s ||
                    r.xy[2 * k + 1] > s + bs)
                    abort();
        }
    }
    swx__land_rings_free(&r);
    free(info);
    free(start);
    free(dx);
    free(dy);
    return 0;
}
