/* test_lockfile.c: swx_lockfile (lib/util/lockfile.c): a lock held refuses a
 * second taker with the documented line, is let go with its file removed,
 * names "pkg/" as pkg, and is taken again after a release. */
#include "cu_support.h"

#include "seawx/error.h"
#include "seawx/lockfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[] = "/tmp/seawx-test-lockfile.XXXXXX";

static void test_one_at_a_time(void)
{
    char out[256], lock[256];
    swx_lockfile a = SWX_LOCKFILE_INIT, b = SWX_LOCKFILE_INIT;
    snprintf(out, sizeof out, "%s/pkg", dir);
    snprintf(lock, sizeof lock, "%s/.pkg.lock", dir);
    CU_ASSERT_EQUAL(swx_lockfile_take(&a, out, "the package"), 0);
    CU_ASSERT_EQUAL(access(lock, F_OK), 0);
    /* flock(2) locks belong to an open file: a second taker in this process
     * is refused as another process would be. */
    CU_ASSERT_EQUAL(swx_lockfile_take(&b, out, "the package"), SWX_EIO);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "the package is being built by another run"));
    CU_ASSERT_EQUAL(b.fd, -1);
    swx_lockfile_release(&b); /* not held: nothing happens */
    CU_ASSERT_EQUAL(access(lock, F_OK), 0);
    swx_lockfile_release(&a);
    CU_ASSERT_NOT_EQUAL(access(lock, F_OK), 0);
    snprintf(out, sizeof out, "%s/pkg//", dir);
    CU_ASSERT_EQUAL(swx_lockfile_take(&b, out, "the package"), 0);
    CU_ASSERT_STRING_EQUAL(b.path, lock);
    swx_lockfile_release(&b);
    swx_lockfile_release(&b);
    CU_ASSERT_NOT_EQUAL(access(lock, F_OK), 0);
}

static void test_no_folder(void)
{
    char out[256];
    swx_lockfile a = SWX_LOCKFILE_INIT;
    snprintf(out, sizeof out, "%s/nowhere/pkg", dir);
    CU_ASSERT_EQUAL(swx_lockfile_take(&a, out, "the package"), SWX_EIO);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "cannot make the lock"));
}

int main(void)
{
    if (!mkdtemp(dir))
        return 1;
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("lockfile", NULL, NULL);
    CU_add_test(s, "one run at a time", test_one_at_a_time);
    CU_add_test(s, "a folder that does not exist", test_no_folder);
    int rc = cu_run();
    rmdir(dir);
    return rc;
}
