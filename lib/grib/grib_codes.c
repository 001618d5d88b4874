/* grib_codes.c: how the major centres encode each quantity seawx reads
 * (grib_codes.h), so that a field is known by what it is, not by one
 * centre's code (docs/grib.md, "Encodings recognised").
 *
 * GRIB2: NCEP, DWD, Météo-France and most centres use WMO's codes; ECMWF
 * writes mean sea-level pressure as pressure (0,3,0) on the mean sea-level
 * surface (ecCodes' `msl`) where the others write pressure reduced to mean
 * sea level (0,3,1, `prmsl`); the gust at 10 m above ground (ECMWF's
 * `10fg`/`i10fg`) where NCEP writes it at the ground (`gust`); the waves on
 * the mean sea-level surface (101) where WAVEWATCH III writes them at the
 * ground (1). GRIB1: WMO's table 2 (NCEP, DWD and others, table versions
 * below 128), NCEP's own gust code (180), and ECMWF's tables 128
 * (atmosphere), 140 (waves) and 228 (100 m wind), whose surface fields are
 * on level type 1. ECMWF's total precipitation (`tp`, GRIB2 0,1,193 of its
 * own table, GRIB1 128/228) is in metres, not in kg/m2 as WMO's 0,1,8: it is
 * not taken for rain, so that no value is read a thousand times too small. */
#include "grib_codes.h"

#include <eccodes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define NO2 -1, 0, 0, 0, 0            /* no GRIB2 side */
#define WMO1(p, lt, l) 0, 0, p, lt, l /* WMO's table 2, any centre */
#define ECMF1(t, p) 98, t, p, 1, 0    /* an ECMWF table, surface */

static const swx_gcode codes[] = {
    {SWX_GQ_WIND_U, "10u", 0, 2, 2, 103, 10, WMO1(33, 105, 10)},
    {SWX_GQ_WIND_U, "10u", NO2, ECMF1(128, 165)},
    {SWX_GQ_WIND_V, "10v", 0, 2, 3, 103, 10, WMO1(34, 105, 10)},
    {SWX_GQ_WIND_V, "10v", NO2, ECMF1(128, 166)},
    {SWX_GQ_GUST, "i10fg", 0, 2, 22, 103, 10, ECMF1(128, 49)},
    {SWX_GQ_GUST, "gust", 0, 2, 22, 1, 0, 7, 0, 180, 1, 0},
    {SWX_GQ_PRMSL, "prmsl", 0, 3, 1, 101, 0, WMO1(2, 102, 0)},
    {SWX_GQ_PRMSL, "msl", 0, 3, 0, 101, 0, ECMF1(128, 151)},
    {SWX_GQ_TEMP, "2t", 0, 0, 0, 103, 2, WMO1(11, 105, 2)},
    {SWX_GQ_TEMP, "2t", NO2, ECMF1(128, 167)},
    {SWX_GQ_RAIN, "tp", 0, 1, 8, 1, 0, WMO1(61, 1, 0)},
    {SWX_GQ_SWH, "swh", 10, 0, 3, -1, 0, WMO1(100, 1, 0)},
    {SWX_GQ_SWH, "swh", NO2, ECMF1(140, 229)},
    {SWX_GQ_MWD, "mwd", 10, 0, 14, -1, 0, WMO1(107, 1, 0)},
    {SWX_GQ_MWD, "mwd", NO2, ECMF1(140, 230)},
    {SWX_GQ_MWP, "mwp", 10, 0, 15, -1, 0, WMO1(108, 1, 0)},
    {SWX_GQ_MWP, "mwp", NO2, ECMF1(140, 232)},
    {SWX_GQ_WIND100_U, "100u", 0, 2, 2, 103, 100, WMO1(33, 105, 100)},
    {SWX_GQ_WIND100_U, "100u", NO2, ECMF1(228, 246)},
    {SWX_GQ_WIND100_V, "100v", 0, 2, 3, 103, 100, WMO1(34, 105, 100)},
    {SWX_GQ_WIND100_V, "100v", NO2, ECMF1(228, 247)},
    {SWX_GQ_CUR_U, "ocu", 10, 1, 2, -1, 0, WMO1(49, -1, 0)},
    {SWX_GQ_CUR_V, "ocv", 10, 1, 3, -1, 0, WMO1(50, -1, 0)},
};
#define NCODES (sizeof codes / sizeof codes[0])

