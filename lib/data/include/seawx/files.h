/*
 * seawx/files.h: the service's files: listings and resumable downloads.
 *
 *   source           listing                 download                 format
 *   soil-moisture    /soil-moisture/region   /soil-moisture/region/ID  NetCDF
 *   current-weather  /current/weather/file   /current/weather/file/ID  GRIB2
 *   forecast         /forecast/file          /forecast/file/ID         GRIB2
 *
 * (The interface lists forecast files but shows no download path; the path
 * by analogy with the other two is used.) Listings are tables with the
 * columns name, time (the date or run read from the name, null if the name
 * does not carry one), region, bundle, forecast_hour, format.
 *
 * Downloads follow the redirect to storage without the key (lib/net/http_transfer.c),
 * write DEST.part and rename it to DEST once complete. A DEST.part left by an
 * interrupted download is resumed with a Range request; the server decides
 * (206 resumes, 200 starts over).
 *
 * Reading a listing body, source names and download by service path are the
 * core's own: lib/data/files_int.h.
 */
#ifndef SEAWX_FILES_H
#define SEAWX_FILES_H

#include "seawx/http.h"
#include "seawx/table.h"
#include "seawx/visibility.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum swx_file_source {
    SWX_FILES_SOIL = 0,
    SWX_FILES_WEATHER,
    SWX_FILES_FORECAST,
} swx_file_source;

typedef struct swx_files_query {
    swx_file_source source;
    const char *time;    /* current-weather: instant or START/END */
    const char *regions; /* current-weather, forecast: comma list */
    const char *bundles; /* forecast: comma list of bundles */
} swx_files_query;

typedef struct swx_download_result {
    int64_t bytes;        /* size of the finished file */
    int64_t resumed_from; /* bytes a previous attempt had left in DEST.part */
    int attempts;
    char *url; /* final address (storage), without query; caller frees */
} swx_download_result;

SWX_API int swx_files_check(const swx_files_query *q);
/* A file id as a listing gives them: letters, digits, '.', '_', '+', '-'. */
SWX_API int swx_files_check_id(const char *file_id);
SWX_API int swx_files_list(swx_table **out, swx_client *c, const swx_files_query *q);
/* Downloads file_id of source to dest (see above). res may be NULL; its url
 * is freed with swx_download_result_clear(). */
SWX_API int swx_files_download(swx_download_result *res, swx_client *c, swx_file_source source,
                               const char *file_id, const char *dest,
                               const swx_download_opts *opts);
SWX_API void swx_download_result_clear(swx_download_result *res);

#ifdef __cplusplus
}
#endif
#endif
