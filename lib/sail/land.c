/*
 * land.c: land for the router: the coastline of a voyage's area (rings from
 * land_read.c) behind a mask of cells, so that most questions are one byte.
 *
 * The mask covers the area grown by the margin and two cells, in cells of
 * whole arc-minutes aligned to GSHHG's bins (so a cell never straddles a
 * bin's edge). A cell is
 *   COAST  when a shoreline edge's bounding box touches it (its edges are
 *          listed for it);
 *   NEAR   when a COAST cell lies within the margin plus one cell of it
 *          (a box of kx by ky cells);
 *   LAND   (a bit) when its centre is on land, by the even-odd rule along
 *          its row from the west, over all rings;
 *   BLOCK  when every point of it is within the margin of a shoreline
 *          vertex (measured with the largest cosine of the mask's
 *          latitudes, which no question's plane exceeds), so any leg that
 *          enters it is blocked.
 * A cell neither COAST nor NEAR is all land or all sea and farther than the
 * margin from the shore, so its bit answers for any point in it. Otherwise:
 * a point's side is its cell centre's, flipped by each shoreline edge the
 * segment from the centre to the point crosses; the margin is the distance
 * to the edges of the COAST cells around. A leg is first sampled every half
 * cell: all samples in plain sea cells (any cell the leg touches is then a
 * neighbour of a sample, and the NEAR band is at least one cell wide) clear
 * it, a plain land cell blocks it; else it is clear when its start is at sea
 * and no shoreline edge in the cells along it comes within the margin (a leg
 * that crosses no shoreline stays on the side it started).
 *
 * Edges along bins' sides (coast 0 in the rings) are land on both sides:
 * they count in the rows' even-odd sweep, nowhere else.
 */
#include "seawx/land.h"

#include "land_bins.h"
#include "seawx/error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define C_LAND 1
#define C_COAST 2
#define C_NEAR 4
#define C_BLOCK 8
#define MAX_CELLS (8u * 1000u * 1000u)
#define MAX_LISTED (64u * 1000u * 1000u)
#define MAX_MARGIN_NM 100.0
#define DEG2RAD (M_PI / 180.0)

struct swx_land {
    swx__land_rings r;
    double qw, qe, qs, qn; /* the area; qw in [-180, 180), qw < qe <= qw + 360 */
    double gx0, gy0, cell; /* the mask's south-west corner and cell size, degrees */
    int nx, ny, kx, ky;
    double m; /* the margin, degrees of latitude */
    unsigned char *state;
    uint32_t *first; /* cell c's edges: edges[first[c] .. first[c + 1] - 1] */
    uint32_t *edges; /* an edge is the index of its first point */
};

typedef struct pt {
    double x, y;
} pt;

static double orient(pt a, pt b, pt c)
{
    return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
}

/* Squared distance from p to segment ab. */
static double dist2_pt_seg(pt p, pt a, pt b)
{
    double dx = b.x - a.x, dy = b.y - a.y, len2 = dx * dx + dy * dy;
    double t = len2 > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2 : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    double ex = a.x + t * dx - p.x, ey = a.y + t * dy - p.y;
    return ex * ex + ey * ey;
}

static double dist2_seg_seg(pt a, pt b, pt c, pt d)
{
    double o1 = orient(a, b, c), o2 = orient(a, b, d), o3 = orient(c, d, a), o4 = orient(c, d, b);
    if (((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0)))
        return 0;
    double m = dist2_pt_seg(a, c, d), t = dist2_pt_seg(b, c, d);
    m = t < m ? t : m;
    t = dist2_pt_seg(c, a, b);
    m = t < m ? t : m;
    t = dist2_pt_seg(d, a, b);
    return t < m ? t : m;
}

/* Whether segment pq crosses edge ab, points on a line counted on its
 * negative side (so a vertex on pq is crossed once or not at all). */
static int crosses(pt p, pt q, pt a, pt b)
{
    return ((orient(a, b, p) > 0) != (orient(a, b, q) > 0)) &&
           ((orient(p, q, a) > 0) != (orient(p, q, b) > 0));
}

static pt point_at(const swx_land *l, uint32_t k)
{
    return (pt){l->r.xy[2 * (size_t)k], l->r.xy[2 * (size_t)k + 1]};
}

static long cell_of(double v, double origin, double cell)
{
    return (long)floor((v - origin) / cell);
}

