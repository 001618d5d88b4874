/* render.c: field values to RGBA rows (see render.h).
 *
 * Per band: evaluate the field on the pixel centres plus one extra column and
 * row (the right and lower neighbours that contour detection compares against,
 * taken at their true geographic position so tiles join seamlessly), map values
 * through the variable's ramp, mask land or sea, draw contours, arrows or barbs,
 * then flatten onto the background colour when transparency is off. */
#include "render.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "landmask.h"
#include "ramp.h"

#define PI 3.14159265358979323846
#define EARTH_R 6378137.0
/* Rows per band: about 256 Ki pixels (a whole 256 x 256 tile at once), at least 8
 * rows; bounds the scratch memory of a 4096-wide render to a few MiB. */
#define BAND_PIXELS (256u * 1024u)
#define KN 1.943844

struct sim_render {
    struct sim_render_spec s;
    double *lon;         /* width + 1 columns */
    double *lat;         /* height + 1 rows, top row first */
    uint32_t *land_byte; /* per column: byte of its land cell within a raster row */
    uint8_t *land_bit;   /* per column: bit mask within that byte */
    unsigned band_rows;
    /* arrows (vector and barb renderers) */
    unsigned cell;      /* anchor spacing, pixels */
    long kx0, ky0;      /* anchor index of the first column / row */
    size_t nax, nay;    /* anchors across and down */
    long *kx, *ky;      /* anchor index of each column / row */
    float *offx, *offy; /* pixel offset from its anchor: east, down */
    float *au, *av;     /* flow at each anchor, eastward / northward */
    uint8_t *anodata;   /* anchor masked out */
    /* band scratch */
    float *vals;
    uint8_t *land;
    uint8_t *valid;
};

double sim_mercator_lon(double x)
{
    return x / EARTH_R * (180.0 / PI);
}

double sim_mercator_lat(double y)
{
    return (2.0 * atan(exp(y / EARTH_R)) - PI / 2) * (180.0 / PI);
}

/* 1e-9 degree grid: pixel centres that agree to ~1e-10 degree across requests end
 * up bit-identical. */
static double snap(double deg)
{
    return round(deg * 1e9) / 1e9;
}

static double to_lon(const struct sim_render_spec *s, double x)
{
    return snap(s->crs == SIM_CRS_3857 ? sim_mercator_lon(x) : x);
}

static double to_lat(const struct sim_render_spec *s, double y)
{
    return snap(s->crs == SIM_CRS_3857 ? sim_mercator_lat(y) : y);
}

static double col_x(const struct sim_render_spec *s, long i)
{
    return s->minx + (i + 0.5) * (s->maxx - s->minx) / s->width;
}

static double row_y(const struct sim_render_spec *s, long j)
{
    long iy = (long)s->height - 1 - j;
    return s->miny + (iy + 0.5) * (s->maxy - s->miny) / s->height;
}

static int is_nodata(const struct sim_variable *v, int land, float val)
{
    if (val != val)
        return 1;
    if ((v->flags & SIM_VAR_SEA_ONLY) && land)
        return 1;
    if ((v->flags & SIM_VAR_LAND_ONLY) && !land)
        return 1;
    return 0;
}

/* Anchors sit at the centres of a grid of cell x cell pixels laid from the CRS
 * origin, so arrows stay put when the same area is asked at the same resolution
 * in another tile. */
