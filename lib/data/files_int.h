/*
 * files_int.h: the file listing's reader, source names and download by path: used by
 * the jobs module and the tests, not by front ends.
 */
#ifndef SEAWX_FILES_INT_H
#define SEAWX_FILES_INT_H

#include "seawx/files.h"
#include "seawx/table.h"

#include <stddef.h>

/* "soil-moisture", "current-weather", "forecast". */
const char *swx_files_source_name(swx_file_source s);
int swx_files_source_parse(swx_file_source *out, const char *s);
int swx_files_parse(swx_table **out, const char *body, size_t len);
/* The same for any service path (job results). */
int swx_files_download_path(swx_download_result *res, swx_client *c, const char *path,
                            const char *dest, const swx_download_opts *opts);

#endif
