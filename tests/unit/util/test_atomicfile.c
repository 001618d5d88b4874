/* test_atomicfile.c: lib/util/atomicfile.c, files written whole or not at all. */
#include "cu_support.h"

#include "seawx/atomicfile.h"
#include "seawx/error.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64];

static int setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/swx-atomicfile-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* Files in dir, and among them those whose name ends in ".tmp". */
static int count(int *tmps)
{
    int n = 0;
    *tmps = 0;
    DIR *d = opendir(dir);
    struct dirent *de;
    while (d && (de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        size_t l = strlen(de->d_name);
        n++;
        *tmps += l > 4 && strcmp(de->d_name + l - 4, ".tmp") == 0;
    }
    if (d)
        closedir(d);
    return n;
}

static char *slurp(const char *path)
{
    static char buf[256];
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return buf;
}

static void test_commit_replaces(void)
{
    char path[128];
    int tmps;
    snprintf(path, sizeof path, "%s/out.json", dir);
    FILE *f = fopen(path, "w");
    CU_ASSERT_FATAL(f != NULL);
    fputs("old", f);
    fclose(f);
    swx_atomicfile af = SWX_ATOMICFILE_INIT;
    CU_ASSERT_EQUAL_FATAL(swx_atomicfile_open(&af, path, 0644, 0), 0);
    fputs("new", af.f);
    /* Until the commit, readers see the old file, and the temporary beside it. */
    CU_ASSERT_STRING_EQUAL(slurp(path), "old");
    CU_ASSERT_EQUAL(count(&tmps), 2);
    CU_ASSERT_EQUAL(tmps, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(af.tmp, "/out.json."));
    CU_ASSERT_EQUAL(swx_atomicfile_commit(&af), 0);
    CU_ASSERT_STRING_EQUAL(slurp(path), "new");
    CU_ASSERT_EQUAL(count(&tmps), 1);
    CU_ASSERT_EQUAL(tmps, 0);
    CU_ASSERT_PTR_NULL(af.f);
    CU_ASSERT_PTR_NULL(af.tmp);
    struct stat st;
    CU_ASSERT_EQUAL(stat(path, &st), 0);
    CU_ASSERT_EQUAL(st.st_mode & 0600, 0600);
    swx_atomicfile_abort(&af); /* after the end: nothing happens */
    CU_ASSERT_STRING_EQUAL(slurp(path), "new");
    unlink(path);
}

static void test_abort_leaves_nothing(void)
{
    char path[128];
    int tmps;
    snprintf(path, sizeof path, "%s/gone.csv", dir);
    swx_atomicfile af = SWX_ATOMICFILE_INIT;
    CU_ASSERT_EQUAL_FATAL(swx_atomicfile_open(&af, path, 0600, SWX_ATOMICFILE_NOSYNC), 0);
    fputs("half", af.f);
    swx_atomicfile_abort(&af);
    CU_ASSERT_EQUAL(count(&tmps), 0);
    CU_ASSERT_EQUAL(access(path, F_OK), -1);
    swx_atomicfile never = SWX_ATOMICFILE_INIT;
    swx_atomicfile_abort(&never); /* never opened: fine */
}

/* Two files open at once for one target get two temporaries; the last commit
 * wins, whole. */
static void test_two_writers(void)
{
    char path[128];
    int tmps;
    snprintf(path, sizeof path, "%s/both", dir);
    swx_atomicfile a = SWX_ATOMICFILE_INIT, b = SWX_ATOMICFILE_INIT;
    CU_ASSERT_EQUAL_FATAL(swx_atomicfile_open(&a, path, 0644, 0), 0);
    CU_ASSERT_EQUAL_FATAL(swx_atomicfile_open(&b, path, 0644, 0), 0);
    CU_ASSERT_STRING_NOT_EQUAL(a.tmp, b.tmp);
    fputs("first", a.f);
    fputs("second", b.f);
    CU_ASSERT_EQUAL(swx_atomicfile_commit(&a), 0);
    CU_ASSERT_EQUAL(swx_atomicfile_commit(&b), 0);
    CU_ASSERT_STRING_EQUAL(slurp(path), "second");
    CU_ASSERT_EQUAL(count(&tmps), 1);
    unlink(path);
}

static void test_errors(void)
{
    char path[128];
    snprintf(path, sizeof path, "%s/no/such/folder/x", dir);
    swx_atomicfile af = SWX_ATOMICFILE_INIT;
    CU_ASSERT_EQUAL(swx_atomicfile_open(&af, path, 0644, 0), SWX_EIO);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "cannot write"));
    /* The line names the file asked for, not a temporary. */
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "/no/such/folder/x: folder"));
    CU_ASSERT_PTR_NULL(strstr(swx_error_last(), ".tmp"));
    CU_ASSERT_PTR_NULL(af.f);
    CU_ASSERT_PTR_NULL(af.path);
    /* A target that is a folder: refused before anything is created. */
    int tmps;
    snprintf(path, sizeof path, "%s/sub", dir);
    CU_ASSERT_EQUAL_FATAL(mkdir(path, 0755), 0);
    char inner[160];
    snprintf(inner, sizeof inner, "%s/keep", path);
    FILE *f = fopen(inner, "w");
    CU_ASSERT_FATAL(f != NULL);
    fclose(f);
    CU_ASSERT_EQUAL(swx_atomicfile_open(&af, path, 0644, 0), SWX_EIO);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "it is a folder"));
    CU_ASSERT_PTR_NULL(af.f);
    CU_ASSERT_EQUAL(count(&tmps), 1); /* only the folder */
    CU_ASSERT_EQUAL(tmps, 0);
    CU_ASSERT_EQUAL(swx_atomicfile_commit(&af), SWX_EIO); /* already ended */
    unlink(inner);
    rmdir(path);
}

