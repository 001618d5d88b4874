/* package_files.c: the files and folders of a voyage package: its path and
 * version folders, copies, sizes and hashes of its files. */
#define _GNU_SOURCE
#include "package_priv.h"
#include "seawx/error.h"
#include "jsonr.h"
#include "seawx/iso8601.h"
#include "seawx/readfile.h"

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* snprintf into a path buffer; a path too long is cut (and then not found or
 * refused by the system), which never happens below PATH_MAX. */
void swx_pkg_pathf(char *out, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out, n, fmt, ap);
    va_end(ap);
}

/* The folder of path and its last name. */
int swx_pkg_split_path(char *dir, size_t dn, char *base, size_t bn, const char *path)
{
    size_t len = strlen(path);
    while (len > 1 && path[len - 1] == '/')
        len--;
    const char *slash = NULL;
    for (size_t i = 0; i < len; i++)
        if (path[i] == '/')
            slash = path + i;
    size_t b0 = slash ? (size_t)(slash - path) + 1 : 0;
    if (len - b0 == 0 || len - b0 >= bn || b0 >= dn || (len - b0 == 1 && path[b0] == '.') ||
        (len - b0 == 2 && strncmp(path + b0, "..", 2) == 0))
        return swx_error_set(SWX_EINVAL, "'%.200s' cannot be a package's name", path);
    memcpy(base, path + b0, len - b0);
    base[len - b0] = '\0';
    if (!slash)
        snprintf(dir, dn, ".");
    else if (slash == path)
        snprintf(dir, dn, "/");
    else
        snprintf(dir, dn, "%.*s", (int)(slash - path), path);
    return 0;
}

/* N of a version folder ".BASE.vN", or -1. */
long swx_pkg_version_of(const char *name, const char *base)
{
    size_t bl = strlen(base);
    if (name[0] != '.' || strncmp(name + 1, base, bl) != 0 || strncmp(name + 1 + bl, ".v", 2) != 0)
        return -1;
    const char *d = name + bl + 3;
    char *e;
    if (*d < '0' || *d > '9')
        return -1;
    long n = strtol(d, &e, 10);
    return *e || n < 0 ? -1 : n;
}

/* 1 when dir holds a package's manifest. */
static int is_package_dir(const char *dir)
{
    char mp[PATH_MAX], *text = NULL;
    size_t len;
    swx_pkg_pathf(mp, sizeof mp, "%s/manifest.json", dir);
    if (swx_read_file(&text, &len, mp, MAX_MANIFEST))
        return 0;
    json_object *j = NULL;
    int ok = 0;
    if (swx_jsonr_parse(&j, text, len, "manifest") == 0) {
        const char *f = swx_jsonr_str(swx_jsonr_path(j, "format", NULL));
        ok = f && strcmp(f, MANIFEST_FORMAT) == 0;
        json_object_put(j);
    }
    free(text);
    return ok;
}

int swx_package_path_check(const char *path)
{
    char dir[PATH_MAX], base[256];
    int rc = swx_pkg_split_path(dir, sizeof dir, base, sizeof base, path);
    if (rc)
        return rc;
    struct stat sb;
    if (lstat(path, &sb) != 0) {
        if (errno != ENOENT)
            return swx_error_set(SWX_EIO, "cannot look at %s: %s", path, strerror(errno));
        if (access(dir, W_OK | X_OK) != 0)
            return swx_error_set(SWX_EIO, "cannot write in %s: %s", dir, strerror(errno));
        return 0;
    }
    char target[PATH_MAX];
    ssize_t tn = S_ISLNK(sb.st_mode) ? readlink(path, target, sizeof target - 1) : -1;
    if (tn > 0)
        target[tn] = '\0';
    if (tn <= 0 || swx_pkg_version_of(target, base) < 0 || !is_package_dir(path))
        return swx_error_set(SWX_EINVAL,
                             "%s exists and is not a voyage package; give a new name, or remove "
                             "it",
                             path);
    if (access(dir, W_OK | X_OK) != 0)
        return swx_error_set(SWX_EIO, "cannot write in %s: %s", dir, strerror(errno));
    return 1;
}

static int rm_entry(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)ftw;
    return flag == FTW_DP ? rmdir(p) : unlink(p);
}

void swx_pkg_rm_tree(const char *path)
{
    nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

int swx_pkg_copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb"), *out = NULL;
    int rc = 0;
    char buf[65536];
    if (!in) {
        rc = swx_error_set(SWX_EIO, "cannot read %s: %s", from, strerror(errno));
        goto done;
    }
    if (!(out = fopen(to, "wb"))) {
        rc = swx_error_set(SWX_EIO, "cannot write %s: %s", to, strerror(errno));
        goto done;
    }
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        if (fwrite(buf, 1, n, out) != n)
            break;
    if (ferror(in) || ferror(out))
        rc = swx_error_set(SWX_EIO, "cannot copy %s to %s", from, to);
done:
    if (in)
        fclose(in);
    if (out && fclose(out) != 0 && !rc)
        rc = swx_error_set(SWX_EIO, "cannot write %s: %s", to, strerror(errno));
    if (rc && out)
        unlink(to);
    return rc;
}

uint64_t swx_pkg_file_size(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 ? (uint64_t)sb.st_size : 0;
}

int swx_package_file_sha256(char hex[SWX_SHA256_HEX_LEN], const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return swx_error_set(SWX_EIO, "cannot read %s: %s", path, strerror(errno));
    swx_sha256_ctx c;
    swx_sha256_init(&c);
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        swx_sha256_update(&c, buf, n);
    int err = ferror(f);
    fclose(f);
    if (err)
        return swx_error_set(SWX_EIO, "cannot read %s", path);
    uint8_t d[SWX_SHA256_LEN];
    swx_sha256_final(d, &c);
    for (int i = 0; i < SWX_SHA256_LEN; i++)
        snprintf(hex + 2 * i, 3, "%02x", d[i]);
    return 0;
}

void swx_pkg_compact_time(char *out, size_t n, int64_t t)
{
    int y, mo, d, h, mi, s;
    swx_civil_from_time(&y, &mo, &d, &h, &mi, &s, t);
    snprintf(out, n, "%04d%02d%02dT%02d%02d%02dZ", y, mo, d, h, mi, s);
}
