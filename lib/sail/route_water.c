/* route_water.c: the distance still to sail round land, for the route
 * search's pruning (seawx/route_inputs.h).
 *
 * The search keeps, in each cross-track band, the point nearest the end, and
 * only when it is nearer than any the band kept before. Measured as the
 * crow flies, a route that must first sail away from the end to get round an
 * island never gets nearer, and the search ends with "no route" although one
 * exists. Measured by water it does.
 *
 * The water distance is a shortest path from the end over a grid of the
 * area (Dijkstra, 16 neighbours: at most 2.75 % longer than the straight
 * line in open water), cells whose centre is land or within the land's
 * margin closed, a knight's move only where both cells it passes are open.
 * What the search is given is the great-circle distance plus the detour the
 * grid sees beyond its own error: max(0, water - 1.03 * great circle) at the
 * nearest open cell. In open water that is the great circle itself, so
 * routes away from land are the same as without it. */
#include "route_priv.h"
#include "seawx/error.h"
#include "seawx/land.h"
#include "seawx/route_inputs.h"
#include "seawx/sphere.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#define WATER_MAX_CELLS 1500000
#define WATER_METRIC_ERR 1.03
#define NM_PER_DEG 60.0

struct swx_routing_water {
    double south, west, cell; /* west unwrapped: longitudes from west to west + ni * cell */
    long ni, nj;
    double to_lat, to_lon;
    float *excess; /* per cell, nm; NAN closed or not reached */
};

typedef struct hnode {
    float d;
    uint32_t i;
} hnode;

typedef struct heap {
    hnode *a;
    size_t n, cap;
} heap;

static int heap_push(heap *h, float d, uint32_t i)
{
    if (h->n == h->cap) {
        size_t cap = h->cap ? h->cap * 2 : 4096;
        hnode *a = realloc(h->a, cap * sizeof *a);
        if (!a)
            return -1;
        h->a = a;
        h->cap = cap;
    }
    size_t k = h->n++;
    while (k > 0 && h->a[(k - 1) / 2].d > d) {
        h->a[k] = h->a[(k - 1) / 2];
        k = (k - 1) / 2;
    }
    h->a[k] = (hnode){d, i};
    return 0;
}

static hnode heap_pop(heap *h)
{
    hnode top = h->a[0], last = h->a[--h->n];
    size_t k = 0;
    for (;;) {
        size_t c = 2 * k + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && h->a[c + 1].d < h->a[c].d)
            c++;
        if (h->a[c].d >= last.d)
            break;
        h->a[k] = h->a[c];
        k = c;
    }
    if (h->n)
        h->a[k] = last;
    return top;
}

static const int MOVES[16][2] = {{1, 0},  {-1, 0},  {0, 1},   {0, -1}, {1, 1},  {1, -1},
                                 {-1, 1}, {-1, -1}, {1, 2},   {2, 1},  {-1, 2}, {-2, 1},
                                 {1, -2}, {2, -1},  {-1, -2}, {-2, -1}};

/* Dijkstra from the open cells round the end over the open cells. */
static int spread(swx_routing_water *w, const uint8_t *open, float *dist)
{
    heap h = {0};
    long ei = (long)floor((w->to_lon - w->west) / w->cell);
    long ej = (long)floor((w->to_lat - w->south) / w->cell);
    int rc = 0;
    for (long j = ej - 1; j <= ej + 1; j++)
        for (long i = ei - 1; i <= ei + 1; i++) {
            if (i < 0 || j < 0 || i >= w->ni || j >= w->nj || !open[j * w->ni + i])
                continue;
            double lat = w->south + ((double)j + 0.5) * w->cell;
            double lon = w->west + ((double)i + 0.5) * w->cell;
            float d = (float)swx__route_dist(lat, lon, w->to_lat, w->to_lon);
            dist[j * w->ni + i] = d;
            if (heap_push(&h, d, (uint32_t)(j * w->ni + i)))
                rc = -1;
        }
    while (!rc && h.n) {
        hnode top = heap_pop(&h);
        if (top.d > dist[top.i])
            continue;
        long i = (long)top.i % w->ni, j = (long)top.i / w->ni;
        double coslat = cos((w->south + ((double)j + 0.5) * w->cell) * M_PI / 180);
        for (int m = 0; m < 16; m++) {
            long di = MOVES[m][0], dj = MOVES[m][1], i2 = i + di, j2 = j + dj;
            if (i2 < 0 || j2 < 0 || i2 >= w->ni || j2 >= w->nj || !open[j2 * w->ni + i2])
                continue;
            if (labs(di) + labs(dj) == 3 &&
                (!open[(j + dj / 2) * w->ni + i + di / 2] ||
                 !open[(j + (dj - dj / 2)) * w->ni + i + (di - di / 2)]))
                continue; /* a knight's move only past open cells */
            if (labs(di) + labs(dj) == 2 && (!open[j * w->ni + i2] || !open[j2 * w->ni + i]))
                continue;
            float d =
                top.d + (float)(w->cell * NM_PER_DEG * hypot((double)di * coslat, (double)dj));
            size_t k = (size_t)(j2 * w->ni + i2);
            if (d < dist[k]) {
                dist[k] = d;
                if (heap_push(&h, d, (uint32_t)k))
                    rc = -1;
            }
        }
    }
    free(h.a);
    return rc ? swx_error_set(SWX_ENOMEM, "out of memory") : 0;
}

