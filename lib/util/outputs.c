/* outputs.c: the files one run writes, told apart (seawx/outputs.h). */
#include "seawx/outputs.h"

#include "seawx/error.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Links are followed this many times at most (as the kernel does, 40). */
#define MAX_LINKS 40

typedef struct out_id {
    int skip;   /* stdout, a device or a FIFO: never a clash */
    int exists; /* st_dev and st_ino hold */
    dev_t dev;
    ino_t ino;
    char where[2 * PATH_MAX + 2]; /* realpath of the folder, '/', the last name */
} out_id;

/* The last link's target of path (or path): what a writer would create. */
static int follow(char *out, size_t n, const char *path)
{
    char cur[PATH_MAX];
    if (snprintf(cur, sizeof cur, "%s", path) >= (int)sizeof cur)
        return -1;
    for (int i = 0; i < MAX_LINKS; i++) {
        struct stat st;
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
            return snprintf(out, n, "%s", cur) >= (int)n ? -1 : 0;
        char to[PATH_MAX];
        ssize_t len = readlink(cur, to, sizeof to - 1);
        if (len < 0)
            return -1;
        to[len] = '\0';
        char next[PATH_MAX];
        const char *slash = strrchr(cur, '/');
        int w = to[0] == '/' || !slash
                    ? snprintf(next, sizeof next, "%s", to)
                    : snprintf(next, sizeof next, "%.*s/%s", (int)(slash - cur), cur, to);
        if (w < 0 || (size_t)w >= sizeof next)
            return -1;
        memcpy(cur, next, (size_t)w + 1);
    }
    return -1; /* a loop of links: compared by name only */
}

static void identify(out_id *id, const char *path)
{
    struct stat st;
    memset(id, 0, sizeof *id);
    if (strcmp(path, "-") == 0) {
        id->skip = 1;
        return;
    }
    if (stat(path, &st) == 0) {
        if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
            id->skip = 1;
            return;
        }
        id->exists = 1;
        id->dev = st.st_dev;
        id->ino = st.st_ino;
    }
    char file[PATH_MAX], dir[PATH_MAX], real[PATH_MAX];
    if (follow(file, sizeof file, path) != 0)
        snprintf(file, sizeof file, "%s", path);
    const char *slash = strrchr(file, '/');
    const char *base = slash ? slash + 1 : file;
    if (slash == file)
        snprintf(dir, sizeof dir, "/");
    else
        snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - file) : 1, slash ? file : ".");
    if (!realpath(dir, real))
        snprintf(real, sizeof real, "%s", dir); /* a folder not there: as written */
    snprintf(id->where, sizeof id->where, "%s/%s", real, base);
}

int swx_outputs_distinct(const char *const *paths, const char *const *names, size_t n)
{
    out_id *ids = calloc(n ? n : 1, sizeof *ids);
    if (!ids)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    int rc = 0;
    for (size_t i = 0; i < n; i++)
        if (paths[i])
            identify(&ids[i], paths[i]);
        else
            ids[i].skip = 1;
    for (size_t i = 0; i < n && !rc; i++)
        for (size_t j = i + 1; j < n && !rc; j++) {
            const out_id *a = &ids[i], *b = &ids[j];
            if (a->skip || b->skip)
                continue;
            if (strcmp(a->where, b->where) == 0 ||
                (a->exists && b->exists && a->dev == b->dev && a->ino == b->ino))
                rc = swx_error_set(
                    SWX_EINVAL, "%s and %s name the same file (%s%s%s): give each its own",
                    names[i], names[j], paths[i], strcmp(paths[i], paths[j]) ? ", " : "",
                    strcmp(paths[i], paths[j]) ? paths[j] : "");
        }
    free(ids);
    return rc;
}
