/* convex_union.c: the union of many convex polygons in a plane, the step that
 * merges the link hulls of a cone, a danger area or a wind swath (see
 * plane_merge.c).
 *
 * Why not GEOS here: in bench/storms/danger.sh, GEOSUnaryUnion of the link
 * hulls took 74 % of all instructions (about 230,000 a hull: noding, the
 * overlay graph, allocation), which left seawx 5.6 times faster than Python
 * on the same engine and eight times over its 2 s target; see
 * bench/storms/last-run.md for the figures before and after this file. The
 * hulls are convex and each overlaps only a few others, which allows a far
 * simpler method:
 *
 *   every edge of every polygon, less the parts inside another polygon (a
 *   convex polygon covers one interval of a segment: Cyrus-Beck clipping), is
 *   a piece of the union's boundary, with the union on its left; the pieces,
 *   chained end to start, are the union's rings.
 *
 * Edges that lie on one line (the hulls of two links share vertices of the
 * shape between them): when both polygons are on the same side, the copy of
 * the lower index is kept; on opposite sides, neither. Where the pieces do not
 * chain up one to one (two parts of the union touching at a single point, or
 * numbers too close to call) the union fails with 1 and the caller merges
 * with GEOS instead, so a doubt costs time, never a wrong polygon.
 * Cost: O(E k) for E edges that each meet k other polygons' boxes. */
#include "convex_union.h"

#include "buf.h"
#include "seawx/error.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Plane units are those of the gnomonic plane (radians near the centre). */
#define ON_LINE 1e-11   /* a point this close to a line is on it (0.06 mm) */
#define MIN_PIECE 1e-10 /* shorter pieces of boundary are dropped */
#define MATCH 1e-8      /* a piece's end and the next one's start: this close */

struct piece {
    double s[2], e[2];
    size_t next;
    int state; /* 0 free, 1 taken into a ring */
    int pinch; /* starts where the union touches itself */
};

struct start_key {
    double x;
    size_t i;
};

struct swx_cu {
    double *v; /* vertices, pairs */
    size_t nv, cv;
    size_t *off; /* polygon i: vertices off[i] .. off[i + 1] - 1 */
    size_t np, coff;
    double *edge; /* per vertex: inward unit normal and offset of the edge from it */
    size_t cedge;
    double *box; /* per polygon: minx, miny, maxx, maxy */
    size_t cbox;
    size_t *adj, *adj_off; /* polygons whose boxes meet, as lists */
    size_t cadj, cadj_off;
    size_t *hint; /* per entry of adj: the edge of that polygon to try first */
    size_t chint;
    size_t *pairs;
    size_t npairs, cpairs;
    size_t *order;
    size_t corder;
    double *iv; /* intervals of one edge */
    size_t civ;
    struct piece *pc;
    size_t npc, cpc;
    struct start_key *keys, *ktmp;
    size_t ckeys, cktmp;
    /* rings traced, then the output */
    double *rxy;
    size_t nrxy, crxy;
    size_t *rlen;
    size_t nr, crlen;
    double *rarea;
    size_t crarea;
    double *cur; /* the ring being traced */
    size_t ccur;
    size_t *pin; /* where in it pieces start at a point the union touches itself */
    size_t cpin;
    double *oxy;
    size_t coxy;
    size_t *olen, *opoly;
    size_t colen, copoly;
    size_t *parent;
    size_t cparent;
};

static int grow(void **p, size_t *cap, size_t n, size_t elem)
{
    void *q = swx_array_reserve(*p, cap, n, elem, 64);
    if (!q)
        return SWX_ENOMEM;
    *p = q;
    return 0;
}

int swx_cu_new(swx_cu **out)
{
    *out = calloc(1, sizeof **out);
    return *out ? 0 : swx_error_set(SWX_ENOMEM, "out of memory");
}

void swx_cu_free(swx_cu *u)
{
    if (!u)
        return;
    free(u->v);
    free(u->off);
    free(u->edge);
    free(u->box);
    free(u->adj);
    free(u->adj_off);
    free(u->hint);
    free(u->pairs);
    free(u->order);
    free(u->iv);
    free(u->pc);
    free(u->keys);
    free(u->ktmp);
    free(u->rxy);
    free(u->rlen);
    free(u->rarea);
    free(u->cur);
    free(u->pin);
    free(u->oxy);
    free(u->olen);
    free(u->opoly);
    free(u->parent);
    free(u);
}

