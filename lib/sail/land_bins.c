/*
 * land_bins.c: one GSHHG bin's segments turned into closed land polygons.
 *
 * A bin's boundary is walked as one line of positions t = side * 65536 +
 * position along the side, counter-clockwise from the south-west corner.
 * Sorted by t, the points where open segments meet the boundary cut it into
 * stretches of one level each: a stretch's level differs from the next one's
 * (each meeting point is a shoreline crossing), and a corner that no segment
 * touches gives the level of its stretch. Every meeting point has one
 * segment and one stretch of land beside it, so following segment, land
 * stretch (with the corners it passes), segment, ... closes each land
 * polygon of the bin. Closed segments are islands; a bin no segment crosses
 * is all land or all sea by its corners.
 */
#include "land_bins.h"

#include "seawx/error.h"

#include <stdlib.h>
#include <string.h>

#define SIDE_LEN 65536L
#define PERIM (4 * SIDE_LEN)
#define GSHHG_DEN 3932100.0 /* 60 minutes * 65535 steps */

typedef struct endpt {
    long t;
    int seg;      /* index into the open segments */
    int is_start; /* 1: where the segment enters, 0: where it leaves */
} endpt;

typedef struct bin_ctx {
    const swx__gshhg_bin *b;
    swx__land_rings *r;
    int64_t lon0, lat0; /* south-west corner, in minutes * 65535 */
    int *open;          /* indexes of the kept open segments */
    int nopen;
    endpt *e;     /* 2 * nopen, sorted by t */
    int *pos;     /* index in e of open segment k's start (2k) and end (2k + 1) */
    char *landed; /* per stretch i (from e[i] to e[i+1]): 1 land */
} bin_ctx;

static unsigned seg_npts(int32_t info)
{
    return (uint32_t)info >> 9;
}

static int seg_level(int32_t info)
{
    return (info >> 6) & 7;
}

static int seg_entry(int32_t info)
{
    return (info >> 3) & 7;
}

static int seg_exit(int32_t info)
{
    return info & 7;
}

static int corner_land(const swx__gshhg_bin *b, int k)
{
    return ((b->node_info >> (9 - 3 * k)) & 7) != 0;
}

static int grow(swx__land_rings *r, size_t more)
{
    if (r->npts + more > SWX__LAND_MAX_POINTS)
        return swx_error_set(SWX_ETOOBIG,
                             "the area holds more than %u coastline points: choose a smaller "
                             "area or a lower resolution",
                             SWX__LAND_MAX_POINTS);
    if (r->npts + more <= r->cap)
        return 0;
    size_t cap = r->cap ? r->cap : 4096;
    while (cap < r->npts + more)
        cap *= 2;
    double *xy = realloc(r->xy, cap * 2 * sizeof *xy);
    if (!xy)
        return swx_error_set(SWX_ENOMEM, "out of memory for the coastline");
    r->xy = xy;
    unsigned char *c = realloc(r->coast, cap);
    if (!c)
        return swx_error_set(SWX_ENOMEM, "out of memory for the coastline");
    r->coast = c;
    r->cap = cap;
    return 0;
}

/* Adds a point (u, v in bin steps); coast: the edge that starts here. A
 * point equal to the ring's last one only passes its flag on. */
static void push(bin_ctx *c, size_t ring0, unsigned u, unsigned v, int coast)
{
    swx__land_rings *r = c->r;
    double x = (double)(c->lon0 + (int64_t)u * c->b->bin_size) / GSHHG_DEN;
    double y = (double)(c->lat0 + (int64_t)v * c->b->bin_size) / GSHHG_DEN;
    if (r->npts > ring0 && r->xy[2 * r->npts - 2] == x && r->xy[2 * r->npts - 1] == y) {
        r->coast[r->npts - 1] = (unsigned char)coast;
        return;
    }
    r->xy[2 * r->npts] = x;
    r->xy[2 * r->npts + 1] = y;
    r->coast[r->npts++] = (unsigned char)coast;
}

