/* ramp.c: colour ramps as lookup tables (see ramp.h).
 *
 * Each ramp is a list of stops (fraction of the range 0..1, R, G, B, A) with
 * linear interpolation between them; a stop with alpha 0 at fraction 0 makes
 * "nothing" (no rain, clear sky) transparent. Categorical ramps repeat a stop at
 * both ends of a class. */
#include "ramp.h"

#include <stddef.h>

struct stop {
    float at;
    uint8_t r, g, b, a;
};

struct ramp_def {
    const struct stop *stops;
    size_t n;
};

/* clang-format off: one stop list per ramp */
static const struct stop temp[] = {
    {0.00f, 80, 0, 120, 255},    {0.18f, 40, 60, 200, 255},  {0.35f, 60, 170, 230, 255},
    {0.50f, 120, 210, 160, 255}, {0.62f, 230, 230, 90, 255}, {0.78f, 245, 150, 40, 255},
    {0.90f, 215, 40, 30, 255},   {1.00f, 120, 0, 20, 255},
};
static const struct stop pressure[] = {
    {0.0f, 90, 40, 140, 255},  {0.3f, 70, 120, 220, 255}, {0.5f, 235, 235, 235, 255},
    {0.7f, 240, 170, 80, 255}, {1.0f, 170, 50, 30, 255},
};
static const struct stop rh[] = {
    {0.0f, 150, 100, 50, 255},  {0.3f, 220, 200, 130, 255}, {0.6f, 120, 200, 120, 255},
    {0.85f, 50, 140, 200, 255}, {1.0f, 20, 60, 160, 255},
};
static const struct stop precip[] = {
    {0.0f, 160, 210, 255, 0}, {0.01f, 160, 210, 255, 160}, {0.1f, 70, 150, 240, 220},
    {0.3f, 20, 90, 220, 255}, {0.55f, 40, 180, 60, 255},   {0.75f, 250, 220, 40, 255},
    {0.9f, 240, 80, 30, 255}, {1.0f, 180, 30, 160, 255},
};
static const struct stop ptype[] = {
    /* 0 none, 1 rain, 2 snow, 3 freezing rain, 4 ice pellets: 5 classes of 1/4 */
    {0.0f, 0, 0, 0, 0},          {0.124f, 0, 0, 0, 0},         {0.126f, 60, 140, 240, 230},
    {0.374f, 60, 140, 240, 230}, {0.376f, 240, 240, 255, 230}, {0.624f, 240, 240, 255, 230},
    {0.626f, 230, 60, 90, 230},  {0.874f, 230, 60, 90, 230},   {0.876f, 170, 90, 220, 230},
    {1.0f, 170, 90, 220, 230},
};
static const struct stop wind[] = {
    {0.0f, 240, 250, 255, 255}, {0.15f, 150, 220, 240, 255}, {0.3f, 90, 200, 120, 255},
    {0.5f, 240, 230, 60, 255},  {0.7f, 245, 130, 40, 255},   {0.85f, 210, 30, 40, 255},
    {1.0f, 130, 20, 140, 255},
};
static const struct stop diverging[] = {
    {0.0f, 30, 50, 150, 255},   {0.25f, 90, 150, 230, 255}, {0.5f, 245, 245, 245, 255},
    {0.75f, 240, 140, 80, 255}, {1.0f, 160, 20, 30, 255},
};
static const struct stop cloud[] = {
    {0.0f, 255, 255, 255, 0},
    {0.1f, 250, 250, 250, 40},
    {0.5f, 225, 225, 230, 170},
    {1.0f, 190, 190, 200, 245},
};
static const struct stop wave[] = {
    {0.0f, 10, 40, 120, 255},    {0.15f, 30, 110, 200, 255}, {0.3f, 40, 190, 210, 255},
    {0.45f, 120, 220, 120, 255}, {0.6f, 250, 230, 60, 255},  {0.8f, 240, 110, 40, 255},
    {1.0f, 170, 20, 60, 255},
};
static const struct stop period[] = {
    {0.0f, 240, 240, 200, 255},
    {0.35f, 120, 200, 160, 255},
    {0.7f, 50, 110, 190, 255},
    {1.0f, 40, 30, 110, 255},
};
static const struct stop direction[] = {
    /* cyclic: north is red at both ends */
    {0.0f, 220, 50, 50, 255},   {0.25f, 230, 210, 50, 255}, {0.5f, 60, 190, 90, 255},
    {0.75f, 60, 110, 220, 255}, {1.0f, 220, 50, 50, 255},
};
static const struct stop current[] = {
    {0.0f, 20, 30, 90, 255},    {0.25f, 30, 100, 190, 255}, {0.5f, 60, 200, 200, 255},
    {0.75f, 240, 220, 80, 255}, {1.0f, 240, 90, 40, 255},
};
static const struct stop lsm[] = {
    {0.0f, 40, 90, 170, 255},
    {0.499f, 40, 90, 170, 255},
    {0.501f, 140, 170, 100, 255},
    {1.0f, 140, 170, 100, 255},
};
static const struct stop cape[] = {
    {0.0f, 255, 255, 255, 0},  {0.05f, 200, 230, 200, 120}, {0.25f, 240, 230, 80, 220},
    {0.5f, 245, 150, 40, 255}, {0.75f, 220, 40, 40, 255},   {1.0f, 150, 20, 150, 255},
};
static const struct stop cin[] = {
    {0.0f, 40, 40, 120, 255},
    {0.5f, 110, 120, 210, 220},
    {0.9f, 210, 215, 240, 120},
    {1.0f, 255, 255, 255, 0},
};
static const struct stop prob[] = {
    {0.0f, 255, 255, 255, 0}, {0.1f, 250, 240, 150, 120}, {0.4f, 250, 170, 60, 220},
    {0.7f, 230, 60, 40, 255}, {1.0f, 140, 20, 120, 255},
};
static const struct stop geopot[] = {
    {0.0f, 70, 30, 130, 255},    {0.25f, 60, 110, 210, 255}, {0.5f, 100, 200, 170, 255},
    {0.75f, 240, 220, 100, 255}, {1.0f, 200, 60, 40, 255},
};
static const struct stop vis[] = {
    {0.0f, 120, 120, 130, 255},
    {0.1f, 170, 170, 180, 230},
    {0.4f, 210, 225, 235, 150},
    {1.0f, 230, 245, 255, 40},
};
static const struct stop evap[] = {
    {0.0f, 250, 250, 220, 255},
    {0.4f, 180, 220, 130, 255},
    {0.7f, 70, 170, 120, 255},
    {1.0f, 20, 90, 110, 255},
};
static const struct stop soil[] = {
    {0.0f, 150, 90, 40, 255},
    {0.3f, 220, 190, 110, 255},
    {0.6f, 120, 190, 110, 255},
    {1.0f, 30, 90, 170, 255},
};
static const struct stop solar[] = {
    {0.0f, 20, 20, 60, 255},    {0.3f, 130, 40, 120, 255},  {0.6f, 240, 120, 40, 255},
    {0.85f, 250, 210, 60, 255}, {1.0f, 255, 255, 200, 255},
};
static const struct stop power[] = {
    {0.0f, 245, 245, 245, 255}, {0.2f, 160, 210, 230, 255}, {0.45f, 70, 170, 90, 255},
    {0.7f, 240, 200, 50, 255},  {1.0f, 190, 30, 40, 255},
};
/* clang-format on */