/* ---- opening ---- */

static int cmp_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

/* The land bit of every cell: the even-odd rule along each row's centre
 * line, from the west. */
static int sweep_rows(swx_land *l)
{
    const swx__land_rings *r = &l->r;
    size_t *row_first = calloc((size_t)l->ny + 1, sizeof *row_first);
    double *xs = NULL;
    int rc = 0;
    if (!row_first)
        return swx_error_set(SWX_ENOMEM, "out of memory for the land mask");
    for (int pass = 0; pass < 2; pass++) {
        for (size_t ring = 0; ring < r->nrings; ring++)
            for (size_t k = r->start[ring]; k + 1 < r->start[ring + 1]; k++) {
                double ya = r->xy[2 * k + 1], yb = r->xy[2 * k + 3];
                double lo = ya < yb ? ya : yb, hi = ya < yb ? yb : ya;
                long j0 = cell_of(lo, l->gy0, l->cell) - 1, j1 = cell_of(hi, l->gy0, l->cell) + 1;
                j0 = j0 < 0 ? 0 : j0;
                j1 = j1 >= l->ny ? l->ny - 1 : j1;
                for (long j = j0; j <= j1; j++) {
                    double yc = l->gy0 + (j + 0.5) * l->cell;
                    if ((ya > yc) == (yb > yc))
                        continue;
                    if (pass == 0) {
                        row_first[j + 1]++;
                    } else {
                        double xa = r->xy[2 * k], xb = r->xy[2 * k + 2];
                        xs[row_first[j]++] = xa + (yc - ya) * (xb - xa) / (yb - ya);
                    }
                }
            }
        if (pass == 0) {
            for (int j = 0; j < l->ny; j++)
                row_first[j + 1] += row_first[j];
            xs = malloc((row_first[l->ny] ? row_first[l->ny] : 1) * sizeof *xs);
            if (!xs) {
                rc = swx_error_set(SWX_ENOMEM, "out of memory for the land mask");
                goto done;
            }
        } else { /* the fill moved each row's start to the next row's */
            memmove(row_first + 1, row_first, (size_t)l->ny * sizeof *row_first);
            row_first[0] = 0;
        }
    }
    for (int j = 0; j < l->ny; j++) {
        double *x = xs + row_first[j];
        size_t n = row_first[j + 1] - row_first[j], k = 0;
        qsort(x, n, sizeof *x, cmp_double);
        for (int i = 0; i < l->nx; i++) {
            double xc = l->gx0 + (i + 0.5) * l->cell;
            while (k < n && x[k] < xc)
                k++;
            if (k & 1)
                l->state[(size_t)j * l->nx + i] |= C_LAND;
        }
    }
done:
    free(row_first);
    free(xs);
    return rc;
}

/* Lists each shoreline edge in the cells its bounding box touches. */
static int list_edges(swx_land *l)
{
    const swx__land_rings *r = &l->r;
    size_t ncells = (size_t)l->nx * l->ny;
    l->first = calloc(ncells + 1, sizeof *l->first);
    if (!l->first)
        return swx_error_set(SWX_ENOMEM, "out of memory for the land mask");
    for (int pass = 0; pass < 2; pass++) {
        for (size_t ring = 0; ring < r->nrings; ring++)
            for (size_t k = r->start[ring]; k + 1 < r->start[ring + 1]; k++) {
                if (!r->coast[k])
                    continue;
                double xa = r->xy[2 * k], ya = r->xy[2 * k + 1];
                double xb = r->xy[2 * k + 2], yb = r->xy[2 * k + 3];
                long i0 = cell_of(xa < xb ? xa : xb, l->gx0, l->cell);
                long i1 = cell_of(xa < xb ? xb : xa, l->gx0, l->cell);
                long j0 = cell_of(ya < yb ? ya : yb, l->gy0, l->cell);
                long j1 = cell_of(ya < yb ? yb : ya, l->gy0, l->cell);
                i0 = i0 < 0 ? 0 : i0;
                j0 = j0 < 0 ? 0 : j0;
                i1 = i1 >= l->nx ? l->nx - 1 : i1;
                j1 = j1 >= l->ny ? l->ny - 1 : j1;
                for (long j = j0; j <= j1; j++)
                    for (long i = i0; i <= i1; i++) {
                        size_t c = (size_t)j * l->nx + i;
                        if (pass == 0)
                            l->first[c + 1]++;
                        else
                            l->edges[l->first[c]++] = (uint32_t)k;
                    }
            }
        if (pass == 0) {
            uint64_t total = 0;
            for (size_t c = 0; c < ncells; c++) {
                total += l->first[c + 1];
                if (total > MAX_LISTED)
                    return swx_error_set(SWX_ETOOBIG, "the area's coastline is too large for "
                                                      "its mask: choose a smaller area");
                l->first[c + 1] = (uint32_t)total;
            }
            l->edges = malloc((total ? total : 1) * sizeof *l->edges);
            if (!l->edges)
                return swx_error_set(SWX_ENOMEM, "out of memory for the land mask");
        } else {
            memmove(l->first + 1, l->first, ncells * sizeof *l->first);
            l->first[0] = 0;
        }
    }
    for (size_t c = 0; c < ncells; c++)
        if (l->first[c + 1] > l->first[c])
            l->state[c] |= C_COAST;
    return 0;
}