/* Closes the ring begun at ring0 (first point repeated) and records it. */
static int ring_end(bin_ctx *c, size_t ring0)
{
    swx__land_rings *r = c->r;
    size_t n = r->npts - ring0;
    if (n > 1 && r->xy[2 * ring0] == r->xy[2 * r->npts - 2] &&
        r->xy[2 * ring0 + 1] == r->xy[2 * r->npts - 1])
        n--;
    if (n < 3) { /* a sliver that encloses nothing */
        r->npts = ring0;
        return 0;
    }
    int rc = grow(r, 1);
    if (rc)
        return rc;
    if (r->xy[2 * ring0] != r->xy[2 * r->npts - 2] ||
        r->xy[2 * ring0 + 1] != r->xy[2 * r->npts - 1]) {
        r->xy[2 * r->npts] = r->xy[2 * ring0];
        r->xy[2 * r->npts + 1] = r->xy[2 * ring0 + 1];
        r->coast[r->npts++] = 0;
    } else {
        r->coast[r->npts - 1] = 0;
    }
    if (r->nrings + 2 > r->rcap) {
        size_t cap = r->rcap ? 2 * r->rcap : 1024;
        size_t *s = realloc(r->start, cap * sizeof *s);
        if (!s)
            return swx_error_set(SWX_ENOMEM, "out of memory for the coastline");
        r->start = s;
        r->rcap = cap;
    }
    r->start[r->nrings++] = ring0;
    r->start[r->nrings] = r->npts;
    return 0;
}

static const unsigned corner_u[4] = {0, SWX__GSHHG_MAX_DELTA, SWX__GSHHG_MAX_DELTA, 0};
static const unsigned corner_v[4] = {0, 0, SWX__GSHHG_MAX_DELTA, SWX__GSHHG_MAX_DELTA};

static long side_pos(int side, unsigned u, unsigned v)
{
    switch (side) {
    case 0:
        return u;
    case 1:
        return v;
    case 2:
        return SWX__GSHHG_MAX_DELTA - (long)u;
    default:
        return SWX__GSHHG_MAX_DELTA - (long)v;
    }
}

static int on_side(int side, unsigned u, unsigned v)
{
    switch (side) {
    case 0:
        return v == 0;
    case 1:
        return u == SWX__GSHHG_MAX_DELTA;
    case 2:
        return v == SWX__GSHHG_MAX_DELTA;
    default:
        return u == 0;
    }
}

static int endpt_cmp(const void *pa, const void *pb)
{
    const endpt *a = pa, *b = pb;
    if (a->t != b->t)
        return a->t < b->t ? -1 : 1;
    if (a->seg != b->seg)
        return a->seg < b->seg ? -1 : 1;
    return a->is_start - b->is_start;
}