#define R(a)                                                                                       \
    {                                                                                              \
        a, sizeof(a) / sizeof(a[0])                                                                \
    }

/* Indexed by enum sim_ramp. */
static const struct ramp_def defs[SIM_RAMP_COUNT] = {
    R(temp),   R(pressure), R(rh),        R(precip),  R(ptype), R(wind),  R(diverging), R(cloud),
    R(wave),   R(period),   R(direction), R(current), R(lsm),   R(cape),  R(cin),       R(prob),
    R(geopot), R(vis),      R(evap),      R(soil),    R(solar), R(power),
};

static uint8_t tables[SIM_RAMP_COUNT][SIM_RAMP_SIZE * 4];

static uint8_t mix(uint8_t a, uint8_t b, float t)
{
    return (uint8_t)(a + (b - a) * t + 0.5f);
}

void sim_ramp_init(void)
{
    for (size_t r = 0; r < SIM_RAMP_COUNT; r++) {
        const struct ramp_def *d = &defs[r];
        for (size_t k = 0; k < SIM_RAMP_SIZE; k++) {
            float f = (float)k / (SIM_RAMP_SIZE - 1);
            size_t s = 0;
            uint8_t *out = &tables[r][k * 4];
            float t;

            while (s + 2 < d->n && f > d->stops[s + 1].at)
                s++;
            t = (f - d->stops[s].at) / (d->stops[s + 1].at - d->stops[s].at);
            if (t < 0)
                t = 0;
            if (t > 1)
                t = 1;
            out[0] = mix(d->stops[s].r, d->stops[s + 1].r, t);
            out[1] = mix(d->stops[s].g, d->stops[s + 1].g, t);
            out[2] = mix(d->stops[s].b, d->stops[s + 1].b, t);
            out[3] = mix(d->stops[s].a, d->stops[s + 1].a, t);
        }
    }
}

const uint8_t *sim_ramp_table(enum sim_ramp r)
{
    return tables[r];
}
