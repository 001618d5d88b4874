/* atomicfile.c: a temporary beside the target, renamed over it (see atomicfile.h). */
#include "seawx/atomicfile.h"

#include "seawx/error.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static atomic_uint opened;

static void end(swx_atomicfile *af, int keep_tmp)
{
    if (af->f)
        fclose(af->f);
    if (af->tmp && !keep_tmp)
        unlink(af->tmp);
    free(af->tmp);
    free(af->path);
    af->f = NULL;
    af->tmp = af->path = NULL;
}

int swx_atomicfile_open(swx_atomicfile *af, const char *path, mode_t mode, int flags)
{
    int rc = 0, fd = -1;
    af->f = NULL;
    af->flags = flags;
    af->tmp = NULL;
    size_t n = strlen(path) + 48;
    af->path = strdup(path);
    af->tmp = malloc(n);
    if (!af->path || !af->tmp) {
        rc = swx_error_set(SWX_ENOMEM, "out of memory");
        goto done;
    }
    snprintf(af->tmp, n, "%s.%ld.%u.tmp", path, (long)getpid(), atomic_fetch_add(&opened, 1u));
    fd = open(af->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, mode);
    if (fd < 0) {
        rc = swx_error_set(SWX_EIO, "cannot write %s: %s", af->tmp, strerror(errno));
        free(af->tmp); /* nothing was created */
        af->tmp = NULL;
        goto done;
    }
    if (!(af->f = fdopen(fd, "wb"))) {
        rc = swx_error_set(SWX_EIO, "cannot write %s: %s", af->tmp, strerror(errno));
        close(fd);
        goto done;
    }
done:
    if (rc)
        end(af, 0);
    return rc;
}

int swx_atomicfile_commit(swx_atomicfile *af)
{
    int rc = 0;
    if (!af->f || !af->tmp)
        return swx_error_set(SWX_EIO, "cannot write %s: not open", af->path ? af->path : "a file");
    int e = 0;
    errno = 0;
    if (fflush(af->f) != 0 || ferror(af->f) ||
        (!(af->flags & SWX_ATOMICFILE_NOSYNC) && fsync(fileno(af->f)) != 0))
        e = errno ? errno : EIO;
    if (fclose(af->f) != 0 && !e)
        e = errno ? errno : EIO;
    af->f = NULL;
    if (!e && rename(af->tmp, af->path) != 0)
        e = errno;
    int ok = !e;
    if (!ok)
        rc = swx_error_set(SWX_EIO, "cannot write %s: %s", af->path, strerror(e));
    end(af, ok);
    return rc;
}

void swx_atomicfile_abort(swx_atomicfile *af)
{
    end(af, 0);
}