void swx_cu_reset(swx_cu *u)
{
    u->nv = u->np = 0;
}

int swx_cu_add(swx_cu *u, const double *xy, size_t n)
{
    if (n < 3)
        return 0;
    int rc = grow((void **)&u->v, &u->cv, u->nv + n, 2 * sizeof(double));
    if (!rc)
        rc = grow((void **)&u->off, &u->coff, u->np + 2, sizeof(size_t));
    if (rc)
        return rc;
    memcpy(u->v + 2 * u->nv, xy, n * 2 * sizeof(double));
    u->off[u->np] = u->nv;
    u->nv += n;
    u->np++;
    u->off[u->np] = u->nv;
    return 0;
}

/* Sorts keys by x (merge sort, inline comparisons). */
static void sort_keys(struct start_key *k, struct start_key *tmp, size_t n)
{
    struct start_key *src = k, *dst = tmp;
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n;
            size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t i = lo, j = mid, o = lo;
            while (i < mid && j < hi)
                dst[o++] = src[j].x < src[i].x ? src[j++] : src[i++];
            while (i < mid)
                dst[o++] = src[i++];
            while (j < hi)
                dst[o++] = src[j++];
        }
        struct start_key *t = src;
        src = dst;
        dst = t;
    }
    if (src != k)
        memcpy(k, src, n * sizeof *k);
}

/* ---- edges, boxes and the polygons whose boxes meet ---- */

static int prepare(swx_cu *u)
{
    int rc = grow((void **)&u->edge, &u->cedge, u->nv, 3 * sizeof(double));
    if (!rc)
        rc = grow((void **)&u->box, &u->cbox, u->np, 4 * sizeof(double));
    if (!rc)
        rc = grow((void **)&u->order, &u->corder, u->np, sizeof(size_t));
    if (rc)
        return rc;
    for (size_t i = 0; i < u->np; i++) {
        size_t o = u->off[i], n = u->off[i + 1] - o;
        double *b = u->box + 4 * i;
        b[0] = b[2] = u->v[2 * o];
        b[1] = b[3] = u->v[2 * o + 1];
        for (size_t k = 0; k < n; k++) {
            const double *p = u->v + 2 * (o + k), *q = u->v + 2 * (o + (k + 1) % n);
            double dx = q[0] - p[0], dy = q[1] - p[1], len = sqrt(dx * dx + dy * dy);
            double *e = u->edge + 3 * (o + k);
            if (len == 0)
                len = 1;
            e[0] = -dy / len;
            e[1] = dx / len;
            e[2] = -(e[0] * p[0] + e[1] * p[1]);
            b[0] = p[0] < b[0] ? p[0] : b[0];
            b[1] = p[1] < b[1] ? p[1] : b[1];
            b[2] = p[0] > b[2] ? p[0] : b[2];
            b[3] = p[1] > b[3] ? p[1] : b[3];
        }
        u->order[i] = i;
    }
    /* Polygons by the left of their box, then a sweep for the pairs. */
    if ((rc = grow((void **)&u->keys, &u->ckeys, u->np, sizeof *u->keys)) ||
        (rc = grow((void **)&u->ktmp, &u->cktmp, u->np, sizeof *u->ktmp)))
        return rc;
    for (size_t i = 0; i < u->np; i++) {
        u->keys[i].x = u->box[4 * i];
        u->keys[i].i = i;
    }
    sort_keys(u->keys, u->ktmp, u->np);
    for (size_t i = 0; i < u->np; i++)
        u->order[i] = u->keys[i].i;
    u->npairs = 0;
    for (size_t a = 0; a < u->np; a++) {
        const double *ba = u->box + 4 * u->order[a];
        for (size_t b = a + 1; b < u->np; b++) {
            const double *bb = u->box + 4 * u->order[b];
            if (bb[0] > ba[2] + MATCH)
                break;
            if (bb[1] > ba[3] + MATCH || bb[3] < ba[1] - MATCH)
                continue;
            if ((rc = grow((void **)&u->pairs, &u->cpairs, u->npairs + 1, 2 * sizeof(size_t))))
                return rc;
            u->pairs[2 * u->npairs] = u->order[a];
            u->pairs[2 * u->npairs + 1] = u->order[b];
            u->npairs++;
        }
    }
    if ((rc = grow((void **)&u->adj_off, &u->cadj_off, u->np + 1, sizeof(size_t))) ||
        (rc = grow((void **)&u->adj, &u->cadj, 2 * u->npairs + 1, sizeof(size_t))) ||
        (rc = grow((void **)&u->hint, &u->chint, 2 * u->npairs + 1, sizeof(size_t))))
        return rc;
    memset(u->hint, 0, 2 * u->npairs * sizeof(size_t));
    memset(u->adj_off, 0, (u->np + 1) * sizeof(size_t));
    for (size_t k = 0; k < 2 * u->npairs; k++)
        u->adj_off[u->pairs[k] + 1]++;
    for (size_t i = 0; i < u->np; i++)
        u->adj_off[i + 1] += u->adj_off[i];
    for (size_t i = 0; i < u->np; i++)
        u->order[i] = u->adj_off[i]; /* fill positions */
    for (size_t k = 0; k < u->npairs; k++) {
        size_t a = u->pairs[2 * k], b = u->pairs[2 * k + 1];
        u->adj[u->order[a]++] = b;
        u->adj[u->order[b]++] = a;
    }
    return 0;
}

