/* atomicfile.c: a temporary beside the target, renamed over it, and what a
 * writer may do with an output path (see atomicfile.h). */
#include "seawx/atomicfile.h"

#include "seawx/error.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static atomic_uint opened;

/* What a file of this mode is, in words, for a refusal. */
static const char *kind_name(mode_t m)
{
    if (S_ISDIR(m))
        return "a folder";
    if (S_ISCHR(m))
        return "a character device";
    if (S_ISFIFO(m))
        return "a pipe";
    if (S_ISBLK(m))
        return "a block device";
    if (S_ISSOCK(m))
        return "a socket";
    return "not a regular file";
}

/* The folder of path must exist and be writable (a file is created or
 * renamed in it). */
static int folder_writable(const char *shown, const char *path)
{
    char dir[PATH_MAX];
    struct stat sb;
    if (snprintf(dir, sizeof dir, "%s", path) >= (int)sizeof dir)
        return swx_error_set(SWX_EINVAL, "cannot write %.200s...: the name is too long", shown);
    char *slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == dir)
        dir[1] = '\0';
    else
        *slash = '\0';
    if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode))
        return swx_error_set(SWX_EIO, "cannot write %s: folder %s does not exist", shown, dir);
    if (access(dir, W_OK) != 0)
        return swx_error_set(SWX_EIO, "cannot write %s: folder %s is not writable", shown, dir);
    return 0;
}

int swx_atomicfile_folder_check(const char *path)
{
    return folder_writable(path, path);
}

int swx_atomicfile_target(char **target, int *stream, const char *path, int flags,
                          const char *const *inputs, size_t n)
{
    struct stat ls, st;
    int exists = 1, through = 0, rc;
    char *real = NULL;
    if (target)
        *target = NULL;
    if (stream)
        *stream = 0;
    if (!path || !*path)
        return swx_error_set(SWX_EINVAL, "no output file name");
    if (lstat(path, &ls) != 0) {
        if (errno != ENOENT)
            return swx_error_set(SWX_EIO, "cannot write %s: %s", path, strerror(errno));
        exists = 0;
    } else if (S_ISLNK(ls.st_mode)) {
        if (stat(path, &st) != 0) {
            if (errno == ENOENT)
                return swx_error_set(SWX_EINVAL,
                                     "cannot write %s: it is a link to a file that does not "
                                     "exist; name the file itself",
                                     path);
            return swx_error_set(SWX_EINVAL,
                                 "cannot write %s: it is a link that cannot be "
                                 "followed (%s)",
                                 path, strerror(errno));
        }
    } else {
        st = ls;
    }
    if (exists && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))) {
        if (!(flags & SWX_ATOMICFILE_STREAM))
            return swx_error_set(SWX_EINVAL,
                                 "cannot write %s: it is %s%s, and this output must be a "
                                 "regular file",
                                 path, S_ISLNK(ls.st_mode) ? "a link to " : "",
                                 kind_name(st.st_mode));
        through = 1;
    } else if (exists && S_ISDIR(st.st_mode)) {
        return swx_error_set(SWX_EIO, "cannot write %s: it is %sa folder", path,
                             S_ISLNK(ls.st_mode) ? "a link to " : "");
    } else if (exists && !S_ISREG(st.st_mode)) {
        return swx_error_set(SWX_EINVAL, "cannot write %s: it is %s%s, not a file", path,
                             S_ISLNK(ls.st_mode) ? "a link to " : "", kind_name(st.st_mode));
    }
    for (size_t i = 0; exists && !through && inputs && i < n; i++) {
        struct stat in;
        if (inputs[i] && stat(inputs[i], &in) == 0 && in.st_dev == st.st_dev &&
            in.st_ino == st.st_ino) {
            if (strcmp(inputs[i], path) == 0)
                return swx_error_set(SWX_EINVAL,
                                     "cannot write %s: it is an input of the same run; write "
                                     "elsewhere",
                                     path);
            return swx_error_set(SWX_EINVAL,
                                 "cannot write %s: it is the same file as %s, an input of the "
                                 "same run; write elsewhere",
                                 path, inputs[i]);
        }
    }
    if (exists && !through && S_ISLNK(ls.st_mode)) {
        if (!(real = realpath(path, NULL)))
            return swx_error_set(errno == ENOMEM ? SWX_ENOMEM : SWX_EIO,
                                 "cannot write %s: cannot follow the link: %s", path,
                                 strerror(errno));
    } else if (!(real = strdup(path))) {
        return swx_error_set(SWX_ENOMEM, "out of memory");
    }
    if (!through && (rc = folder_writable(path, real))) {
        free(real);
        return rc;
    }
    if (stream)
        *stream = through;
    if (target)
        *target = real;
    else
        free(real);
    return 0;
}

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
    int rc = 0, fd = -1, through = 0;
    af->f = NULL;
    af->flags = flags;
    af->tmp = NULL;
    af->path = NULL;
    if ((rc = swx_atomicfile_target(&af->path, &through, path, flags, NULL, 0)))
        goto done;
    if (through) {
        /* A device or a pipe: written as it is, never created nor replaced. */
        if ((fd = open(af->path, O_WRONLY | O_CLOEXEC)) < 0 || !(af->f = fdopen(fd, "wb"))) {
            rc = swx_error_set(SWX_EIO, "cannot write %s: %s", path, strerror(errno));
            if (fd >= 0)
                close(fd);
        }
        goto done;
    }
    size_t n = strlen(af->path) + 48;
    if (!(af->tmp = malloc(n))) {
        rc = swx_error_set(SWX_ENOMEM, "out of memory");
        goto done;
    }
    snprintf(af->tmp, n, "%s.%ld.%u.tmp", af->path, (long)getpid(), atomic_fetch_add(&opened, 1u));
    fd = open(af->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, mode);
    if (fd < 0) {
        rc = swx_error_set(SWX_EIO, "cannot write %s: %s", path, strerror(errno));
        free(af->tmp); /* nothing was created */
        af->tmp = NULL;
        goto done;
    }
    if (!(af->f = fdopen(fd, "wb"))) {
        rc = swx_error_set(SWX_EIO, "cannot write %s: %s", path, strerror(errno));
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
    if (!af->f)
        return swx_error_set(SWX_EIO, "cannot write %s: not open", af->path ? af->path : "a file");
    int e = 0, through = !af->tmp;
    errno = 0;
    if (fflush(af->f) != 0 || ferror(af->f) ||
        (!through && !(af->flags & SWX_ATOMICFILE_NOSYNC) && fsync(fileno(af->f)) != 0))
        e = errno ? errno : EIO;
    if (fclose(af->f) != 0 && !e)
        e = errno ? errno : EIO;
    af->f = NULL;
    if (!e && !through && rename(af->tmp, af->path) != 0)
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
