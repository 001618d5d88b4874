/*
 * seawx/atomicfile.h: writing a file so that readers see the old one or the whole
 * new one, never a part; and what a writer may do with the path it was given.
 *
 * swx_atomicfile_open() creates "PATH.PID.N.tmp" beside PATH (N counts the
 * files opened by this process, so threads never share one); the caller
 * writes through af->f; swx_atomicfile_commit() flushes, fsyncs (unless
 * SWX_ATOMICFILE_NOSYNC), closes and
 * renames it over PATH; swx_atomicfile_abort() closes and removes it. Either
 * ends the file; both accept a file never opened or already ended. A name
 * ending in ".tmp" is what cleaners (the disk cache's sweep) look for.
 *
 * Output paths. Every writer of the project (atomic files, MBTiles, merges,
 * downloads, packages) asks swx_atomicfile_target() first, which decides once
 * what a path may become, as coreutils' install and mv do (a program never
 * replaces what is not a regular file):
 *   - nothing there: a file is created (its folder must exist and be
 *     writable: SWX_EIO otherwise);
 *   - a regular file: it is replaced whole, by a rename in its folder (which
 *     must be writable: SWX_EIO otherwise);
 *   - a symbolic link (or a chain of them) to a regular file: the link stays a
 *     link and the file it names is replaced, in that file's folder; a link
 *     to nothing is refused (SWX_EINVAL), as cp refuses to write through a
 *     dangling link;
 *   - a character device or a FIFO (/dev/null, /dev/stdout, a pipe), or a
 *     link to one: written through as it is, never replaced nor removed, when
 *     the writer's format is a stream (SWX_ATOMICFILE_STREAM: JSON, GeoJSON,
 *     TileJSON, CSV, PNG, KMZ); refused otherwise (SWX_EINVAL: an SQLite
 *     file, a resumable download, a package folder cannot live on a device);
 *   - a folder (or a link to one): refused (SWX_EIO, as an unwritable place);
 *   - a block device, a socket: refused (SWX_EINVAL);
 *   - the same file (device and inode, whatever the names) as one of the
 *     run's inputs: refused (SWX_EINVAL), before anything is written.
 * Refusals are one line naming PATH and what it is.
 */
#ifndef SEAWX_ATOMICFILE_H
#define SEAWX_ATOMICFILE_H

#include "seawx/visibility.h"

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct swx_atomicfile {
    FILE *f;    /* open for writing between open and commit/abort */
    char *path; /* the target (a link's regular file, resolved) */
    char *tmp;  /* the temporary beside it; NULL when written through (a stream) */
    int flags;
} swx_atomicfile;

#define SWX_ATOMICFILE_INIT                                                                        \
    {                                                                                              \
        NULL, NULL, NULL, 0                                                                        \
    }

/* Commit without fsync: for files that are only a copy of something that can
 * be fetched again (cache entries), where a power cut may lose the data but
 * a reader still never sees a part. */
#define SWX_ATOMICFILE_NOSYNC 1
/* The writer's format is a stream: a character device or a FIFO is written
 * through (see above) instead of refused. */
#define SWX_ATOMICFILE_STREAM 2

/* What path may become for a writer (rules above). flags: SWX_ATOMICFILE_STREAM
 * or 0. inputs (n paths, may be NULL; those that do not exist are skipped) are
 * the files the same run reads. On success *target (may be NULL) receives,
 * malloc'd, the path to write or replace (a link's regular file, resolved;
 * else path itself) and *stream (may be NULL) 1 when it is to be written
 * through as it is. On failure *target is NULL and the line names path. */
SWX_API int swx_atomicfile_target(char **target, int *stream, const char *path, int flags,
                                  const char *const *inputs, size_t n);

/* The folder path would be made or renamed in exists and is writable: 0, or
 * SWX_EIO ("cannot write PATH: folder DIR does not exist" or "is not
 * writable"). For outputs that are folders of files (a fleet's). */
SWX_API int swx_atomicfile_folder_check(const char *path);

/* Opens the temporary with the given permission bits (before umask), after
 * swx_atomicfile_target(path, flags): a link to a regular file replaces that
 * file; a device or FIFO with SWX_ATOMICFILE_STREAM is opened as it is (no
 * temporary, af->tmp NULL; commit flushes and closes it). On failure SWX_EIO,
 * SWX_EINVAL or SWX_ENOMEM, naming path, and *af is ended. */
SWX_API int swx_atomicfile_open(swx_atomicfile *af, const char *path, mode_t mode, int flags);
/* Puts the data in place. On failure SWX_EIO naming PATH; the temporary is
 * removed either way. */
SWX_API int swx_atomicfile_commit(swx_atomicfile *af);
SWX_API void swx_atomicfile_abort(swx_atomicfile *af);

#ifdef __cplusplus
}
#endif
#endif
