/* test_files.c: file listings, and downloads that follow the redirect to the
 * storage host without the key, write a temporary name, and resume. */
#include "cu_support.h"

#include "files_int.h"
#include "job_int.h"
#include "seawx/error.h"
#include "seawx/files.h"
#include "seawx/http.h"
#include "seawx/iso8601.h"
#include "seawx/job.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define KEY "files-test-key"

static cu_sim sim;

static void test_listing(void)
{
    size_t len;
    swx_table *t = NULL;
    char *body = cu_fixture("files/forecast_listing.json", &len);
    CU_ASSERT_EQUAL_FATAL(swx_files_parse(&t, body, len), 0);
    free(body);
    CU_ASSERT_EQUAL(swx_table_rows(t), 2);
    CU_ASSERT_STRING_EQUAL(swx_table_meta(t, "count"), "2");
    long tc = swx_table_find_column(t, "time"), fh = swx_table_find_column(t, "forecast_hour");
    int64_t want;
    swx_iso8601_parse(&want, "2024-01-15T00:00:00Z");
    CU_ASSERT_EQUAL(swx_table_get_time(t, 0, (size_t)tc), want);
    CU_ASSERT_EQUAL(swx_table_get_int(t, 0, (size_t)fh), 6);
    CU_ASSERT_STRING_EQUAL(swx_table_get_string(t, 0, (size_t)swx_table_find_column(t, "bundle")),
                           "basic");
    CU_ASSERT_STRING_EQUAL(swx_table_get_string(t, 1, (size_t)swx_table_find_column(t, "region")),
                           "europe");
    CU_ASSERT_TRUE(swx_table_is_null(t, 1, (size_t)fh));
    swx_iso8601_parse(&want, "2024-01-15T16:00:00Z");
    CU_ASSERT_EQUAL(swx_table_get_time(t, 1, (size_t)tc), want);
    swx_table_free(t);

    body = cu_fixture("files/bad_name.json", &len);
    CU_ASSERT_EQUAL(swx_files_parse(&t, body, len), SWX_ESERVICE);
    free(body);

    swx_files_query q = {SWX_FILES_SOIL, "2024-01-01", NULL, NULL};
    CU_ASSERT_EQUAL(swx_files_check(&q), SWX_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "time is not a parameter"));
    q.source = SWX_FILES_WEATHER;
    q.regions = "global,,x";
    CU_ASSERT_EQUAL(swx_files_check(&q), SWX_EINVAL);
    q.regions = "global,europe";
    CU_ASSERT_EQUAL(swx_files_check(&q), 0);
    CU_ASSERT_EQUAL(swx_files_check_id("../x.nc"), SWX_EINVAL);
    CU_ASSERT_EQUAL(swx_files_check_id("a?b"), SWX_EINVAL);
}

static swx_client *client(void)
{
    swx_client_opts o = {0};
    swx_client *c = NULL;
    o.base_url = sim.base_url;
    o.api_key = KEY;
    o.retry_base_ms = 10;
    CU_ASSERT_EQUAL_FATAL(swx_client_new(&c, &o), 0);
    return c;
}

static off_t size_of(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? st.st_size : -1;
}

static int64_t last_done, last_total;

static int progress(void *ud, int64_t done, int64_t total)
{
    (void)ud;
    last_done = done;
    last_total = total;
    return 0;
}