/* ---- pieces of the boundary ---- */

/* Cuts [*l, *h] of the edge a -> b (of polygon i) by the half-plane of
 * edge e of polygon j; 1 when that leaves it empty. */
static inline int cut(const double *e, size_t i, size_t j, const double *a, const double *b,
                      double *l, double *h)
{
    double da = e[0] * a[0] + e[1] * a[1] + e[2];
    double db = e[0] * b[0] + e[1] * b[1] + e[2];
    if (da > ON_LINE && db > ON_LINE)
        return 0; /* inside: the common case first */
    if (fabs(da) <= ON_LINE && fabs(db) <= ON_LINE) {
        /* On the line of j's edge, whose direction is (e[1], -e[0]):
         * the same way round, only the lower index's copy stays. */
        double dot = (b[0] - a[0]) * e[1] - (b[1] - a[1]) * e[0];
        if (dot > 0 && j > i) {
            *h = 0;
            return 1;
        }
        return 0;
    }
    if (da >= -ON_LINE && db >= -ON_LINE)
        return 0;
    if (da < -ON_LINE && db < -ON_LINE) {
        *h = 0;
        return 1;
    }
    double t = da / (da - db);
    if (da < db)
        *l = t > *l ? t : *l;
    else
        *h = t < *h ? t : *h;
    return *l >= *h;
}

/* The interval [*lo, *hi] of the edge a -> b (of polygon i) inside polygon
 * j; empty when *lo >= *hi. The edges of j are tried from *hint on, and
 * *hint left at the one that emptied the interval: the next edge of i is
 * most often cut away by the same one. */
static void clip(const swx_cu *u, size_t i, size_t j, const double *a, const double *b, double *lo,
                 double *hi, size_t *hint)
{
    size_t o = u->off[j], n = u->off[j + 1] - o, k0 = *hint < n ? *hint : 0;
    const double *edges = u->edge + 3 * o;
    double l = 0, h = 1;
    *lo = 0;
    *hi = 1;
    for (size_t k = k0; k < n; k++)
        if (cut(edges + 3 * k, i, j, a, b, &l, &h)) {
            *hint = k;
            *lo = l;
            *hi = h;
            return;
        }
    for (size_t k = 0; k < k0; k++)
        if (cut(edges + 3 * k, i, j, a, b, &l, &h)) {
            *hint = k;
            *lo = l;
            *hi = h;
            return;
        }
    *lo = l;
    *hi = h;
}

