/* cu_support.c: shared plumbing of the unit test programs. */
#include "cu_support.h"

#include "seawx/error.h"
#include "seawx/http.h"
#include "seawx/iso8601.h"
#include "seawx/voyage.h"
#include "seawx/wms.h"
#include "seawx/wms_caps.h"

#include <CUnit/Basic.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int cu_run(void)
{
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    unsigned run = CU_get_number_of_tests_run();
    CU_cleanup_registry();
    if (run == 0) {
        fprintf(stderr, "no test ran\n");
        return 1;
    }
    return failed ? 1 : 0;
}

const char *cu_fixture_path(const char *rel)
{
    static char path[4096];
    const char *root = getenv("SEAWX_FIXTURES");
    snprintf(path, sizeof path, "%s/%s", root ? root : "tests/fixtures", rel);
    return path;
}

char *cu_fixture(const char *rel, size_t *len)
{
    const char *path = cu_fixture_path(rel);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "fixture %s: %s\n", path, strerror(errno));
        exit(2);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *data = malloc((size_t)n + 1);
    if (!data || fread(data, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "fixture %s: read failed\n", path);
        exit(2);
    }
    data[n] = '\0';
    fclose(f);
    if (len)
        *len = (size_t)n;
    return data;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

int cu_sim_start(cu_sim *sim, const char *const *extra_args)
{
    const char *bin = getenv("SEAWX_SIM");
    if (!bin) {
        fprintf(stderr, "SEAWX_SIM is not set: run the tests through ctest\n");
        return -1;
    }
    memset(sim, 0, sizeof *sim);
    snprintf(sim->dir, sizeof sim->dir, "/tmp/seawx-test-XXXXXX");
    if (!mkdtemp(sim->dir))
        return -1;
    char port_file[128];
    snprintf(port_file, sizeof port_file, "%s/port", sim->dir);
    const char *argv[64];
    int argc = 0;
    argv[argc++] = bin;
    argv[argc++] = "--port";
    argv[argc++] = "0";
    argv[argc++] = "--port-file";
    argv[argc++] = port_file;
    for (int i = 0; extra_args && extra_args[i] && argc < 62; i++)
        argv[argc++] = extra_args[i];
    argv[argc] = NULL;
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        execv(bin, (char *const *)argv);
        _exit(127);
    }
    sim->pid = pid;
    for (int i = 0; i < 200; i++) {
        FILE *f = fopen(port_file, "r");
        if (f) {
            int port = 0;
            int ok = fscanf(f, "%d", &port) == 1;
            fclose(f);
            if (ok && port > 0) {
                sim->port = port;
                snprintf(sim->base_url, sizeof sim->base_url, "http://127.0.0.1:%d", port);
                return 0;
            }
        }
        int status;
        if (waitpid(pid, &status, WNOHANG) == pid) {
            fprintf(stderr, "seawx-sim exited before listening\n");
            sim->pid = 0;
            return -1;
        }
        sleep_ms(25);
    }
    fprintf(stderr, "seawx-sim did not start listening within 5 s\n");
    cu_sim_stop(sim);
    return -1;
}

void cu_sim_stop(cu_sim *sim)
{
    if (sim->pid > 0) {
        kill(sim->pid, SIGTERM);
        waitpid(sim->pid, NULL, 0);
        sim->pid = 0;
    }
    if (sim->dir[0]) {
        char cmd[160];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", sim->dir);
        if (system(cmd) != 0)
            fprintf(stderr, "could not remove %s\n", sim->dir);
        sim->dir[0] = '\0';
    }
}

int64_t cu_time(const char *iso8601)
{
    int64_t t = 0;
    if (swx_iso8601_parse(&t, iso8601) != 0) {
        fprintf(stderr, "bad time in a test: %s\n", iso8601);
        abort();
    }
    return t;
}

swx_client *cu_client(const char *base_url, const char *key, const char *auth)
{
    swx_client_opts o = {0};
    o.base_url = base_url;
    o.api_key = key;
    o.wms_auth = auth;
    o.max_retries = -1;
    swx_client *c = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_client_new(&c, &o), 0);
    return c;
}

long cu_log_count(const char *log, const char *needle, long want)
{
    long n = 0;
    for (int tries = 0; tries < 400; tries++) {
        FILE *f = fopen(log, "r");
        char line[4096];
        n = 0;
        while (f && fgets(line, sizeof line, f))
            n += strstr(line, needle) != NULL;
        if (f)
            fclose(f);
        if (n >= want)
            break;
        struct timespec ts = {0, 25 * 1000000L};
        nanosleep(&ts, NULL);
    }
    return n;
}

int cu_voyage_bench_start(cu_voyage_bench *b, const char *name, const char *key, const char *now,
                          const char *route, const char *depart, double kn)
{
    memset(b, 0, sizeof *b);
    snprintf(b->dir, sizeof b->dir, "/tmp/seawx-test-%.20s-XXXXXX", name);
    if (!mkdtemp(b->dir)) {
        fprintf(stderr, "%s: cannot make a folder: %s\n", name, strerror(errno));
        b->dir[0] = 0;
        return -1;
    }
    snprintf(b->access_log, sizeof b->access_log, "%s/access.log", b->dir);
    const char *args[] = {"--key", key, "--now", now, "--access-log", b->access_log, NULL};
    if (cu_sim_start(&b->sim, args))
        return -1;
    swx_client_opts co = {.base_url = b->sim.base_url, .api_key = key};
    swx_client *c = NULL;
    int rc = swx_client_new(&c, &co);
    if (!rc)
        rc = swx_wms_get_caps(&b->caps, c, "maritime");
    swx_client_free(c);
    if (!rc && !(rc = swx_voyage_from_route(&b->voyage, route, strlen(route))))
        rc = swx_voyage_set_speed(b->voyage, cu_time(depart), kn, kn);
    if (rc)
        fprintf(stderr, "%s: %s\n", name, swx_error_last());
    return rc ? -1 : 0;
}

int cu_voyage_bench_stop(cu_voyage_bench *b)
{
    swx_voyage_free(b->voyage);
    swx_caps_free(b->caps);
    b->voyage = NULL;
    b->caps = NULL;
    if (b->sim.pid)
        cu_sim_stop(&b->sim);
    if (!b->dir[0])
        return 0;
    char cmd[96];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", b->dir);
    return system(cmd) == 0 ? 0 : -1;
}
