/* test_risk.c: a voyage's risk from a storm (lib/sail/risk.c) for a storm
 * built here that moves north along 140 W at 10 kn and a ship that crosses
 * its track eastwards along 14 N at 10 kn, timed to meet it there: the
 * closest approach where and when the geometry puts it, inside the danger
 * area and the 34-kt radii (north-east quadrant only) around it; a ship far
 * away is never inside. The report (lib/sail/risk_report.c) keeps the
 * storms that meet the voyage in time, names the worst, and writes them as
 * JSON and as the stretches sailed at risk. */
#define _GNU_SOURCE
#include "cu_support.h"

#include "seawx/error.h"
#include "seawx/risk.h"
#include "storm_priv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define T0 1700000000

static swx_storm *storm_north(void)
{
    swx_storm *s = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_storm_new_empty(&s), 0);
    s->atcf_id = swx_storm_str(s, "EP012024", 8);
    s->basin = swx_storm_str(s, "EP", 2);
    s->season = 2024;
    for (int i = 0; i < 4; i++) {
        swx_storm_pos *p;
        CU_ASSERT_EQUAL_FATAL(swx_storm_add_pos(&p, s, i >= 2), 0);
        p->lon = -140;
        p->lat = i < 2 ? 10 + i : 11 + 2 * (i - 1);
        p->radii[0].present = 1;
        p->radii[0].r[0] = 60;
        p->radii[0].r[1] = p->radii[0].r[2] = p->radii[0].r[3] = 0;
        if (i < 2) {
            p->time = T0 + i * 6 * 3600;
        } else {
            p->forecast_hour = 12 * (i - 1);
            p->forecast_time = T0 + 6 * 3600 + p->forecast_hour * 3600;
        }
    }
    CU_ASSERT_EQUAL_FATAL(swx_storm_finish(s), 0);
    return s;
}

static swx_voyage *voyage(const char *csv, int64_t depart, double kn)
{
    swx_voyage *v = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_voyage_from_route(&v, csv, strlen(csv)), 0);
    CU_ASSERT_EQUAL_FATAL(swx_voyage_set_speed(v, depart, kn, kn), 0);
    return v;
}

static void test_crossing(void)
{
    swx_storm *s = storm_north();
    /* The storm is at 14 N at T0 + 24 h; the ship reaches 140 W half way
     * along its route. */
    const char *csv = "lat,lon\n14,-142\n14,-138\n";
    swx_voyage *v = voyage(csv, 0, 10);
    double half = swx_voyage_length(v) / 2 / SWX_KNOT_MPS / 10;
    swx_voyage_free(v);
    int64_t meet = T0 + 24 * 3600;
    v = voyage(csv, meet - (int64_t)half, 10);
    swx_storm_risk r;
    CU_ASSERT_EQUAL_FATAL(swx_risk_of_storm(&r, v, s, NULL), 0);
    CU_ASSERT_EQUAL(r.overlap, 1);
    CU_ASSERT(r.cpa_nm < 1.0);
    CU_ASSERT(llabs(r.cpa_time - meet) <= 120);
    CU_ASSERT_DOUBLE_EQUAL(r.cpa_storm_lat, 14, 0.02);
    CU_ASSERT_EQUAL(r.span[SWX_RISK_DANGER].inside, 1);
    CU_ASSERT(r.span[SWX_RISK_DANGER].first < meet && r.span[SWX_RISK_DANGER].last > meet);
    CU_ASSERT_EQUAL(r.span[SWX_RISK_R34].inside, 1);
    /* Only the ne quadrant has winds: the ship, going east, is in it after
     * crossing the centre's meridian. */
    CU_ASSERT(r.span[SWX_RISK_R34].first >= meet - 600);
    CU_ASSERT(r.span[SWX_RISK_R34].last > meet && r.span[SWX_RISK_R34].last < meet + 7 * 3600);
    CU_ASSERT_EQUAL(r.span[SWX_RISK_R50].inside, 0);
    CU_ASSERT_EQUAL(r.worst, SWX_RISK_R34);
    swx_voyage_free(v);

    /* Far to the west: compared, never inside. */
    v = voyage("lat,lon\n14,-170\n14,-166\n", meet - (int64_t)half, 10);
    CU_ASSERT_EQUAL_FATAL(swx_risk_of_storm(&r, v, s, NULL), 0);
    CU_ASSERT_EQUAL(r.overlap, 1);
    CU_ASSERT(r.cpa_nm > 1000);
    CU_ASSERT_EQUAL(r.worst, -1);
    swx_voyage_free(v);

    /* Departing after the storm's last fix: nothing compared. */
    v = voyage(csv, T0 + 40 * 3600, 10);
    CU_ASSERT_EQUAL_FATAL(swx_risk_of_storm(&r, v, s, NULL), 0);
    CU_ASSERT_EQUAL(r.overlap, 0);
    swx_voyage_free(v);
    swx_storm_free(s);
    CU_ASSERT_STRING_EQUAL(swx_risk_measure_name(SWX_RISK_R64), "64kt");
}