static int add_piece(swx_cu *u, const double *a, const double *b, double t0, double t1)
{
    int rc = grow((void **)&u->pc, &u->cpc, u->npc + 1, sizeof *u->pc);
    if (rc)
        return rc;
    struct piece *p = &u->pc[u->npc++];
    for (int k = 0; k < 2; k++) {
        p->s[k] = t0 == 0 ? a[k] : a[k] + (b[k] - a[k]) * t0;
        p->e[k] = t1 == 1 ? b[k] : a[k] + (b[k] - a[k]) * t1;
    }
    p->next = SIZE_MAX;
    p->state = p->pinch = 0;
    return 0;
}

static int edge_pieces(swx_cu *u, size_t i, const double *a, const double *b)
{
    double dx = b[0] - a[0], dy = b[1] - a[1], len = sqrt(dx * dx + dy * dy);
    if (len < MIN_PIECE)
        return 0;
    double ex0 = a[0] < b[0] ? a[0] : b[0], ex1 = a[0] < b[0] ? b[0] : a[0];
    double ey0 = a[1] < b[1] ? a[1] : b[1], ey1 = a[1] < b[1] ? b[1] : a[1];
    size_t niv = 0, k0 = u->adj_off[i], k1 = u->adj_off[i + 1];
    for (size_t k = k0; k < k1; k++) {
        size_t j = u->adj[k];
        const double *bj = u->box + 4 * j;
        if (bj[0] > ex1 + ON_LINE || bj[2] < ex0 - ON_LINE || bj[1] > ey1 + ON_LINE ||
            bj[3] < ey0 - ON_LINE)
            continue;
        double lo, hi;
        clip(u, i, j, a, b, &lo, &hi, &u->hint[k]);
        if ((hi - lo) * len < MIN_PIECE)
            continue;
        if (lo <= 0 && hi >= 1) {
            /* all of it inside j: j first for the next edge */
            if (k > k0) {
                size_t tj = u->adj[k], th = u->hint[k];
                memmove(u->adj + k0 + 1, u->adj + k0, (k - k0) * sizeof(size_t));
                memmove(u->hint + k0 + 1, u->hint + k0, (k - k0) * sizeof(size_t));
                u->adj[k0] = tj;
                u->hint[k0] = th;
            }
            return 0;
        }
        int rc = grow((void **)&u->iv, &u->civ, niv + 1, 2 * sizeof(double));
        if (rc)
            return rc;
        /* kept sorted by start: few intervals, insertion */
        size_t at = niv++;
        while (at > 0 && u->iv[2 * (at - 1)] > lo) {
            u->iv[2 * at] = u->iv[2 * (at - 1)];
            u->iv[2 * at + 1] = u->iv[2 * (at - 1) + 1];
            at--;
        }
        u->iv[2 * at] = lo;
        u->iv[2 * at + 1] = hi;
    }
    double t = 0;
    for (size_t k = 0; k < niv; k++) {
        double lo = u->iv[2 * k], hi = u->iv[2 * k + 1];
        if (lo > t && (lo - t) * len >= MIN_PIECE) {
            int rc = add_piece(u, a, b, t, lo);
            if (rc)
                return rc;
        }
        if (hi > t)
            t = hi;
    }
    if (t < 1 && (1 - t) * len >= MIN_PIECE)
        return add_piece(u, a, b, t, 1);
    return 0;
}

/* ---- chaining the pieces into rings ---- */

/* The angle (radians, left positive) from the direction of piece a to that
 * of piece b. */
static double turn_to(const struct piece *a, const struct piece *b)
{
    double ix = a->e[0] - a->s[0], iy = a->e[1] - a->s[1];
    double ox = b->e[0] - b->s[0], oy = b->e[1] - b->s[1];
    return atan2(ix * oy - iy * ox, ix * ox + iy * oy);
}

/* Links each piece to the one whose start is at its end; 1 when one has
 * none. */