static int setup_arrows(struct sim_render *r)
{
    const struct sim_render_spec *s = &r->s;
    double px = (s->maxx - s->minx) / s->width, py = (s->maxy - s->miny) / s->height;
    double sx, sy;
    double *alon = NULL, *alat = NULL;
    uint8_t *aland = NULL;
    struct sim_grid g;
    int rc = -1;

    r->cell = s->renderer == SIM_RENDER_BARB ? 40 : 32;
    sx = r->cell * px;
    sy = r->cell * py;
    r->kx = malloc(s->width * sizeof(long));
    r->ky = malloc(s->height * sizeof(long));
    r->offx = malloc(s->width * sizeof(float));
    r->offy = malloc(s->height * sizeof(float));
    if (!r->kx || !r->ky || !r->offx || !r->offy)
        goto done;
    for (unsigned i = 0; i < s->width; i++) {
        double x = col_x(s, i);
        r->kx[i] = (long)floor(x / sx);
        r->offx[i] = (float)((x - (r->kx[i] + 0.5) * sx) / px);
    }
    for (unsigned j = 0; j < s->height; j++) {
        double y = row_y(s, j);
        r->ky[j] = (long)floor(y / sy);
        r->offy[j] = (float)(((r->ky[j] + 0.5) * sy - y) / py);
    }
    r->kx0 = r->kx[0];
    r->ky0 = r->ky[s->height - 1];
    r->nax = (size_t)(r->kx[s->width - 1] - r->kx0 + 1);
    r->nay = (size_t)(r->ky[0] - r->ky0 + 1);
    alon = malloc(r->nax * sizeof(double));
    alat = malloc(r->nay * sizeof(double));
    aland = malloc(r->nax * r->nay);
    r->au = malloc(r->nax * r->nay * sizeof(float));
    r->av = malloc(r->nax * r->nay * sizeof(float));
    r->anodata = malloc(r->nax * r->nay);
    if (!alon || !alat || !aland || !r->au || !r->av || !r->anodata)
        goto done;
    for (size_t a = 0; a < r->nax; a++)
        alon[a] = to_lon(s, (r->kx0 + (long)a + 0.5) * sx);
    for (size_t b = 0; b < r->nay; b++)
        alat[b] = to_lat(s, (r->ky0 + (long)b + 0.5) * sy);
    for (size_t b = 0; b < r->nay; b++)
        for (size_t a = 0; a < r->nax; a++)
            aland[b * r->nax + a] = (uint8_t)sim_landmask_is_land(alon[a], alat[b]);
    g.nx = r->nax;
    g.ny = r->nay;
    g.lon = alon;
    g.lat = alat;
    g.land = aland;
    if (sim_field_vector(s->var->vector, &g, &s->when, r->au, r->av) != 0)
        goto done;
    for (size_t p = 0; p < r->nax * r->nay; p++)
        r->anodata[p] = (uint8_t)is_nodata(s->var, aland[p], r->au[p]);
    rc = 0;
done:
    free(alon);
    free(alat);
    free(aland);
    return rc;
}

int sim_render_begin(const struct sim_render_spec *spec, struct sim_render **out)
{
    struct sim_render *r = calloc(1, sizeof(*r));
    size_t band_px;
    int rc = -1;

    *out = NULL;
    if (r == NULL)
        return -1;
    r->s = *spec;
    r->band_rows = BAND_PIXELS / (spec->width + 1);
    if (r->band_rows < 8)
        r->band_rows = 8;
    band_px = (size_t)(spec->width + 1) * (r->band_rows + 1);
    r->lon = malloc((spec->width + 1) * sizeof(double));
    r->lat = malloc((spec->height + 1) * sizeof(double));
    r->land_byte = malloc((spec->width + 1) * sizeof(uint32_t));
    r->land_bit = malloc(spec->width + 1);
    r->vals = malloc(band_px * sizeof(float));
    r->land = malloc(band_px);
    r->valid = malloc(band_px);
    if (!r->lon || !r->lat || !r->land_byte || !r->land_bit || !r->vals || !r->land || !r->valid)
        goto done;
    for (unsigned i = 0; i <= spec->width; i++) {
        uint32_t col;
        r->lon[i] = to_lon(spec, col_x(spec, i));
        col = sim_landmask_col(r->lon[i]);
        r->land_byte[i] = col >> 3;
        r->land_bit[i] = (uint8_t)(1u << (col & 7));
    }
    for (unsigned j = 0; j <= spec->height; j++)
        r->lat[j] = to_lat(spec, row_y(spec, j));
    if ((spec->renderer == SIM_RENDER_VECTOR || spec->renderer == SIM_RENDER_BARB) &&
        spec->var->vector != SIM_VEC_NONE && setup_arrows(r) != 0)
        goto done;
    rc = 0;
done:
    if (rc != 0)
        sim_render_end(r);
    else
        *out = r;
    return rc;
}

void sim_render_end(struct sim_render *r)
{
    if (r == NULL)
        return;
    free(r->lon);
    free(r->lat);
    free(r->land_byte);
    free(r->land_bit);
    free(r->kx);
    free(r->ky);
    free(r->offx);
    free(r->offy);
    free(r->au);
    free(r->av);
    free(r->anodata);
    free(r->vals);
    free(r->land);
    free(r->valid);
    free(r);
}

/* Squared distance from (x, y) to the segment (x0, y0)-(x1, y1). */
static float seg_d2(float x, float y, float x0, float y0, float x1, float y1)
{
    float dx = x1 - x0, dy = y1 - y0, l2 = dx * dx + dy * dy;
    float t = l2 > 0 ? ((x - x0) * dx + (y - y0) * dy) / l2 : 0;

    t = t < 0 ? 0 : t > 1 ? 1 : t;
    dx = x0 + t * dx - x;
    dy = y0 + t * dy - y;
    return dx * dx + dy * dy;
}