/* Whether a surface's value tells one field from another (heights and
 * depths) rather than being missing or 0 (ground, mean sea level). */
static int has_level2(int surface)
{
    return surface == 103 || surface == 106 || surface == 160;
}

const swx_gcode *swx__gcode_grib2(int discipline, int category, int number, int surface,
                                  double level)
{
    for (size_t i = 0; i < NCODES; i++) {
        const swx_gcode *c = &codes[i];
        if (c->discipline < 0 || c->discipline != discipline || c->category != category ||
            c->number != number || (c->surface >= 0 && c->surface != surface))
            continue;
        if (c->surface >= 0 && has_level2(c->surface) && fabs(c->level - level) > 1e-6)
            continue;
        return c;
    }
    return NULL;
}

const swx_gcode *swx__gcode_grib1(long centre, long table, long param, long level_type, long level)
{
    for (size_t i = 0; i < NCODES; i++) {
        const swx_gcode *c = &codes[i];
        if (c->g1_param == 0 || c->g1_param != param || (c->g1_centre && c->g1_centre != centre))
            continue;
        if (c->g1_table ? c->g1_table != table : table >= 128)
            continue;
        if (c->g1_level_type >= 0 && c->g1_level_type != level_type)
            continue;
        if ((level_type == 105 || level_type == 160) && c->g1_level_type >= 0 &&
            c->g1_level != level)
            continue;
        return c;
    }
    return NULL;
}

const swx_gcode *swx__gcode_of(struct grib_handle *h)
{
    long ed = 0, a = -1, b = -1, c = -1, st = -1, centre = 0, tv = 0;
    double lev = 0;
    if (codes_get_long(h, "edition", &ed))
        return NULL;
    if (ed == 1) {
        if (codes_get_long(h, "indicatorOfParameter", &a) ||
            codes_get_long(h, "indicatorOfTypeOfLevel", &st))
            return NULL;
        codes_get_double(h, "level", &lev);
        codes_get_long(h, "centre", &centre);
        codes_get_long(h, "table2Version", &tv);
        return swx__gcode_grib1(centre, tv, a, st, lround(lev));
    }
    if (codes_get_long(h, "discipline", &a) || codes_get_long(h, "parameterCategory", &b) ||
        codes_get_long(h, "parameterNumber", &c))
        return NULL;
    codes_get_long(h, "typeOfFirstFixedSurface", &st);
    if (codes_get_double(h, "level", &lev))
        lev = 0;
    return swx__gcode_grib2((int)a, (int)b, (int)c, (int)st, lev);
}

const char *swx__gcode_name2(char *buf, size_t n, int discipline, int category, int number,
                             int surface, double level)
{
    const swx_gcode *c = swx__gcode_grib2(discipline, category, number, surface, level);
    if (c)
        snprintf(buf, n, "%s", c->name);
    else if (has_level2(surface))
        snprintf(buf, n, "%d.%d.%d at %g m", discipline, category, number, level);
    else
        snprintf(buf, n, "%d.%d.%d", discipline, category, number);
    return buf;
}

void swx__gcode_list_add(char *held, size_t n, const char *name)
{
    size_t len = strlen(held), nl = strlen(name);
    for (const char *p = held; (p = strstr(p, name)) != NULL; p += nl)
        if ((p == held || p[-1] == ' ') && (p[nl] == ',' || p[nl] == '\0'))
            return;
    if (len + nl + 3 >= n) {
        if (len + 4 < n && strcmp(held + (len > 3 ? len - 3 : 0), "...") != 0)
            strcat(held, "...");
        return;
    }
    if (len)
        strcat(held, ", ");
    strcat(held, name);
}
