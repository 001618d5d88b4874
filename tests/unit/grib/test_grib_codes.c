/* test_grib_codes.c: lib/grib/grib_codes.c, the encodings each centre gives
 * a quantity. NCEP's and ECMWF's GRIB2 and GRIB1 codes of the same quantity
 * map to it; codes that look alike but are another quantity (surface
 * pressure, 100 m wind, a local table of another centre, ECMWF's
 * precipitation in metres) map to nothing or to what they are; and every
 * encoding's short name is the one ecCodes itself gives a message written
 * with those codes (ecCodes' definitions, not the table, are the answer). */
#include "cu_support.h"

#include "grib_codes.h"

#include <eccodes.h>
#include <string.h>

/* The quantity of GRIB2 codes, -1 for none. */
static int q2(int d, int c, int n, int surface, double level)
{
    const swx_gcode *g = swx__gcode_grib2(d, c, n, surface, level);
    return g ? g->q : -1;
}

static int q1(long centre, long table, long param, long level_type, long level)
{
    const swx_gcode *g = swx__gcode_grib1(centre, table, param, level_type, level);
    return g ? g->q : -1;
}

static void test_same_quantity(void)
{
    /* mean sea-level pressure: NCEP/DWD PRMSL 0,3,1; ECMWF msl 0,3,0 on
     * the mean sea level; GRIB1 WMO table 2 code 2 at level 102, ECMWF
     * table 128 code 151 */
    CU_ASSERT_EQUAL(q2(0, 3, 1, 101, 0), SWX_GQ_PRMSL);
    CU_ASSERT_EQUAL(q2(0, 3, 0, 101, 0), SWX_GQ_PRMSL);
    CU_ASSERT_EQUAL(q1(7, 2, 2, 102, 0), SWX_GQ_PRMSL);
    CU_ASSERT_EQUAL(q1(78, 2, 2, 102, 0), SWX_GQ_PRMSL); /* DWD */
    CU_ASSERT_EQUAL(q1(98, 128, 151, 1, 0), SWX_GQ_PRMSL);
    /* 10 m wind */
    CU_ASSERT_EQUAL(q2(0, 2, 2, 103, 10), SWX_GQ_WIND_U);
    CU_ASSERT_EQUAL(q2(0, 2, 3, 103, 10), SWX_GQ_WIND_V);
    CU_ASSERT_EQUAL(q1(7, 2, 33, 105, 10), SWX_GQ_WIND_U);
    CU_ASSERT_EQUAL(q1(7, 3, 34, 105, 10), SWX_GQ_WIND_V);
    CU_ASSERT_EQUAL(q1(98, 128, 165, 1, 0), SWX_GQ_WIND_U);
    CU_ASSERT_EQUAL(q1(98, 128, 166, 1, 0), SWX_GQ_WIND_V);
    /* gust: NCEP at the ground (GRIB1 its own 180), ECMWF at 10 m (49) */
    CU_ASSERT_EQUAL(q2(0, 2, 22, 1, 0), SWX_GQ_GUST);
    CU_ASSERT_EQUAL(q2(0, 2, 22, 103, 10), SWX_GQ_GUST);
    CU_ASSERT_EQUAL(q1(7, 2, 180, 1, 0), SWX_GQ_GUST);
    CU_ASSERT_EQUAL(q1(98, 128, 49, 1, 0), SWX_GQ_GUST);
    /* 2 m temperature */
    CU_ASSERT_EQUAL(q2(0, 0, 0, 103, 2), SWX_GQ_TEMP);
    CU_ASSERT_EQUAL(q1(7, 2, 11, 105, 2), SWX_GQ_TEMP);
    CU_ASSERT_EQUAL(q1(98, 128, 167, 1, 0), SWX_GQ_TEMP);
    /* waves: WAVEWATCH III at the ground, ECMWF on the mean sea level */
    CU_ASSERT_EQUAL(q2(10, 0, 3, 1, 0), SWX_GQ_SWH);
    CU_ASSERT_EQUAL(q2(10, 0, 3, 101, 0), SWX_GQ_SWH);
    CU_ASSERT_EQUAL(q1(7, 2, 100, 1, 0), SWX_GQ_SWH);
    CU_ASSERT_EQUAL(q1(98, 140, 229, 1, 0), SWX_GQ_SWH);
    CU_ASSERT_EQUAL(q1(98, 140, 230, 1, 0), SWX_GQ_MWD);
    CU_ASSERT_EQUAL(q1(98, 140, 232, 1, 0), SWX_GQ_MWP);
    /* 100 m wind */
    CU_ASSERT_EQUAL(q2(0, 2, 2, 103, 100), SWX_GQ_WIND100_U);
    CU_ASSERT_EQUAL(q1(7, 2, 34, 105, 100), SWX_GQ_WIND100_V);
    CU_ASSERT_EQUAL(q1(98, 228, 246, 1, 0), SWX_GQ_WIND100_U);
    CU_ASSERT_EQUAL(q1(98, 228, 247, 1, 0), SWX_GQ_WIND100_V);
}