static void test_download(void)
{
    swx_client *c = client();
    char dest[256], part[300];
    swx_download_result r = {0};
    swx_download_opts o = {progress, NULL, NULL, NULL};
    snprintf(dest, sizeof dest, "%s/a.nc", sim.dir);
    snprintf(part, sizeof part, "%s.part", dest);
    /* The storage host answers 403 to any request carrying the key. */
    CU_ASSERT_EQUAL_FATAL(
        swx_files_download(&r, c, SWX_FILES_SOIL, "soil-moisture.20240115.global.nc", dest, &o), 0);
    off_t full = size_of(dest);
    CU_ASSERT_TRUE(full > 1000);
    CU_ASSERT_EQUAL(r.bytes, full);
    CU_ASSERT_EQUAL(r.resumed_from, 0);
    CU_ASSERT_EQUAL(size_of(part), -1);
    CU_ASSERT_EQUAL(last_done, full);
    CU_ASSERT_EQUAL(last_total, full);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.url, "/files/soil-moisture/"));
    CU_ASSERT_PTR_NULL(strchr(r.url, '?'));
    swx_download_result_clear(&r);

    /* A partial file left behind: the rest is asked for with a Range. */
    FILE *in = fopen(dest, "rb"), *out = fopen(part, "wb");
    char buf[1000];
    CU_ASSERT_EQUAL(fread(buf, 1, sizeof buf, in), sizeof buf);
    CU_ASSERT_EQUAL(fwrite(buf, 1, sizeof buf, out), sizeof buf);
    fclose(in);
    fclose(out);
    char dest2[256];
    snprintf(dest2, sizeof dest2, "%s/b.nc", sim.dir);
    snprintf(part, sizeof part, "%s.part", dest2);
    rename(dest, dest2);
    snprintf(part, sizeof part, "%s.part", dest);
    CU_ASSERT_EQUAL_FATAL(
        swx_files_download(&r, c, SWX_FILES_SOIL, "soil-moisture.20240115.global.nc", dest, NULL),
        0);
    CU_ASSERT_EQUAL(r.resumed_from, 1000);
    CU_ASSERT_EQUAL(size_of(dest), full);
    swx_download_result_clear(&r);
    /* Byte for byte the same file. */
    FILE *a = fopen(dest, "rb"), *b = fopen(dest2, "rb");
    int same = 1, ca, cb;
    do {
        ca = fgetc(a);
        cb = fgetc(b);
        same &= ca == cb;
    } while (ca != EOF && cb != EOF);
    fclose(a);
    fclose(b);
    CU_ASSERT_TRUE(same);

    /* Unknown file: 404, no file and no partial file left. */
    char dest3[256];
    snprintf(dest3, sizeof dest3, "%s/c.grib2", sim.dir);
    snprintf(part, sizeof part, "%s.part", dest3);
    CU_ASSERT_EQUAL(swx_files_download(&r, c, SWX_FILES_WEATHER, "nothing.grib2", dest3, NULL),
                    SWX_ENOTFOUND);
    CU_ASSERT_EQUAL(size_of(dest3), -1);
    CU_ASSERT_EQUAL(size_of(part), -1);
    swx_client_free(c);
}

static void test_job(void)
{
    swx_client *c = client();
    char *uuid = NULL, *status = NULL;
    CU_ASSERT_EQUAL(swx_job_check("global", "2024-01-05", "2024-01-01"), SWX_EINVAL);
    CU_ASSERT_EQUAL(swx_job_check("a,b", "2024-01-01", "2024-01-05"), SWX_EINVAL);
    CU_ASSERT_EQUAL_FATAL(swx_job_start(&uuid, &status, c, "global", "2024-01-01", "2024-01-31"),
                          0);
    CU_ASSERT_STRING_EQUAL(status, "pending");
    free(status);
    char dest[256];
    snprintf(dest, sizeof dest, "%s/job.nc", sim.dir);
    /* Not complete yet: the download is refused. */
    CU_ASSERT_NOT_EQUAL(swx_job_download(NULL, c, uuid, dest, NULL), 0);
    swx_job_wait_opts w = {50, 200, 20000, NULL, NULL, NULL};
    CU_ASSERT_EQUAL(swx_job_wait(c, uuid, &w), 0);
    CU_ASSERT_EQUAL(swx_job_status(&status, c, uuid), 0);
    CU_ASSERT_EQUAL(swx_job_state(status), 1);
    free(status);
    CU_ASSERT_EQUAL(swx_job_download(NULL, c, uuid, dest, NULL), 0);
    CU_ASSERT_TRUE(size_of(dest) > 1000);
    CU_ASSERT_EQUAL(swx_job_state("processing"), 0);
    CU_ASSERT_EQUAL(swx_job_state("failed"), -1);
    CU_ASSERT_EQUAL(swx_job_status(&status, c, "00000000-0000-0000-0000-000000000000"),
                    SWX_ENOTFOUND);
    free(uuid);
    swx_client_free(c);
}

int main(void)
{
    const char *args[] = {"--key", KEY, NULL};
    setenv("SEAWX_SIM_JOB_MS", "600", 1);
    if (cu_sim_start(&sim, args))
        return 1;
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("files", NULL, NULL);
    CU_add_test(s, "listings", test_listing);
    CU_add_test(s, "downloads: redirect, temporary name, resume", test_download);
    CU_add_test(s, "historical region job", test_job);
    int rc = cu_run();
    cu_sim_stop(&sim);
    return rc;
}
