/*
 * land_read.c: the bins of GSHHG's binned netCDF file (GMT's
 * binned_GSHHS_<res>.nc) that cover an area, read with libnetcdf and handed
 * to land_bins.c. The file's variables (ncdump -h shows them):
 *   Bin_size_in_minutes, N_bins_in_360_longitude_range,
 *   N_bins_in_180_degree_latitude_range, N_bins_in_file  (scalars)
 *   Embedded_node_levels_in_a_bin, N_segments_in_a_bin,
 *   Id_of_first_segment_in_a_bin                          (per bin)
 *   Embedded_npts_levels_exit_entry_for_a_segment,
 *   Id_of_first_point_in_a_segment                        (per segment)
 *   Relative_longitude_from_SW_corner_of_bin,
 *   Relative_latitude_from_SW_corner_of_bin               (per point, short)
 * netCDF checks every read against the variable's length, so a file that
 * lies about its counts is refused with its error code, never read past.
 */
#include "land_bins.h"

#include "seawx/error.h"

#include <math.h>
#include <netcdf.h>
#include <stdlib.h>
#include <unistd.h>

typedef struct gshhg_file {
    const char *path;
    int nc;
    int bin_size, nx, ny, nbins;
    int v_seg_info, v_seg_start, v_dx, v_dy;
    short *bin_info, *bin_nseg;
    int *bin_first;
    /* one bin's arrays, grown as needed */
    int32_t *seg_info, *seg_start;
    int16_t *dx, *dy;
    size_t seg_cap, pt_cap;
} gshhg_file;

static int nc_fail(const gshhg_file *f, int status, const char *what)
{
    return swx_error_set(SWX_EPARSE, "%s is not a GSHHG binned coastline: %s (%s)", f->path, what,
                         nc_strerror(status));
}

static int scalar(gshhg_file *f, const char *name, int *out)
{
    int id, st = nc_inq_varid(f->nc, name, &id);
    if (st == NC_NOERR) {
        size_t zero = 0;
        st = nc_get_var1_int(f->nc, id, &zero, out);
    }
    return st == NC_NOERR ? 0 : nc_fail(f, st, name);
}

static int varid(gshhg_file *f, const char *name, int *out)
{
    int st = nc_inq_varid(f->nc, name, out);
    return st == NC_NOERR ? 0 : nc_fail(f, st, name);
}

static int read_header(gshhg_file *f)
{
    int rc, id[3];
    if ((rc = scalar(f, "Bin_size_in_minutes", &f->bin_size)) ||
        (rc = scalar(f, "N_bins_in_360_longitude_range", &f->nx)) ||
        (rc = scalar(f, "N_bins_in_180_degree_latitude_range", &f->ny)) ||
        (rc = scalar(f, "N_bins_in_file", &f->nbins)))
        return rc;
    /* GSHHG's bins are 1 to 20 degrees; smaller ones would mean millions of bins */
    if (f->bin_size < 30 || 10800 % f->bin_size || f->nx != 21600 / f->bin_size ||
        f->ny != 10800 / f->bin_size || f->nbins != f->nx * f->ny)
        return swx_error_set(SWX_EPARSE, "%s is not a GSHHG binned coastline: bins of %d minutes",
                             f->path, f->bin_size);
    if ((rc = varid(f, "Embedded_node_levels_in_a_bin", &id[0])) ||
        (rc = varid(f, "N_segments_in_a_bin", &id[1])) ||
        (rc = varid(f, "Id_of_first_segment_in_a_bin", &id[2])) ||
        (rc = varid(f, "Embedded_npts_levels_exit_entry_for_a_segment", &f->v_seg_info)) ||
        (rc = varid(f, "Id_of_first_point_in_a_segment", &f->v_seg_start)) ||
        (rc = varid(f, "Relative_longitude_from_SW_corner_of_bin", &f->v_dx)) ||
        (rc = varid(f, "Relative_latitude_from_SW_corner_of_bin", &f->v_dy)))
        return rc;
    size_t n = (size_t)f->nbins, zero = 0;
    f->bin_info = malloc(n * sizeof *f->bin_info);
    f->bin_nseg = malloc(n * sizeof *f->bin_nseg);
    f->bin_first = malloc(n * sizeof *f->bin_first);
    if (!f->bin_info || !f->bin_nseg || !f->bin_first)
        return swx_error_set(SWX_ENOMEM, "out of memory for the coastline's bins");
    int st;
    if ((st = nc_get_vara_short(f->nc, id[0], &zero, &n, f->bin_info)) ||
        (st = nc_get_vara_short(f->nc, id[1], &zero, &n, f->bin_nseg)) ||
        (st = nc_get_vara_int(f->nc, id[2], &zero, &n, f->bin_first)))
        return nc_fail(f, st, "the bins' arrays");
    return 0;
}

