/*
 * table_build.h: building a table: what the answer readers (points, files, vessels) use
 * to fill one. Front ends only read tables (seawx/table.h).
 */
#ifndef SEAWX_TABLE_BUILD_H
#define SEAWX_TABLE_BUILD_H

#include "seawx/table.h"

#include <stddef.h>
#include <stdint.h>

int swx_table_new(swx_table **out);
/* Adds a column, or returns the index of the column of that name if it exists
 * (*index set either way). A name reused with another type is SWX_EINVAL. */
int swx_table_add_column(size_t *index, swx_table *t, const char *name, swx_col_type type);
/* Names the latitude and longitude columns (both SWX_COL_REAL). */
int swx_table_set_point(swx_table *t, size_t lat_col, size_t lon_col);
/* Adds an empty row (every cell null); *row is its index. */
int swx_table_add_row(size_t *row, swx_table *t);
int swx_table_set_int(swx_table *t, size_t row, size_t col, int64_t v);
int swx_table_set_real(swx_table *t, size_t row, size_t col, double v);
int swx_table_set_string(swx_table *t, size_t row, size_t col, const char *v);
/* For SWX_COL_TIME and SWX_COL_DATE columns. */
int swx_table_set_time(swx_table *t, size_t row, size_t col, int64_t v);
int swx_table_set_bool(swx_table *t, size_t row, size_t col, int v);
/* Table-wide facts the answer carried ("unit_system" = "us"); shown as the
 * JSON "meta" object and above the text table. A NULL value removes the key. */
int swx_table_set_meta(swx_table *t, const char *key, const char *value);

#endif