/* Whether pixel offset (x east, y down) from the anchor lies on an arrow showing
 * the flow (u east, v north); ref is the speed of a full-length arrow. */
static int on_arrow(float x, float y, float u, float v, float ref, unsigned cell)
{
    float s = sqrtf(u * u + v * v), len, dx, dy, hx, hy, c, sn;
    const float w2 = 0.6f;

    if (s < 1e-6f)
        return 0;
    len = (float)cell * 0.45f * fminf(1.0f, 0.3f + 0.7f * s / ref);
    if (fabsf(x) > len || fabsf(y) > len)
        return 0;
    dx = u / s;
    dy = -v / s;
    hx = dx * len / 2;
    hy = dy * len / 2;
    if (seg_d2(x, y, -hx, -hy, hx, hy) <= w2)
        return 1;
    /* head: two strokes back from the tip at +-28 degrees */
    c = 0.883f;
    sn = 0.469f;
    for (int side = -1; side <= 1; side += 2) {
        float bx = -(dx * c - side * dy * sn) * len * 0.35f;
        float by = -(dy * c + side * dx * sn) * len * 0.35f;
        if (seg_d2(x, y, hx, hy, hx + bx, hy + by) <= w2)
            return 1;
    }
    return 0;
}

static int in_triangle(float x, float y, float ax, float ay, float bx, float by, float cx, float cy)
{
    float d1 = (x - bx) * (ay - by) - (ax - bx) * (y - by);
    float d2 = (x - cx) * (by - cy) - (bx - cx) * (y - cy);
    float d3 = (x - ax) * (cy - ay) - (cx - ax) * (y - ay);
    int neg = d1 < 0 || d2 < 0 || d3<0, pos = d1> 0 || d2 > 0 || d3 > 0;

    return !(neg && pos);
}

/* Wind barb: the staff points to where the wind comes from; at its end, pennants
 * (50 kn), full feathers (10 kn) and a half feather (5 kn); calm is a ring. */
static int on_barb(float x, float y, float u, float v, unsigned cell, int south)
{
    float kn = sqrtf(u * u + v * v) * (float)KN;
    float len = (float)cell * 0.42f, dx, dy, px, py, t, step = len * 0.16f;
    const float w2 = 0.55f;
    int pennants, full, half;

    if (fabsf(x) > len + 2 || fabsf(y) > len + 2)
        return 0;
    if (kn < 2.5f) {
        float d = sqrtf(x * x + y * y);
        return fabsf(d - 3.0f) < 0.7f;
    }
    dx = -u / (kn / (float)KN);
    dy = v / (kn / (float)KN);
    if (seg_d2(x, y, 0, 0, dx * len, dy * len) <= w2)
        return 1;
    /* feathers on the clockwise side in the north, anticlockwise in the south */
    px = south ? dy : -dy;
    py = south ? -dx : dx;
    kn += 2.5f;
    pennants = (int)(kn / 50);
    full = (int)((kn - pennants * 50) / 10);
    half = (kn - pennants * 50 - full * 10) >= 5;
    t = len;
    for (int k = 0; k < pennants; k++, t -= step * 1.2f) {
        float ax = dx * t, ay = dy * t, bx = dx * (t - step), by = dy * (t - step);
        float cx = ax + px * len * 0.4f, cy = ay + py * len * 0.4f;
        if (in_triangle(x, y, ax, ay, bx, by, cx, cy))
            return 1;
    }
    for (int k = 0; k < full + half; k++, t -= step) {
        float l = (k == full) ? 0.2f : 0.4f;
        float ax = dx * t, ay = dy * t;
        float bx = ax + (px + dx * 0.35f) * len * l, by = ay + (py + dy * 0.35f) * len * l;
        if (t <= 0)
            break;
        if (seg_d2(x, y, ax, ay, bx, by) <= w2)
            return 1;
    }
    return 0;
}

/* Speed of a full-length arrow, in the units of the flow. */
static float arrow_ref(enum sim_vector v)
{
    switch (v) {
    case SIM_VEC_WIND100:
        return 30;
    case SIM_VEC_WIND250:
        return 70;
    case SIM_VEC_CURRENT:
        return 1.2f;
    case SIM_VEC_WAVE:
    case SIM_VEC_SWELL:
        return 6;
    default:
        break;
    }
    return 25;
}