static int reserve(void **p, size_t *cap, size_t n, size_t size, size_t *cap_out)
{
    if (n <= *cap)
        return 0;
    void *q = realloc(*p, n * size);
    if (!q)
        return swx_error_set(SWX_ENOMEM, "out of memory for the coastline");
    *p = q;
    *cap_out = n;
    return 0;
}

/* Reads bin idx's segments and points and appends its rings. */
static int read_bin(gshhg_file *f, swx__land_rings *r, int idx, int shift)
{
    int nseg = f->bin_nseg[idx], st, rc;
    swx__gshhg_bin b = {
        .bin_size = f->bin_size, .index = idx, .node_info = (uint16_t)f->bin_info[idx]};
    if (nseg < 0 || f->bin_first[idx] < 0)
        return swx_error_set(SWX_EPARSE, "%s is not a GSHHG binned coastline: bin %d", f->path,
                             idx);
    if (nseg > 0) {
        size_t start = (size_t)f->bin_first[idx], count = (size_t)nseg, cap = f->seg_cap;
        if ((rc = reserve((void **)&f->seg_info, &cap, count, sizeof(int32_t), &f->seg_cap)) ||
            (rc = reserve((void **)&f->seg_start, &cap, count, sizeof(int32_t), &f->seg_cap)))
            return rc;
        if ((st = nc_get_vara_int(f->nc, f->v_seg_info, &start, &count, f->seg_info)) ||
            (st = nc_get_vara_int(f->nc, f->v_seg_start, &start, &count, f->seg_start)))
            return nc_fail(f, st, "the segments' arrays");
        int64_t lo = INT32_MAX, hi = 0;
        for (int i = 0; i < nseg; i++) {
            int64_t s0 = f->seg_start[i], s1 = s0 + ((uint32_t)f->seg_info[i] >> 9);
            if (s0 < 0 || s1 - s0 > SWX__LAND_MAX_POINTS)
                return swx_error_set(SWX_EPARSE, "%s is not a GSHHG binned coastline: bin %d",
                                     f->path, idx);
            lo = s0 < lo ? s0 : lo;
            hi = s1 > hi ? s1 : hi;
        }
        if (hi - lo > SWX__LAND_MAX_POINTS)
            return swx_error_set(SWX_ETOOBIG, "%s: bin %d holds too many points", f->path, idx);
        size_t pstart = (size_t)lo, pcount = (size_t)(hi - lo);
        cap = f->pt_cap;
        if ((rc = reserve((void **)&f->dx, &cap, pcount + 1, sizeof(int16_t), &f->pt_cap)) ||
            (rc = reserve((void **)&f->dy, &cap, pcount + 1, sizeof(int16_t), &f->pt_cap)))
            return rc;
        if (pcount && ((st = nc_get_vara_short(f->nc, f->v_dx, &pstart, &pcount, f->dx)) ||
                       (st = nc_get_vara_short(f->nc, f->v_dy, &pstart, &pcount, f->dy))))
            return nc_fail(f, st, "the points' arrays");
        for (int i = 0; i < nseg; i++)
            f->seg_start[i] -= (int32_t)lo;
        b.nseg = nseg;
        b.seg_info = f->seg_info;
        b.seg_start = f->seg_start;
        b.npts = pcount;
        b.dx = f->dx;
        b.dy = f->dy;
    }
    rc = swx__land_bin_rings(r, &b, shift);
    return rc == SWX_EPARSE ? swx_error_prefix(rc, "%s", f->path) : rc;
}

int swx__land_read(swx__land_rings *r, int *bin_size, const char *path, double south, double north,
                   double west, double east)
{
    gshhg_file f = {.path = path, .nc = -1};
    int rc = 0, st = nc_open(path, NC_NOWRITE, &f.nc);
    if (st != NC_NOERR) {
        f.nc = -1;
        if (access(path, F_OK) != 0)
            rc = swx_error_set(SWX_ENOTFOUND,
                               "no GSHHG coastline at %s: install Debian's gmt-gshhg-full", path);
        else
            rc = nc_fail(&f, st, "cannot open it");
        goto done;
    }
    if ((rc = read_header(&f)))
        goto done;
    double bs = f.bin_size / 60.0;
    for (int row = 0; row < f.ny && !rc; row++) {
        double lat_s = 90 - (row + 1) * bs;
        if (lat_s >= north || lat_s + bs <= south)
            continue;
        for (int col = 0; col < f.nx && !rc; col++)
            for (int shift = -720; shift <= 720 && !rc; shift += 360) {
                double lon_w = col * bs + shift;
                if (lon_w < east && lon_w + bs > west)
                    rc = read_bin(&f, r, row * f.nx + col, shift);
            }
    }
    *bin_size = f.bin_size;
done:
    if (f.nc >= 0)
        nc_close(f.nc);
    free(f.bin_info);
    free(f.bin_nseg);
    free(f.bin_first);
    free(f.seg_info);
    free(f.seg_start);
    free(f.dx);
    free(f.dy);
    return rc;
}