/* NEAR: within kx columns and ky rows of a COAST cell (box dilation, rows
 * then columns, by running counts). */
static int mark_near(swx_land *l)
{
    int nx = l->nx, ny = l->ny;
    unsigned char *rowd = calloc((size_t)nx * ny, 1);
    if (!rowd)
        return swx_error_set(SWX_ENOMEM, "out of memory for the land mask");
    for (int j = 0; j < ny; j++) {
        const unsigned char *s = l->state + (size_t)j * nx;
        long count = 0;
        for (int i = 0; i < nx + l->kx; i++) {
            if (i < nx)
                count += (s[i] & C_COAST) != 0;
            if (i - 2 * l->kx - 1 >= 0)
                count -= (s[i - 2 * l->kx - 1] & C_COAST) != 0;
            if (i - l->kx >= 0 && i - l->kx < nx)
                rowd[(size_t)j * nx + i - l->kx] = count > 0;
        }
    }
    for (int i = 0; i < nx; i++) {
        long count = 0;
        for (int j = 0; j < ny + l->ky; j++) {
            if (j < ny)
                count += rowd[(size_t)j * nx + i];
            if (j - 2 * l->ky - 1 >= 0)
                count -= rowd[(size_t)(j - 2 * l->ky - 1) * nx + i];
            if (j - l->ky >= 0 && j - l->ky < ny && count > 0)
                l->state[(size_t)(j - l->ky) * nx + i] |= C_NEAR;
        }
    }
    free(rowd);
    return 0;
}

/* BLOCK: cells whose every point is within the margin of a shoreline
 * vertex: the cells at offsets (di, dj) from a cell holding a vertex with
 * ((|di| + 1) w)^2 + ((|dj| + 1) h)^2 <= margin^2, w and h a cell's sides. */
static int mark_blocked(swx_land *l)
{
    const swx__land_rings *r = &l->r;
    double minlat = l->gy0 <= 0 && l->gy0 + l->ny * l->cell >= 0
                        ? 0
                        : fmin(fabs(l->gy0), fabs(l->gy0 + l->ny * l->cell));
    double h = l->cell, w = l->cell * cos(minlat * DEG2RAD), m2 = l->m * l->m;
    if (w * w + h * h > m2)
        return 0; /* not even the vertex's own cell */
    unsigned char *vert = calloc((size_t)l->nx * l->ny, 1);
    if (!vert)
        return swx_error_set(SWX_ENOMEM, "out of memory for the land mask");
    for (size_t ring = 0; ring < r->nrings; ring++)
        for (size_t k = r->start[ring]; k + 1 < r->start[ring + 1]; k++) {
            if (!r->coast[k])
                continue;
            for (size_t v = k; v <= k + 1; v++) {
                long i = cell_of(r->xy[2 * v], l->gx0, l->cell);
                long j = cell_of(r->xy[2 * v + 1], l->gy0, l->cell);
                if (i >= 0 && j >= 0 && i < l->nx && j < l->ny)
                    vert[(size_t)j * l->nx + i] = 1;
            }
        }
    int di_max = (int)(l->m / w), dj_max = (int)(l->m / h);
    for (long j = 0; j < l->ny; j++)
        for (long i = 0; i < l->nx; i++) {
            if (!vert[(size_t)j * l->nx + i])
                continue;
            for (int dj = -dj_max; dj <= dj_max; dj++)
                for (int di = -di_max; di <= di_max; di++) {
                    double ex = (abs(di) + 1) * w, ey = (abs(dj) + 1) * h;
                    long ii = i + di, jj = j + dj;
                    if (ex * ex + ey * ey <= m2 && ii >= 0 && jj >= 0 && ii < l->nx && jj < l->ny)
                        l->state[(size_t)jj * l->nx + ii] |= C_BLOCK;
                }
        }
    free(vert);
    return 0;
}