static long floor_div(long a, long b)
{
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/* Checks every segment and collects the kept open ones' ends. */
static int collect(bin_ctx *c)
{
    const swx__gshhg_bin *b = c->b;
    for (int i = 0; i < b->nseg; i++) {
        int32_t info = b->seg_info[i];
        unsigned n = seg_npts(info);
        int entry = seg_entry(info), exit_ = seg_exit(info), level = seg_level(info);
        if (entry > 4 || exit_ > 4 || (entry == 4) != (exit_ == 4) || n < 2 ||
            b->seg_start[i] < 0 || (size_t)b->seg_start[i] + n > b->npts)
            return swx_error_set(SWX_EPARSE,
                                 "not a GSHHG binned coastline: bin %d has a bad "
                                 "segment",
                                 b->index);
        if (level != 1 && level != 5)
            continue;
        if (entry == 4)
            continue;
        size_t s0 = (size_t)b->seg_start[i], s1 = s0 + n - 1;
        unsigned u0 = (uint16_t)b->dx[s0], v0 = (uint16_t)b->dy[s0];
        unsigned u1 = (uint16_t)b->dx[s1], v1 = (uint16_t)b->dy[s1];
        if (!on_side(entry, u0, v0) || !on_side(exit_, u1, v1))
            return swx_error_set(SWX_EPARSE,
                                 "not a GSHHG binned coastline: in bin %d a "
                                 "segment ends off the bin's edge",
                                 b->index);
        int k = c->nopen++;
        c->open[k] = i;
        c->e[2 * k] = (endpt){entry * SIDE_LEN + side_pos(entry, u0, v0), k, 1};
        c->e[2 * k + 1] = (endpt){exit_ * SIDE_LEN + side_pos(exit_, u1, v1), k, 0};
    }
    return 0;
}

/* The level of each stretch, from a corner no segment touches. */
static void stretch_levels(bin_ctx *c)
{
    int m = 2 * c->nopen, k = 0;
    for (; k < 4; k++) {
        long tc = k * SIDE_LEN, tp = (tc + PERIM - 1) % PERIM;
        int touched = 0;
        for (int i = 0; i < m && !touched; i++)
            touched = c->e[i].t == tc || c->e[i].t == tp;
        if (!touched)
            break;
    }
    if (k == 4)
        k = 0;
    long tc = k * SIDE_LEN;
    int j = 0;
    while (j < m && c->e[j].t <= tc)
        j++;
    int i0 = (j + m - 1) % m; /* the stretch holding the corner */
    char land = (char)corner_land(c->b, k);
    for (int n = 0; n < m; n++) {
        c->landed[(i0 + n) % m] = land;
        land = (char)!land;
    }
}

static void push_seg(bin_ctx *c, size_t ring0, int k, int forward)
{
    const swx__gshhg_bin *b = c->b;
    int i = c->open[k];
    size_t s0 = (size_t)b->seg_start[i];
    unsigned n = seg_npts(b->seg_info[i]);
    for (unsigned j = 0; j < n; j++) {
        size_t p = forward ? s0 + j : s0 + n - 1 - j;
        push(c, ring0, (uint16_t)b->dx[p], (uint16_t)b->dy[p], j + 1 < n);
    }
}

/* The corners passed from e[a] to e[nb] along the boundary. */
static void push_corners(bin_ctx *c, size_t ring0, int a, int nb, int forward)
{
    long ta = c->e[a].t, tb = c->e[nb].t;
    if (forward) {
        if (nb <= a)
            tb += PERIM;
        for (long k = floor_div(ta + SIDE_LEN - 1, SIDE_LEN); k * SIDE_LEN <= tb; k++)
            push(c, ring0, corner_u[k & 3], corner_v[k & 3], 0);
    } else {
        if (nb >= a)
            tb -= PERIM;
        for (long k = floor_div(ta, SIDE_LEN); k * SIDE_LEN >= tb; k--)
            push(c, ring0, corner_u[k & 3], corner_v[k & 3], 0);
    }
}

static int bad_bin(const bin_ctx *c)
{
    return swx_error_set(SWX_EPARSE,
                         "not a GSHHG binned coastline: bin %d's segments do not "
                         "close",
                         c->b->index);
}

/* Follows segment, land stretch, segment ... from open segment k0. */
static int trace(bin_ctx *c, char *visited, int k0)
{
    int m = 2 * c->nopen, k = k0, forward = 1, rc;
    size_t ring0 = c->r->npts;
    for (int steps = 0;; steps++) {
        if (steps > c->nopen)
            return bad_bin(c);
        unsigned n = seg_npts(c->b->seg_info[c->open[k]]);
        if ((rc = grow(c->r, n + 6)))
            return rc;
        visited[k] = 1;
        push_seg(c, ring0, k, forward);
        int a = c->pos[2 * k + (forward ? 1 : 0)], nb; /* where the segment arrives */
        if (c->landed[a]) {
            nb = (a + 1) % m;
            push_corners(c, ring0, a, nb, 1);
        } else {
            nb = (a + m - 1) % m;
            push_corners(c, ring0, a, nb, 0);
        }
        int next = c->e[nb].seg, fwd = c->e[nb].is_start;
        if (next == k0) {
            if (!fwd)
                return bad_bin(c);
            return ring_end(c, ring0);
        }
        if (visited[next])
            return bad_bin(c);
        k = next;
        forward = fwd;
    }
}

static int closed_rings(bin_ctx *c)
{
    const swx__gshhg_bin *b = c->b;
    int rc;
    for (int i = 0; i < b->nseg; i++) {
        int32_t info = b->seg_info[i];
        int level = seg_level(info);
        if (seg_entry(info) != 4 || (level != 1 && level != 5))
            continue;
        unsigned n = seg_npts(info);
        if ((rc = grow(c->r, n + 1)))
            return rc;
        size_t ring0 = c->r->npts, s0 = (size_t)b->seg_start[i];
        for (unsigned j = 0; j < n; j++)
            push(c, ring0, (uint16_t)b->dx[s0 + j], (uint16_t)b->dy[s0 + j], 1);
        if ((rc = ring_end(c, ring0)))
            return rc;
    }
    return 0;
}

static int open_rings(bin_ctx *c)
{
    int rc;
    if (c->nopen == 0) {
        if (!corner_land(c->b, 0))
            return 0;
        if ((rc = grow(c->r, 5)))
            return rc;
        size_t ring0 = c->r->npts;
        for (int k = 0; k < 4; k++)
            push(c, ring0, corner_u[k], corner_v[k], 0);
        return ring_end(c, ring0);
    }
    int m = 2 * c->nopen;
    qsort(c->e, (size_t)m, sizeof *c->e, endpt_cmp);
    for (int i = 0; i < m; i++)
        c->pos[2 * c->e[i].seg + (c->e[i].is_start ? 0 : 1)] = i;
    stretch_levels(c);
    char *visited = calloc(c->nopen > 0 ? (size_t)c->nopen : 1, 1);
    if (!visited)
        return swx_error_set(SWX_ENOMEM, "out of memory for the coastline");
    rc = 0;
    for (int k = 0; k < c->nopen && !rc; k++)
        if (!visited[k])
            rc = trace(c, visited, k);
    free(visited);
    return rc;
}

int swx__land_bin_rings(swx__land_rings *r, const swx__gshhg_bin *b, int shift_deg)
{
    bin_ctx c = {.b = b, .r = r};
    int rc = 0;
    if (b->bin_size <= 0 || 10800 % b->bin_size || b->nseg < 0 || b->index < 0 ||
        b->index >= (21600 / b->bin_size) * (10800 / b->bin_size) || shift_deg % 360)
        return swx_error_set(SWX_EPARSE, "not a GSHHG binned coastline: bad bin %d", b->index);
    int nx = 21600 / b->bin_size, row = b->index / nx, col = b->index % nx;
    c.lon0 = ((int64_t)col * b->bin_size + (int64_t)shift_deg * 60) * SWX__GSHHG_MAX_DELTA;
    c.lat0 = (5400 - (int64_t)(row + 1) * b->bin_size) * SWX__GSHHG_MAX_DELTA;
    size_t ns = b->nseg > 0 ? (size_t)b->nseg : 1;
    c.open = malloc(ns * sizeof *c.open);
    c.e = malloc(2 * ns * sizeof *c.e);
    c.pos = malloc(2 * ns * sizeof *c.pos);
    c.landed = malloc(2 * ns);
    if (!c.open || !c.e || !c.pos || !c.landed) {
        rc = swx_error_set(SWX_ENOMEM, "out of memory for the coastline");
        goto done;
    }
    size_t npts0 = r->npts, nrings0 = r->nrings;
    if ((rc = collect(&c)) || (rc = open_rings(&c)) || (rc = closed_rings(&c))) {
        r->npts = npts0; /* nothing of a refused bin stays */
        r->nrings = nrings0;
        if (r->start)
            r->start[r->nrings] = r->npts;
    }
done:
    free(c.open);
    free(c.e);
    free(c.pos);
    free(c.landed);
    return rc;
}

void swx__land_rings_free(swx__land_rings *r)
{
    if (!r)
        return;
    free(r->xy);
    free(r->coast);
    free(r->start);
    memset(r, 0, sizeof *r);
}
