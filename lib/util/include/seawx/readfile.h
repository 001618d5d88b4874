/*
 * seawx/readfile.h: a whole small file read into memory, with a limit.
 */
#ifndef SEAWX_READFILE_H
#define SEAWX_READFILE_H

#include "seawx/visibility.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Reads the file at path (at most limit bytes) into *out, malloc'd and
 * NUL-terminated, its size in *len. The file is text (CSV, JSON, GeoJSON):
 * a UTF-8 byte order mark at its start is dropped. Returns 0, or SWX_EIO
 * (cannot open or read: "cannot read PATH: cause"), SWX_EINVAL ("PATH is
 * larger than N MiB", or bytes: the files read are the user's, and one over
 * its documented limit is bad input) or SWX_ENOMEM, with *out NULL. Memory
 * grows with the file, not with the limit. */
SWX_API int swx_read_file(char **out, size_t *len, const char *path, size_t limit);

#ifdef __cplusplus
}
#endif

#endif
