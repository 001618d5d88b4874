/*
 * seawx/outputs.h: the files one run writes, told apart before anything is
 * sent or written.
 */
#ifndef SEAWX_OUTPUTS_H
#define SEAWX_OUTPUTS_H

#include "seawx/visibility.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 0 when the n outputs paths[] (NULL entries and "-", standard output, are
 * skipped) name n different files; else SWX_EINVAL and one line naming both
 * options (names[], as the user typed them: "--json", "--csv") and the file.
 * Two paths name one file when, links followed (a dangling link too: the file
 * it would make), their folders are one (realpath) and their last names
 * equal, or when both exist as the same device and inode (a hard link).
 * Character devices and FIFOs (/dev/null, a pipe) are written through, not
 * replaced: they are never a clash. */
SWX_API int swx_outputs_distinct(const char *const *paths, const char *const *names, size_t n);

#ifdef __cplusplus
}
#endif
#endif