/* The mask's extent and cell: whole arc-minutes dividing 60 (so dividing
 * every GSHHG bin), the finest that keeps under MAX_CELLS. */
static int plan_grid(swx_land *l, double mlon)
{
    static const int cells_min[] = {1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30, 60};
    double y0 = l->qs - l->m, y1 = l->qn + l->m, x0 = l->qw - mlon, x1 = l->qe + mlon;
    for (size_t k = 0; k < sizeof cells_min / sizeof cells_min[0]; k++) {
        double c = cells_min[k] / 60.0;
        double gy0 = floor(y0 / c) - 2, gy1 = ceil(y1 / c) + 2;
        double gx0 = floor(x0 / c) - 2, gx1 = ceil(x1 / c) + 2;
        if ((gy1 - gy0) * (gx1 - gx0) > MAX_CELLS)
            continue;
        l->cell = c;
        l->gy0 = gy0 * c;
        l->gx0 = gx0 * c;
        l->ny = (int)(gy1 - gy0);
        l->nx = (int)(gx1 - gx0);
        return 0;
    }
    return swx_error_set(SWX_ETOOBIG, "the area is too large for the land mask");
}

static int check_opts(const swx_land_opts *o, char *res)
{
    *res = o->resolution ? o->resolution : 'f';
    if (!strchr("fhilc", *res) || *res == 0)
        return swx_error_set(SWX_EINVAL, "unknown coastline resolution '%c' (f, h, i, l or c)",
                             *res);
    if (!(o->south >= -90 && o->north <= 90 && o->south < o->north))
        return swx_error_set(SWX_EINVAL, "bad area for land: latitudes %g to %g", o->south,
                             o->north);
    if (!(isfinite(o->west) && isfinite(o->east) && fabs(o->west) <= 360 && fabs(o->east) <= 360))
        return swx_error_set(SWX_EINVAL, "bad area for land: longitudes %g to %g", o->west,
                             o->east);
    if (!(o->margin_nm >= 0 && o->margin_nm <= MAX_MARGIN_NM))
        return swx_error_set(SWX_EINVAL, "bad land margin %g nm (0 to %g)", o->margin_nm,
                             MAX_MARGIN_NM);
    return 0;
}

static int file_path(char *buf, size_t size, const swx_land_opts *o, char res)
{
    const char *base = o->path ? o->path : "/usr/share/gmt-gshhg";
    struct stat st;
    int n;
    if (!o->path || (stat(base, &st) == 0 && S_ISDIR(st.st_mode)))
        n = snprintf(buf, size, "%s/binned_GSHHS_%c.nc", base, res);
    else
        n = snprintf(buf, size, "%s", base);
    if (n < 0 || (size_t)n >= size)
        return swx_error_set(SWX_EINVAL, "the coastline's path is too long");
    return 0;
}