static int link_pieces(swx_cu *u)
{
    size_t n = u->npc;
    int rc = grow((void **)&u->keys, &u->ckeys, n, sizeof *u->keys);
    if (!rc)
        rc = grow((void **)&u->ktmp, &u->cktmp, n, sizeof *u->ktmp);
    if (rc)
        return rc;
    for (size_t i = 0; i < n; i++) {
        u->keys[i].x = u->pc[i].s[0];
        u->keys[i].i = i;
    }
    sort_keys(u->keys, u->ktmp, n);
    for (size_t i = 0; i < n; i++) {
        const double *e = u->pc[i].e;
        /* first key with x >= e.x - MATCH */
        size_t lo = 0, hi = n;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (u->keys[mid].x < e[0] - MATCH)
                lo = mid + 1;
            else
                hi = mid;
        }
        /* the starts at this end: one, or at a point where two parts of
         * the union touch, several; then the one that turns most to the
         * left (the union is on the left), which keeps the parts' rings
         * apart instead of crossing over */
        const struct piece *in = &u->pc[i];
        double best_turn = -INFINITY;
        size_t best = SIZE_MAX;
        for (size_t k = lo; k < n && u->keys[k].x <= e[0] + MATCH; k++) {
            size_t ci = u->keys[k].i;
            double dx = u->pc[ci].s[0] - e[0], dy = u->pc[ci].s[1] - e[1];
            if (dx * dx + dy * dy > MATCH * MATCH)
                continue;
            if (best == SIZE_MAX) {
                best = ci;
                continue;
            }
            /* a second start here: the union touches itself */
            if (best_turn == -INFINITY)
                best_turn = turn_to(in, &u->pc[best]);
            double turn = turn_to(in, &u->pc[ci]);
            u->pc[best].pinch = u->pc[ci].pinch = 1;
            if (turn > best_turn) {
                best_turn = turn;
                best = ci;
            }
        }
        if (best == SIZE_MAX)
            return 1;
        u->pc[i].next = best;
    }
    return 0;
}

static double ring_area(const double *p, size_t n)
{
    double a = 0;
    for (size_t i = 0, j = n - 1; i < n; j = i++)
        a += p[2 * j] * p[2 * i + 1] - p[2 * i] * p[2 * j + 1];
    return a / 2;
}

static int point_in_ring(const double *p, size_t n, double x, double y)
{
    int in = 0;
    for (size_t i = 0, j = n - 1; i < n; j = i++) {
        const double *a = p + 2 * i, *b = p + 2 * j;
        if ((a[1] > y) != (b[1] > y) && x < (b[0] - a[0]) * (y - a[1]) / (b[1] - a[1]) + a[0])
            in = !in;
    }
    return in;
}

/* Adds the ring of n vertices p to the rings traced (a sliver of fewer
 * than three is dropped). */
static int add_ring(swx_cu *u, const double *p, size_t n)
{
    if (n < 3)
        return 0;
    int rc = grow((void **)&u->rxy, &u->crxy, u->nrxy + n, 2 * sizeof(double));
    if (!rc)
        rc = grow((void **)&u->rlen, &u->crlen, u->nr + 1, sizeof(size_t));
    if (!rc)
        rc = grow((void **)&u->rarea, &u->crarea, u->nr + 1, sizeof(double));
    if (rc)
        return rc;
    memcpy(u->rxy + 2 * u->nrxy, p, n * 2 * sizeof(double));
    u->rarea[u->nr] = ring_area(p, n);
    u->rlen[u->nr++] = n;
    u->nrxy += n;
    return 0;
}

/* Follows the links into rings. Where the union touches itself at a point
 * (a loop of the track closing on itself, say), a ring that comes back to
 * that point is cut there: the loop is a ring of its own (a hole, or a part
 * of its own), so that no ring touches itself. */
static int trace(swx_cu *u)
{
    u->nrxy = u->nr = 0;
    for (size_t first = 0; first < u->npc; first++) {
        if (u->pc[first].state)
            continue;
        size_t n = 0, npin = 0, at = first;
        int rc = 0;
        do {
            struct piece *p = &u->pc[at];
            if (p->state)
                return 1; /* joins a ring already traced: not one to one */
            p->state = 1;
            if (p->pinch) {
                for (size_t k = npin; k-- > 0;) {
                    const double *q = u->cur + 2 * u->pin[k];
                    double dx = q[0] - p->s[0], dy = q[1] - p->s[1];
                    if (dx * dx + dy * dy <= MATCH * MATCH) {
                        if ((rc = add_ring(u, q, n - u->pin[k])))
                            return rc;
                        n = u->pin[k];
                        npin = k;
                        break;
                    }
                }
                if ((rc = grow((void **)&u->pin, &u->cpin, npin + 1, sizeof(size_t))))
                    return rc;
                u->pin[npin++] = n;
            }
            if ((rc = grow((void **)&u->cur, &u->ccur, n + 1, 2 * sizeof(double))))
                return rc;
            u->cur[2 * n] = p->s[0];
            u->cur[2 * n + 1] = p->s[1];
            n++;
            at = p->next;
        } while (at != first);
        if ((rc = add_ring(u, u->cur, n)))
            return rc;
    }
    return 0;
}