/* A link to a regular file: the file it names is replaced, the link stays. */
static void test_link_to_file(void)
{
    char path[128], link[128];
    int tmps;
    snprintf(path, sizeof path, "%s/real.json", dir);
    snprintf(link, sizeof link, "%s/link.json", dir);
    FILE *f = fopen(path, "w");
    CU_ASSERT_FATAL(f != NULL);
    fputs("old", f);
    fclose(f);
    CU_ASSERT_EQUAL_FATAL(symlink("real.json", link), 0);
    swx_atomicfile af = SWX_ATOMICFILE_INIT;
    CU_ASSERT_EQUAL_FATAL(swx_atomicfile_open(&af, link, 0644, 0), 0);
    fputs("new", af.f);
    CU_ASSERT_EQUAL(swx_atomicfile_commit(&af), 0);
    struct stat st;
    CU_ASSERT_EQUAL(lstat(link, &st), 0);
    CU_ASSERT_TRUE(S_ISLNK(st.st_mode));
    CU_ASSERT_STRING_EQUAL(slurp(path), "new");
    CU_ASSERT_EQUAL(count(&tmps), 2);
    CU_ASSERT_EQUAL(tmps, 0);
    /* A link to nothing is refused, and nothing is created. */
    unlink(path);
    CU_ASSERT_EQUAL(swx_atomicfile_open(&af, link, 0644, 0), SWX_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "link to a file that does not exist"));
    CU_ASSERT_EQUAL(access(path, F_OK), -1);
    unlink(link);
}

/* A character device or a pipe: written through for a stream, refused for
 * the rest; never replaced. */
static void test_devices(void)
{
    swx_atomicfile af = SWX_ATOMICFILE_INIT;
    struct stat st;
    CU_ASSERT_EQUAL(swx_atomicfile_open(&af, "/dev/null", 0644, 0), SWX_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "/dev/null: it is a character device"));
    CU_ASSERT_EQUAL_FATAL(swx_atomicfile_open(&af, "/dev/null", 0644, SWX_ATOMICFILE_STREAM), 0);
    CU_ASSERT_PTR_NULL(af.tmp);
    fputs("{}", af.f);
    CU_ASSERT_EQUAL(swx_atomicfile_commit(&af), 0);
    CU_ASSERT_EQUAL(stat("/dev/null", &st), 0);
    CU_ASSERT_TRUE(S_ISCHR(st.st_mode));
    char fifo[128];
    snprintf(fifo, sizeof fifo, "%s/pipe", dir);
    CU_ASSERT_EQUAL_FATAL(mkfifo(fifo, 0600), 0);
    int stream = 0;
    char *target = NULL;
    CU_ASSERT_EQUAL(swx_atomicfile_target(&target, &stream, fifo, SWX_ATOMICFILE_STREAM, NULL, 0),
                    0);
    CU_ASSERT_EQUAL(stream, 1);
    CU_ASSERT_STRING_EQUAL(target, fifo);
    free(target);
    CU_ASSERT_EQUAL(swx_atomicfile_target(&target, &stream, fifo, 0, NULL, 0), SWX_EINVAL);
    CU_ASSERT_PTR_NULL(target);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "it is a pipe"));
    unlink(fifo);
}

/* An input of the same run, by device and inode whatever its name. */
static void test_input(void)
{
    char path[128], other[160];
    snprintf(path, sizeof path, "%s/in.mbtiles", dir);
    snprintf(other, sizeof other, "%s/./in.mbtiles", dir);
    FILE *f = fopen(path, "w");
    CU_ASSERT_FATAL(f != NULL);
    fclose(f);
    const char *inputs[] = {"/nowhere/missing", other};
    CU_ASSERT_EQUAL(swx_atomicfile_target(NULL, NULL, path, 0, inputs, 2), SWX_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "an input of the same run"));
    CU_ASSERT_EQUAL(swx_atomicfile_target(NULL, NULL, path, 0, inputs, 1), 0);
    unlink(path);
}

int main(void)
{
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("atomicfile", setup, teardown);
    CU_add_test(s, "commit puts the whole file in place", test_commit_replaces);
    CU_add_test(s, "abort leaves nothing behind", test_abort_leaves_nothing);
    CU_add_test(s, "two writers of one target", test_two_writers);
    CU_add_test(s, "errors name the file, leave nothing", test_errors);
    CU_add_test(s, "a link to a file: the file is replaced", test_link_to_file);
    CU_add_test(s, "devices: written through or refused", test_devices);
    CU_add_test(s, "an input of the same run is refused", test_input);
    return cu_run();
}