int swx_land_open(swx_land **out, const swx_land_opts *o)
{
    swx_land *l = NULL;
    char res, path[4096];
    int rc, bin_size = 0;
    if (!out || !o)
        return swx_error_set(SWX_EINVAL, "no options for land");
    *out = NULL;
    if ((rc = check_opts(o, &res)) || (rc = file_path(path, sizeof path, o, res)))
        return rc;
    l = calloc(1, sizeof *l);
    if (!l)
        return swx_error_set(SWX_ENOMEM, "out of memory for land");
    l->qs = o->south;
    l->qn = o->north;
    l->qw = remainder(o->west, 360.0);
    if (l->qw >= 180)
        l->qw -= 360;
    double width = fmod(o->east - o->west + 720.0, 360.0);
    l->qe = l->qw + (width == 0 ? 360 : width);
    l->m = o->margin_nm / 60.0;
    double maxlat = fmax(fabs(l->qs - l->m), fabs(l->qn + l->m));
    double coslat = cos(fmin(maxlat + 1, 89.0) * DEG2RAD);
    if ((rc = plan_grid(l, l->m / coslat)))
        goto done;
    l->ky = (int)ceil(l->m / l->cell) + 1;
    l->kx = (int)ceil(l->m / (l->cell * coslat)) + 1;
    if ((rc = swx__land_read(&l->r, &bin_size, path, l->gy0, l->gy0 + l->ny * l->cell, l->gx0,
                             l->gx0 + l->nx * l->cell)))
        goto done;
    if ((int)lround(l->cell * 60) > 0 && bin_size % (int)lround(l->cell * 60)) {
        rc = swx_error_set(SWX_EPARSE, "%s: GSHHG bins of %d minutes do not fit the mask", path,
                           bin_size);
        goto done;
    }
    l->state = calloc((size_t)l->nx * l->ny, 1);
    if (!l->state) {
        rc = swx_error_set(SWX_ENOMEM, "out of memory for the land mask");
        goto done;
    }
    if ((rc = sweep_rows(l)) || (rc = list_edges(l)) || (rc = mark_near(l)) ||
        (rc = mark_blocked(l)))
        goto done;
    *out = l;
    l = NULL;
done:
    swx_land_free(l);
    return rc;
}

void swx_land_free(swx_land *l)
{
    if (!l)
        return;
    swx__land_rings_free(&l->r);
    free(l->state);
    free(l->first);
    free(l->edges);
    free(l);
}

/* ---- questions ---- */

/* A longitude in the area's turn: qw <= x < qw + 360. */
static double frame_lon(const swx_land *l, double lon)
{
    double x = l->qw + fmod(fmod(lon - l->qw, 360.0) + 360.0, 360.0);
    return x >= l->qw + 360 ? l->qw : x;
}

static int inside_area(const swx_land *l, double x, double y)
{
    return y >= l->qs && y <= l->qn && x >= l->qw && x <= l->qe;
}

/* 1 when (x, y), inside the mask, is on land (margin aside). */
static int level_at(const swx_land *l, pt p)
{
    long i = cell_of(p.x, l->gx0, l->cell), j = cell_of(p.y, l->gy0, l->cell);
    size_t c = (size_t)j * l->nx + i;
    int st = l->state[c], land = st & C_LAND;
    if (!(st & C_COAST))
        return land;
    pt centre = {l->gx0 + (i + 0.5) * l->cell, l->gy0 + (j + 0.5) * l->cell};
    for (uint32_t e = l->first[c]; e < l->first[c + 1]; e++) {
        uint32_t k = l->edges[e];
        land ^= crosses(centre, p, point_at(l, k), point_at(l, k + 1));
    }
    return land;
}

/* Calls back for every COAST cell in the rows around y0..y1 (grown by the
 * margin and a cell) whose columns the box x(y) +- mlon reaches; a, b the
 * leg (a == b for a point). Returns 1 as soon as an edge comes within the
 * margin, in the plane of k = cos(latitude). */
