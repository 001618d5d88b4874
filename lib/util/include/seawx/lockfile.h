/*
 * seawx/lockfile.h: one run at a time on an output another run could share
 * (a voyage package, a fleet's folder).
 *
 * The lock is an empty file beside the output, ".NAME.lock", held with
 * flock(2) while the run lasts: the kernel lets it go when the process ends
 * however it ends (a kill, a crash), so a stale lock never blocks the next
 * run. A second run is refused at once with one line, never made to wait on
 * a run that may last hours. The file is removed when the lock is let go;
 * the run that takes a lock checks that the file it locked is still the one
 * at the path, so a lock file removed as it was opened is never taken twice.
 */
#ifndef SEAWX_LOCKFILE_H
#define SEAWX_LOCKFILE_H

#include "seawx/visibility.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct swx_lockfile {
    int fd; /* -1: not held */
    char path[4096];
} swx_lockfile;

#define SWX_LOCKFILE_INIT                                                                          \
    {                                                                                              \
        .fd = -1                                                                                   \
    }

/* Takes the lock of output path (the file ".NAME.lock" in path's folder);
 * what names the output in the refusal. 0, or SWX_EIO: "WHAT is being built
 * by another run right now; ..." when another run holds it, or why the lock
 * file cannot be made. */
SWX_API int swx_lockfile_take(swx_lockfile *lk, const char *path, const char *what);
/* Lets the lock go and removes its file; a lock not held is left alone. */
SWX_API void swx_lockfile_release(swx_lockfile *lk);

#ifdef __cplusplus
}
#endif
#endif
