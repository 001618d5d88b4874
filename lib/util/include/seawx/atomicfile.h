/*
 * seawx/atomicfile.h: writing a file so that readers see the old one or the whole
 * new one, never a part.
 *
 * swx_atomicfile_open() creates "PATH.PID.N.tmp" beside PATH (N counts the
 * files opened by this process, so threads never share one); the caller
 * writes through af->f; swx_atomicfile_commit() flushes, fsyncs (unless
 * SWX_ATOMICFILE_NOSYNC), closes and
 * renames it over PATH; swx_atomicfile_abort() closes and removes it. Either
 * ends the file; both accept a file never opened or already ended. A name
 * ending in ".tmp" is what cleaners (the disk cache's sweep) look for.
 */
#ifndef SEAWX_ATOMICFILE_H
#define SEAWX_ATOMICFILE_H

#include "seawx/visibility.h"

#include <stdio.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct swx_atomicfile {
    FILE *f;    /* open for writing between open and commit/abort */
    char *path; /* the target */
    char *tmp;  /* the temporary beside it */
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

/* Opens the temporary with the given permission bits (before umask). On
 * failure SWX_EIO or SWX_ENOMEM, naming the temporary, and *af is ended. */
SWX_API int swx_atomicfile_open(swx_atomicfile *af, const char *path, mode_t mode, int flags);
/* Puts the data in place. On failure SWX_EIO naming PATH; the temporary is
 * removed either way. */
SWX_API int swx_atomicfile_commit(swx_atomicfile *af);
SWX_API void swx_atomicfile_abort(swx_atomicfile *af);

#ifdef __cplusplus
}
#endif
#endif