static void test_other_quantities(void)
{
    CU_ASSERT_EQUAL(q2(0, 3, 0, 1, 0), -1);      /* surface pressure */
    CU_ASSERT_EQUAL(q2(0, 3, 1, 1, 0), -1);      /* no such field */
    CU_ASSERT_EQUAL(q2(0, 2, 2, 103, 80), -1);   /* 80 m wind */
    CU_ASSERT_EQUAL(q2(0, 0, 0, 103, 10), -1);   /* temperature at 10 m */
    CU_ASSERT_EQUAL(q2(0, 1, 193, 1, 0), -1);    /* ECMWF's tp, in metres */
    CU_ASSERT_EQUAL(q1(98, 128, 228, 1, 0), -1); /* the same in GRIB1 */
    CU_ASSERT_EQUAL(q1(7, 128, 151, 1, 0), -1);  /* table 128 of another centre */
    CU_ASSERT_EQUAL(q1(98, 2, 151, 1, 0), -1);   /* 151 of WMO's table */
    CU_ASSERT_EQUAL(q1(78, 2, 180, 1, 0), -1);   /* 180 is NCEP's own code */
    CU_ASSERT_EQUAL(q1(7, 2, 33, 105, 100), SWX_GQ_WIND100_U);
    CU_ASSERT_EQUAL(q1(7, 2, 2, 1, 0), -1); /* pressure code on the ground */
}

/* The short name ecCodes gives a message of these GRIB2 codes. */
static void name2_of(char *out, size_t n, long centre, long d, long c, long num, long surface,
                     long level)
{
    codes_handle *h = codes_grib_handle_new_from_samples(NULL, "GRIB2");
    CU_ASSERT_PTR_NOT_NULL_FATAL(h);
    CU_ASSERT_EQUAL(codes_set_long(h, "centre", centre), 0);
    CU_ASSERT_EQUAL(codes_set_long(h, "discipline", d), 0);
    CU_ASSERT_EQUAL(codes_set_long(h, "parameterCategory", c), 0);
    CU_ASSERT_EQUAL(codes_set_long(h, "parameterNumber", num), 0);
    CU_ASSERT_EQUAL(codes_set_long(h, "typeOfFirstFixedSurface", surface), 0);
    if (surface == 103) {
        CU_ASSERT_EQUAL(codes_set_long(h, "scaleFactorOfFirstFixedSurface", 0), 0);
        CU_ASSERT_EQUAL(codes_set_long(h, "scaledValueOfFirstFixedSurface", level), 0);
    } else {
        CU_ASSERT_EQUAL(codes_set_missing(h, "scaleFactorOfFirstFixedSurface"), 0);
        CU_ASSERT_EQUAL(codes_set_missing(h, "scaledValueOfFirstFixedSurface"), 0);
    }
    CU_ASSERT_EQUAL(codes_get_string(h, "shortName", out, &n), 0);
    const swx_gcode *g = swx__gcode_of(h);
    CU_ASSERT_PTR_NOT_NULL(g);
    if (g)
        CU_ASSERT_STRING_EQUAL(g->name, out);
    codes_handle_delete(h);
}

static const swx_gcode *of_grib1(char *out, size_t n, long centre, long table, long param,
                                 long ltype, long level)
{
    codes_handle *h = codes_grib_handle_new_from_samples(NULL, "GRIB1");
    CU_ASSERT_PTR_NOT_NULL_FATAL(h);
    CU_ASSERT_EQUAL(codes_set_long(h, "centre", centre), 0);
    CU_ASSERT_EQUAL(codes_set_long(h, "table2Version", table), 0);
    CU_ASSERT_EQUAL(codes_set_long(h, "indicatorOfParameter", param), 0);
    CU_ASSERT_EQUAL(codes_set_long(h, "indicatorOfTypeOfLevel", ltype), 0);
    CU_ASSERT_EQUAL(codes_set_long(h, "level", level), 0);
    CU_ASSERT_EQUAL(codes_get_string(h, "shortName", out, &n), 0);
    const swx_gcode *g = swx__gcode_of(h);
    codes_handle_delete(h);
    return g;
}