static long level(const struct sim_variable *v, float val)
{
    return (long)floor((val * v->scale + v->offset) / v->contour_step);
}

int sim_render_rows(struct sim_render *r, unsigned row0, unsigned nrows, uint8_t *rgba)
{
    const struct sim_render_spec *s = &r->s;
    const struct sim_variable *var = s->var;
    const uint8_t *lut = sim_ramp_table(var->ramp);
    int contour = s->renderer == SIM_RENDER_CONTOUR;
    int arrows = r->au != NULL;
    size_t nx = (size_t)s->width + 1;
    float lo = (float)var->lo;
    float kscale = (float)((SIM_RAMP_SIZE - 1) / (var->hi - var->lo));
    float ref = arrow_ref(var->vector);

    while (nrows > 0) {
        unsigned n = nrows < r->band_rows ? nrows : r->band_rows;
        size_t ny = n + 1; /* one extra row for the contour neighbour */
        struct sim_grid g;

        for (size_t j = 0; j < ny; j++) {
            const uint8_t *bits = sim_landmask_row_bits(sim_landmask_row(r->lat[row0 + j]));
            uint8_t *l = r->land + j * nx;
            for (size_t i = 0; i < nx; i++)
                l[i] = (bits[r->land_byte[i]] & r->land_bit[i]) != 0;
        }
        g.nx = nx;
        g.ny = ny;
        g.lon = r->lon;
        g.lat = r->lat + row0;
        g.land = r->land;
        if (sim_field_eval(var->field, &g, &s->when, r->vals) != 0)
            return -1;
        for (size_t p = 0; p < nx * ny; p++)
            r->valid[p] = (uint8_t)!is_nodata(var, r->land[p], r->vals[p]);

        for (unsigned j = 0; j < n; j++) {
            uint8_t *o = rgba + (size_t)j * s->width * 4;
            for (unsigned i = 0; i < s->width; i++, o += 4) {
                size_t p = j * nx + i;
                float val = r->vals[p];
                if (!r->valid[p]) {
                    o[0] = o[1] = o[2] = o[3] = 0;
                } else {
                    float f = (val - lo) * kscale + 0.5f;
                    int k = f <= 0 ? 0 : f >= SIM_RAMP_SIZE - 1 ? SIM_RAMP_SIZE - 1 : (int)f;
                    memcpy(o, lut + k * 4, 4);
                    if (contour) {
                        long l0 = level(var, val);
                        if ((r->valid[p + 1] && level(var, r->vals[p + 1]) != l0) ||
                            (r->valid[p + nx] && level(var, r->vals[p + nx]) != l0)) {
                            o[0] = (uint8_t)(o[0] * 0.25f + 20);
                            o[1] = (uint8_t)(o[1] * 0.25f + 20);
                            o[2] = (uint8_t)(o[2] * 0.25f + 20);
                            o[3] = 255;
                        }
                    }
                }
                if (arrows) {
                    unsigned jj = row0 + j;
                    size_t a = (size_t)(r->ky[jj] - r->ky0) * r->nax + (size_t)(r->kx[i] - r->kx0);
                    float ox = r->offx[i], oy = r->offy[jj];
                    int hit = 0;
                    if (!r->anodata[a]) {
                        if (s->renderer == SIM_RENDER_BARB)
                            hit = on_barb(ox, oy, r->au[a], r->av[a], r->cell, r->lat[jj] < 0);
                        else
                            hit = on_arrow(ox, oy, r->au[a], r->av[a], ref, r->cell);
                    }
                    if (hit) {
                        o[0] = o[1] = o[2] = 25;
                        o[3] = 255;
                    }
                }
                if (!s->transparent && o[3] != 255) {
                    unsigned al = o[3];
                    for (int c = 0; c < 3; c++)
                        o[c] = (uint8_t)((o[c] * al + s->bg[c] * (255 - al) + 127) / 255);
                    o[3] = 255;
                }
            }
        }
        rgba += (size_t)n * s->width * 4;
        row0 += n;
        nrows -= n;
    }
    return 0;
}

void sim_render_legend_row(const struct sim_variable *var, unsigned width, uint8_t *rgba)
{
    const uint8_t *lut = sim_ramp_table(var->ramp);

    for (unsigned i = 0; i < width; i++) {
        unsigned k =
            width > 1 ? (unsigned)((double)i / (width - 1) * (SIM_RAMP_SIZE - 1) + 0.5) : 0;
        memcpy(rgba + i * 4, lut + k * 4, 4);
    }
}