/* Outer rings (counter-clockwise), each followed by the holes inside it. */
static int assemble(swx_cu *u, size_t *npolys)
{
    *npolys = 0;
    int rc = grow((void **)&u->parent, &u->cparent, u->nr + 1, sizeof(size_t));
    if (!rc)
        rc = grow((void **)&u->order, &u->corder, u->nr + 1, sizeof(size_t));
    if (!rc)
        rc = grow((void **)&u->oxy, &u->coxy, u->nrxy + 1, 2 * sizeof(double));
    if (!rc)
        rc = grow((void **)&u->olen, &u->colen, u->nr + 1, sizeof(size_t));
    if (!rc)
        rc = grow((void **)&u->opoly, &u->copoly, u->nr + 1, sizeof(size_t));
    if (rc)
        return rc;
    size_t at = 0;
    for (size_t r = 0; r < u->nr; at += u->rlen[r], r++)
        u->order[r] = at; /* where ring r starts */
    for (size_t r = 0; r < u->nr; r++) {
        u->parent[r] = SIZE_MAX;
        if (u->rarea[r] >= 0)
            continue;
        /* a hole: the smallest outer ring around the middle of its first
         * edge (a vertex may be where it touches that ring) */
        const double *p = u->rxy + 2 * u->order[r];
        double mx = (p[0] + p[2]) / 2, my = (p[1] + p[3]) / 2, best = INFINITY;
        for (size_t o = 0; o < u->nr; o++)
            if (u->rarea[o] > 0 && u->rarea[o] < best &&
                point_in_ring(u->rxy + 2 * u->order[o], u->rlen[o], mx, my)) {
                best = u->rarea[o];
                u->parent[r] = o;
            }
        if (u->parent[r] == SIZE_MAX)
            return 1;
    }
    size_t nxy = 0, nrings = 0;
    for (size_t o = 0; o < u->nr; o++) {
        if (u->rarea[o] <= 0)
            continue;
        size_t count = 0;
        for (size_t k = 0; k <= u->nr; k++) {
            size_t r = k == 0 ? o : k - 1; /* the outer ring, then its holes */
            if (k > 0 && u->parent[r] != o)
                continue;
            memcpy(u->oxy + 2 * nxy, u->rxy + 2 * u->order[r], u->rlen[r] * 2 * sizeof(double));
            nxy += u->rlen[r];
            u->olen[nrings++] = u->rlen[r];
            count++;
        }
        u->opoly[(*npolys)++] = count;
    }
    return 0;
}

int swx_cu_union(swx_cu *u, size_t *npolys, const size_t **poly_rings, const size_t **ring_len,
                 const double **xy)
{
    *npolys = 0;
    *poly_rings = *ring_len = NULL;
    *xy = NULL;
    u->npc = 0;
    if (!u->np)
        return 0;
    int rc = prepare(u);
    for (size_t i = 0; i < u->np && !rc; i++) {
        size_t o = u->off[i], n = u->off[i + 1] - o;
        for (size_t k = 0; k < n && !rc; k++)
            rc = edge_pieces(u, i, u->v + 2 * (o + k), u->v + 2 * (o + (k + 1) % n));
    }
    if (!rc)
        rc = link_pieces(u);
    if (!rc)
        rc = trace(u);
    if (!rc)
        rc = assemble(u, npolys);
    if (rc)
        *npolys = 0;
    *poly_rings = u->opoly;
    *ring_len = u->olen;
    *xy = u->oxy;
    return rc;
}
