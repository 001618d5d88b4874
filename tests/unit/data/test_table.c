/* test_table.c: typed rows, and their JSON, CSV, GeoJSON and text forms. */
#include "cu_support.h"

#include "seawx/error.h"
#include "seawx/table.h"
#include "table_build.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *render(const swx_table *t, swx_table_format fmt)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CU_ASSERT_EQUAL(swx_table_write(t, fmt, f), 0);
    fclose(f);
    return buf;
}

static swx_table *sample(void)
{
    swx_table *t = NULL;
    size_t lat, lon, name, n, when, flag, row;
    CU_ASSERT_EQUAL_FATAL(swx_table_new(&t), 0);
    swx_table_add_column(&lat, t, "lat", SWX_COL_REAL);
    swx_table_add_column(&lon, t, "lon", SWX_COL_REAL);
    swx_table_add_column(&name, t, "name", SWX_COL_STRING);
    swx_table_add_column(&n, t, "n", SWX_COL_INT);
    swx_table_set_point(t, lat, lon);
    swx_table_add_row(&row, t);
    swx_table_set_real(t, row, lat, 59.5);
    swx_table_set_real(t, row, lon, -10.25);
    swx_table_set_string(t, row, name, "Fjord \"Star\", Oslo");
    swx_table_set_int(t, row, n, 42);
    swx_table_add_row(&row, t); /* all null */
    /* A column added after rows exist reads null in them. */
    swx_table_add_column(&when, t, "when", SWX_COL_TIME);
    swx_table_add_column(&flag, t, "flag", SWX_COL_BOOL);
    swx_table_set_time(t, 0, when, 1705334400);
    swx_table_set_bool(t, 1, flag, 1);
    swx_table_set_meta(t, "unit_system", "us");
    return t;
}

static void test_cells(void)
{
    swx_table *t = sample();
    size_t idx;
    CU_ASSERT_EQUAL(swx_table_columns(t), 6);
    CU_ASSERT_EQUAL(swx_table_add_column(&idx, t, "n", SWX_COL_INT), 0);
    CU_ASSERT_EQUAL(idx, 3);
    CU_ASSERT_EQUAL(swx_table_add_column(&idx, t, "n", SWX_COL_REAL), SWX_EINVAL);
    CU_ASSERT_EQUAL(swx_table_set_string(t, 0, 3, "x"), SWX_EINVAL);
    CU_ASSERT_EQUAL(swx_table_set_int(t, 9, 3, 1), SWX_EINVAL);
    CU_ASSERT_TRUE(swx_table_is_null(t, 1, 0));
    CU_ASSERT_TRUE(swx_table_is_null(t, 0, 5));
    CU_ASSERT_EQUAL(swx_table_get_int(t, 0, 3), 42);
    swx_table_free(t);
    swx_table_free(NULL);
}

static void test_formats(void)
{
    swx_table *t = sample();
    char *csv = render(t, SWX_TABLE_CSV);
    CU_ASSERT_STRING_EQUAL(csv,
                           "lat,lon,name,n,when,flag\r\n"
                           "59.5,-10.25,\"Fjord \"\"Star\"\", Oslo\",42,2024-01-15T16:00:00Z,\r\n"
                           ",,,,,true\r\n");
    char *json = render(t, SWX_TABLE_JSON);
    CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"unit_system\": \"us\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"when\": \"2024-01-15T16:00:00Z\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"n\": null"));
    char *geo = render(t, SWX_TABLE_GEOJSON);
    CU_ASSERT_PTR_NOT_NULL(strstr(geo, "\"coordinates\":[-10.25,59.5]"));
    CU_ASSERT_PTR_NOT_NULL(strstr(geo, "\"geometry\":null"));
    char *txt = render(t, SWX_TABLE_TEXT);
    CU_ASSERT_PTR_NOT_NULL(strstr(txt, "unit_system: us"));
    CU_ASSERT_PTR_NOT_NULL(strstr(txt, "(2 rows)"));
    free(csv);
    free(json);
    free(geo);
    free(txt);
    swx_table_format f;
    CU_ASSERT_EQUAL(swx_table_format_parse(&f, "GeoJSON"), 0);
    CU_ASSERT_EQUAL(f, SWX_TABLE_GEOJSON);
    CU_ASSERT_EQUAL(swx_table_format_parse(&f, "xml"), SWX_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "json, csv, geojson, table"));
    swx_table_free(t);
}

int main(void)
{
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("table", NULL, NULL);
    CU_add_test(s, "cells and columns", test_cells);
    CU_add_test(s, "output formats", test_formats);
    return cu_run();
}