int swx_routing_water_new(swx_routing_water **out, const swx_land *land, double to_lat,
                          double to_lon, double south, double west, double north, double east)
{
    *out = NULL;
    double width = fmod(east - west + 720.0, 360.0);
    if (width == 0)
        width = 360;
    double height = north - south;
    if (!(height > 0))
        return swx_error_set(SWX_EINVAL, "the route's area has no height");
    swx_routing_water *w = calloc(1, sizeof *w);
    if (!w)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    w->cell = fmax(1.0 / 60.0, sqrt(width * height / WATER_MAX_CELLS));
    w->ni = (long)ceil(width / w->cell);
    w->nj = (long)ceil(height / w->cell);
    w->south = south;
    w->west = west;
    w->to_lat = to_lat;
    w->to_lon = west + fmod(to_lon - west + 720.0, 360.0);
    size_t n = (size_t)(w->ni * w->nj);
    uint8_t *open = malloc(n);
    float *dist = malloc(n * sizeof *dist);
    w->excess = malloc(n * sizeof *w->excess);
    int rc = 0;
    if (!open || !dist || !w->excess) {
        rc = swx_error_set(SWX_ENOMEM, "out of memory");
        goto done;
    }
    for (long j = 0; j < w->nj; j++)
        for (long i = 0; i < w->ni; i++) {
            double lat = south + ((double)j + 0.5) * w->cell,
                   lon = west + ((double)i + 0.5) * w->cell;
            open[j * w->ni + i] = !swx_land_at(land, lat, lon > 180 ? lon - 360 : lon);
            dist[j * w->ni + i] = INFINITY;
        }
    if ((rc = spread(w, open, dist)))
        goto done;
    for (long j = 0; j < w->nj; j++)
        for (long i = 0; i < w->ni; i++) {
            size_t k = (size_t)(j * w->ni + i);
            double lat = south + ((double)j + 0.5) * w->cell,
                   lon = west + ((double)i + 0.5) * w->cell;
            w->excess[k] =
                isinf(dist[k])
                    ? NAN
                    : (float)fmax(0, dist[k] - WATER_METRIC_ERR *
                                                   swx__route_dist(lat, lon, w->to_lat, w->to_lon));
        }
done:
    free(open);
    free(dist);
    if (rc) {
        swx_routing_water_free(w);
        return rc;
    }
    *out = w;
    return 0;
}

void swx_routing_water_free(swx_routing_water *w)
{
    if (!w)
        return;
    free(w->excess);
    free(w);
}

double swx_routing_water_to_end(void *ctx, double lat, double lon)
{
    const swx_routing_water *w = ctx;
    double x = w->west + fmod(lon - w->west + 720.0, 360.0);
    double gc = swx__route_dist(lat, lon, w->to_lat, w->to_lon);
    long i = (long)floor((x - w->west) / w->cell), j = (long)floor((lat - w->south) / w->cell);
    double best = NAN;
    /* the cell, else the nearest open one round it (a point by the shore) */
    for (int r = 0; r <= 2 && isnan(best); r++)
        for (long jj = j - r; jj <= j + r; jj++)
            for (long ii = i - r; ii <= i + r; ii++) {
                if (ii < 0 || jj < 0 || ii >= w->ni || jj >= w->nj)
                    continue;
                double e = w->excess[jj * w->ni + ii];
                if (!isnan(e) && (isnan(best) || e < best))
                    best = e;
            }
    /* not reached from the end (behind land the grid sees closed): far */
    return isnan(best) ? 2 * gc + 1 : gc + best;
}
