/*
 * seawx/vessels.h: vessel records of the Vessels API with their enhanced
 * data (EVD), flattened into typed columns.
 *
 * GET {SEAWX_VESSELS_URL}/vessels?embed=enhanced_data[.category][,...] is
 * paged: every page has "paging" {limit, total, next}; the next page is asked
 * for with the same filters and next=<cursor>, until a page has no next.
 * Columns: id, imo, mmsi, name, then "<category>_<field>" for the 35 EVD
 * fields of the embedded categories (capacity_dwt, history_built_year,
 * dimensions_loa, ...), typed as the interface lists them. Fields a tier does
 * not include, null values, and vessels without _embedded come out null.
 *
 * The categories and the page reader are the core's own: lib/data/vessels_int.h.
 */
#ifndef SEAWX_VESSELS_H
#define SEAWX_VESSELS_H

#include "seawx/http.h"
#include "seawx/table.h"
#include "seawx/visibility.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SWX_VESSELS_MAX_PAGES 100000

typedef struct swx_vessels_query {
    const char *categories;     /* comma list of EVD categories; NULL: all seven */
    const char *limit;          /* vessels per page, 1..1000; NULL: the service's default */
    const char *max_pages;      /* stop after this many pages; NULL: all */
    const char *const *filters; /* further "name=value" query parameters, NULL-terminated */
} swx_vessels_query;

/* Called after each page: pages so far, rows so far, the total the service
 * announced (-1 if none). Return non-zero to stop (SWX_ECANCEL). */
typedef int (*swx_vessels_page_fn)(void *ud, int pages, size_t rows, long long total);

SWX_API int swx_vessels_check(const swx_vessels_query *q);
SWX_API int swx_vessels_get(swx_table **out, swx_client *c, const swx_vessels_query *q,
                            swx_vessels_page_fn on_page, void *ud);

#ifdef __cplusplus
}
#endif
#endif
