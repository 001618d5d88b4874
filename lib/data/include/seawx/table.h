/*
 * seawx/table.h: typed rows, the common shape of every point, time-series,
 * listing and vessel answer, and its output as JSON, CSV, GeoJSON or a table
 * for people.
 *
 * A table has named, typed columns and rows of cells; any cell may be null. A
 * table may name two of its columns as the latitude and longitude of each row:
 * GeoJSON output and the GDAL layers then give every row a point. Tables are
 * built by the core's parsers; columns may be added while rows come in (rows
 * that came before read null there). Limits: SWX_TABLE_MAX_COLUMNS columns,
 * SWX_TABLE_MAX_ROWS rows.
 *
 * Front ends only read tables and write them out; building one (swx_table_new,
 * add_column, set_*) is the parsers' business: lib/data/table_build.h.
 */
#ifndef SEAWX_TABLE_H
#define SEAWX_TABLE_H

#include "seawx/visibility.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SWX_TABLE_MAX_COLUMNS 512
#define SWX_TABLE_MAX_ROWS 2000000

typedef enum swx_col_type {
    SWX_COL_INT = 0, /* 64-bit integer */
    SWX_COL_REAL,    /* double */
    SWX_COL_STRING,
    SWX_COL_TIME, /* instant, seconds since 1970 UTC, written "YYYY-MM-DDTHH:MM:SSZ" */
    SWX_COL_DATE, /* calendar day, seconds since 1970 at 00:00 UTC, written "YYYY-MM-DD" */
    SWX_COL_BOOL,
} swx_col_type;

typedef enum swx_table_format {
    SWX_TABLE_TEXT = 0, /* aligned columns for people */
    SWX_TABLE_JSON,     /* {"meta":{...},"data":[{column: value, ...}, ...]} */
    SWX_TABLE_CSV,      /* RFC 4180, header line, nulls empty */
    SWX_TABLE_GEOJSON,  /* FeatureCollection; Point geometry where lat/lon are set */
} swx_table_format;

typedef struct swx_table swx_table;

SWX_API void swx_table_free(swx_table *t);

/* Index of a column by name, or -1. */
SWX_API long swx_table_find_column(const swx_table *t, const char *name);
/* 1 and the columns when the table has point geometry, else 0. */
SWX_API int swx_table_point_columns(size_t *lat_col, size_t *lon_col, const swx_table *t);

SWX_API const char *swx_table_meta(const swx_table *t, const char *key);
SWX_API size_t swx_table_meta_count(const swx_table *t);
SWX_API const char *swx_table_meta_key(const swx_table *t, size_t i);

SWX_API size_t swx_table_rows(const swx_table *t);
SWX_API size_t swx_table_columns(const swx_table *t);
SWX_API const char *swx_table_column_name(const swx_table *t, size_t col);
SWX_API swx_col_type swx_table_column_type(const swx_table *t, size_t col);
SWX_API int swx_table_is_null(const swx_table *t, size_t row, size_t col);
/* Getters return 0 / 0.0 / NULL for null cells. */
SWX_API int64_t swx_table_get_int(const swx_table *t, size_t row, size_t col);
SWX_API double swx_table_get_real(const swx_table *t, size_t row, size_t col);
SWX_API const char *swx_table_get_string(const swx_table *t, size_t row, size_t col);
SWX_API int64_t swx_table_get_time(const swx_table *t, size_t row, size_t col);
SWX_API int swx_table_get_bool(const swx_table *t, size_t row, size_t col);

/* Parses "json", "csv", "geojson" or "table". */
SWX_API int swx_table_format_parse(swx_table_format *out, const char *s);
/* Writes the table to f. Returns SWX_EIO when writing failed. */
SWX_API int swx_table_write(const swx_table *t, swx_table_format fmt, FILE *f);

#ifdef __cplusplus
}
#endif
#endif
