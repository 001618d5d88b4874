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
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "/no/such/folder/x."));
    CU_ASSERT_PTR_NULL(af.f);
    CU_ASSERT_PTR_NULL(af.path);
    /* A target that is a folder: the rename fails, the temporary goes. */
    int tmps;
    snprintf(path, sizeof path, "%s/sub", dir);
    CU_ASSERT_EQUAL_FATAL(mkdir(path, 0755), 0);
    char inner[160];
    snprintf(inner, sizeof inner, "%s/keep", path);
    FILE *f = fopen(inner, "w");
    CU_ASSERT_FATAL(f != NULL);
    fclose(f);
    CU_ASSERT_EQUAL_FATAL(swx_atomicfile_open(&af, path, 0644, 0), 0);
    fputs("x", af.f);
    CU_ASSERT_EQUAL(swx_atomicfile_commit(&af), SWX_EIO);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), path));
    CU_ASSERT_EQUAL(count(&tmps), 1); /* only the folder */
    CU_ASSERT_EQUAL(tmps, 0);
    CU_ASSERT_EQUAL(swx_atomicfile_commit(&af), SWX_EIO); /* already ended */
    unlink(inner);
    rmdir(path);
}

int main(void)
{
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("atomicfile", setup, teardown);
    CU_add_test(s, "commit puts the whole file in place", test_commit_replaces);
    CU_add_test(s, "abort leaves nothing behind", test_abort_leaves_nothing);
    CU_add_test(s, "two writers of one target", test_two_writers);
    CU_add_test(s, "errors name the file, leave nothing", test_errors);
    return cu_run();
}