static void test_names_are_eccodes(void)
{
    char name[64];
    name2_of(name, sizeof name, 7, 0, 3, 1, 101, 0);
    CU_ASSERT_STRING_EQUAL(name, "prmsl");
    name2_of(name, sizeof name, 98, 0, 3, 0, 101, 0);
    CU_ASSERT_STRING_EQUAL(name, "msl");
    name2_of(name, sizeof name, 98, 0, 2, 2, 103, 10);
    name2_of(name, sizeof name, 7, 0, 2, 22, 1, 0);
    CU_ASSERT_STRING_EQUAL(name, "gust");
    name2_of(name, sizeof name, 98, 0, 2, 22, 103, 10);
    name2_of(name, sizeof name, 98, 0, 0, 0, 103, 2);
    CU_ASSERT_STRING_EQUAL(name, "2t");
    name2_of(name, sizeof name, 98, 0, 2, 3, 103, 100);
    CU_ASSERT_STRING_EQUAL(name, "100v");

    const swx_gcode *g = of_grib1(name, sizeof name, 98, 128, 151, 1, 0);
    CU_ASSERT_STRING_EQUAL(name, "msl");
    CU_ASSERT(g && g->q == SWX_GQ_PRMSL);
    g = of_grib1(name, sizeof name, 7, 2, 2, 102, 0);
    CU_ASSERT(strcmp(name, "prmsl") == 0 || strcmp(name, "msl") == 0);
    CU_ASSERT(g && g->q == SWX_GQ_PRMSL);
    g = of_grib1(name, sizeof name, 98, 128, 165, 1, 0);
    CU_ASSERT_STRING_EQUAL(name, "10u");
    CU_ASSERT(g && g->q == SWX_GQ_WIND_U);
    g = of_grib1(name, sizeof name, 7, 2, 33, 105, 10);
    CU_ASSERT_STRING_EQUAL(name, "10u");
    CU_ASSERT(g && g->q == SWX_GQ_WIND_U);
    g = of_grib1(name, sizeof name, 98, 140, 229, 1, 0);
    CU_ASSERT_STRING_EQUAL(name, "swh");
    CU_ASSERT(g && g->q == SWX_GQ_SWH);
    g = of_grib1(name, sizeof name, 98, 128, 228, 1, 0);
    CU_ASSERT_STRING_EQUAL(name, "tp");
    CU_ASSERT_PTR_NULL(g); /* metres: not rain in kg/m2 */
}

static void test_names_for_people(void)
{
    char buf[48], held[40] = "";
    CU_ASSERT_STRING_EQUAL(swx__gcode_name2(buf, sizeof buf, 0, 3, 0, 101, 0), "msl");
    CU_ASSERT_STRING_EQUAL(swx__gcode_name2(buf, sizeof buf, 0, 1, 193, 1, 0), "0.1.193");
    CU_ASSERT_STRING_EQUAL(swx__gcode_name2(buf, sizeof buf, 0, 2, 2, 103, 80), "0.2.2 at 80 m");
    swx__gcode_list_add(held, sizeof held, "10u");
    swx__gcode_list_add(held, sizeof held, "10v");
    swx__gcode_list_add(held, sizeof held, "10u");
    swx__gcode_list_add(held, sizeof held, "msl");
    CU_ASSERT_STRING_EQUAL(held, "10u, 10v, msl");
    swx__gcode_list_add(held, sizeof held, "0.1.193");
    swx__gcode_list_add(held, sizeof held, "a-very-long-name-here");
    swx__gcode_list_add(held, sizeof held, "2t");
    CU_ASSERT(strlen(held) < sizeof held);
    CU_ASSERT_PTR_NOT_NULL(strstr(held, "..."));
}

int main(void)
{
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("grib_codes", NULL, NULL);
    CU_add_test(s, "NCEP's and ECMWF's codes, one quantity", test_same_quantity);
    CU_add_test(s, "look-alike codes of other quantities", test_other_quantities);
    CU_add_test(s, "short names are ecCodes'", test_names_are_eccodes);
    CU_add_test(s, "names for people", test_names_for_people);
    return cu_run();
}