static void test_report(void)
{
    swx_storm *s = storm_north();
    const char *csv = "lat,lon\n14,-142\n14,-138\n";
    swx_voyage *v = voyage(csv, 0, 10);
    double half = swx_voyage_length(v) / 2 / SWX_KNOT_MPS / 10;
    swx_voyage_free(v);
    v = voyage(csv, T0 + 24 * 3600 - (int64_t)half, 10);
    swx_risk_report *r = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_risk_report_new(&r, v, NULL), 0);
    CU_ASSERT_EQUAL(swx_risk_report_worst(r, NULL), -1);
    CU_ASSERT_EQUAL(swx_risk_report_add(r, s), 0);
    CU_ASSERT_EQUAL(swx_risk_report_checked(r), 1);
    CU_ASSERT_EQUAL_FATAL(swx_risk_report_count(r), 1);
    size_t row = 99;
    CU_ASSERT_EQUAL(swx_risk_report_worst(r, &row), SWX_RISK_R34);
    CU_ASSERT_EQUAL(row, 0);
    const char *id = NULL, *title = NULL;
    const swx_storm_risk *sr = swx_risk_report_row(r, 0, &id, &title);
    CU_ASSERT_STRING_EQUAL(id, "EP012024");
    CU_ASSERT_STRING_EQUAL(title, "EP012024"); /* unnamed: its id */
    CU_ASSERT(sr->cpa_nm < 1.0);

    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CU_ASSERT_EQUAL_FATAL(swx_risk_report_json(f, r), 0);
    fclose(f);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"storms_checked\": 1"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"worst\": \"34kt\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"50kt\": null"));
    free(buf);
    f = open_memstream(&buf, &len);
    CU_ASSERT_EQUAL_FATAL(swx_risk_report_segments(f, r), 0);
    fclose(f);
    /* Two stretches: the danger area and the 34-kt radii. */
    size_t n = 0;
    for (const char *q = buf; (q = strstr(q, "\"MultiLineString\"")); q++)
        n++;
    CU_ASSERT_EQUAL(n, 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"measure\":\"34kt\""));
    free(buf);

    /* A storm the voyage never meets in time is counted, not kept. */
    swx_voyage_free(v);
    v = voyage(csv, T0 + 40 * 3600, 10);
    swx_risk_report_free(r);
    CU_ASSERT_EQUAL_FATAL(swx_risk_report_new(&r, v, NULL), 0);
    CU_ASSERT_EQUAL(swx_risk_report_add(r, s), 0);
    CU_ASSERT_EQUAL(swx_risk_report_checked(r), 1);
    CU_ASSERT_EQUAL(swx_risk_report_count(r), 0);
    swx_risk_report_free(r);
    swx_risk_report_free(NULL);
    swx_voyage_free(v);
    swx_storm_free(s);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("risk", NULL, NULL);
    CU_add_test(s, "a ship crossing a storm's track", test_crossing);
    CU_add_test(s, "the report of a voyage against storms", test_report);
    return cu_run();
}
