/* route_inputs.c: what the route search is fed by `seawx route`
 * (seawx/route_inputs.h): the forecast of a GRIB file through the grib
 * floor's field (grib/internal/grib_field.h), and land as a leg test. */
#include "grib_field.h"
#include "seawx/error.h"
#include "seawx/land.h"
#include "seawx/route_inputs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct swx_routing_forecast {
    swx_gfield *field;
};

int swx_routing_forecast_open(swx_routing_forecast **out, const char *path, double south,
                              double west, double north, double east)
{
    *out = NULL;
    swx_routing_forecast *f = calloc(1, sizeof *f);
    if (!f)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    int rc = swx__gfield_open(&f->field, path, south, west, north, east);
    if (rc) {
        free(f);
        return rc;
    }
    *out = f;
    return 0;
}

void swx_routing_forecast_free(swx_routing_forecast *f)
{
    if (!f)
        return;
    swx__gfield_free(f->field);
    free(f);
}

int64_t swx_routing_forecast_first(const swx_routing_forecast *f)
{
    return swx__gfield_first(f->field);
}

int64_t swx_routing_forecast_last(const swx_routing_forecast *f)
{
    return swx__gfield_last(f->field);
}

int swx_routing_forecast_met(void *ctx, double lat, double lon, int64_t t, swx_routing_met *out)
{
    const swx_routing_forecast *f = ctx;
    swx_gfield_met m;
    int rc = swx__gfield_sample(f->field, lat, lon, t, &m);
    if (rc == SWX_GFIELD_OUTSIDE)
        return SWX_ROUTING_FORECAST_END;
    if (rc)
        return rc;
    out->wind_u_kn = m.wind_u_kn;
    out->wind_v_kn = m.wind_v_kn;
    out->gust_kn = m.gust_kn;
    out->wave_m = m.wave_m;
    out->cur_u_kn = isnan(m.cur_u_kn) ? 0 : m.cur_u_kn;
    out->cur_v_kn = isnan(m.cur_v_kn) ? 0 : m.cur_v_kn;
    return 0;
}

int swx_routing_land_leg(void *ctx, double lat0, double lon0, int64_t t0, double lat1, double lon1,
                         int64_t t1)
{
    (void)t0;
    (void)t1;
    return swx_land_leg_clear(ctx, lat0, lon0, lat1, lon1) ? 0 : SWX_ROUTING_LAND;
}
