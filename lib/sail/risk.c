/* risk.c: a voyage's risk from a storm (see seawx/risk.h). */
#include "seawx/risk.h"

#include "seawx/error.h"
#include "seawx/tiles.h"
#include "storm_timeline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DEG (M_PI / 180.0)

static const char *const measure_names[SWX_RISK_NMEASURES] = {"danger_area", "34kt", "50kt",
                                                              "64kt"};

const char *swx_risk_measure_name(int measure)
{
    return measure >= 0 && measure < SWX_RISK_NMEASURES ? measure_names[measure] : NULL;
}

/* Great-circle distance (nm) and initial bearing (degrees clockwise from
 * north, [0, 360)) from a to b. */
static void dist_bearing(double *nm, double *brg, double lon1, double lat1, double lon2,
                         double lat2)
{
    double p1 = lat1 * DEG, p2 = lat2 * DEG, dl = (lon2 - lon1) * DEG;
    double a = sin((p2 - p1) / 2), b = sin(dl / 2);
    double h = a * a + cos(p1) * cos(p2) * b * b;
    if (h > 1)
        h = 1;
    *nm = 2 * asin(sqrt(h)) * SWX_EARTH_RADIUS_M / SWX_NM_M;
    double y = sin(dl) * cos(p2), x = cos(p1) * sin(p2) - sin(p1) * cos(p2) * cos(dl);
    double t = atan2(y, x) / DEG;
    *brg = t < 0 ? t + 360 : t >= 360 ? t - 360 : t;
}

static void span_add(swx_risk_span *sp, int64_t t, double s)
{
    if (!sp->inside) {
        sp->inside = 1;
        sp->first = t;
        sp->s_from = sp->s_to = s;
    }
    sp->last = t;
    if (s < sp->s_from)
        sp->s_from = s;
    if (s > sp->s_to)
        sp->s_to = s;
}

int swx_risk_of_storm(swx_storm_risk *out, const swx_voyage *v, const swx_storm *s,
                      const swx_storm_danger *d)
{
    struct swx_fix *f = NULL;
    size_t n;
    int64_t depart;
    double arrival;
    memset(out, 0, sizeof *out);
    out->worst = -1;
    out->cpa_nm = INFINITY;
    int rc = swx_voyage_span(&depart, &arrival, v);
    if (rc)
        return rc;
    if (!d)
        d = swx_storm_danger_default();
    if ((rc = swx_storm_timeline(&f, &n, s)))
        return rc;
    if (!n)
        goto done;
    int64_t t0 = f[0].t > depart ? f[0].t : depart;
    int64_t t1 = f[n - 1].t;
    if (arrival < (double)t1)
        t1 = (int64_t)floor(arrival);
    if (t1 < t0)
        goto done;
    out->overlap = 1;
    out->from = t0;
    out->to = t1;
    size_t i = 0;
    for (int64_t t = t0;; t += SWX_RISK_STEP_S) {
        if (t > t1)
            t = t1;
        while (i + 1 < n && f[i + 1].t < t)
            i++;
        const struct swx_fix *a = &f[i], *b = i + 1 < n ? &f[i + 1] : &f[i];
        double w = b->t > a->t ? (double)(t - a->t) / (double)(b->t - a->t) : 0;
        swx_storm_state st;
        swx_storm_state_fill(&st, d, s, a, b, w);
        double sl, sf;
        swx_voyage_sailed(&sl, &sf, v, (double)t);
        for (int fast = 0; fast < (sf != sl ? 2 : 1); fast++) {
            double sa = fast ? sf : sl, lon, lat, nm, brg;
            swx_voyage_point(&lon, &lat, v, sa);
            dist_bearing(&nm, &brg, st.lon, st.lat, lon, lat);
            if (nm < out->cpa_nm) {
                out->cpa_nm = nm;
                out->cpa_time = t;
                out->cpa_fast = fast;
                out->cpa_ship_lon = lon;
                out->cpa_ship_lat = lat;
                out->cpa_storm_lon = st.lon;
                out->cpa_storm_lat = st.lat;
            }
            if (st.forecast && st.danger_nm > 0 && nm <= st.danger_nm)
                span_add(&out->span[SWX_RISK_DANGER], t, sa);
            int q = brg < 90 ? 0 : brg < 180 ? 1 : brg < 270 ? 2 : 3;
            for (int k = 0; k < 3; k++)
                if (st.r[k][q] > 0 && nm <= st.r[k][q])
                    span_add(&out->span[SWX_RISK_R34 + k], t, sa);
        }
        if (t == t1)
            break;
    }
    for (int m = 0; m < SWX_RISK_NMEASURES; m++)
        if (out->span[m].inside)
            out->worst = m;
done:
    free(f);
    return 0;
}