static int margin_hit(const swx_land *l, pt a, pt b, double k)
{
    double m = l->m, mlon = m / k + l->cell, m2 = m * m;
    double ylo = fmin(a.y, b.y) - m, yhi = fmax(a.y, b.y) + m;
    long j0 = cell_of(ylo, l->gy0, l->cell) - 1, j1 = cell_of(yhi, l->gy0, l->cell) + 1;
    j0 = j0 < 0 ? 0 : j0;
    j1 = j1 >= l->ny ? l->ny - 1 : j1;
    pt A = {0, 0}, B = {(b.x - a.x) * k, b.y - a.y};
    /* the leg's direction: edges beyond the margin of its line, or before
     * its start or past its end, are passed over without the full test */
    double len = hypot(B.x, B.y), ux = len > 0 ? B.x / len : 1, uy = len > 0 ? B.y / len : 0;
    for (long j = j0; j <= j1; j++) {
        /* the leg's longitudes while within reach of this row */
        double y0 = l->gy0 + j * l->cell - m - l->cell, y1 = y0 + 3 * l->cell + 2 * m;
        double t0 = 0, t1 = 1;
        if (b.y != a.y) {
            t0 = (y0 - a.y) / (b.y - a.y);
            t1 = (y1 - a.y) / (b.y - a.y);
            if (t0 > t1) {
                double t = t0;
                t0 = t1;
                t1 = t;
            }
            t0 = t0 < 0 ? 0 : t0;
            t1 = t1 > 1 ? 1 : t1;
            if (t0 > t1)
                continue;
        } else if (a.y < y0 || a.y > y1) {
            continue;
        }
        double xa = a.x + t0 * (b.x - a.x), xb = a.x + t1 * (b.x - a.x);
        long i0 = cell_of(fmin(xa, xb) - mlon, l->gx0, l->cell);
        long i1 = cell_of(fmax(xa, xb) + mlon, l->gx0, l->cell);
        i0 = i0 < 0 ? 0 : i0;
        i1 = i1 >= l->nx ? l->nx - 1 : i1;
        for (long i = i0; i <= i1; i++) {
            size_t c = (size_t)j * l->nx + i;
            if (!(l->state[c] & C_COAST))
                continue;
            for (uint32_t e = l->first[c]; e < l->first[c + 1]; e++) {
                uint32_t n = l->edges[e];
                pt p = point_at(l, n), q = point_at(l, n + 1);
                pt P = {(p.x - a.x) * k, p.y - a.y}, Q = {(q.x - a.x) * k, q.y - a.y};
                double sp = ux * P.y - uy * P.x, sq = ux * Q.y - uy * Q.x;
                double tp = ux * P.x + uy * P.y, tq = ux * Q.x + uy * Q.y;
                if ((sp > m && sq > m) || (sp < -m && sq < -m) || (tp < -m && tq < -m) ||
                    (tp > len + m && tq > len + m))
                    continue;
                if (dist2_seg_seg(A, B, P, Q) <= m2)
                    return 1;
            }
        }
    }
    return 0;
}

int swx_land_at(const swx_land *l, double lat, double lon)
{
    if (!l || !isfinite(lat) || !isfinite(lon))
        return 1;
    pt p = {frame_lon(l, lon), lat};
    if (!inside_area(l, p.x, p.y))
        return 1;
    size_t c = (size_t)cell_of(p.y, l->gy0, l->cell) * l->nx + cell_of(p.x, l->gx0, l->cell);
    if ((l->state[c] & C_BLOCK) || level_at(l, p))
        return 1;
    if (!(l->state[c] & (C_COAST | C_NEAR)))
        return 0;
    return margin_hit(l, p, p, cos(lat * DEG2RAD));
}

int swx_land_leg_clear(const swx_land *l, double lat0, double lon0, double lat1, double lon1)
{
    if (!l || !isfinite(lat0) || !isfinite(lon0) || !isfinite(lat1) || !isfinite(lon1))
        return 0;
    pt a = {frame_lon(l, lon0), lat0};
    pt b = {a.x + remainder(lon1 - lon0, 360.0), lat1};
    if (!inside_area(l, a.x, a.y) || !inside_area(l, b.x, b.y))
        return 0;
    /* samples every half cell or less */
    double du = (b.x - a.x) / l->cell, dv = (b.y - a.y) / l->cell;
    long n = (long)ceil(2 * fmax(fabs(du), fabs(dv))) + 1;
    int exact = 0;
    for (long s = 0; s <= n; s++) {
        double t = (double)s / n;
        long i = cell_of(a.x + t * (b.x - a.x), l->gx0, l->cell);
        long j = cell_of(a.y + t * (b.y - a.y), l->gy0, l->cell);
        int st = l->state[(size_t)j * l->nx + i];
        if (st & C_BLOCK)
            return 0;
        if (st & (C_COAST | C_NEAR))
            exact = 1;
        else if (st & C_LAND)
            return 0;
    }
    if (!exact)
        return 1;
    if (level_at(l, a))
        return 0;
    return !margin_hit(l, a, b, cos(0.5 * (a.y + b.y) * DEG2RAD));
}

size_t swx_land_rings(const swx_land *l)
{
    return l ? l->r.nrings : 0;
}

const double *swx_land_ring(const swx_land *l, size_t i, size_t *npoints, int *level)
{
    if (!l || i >= l->r.nrings) {
        if (npoints)
            *npoints = 0;
        return NULL;
    }
    if (npoints)
        *npoints = l->r.start[i + 1] - l->r.start[i];
    if (level)
        *level = 1;
    return l->r.xy + 2 * l->r.start[i];
}

double swx_land_cell_deg(const swx_land *l)
{
    return l ? l->cell : 0;
}
