/* lockfile.c: one run at a time on a shared output (see seawx/lockfile.h). */
#include "seawx/lockfile.h"

#include "seawx/error.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* A path whose lock file was removed as it was opened is tried again: a few
 * times at most, each after another run let go. */
#define LOCKFILE_TRIES 8

int swx_lockfile_take(swx_lockfile *lk, const char *path, const char *what)
{
    char dir[4096], name[4096];
    lk->fd = -1;
    /* "pkg/" names the output pkg */
    size_t len = strlen(path);
    while (len > 1 && path[len - 1] == '/')
        len--;
    if (len >= sizeof name)
        return swx_error_set(SWX_EINVAL, "%s: the name is too long", what);
    memcpy(name, path, len);
    name[len] = '\0';
    path = name;
    const char *base = strrchr(path, '/');
    if (base) {
        size_t n = (size_t)(base - path);
        if (n >= sizeof dir)
            return swx_error_set(SWX_EINVAL, "%s: the name is too long", what);
        memcpy(dir, path, n);
        dir[n ? n : 1] = '\0';
        if (!n)
            dir[0] = '/';
        base++;
    } else {
        snprintf(dir, sizeof dir, ".");
        base = path;
    }
    if (snprintf(lk->path, sizeof lk->path, "%s/.%s.lock", dir, base) >= (int)sizeof lk->path)
        return swx_error_set(SWX_EINVAL, "%s: the name is too long", what);
    for (int t = 0; t < LOCKFILE_TRIES; t++) {
        int fd = open(lk->path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
        if (fd < 0)
            return swx_error_set(SWX_EIO, "cannot make the lock %s: %s", lk->path, strerror(errno));
        if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            int e = errno;
            close(fd);
            if (e == EWOULDBLOCK)
                return swx_error_set(SWX_EIO,
                                     "%s is being built by another run right now (it holds "
                                     "%s); wait for it to end, or give another output",
                                     what, lk->path);
            return swx_error_set(SWX_EIO, "cannot lock %s: %s", lk->path, strerror(e));
        }
        struct stat held, now;
        if (fstat(fd, &held) == 0 && stat(lk->path, &now) == 0 && held.st_dev == now.st_dev &&
            held.st_ino == now.st_ino) {
            lk->fd = fd;
            return 0;
        }
        close(fd); /* the run before removed it as it let go: take the next one */
    }
    return swx_error_set(SWX_EIO, "cannot lock %s: it keeps being replaced", lk->path);
}

void swx_lockfile_release(swx_lockfile *lk)
{
    if (lk->fd < 0)
        return;
    unlink(lk->path);
    close(lk->fd);
    lk->fd = -1;
}
