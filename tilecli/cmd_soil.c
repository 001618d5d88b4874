/* cmd_soil.c: `seawx soil`, soil moisture: point values, history, regional
 * files and historical region jobs. */
#include "cli.h"
#include "dataout.h"

#include "seawx/error.h"
#include "seawx/job.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const cli_opt cmd_soil_opts[] = {
    {"lat", 0, "DEG", "latitude, -90 to 90 (point, history)", 0, NULL},
    {"lon", 0, "DEG", "longitude, -180 to 180 (point, history)", 0, NULL},
    {"time", 't', "TIME", "ISO 8601 time of the values (point; default now)", 0, NULL},
    {"start", 0, "TIME", "start of the period, ISO 8601 (history, job start)", 0, NULL},
    {"end", 0, "TIME", "end of the period, ISO 8601, after --start (history, job start)", 0, NULL},
    {"region", 'r', "ID", "region identifier of a job (job start)", 0, NULL},
    {"no-wait", 0, NULL, "job start: print the job's uuid and return without waiting", 0, NULL},
    {"poll", 0, "SECONDS", "first wait between job status checks, growing by half each time", 0,
     "1"},
    {"max-poll", 0, "SECONDS", "longest wait between job status checks", 0, "30"},
    {"wait-timeout", 0, "SECONDS", "give up watching a job after this long (default: never)", 0,
     NULL},
    {"dir", 0, "DIR", "folder for a download (default: the current one)", 0, NULL},
    DATA_OUTPUT_OPTS,
    {0},
};

static void on_status(void *ud, const char *status, int polls, double elapsed, double next)
{
    const char *uuid = ud;
    if (next > 0)
        cli_progress(0, "job %s: %s after %.0f s (%d check%s), next check in %.1f s", uuid, status,
                     elapsed, polls, polls == 1 ? "" : "s", next);
    else
        cli_progress(1, "job %s: %s after %.0f s (%d check%s)", uuid, status, elapsed, polls,
                     polls == 1 ? "" : "s");
}

/* Watches a job until complete, then downloads its result. */
static int watch_and_fetch(const cli_args *a, swx_client *c, const char *uuid, int download_only)
{
    long poll, max_poll, timeout = 0;
    swx_job_wait_opts w = {0};
    swx_download_opts o;
    swx_download_result r = {0};
    data_progress p;
    char name[128];
    char *dest = NULL;
    int rc, exit_code = EXIT_OK;
    if (cli_get_int(&poll, a, "poll", 1, 3600) || cli_get_int(&max_poll, a, "max-poll", 1, 3600) ||
        cli_get_int(&timeout, a, "wait-timeout", 0, 7 * 86400))
        return EXIT_USAGE;
    data_signals();
    if (!download_only) {
        w.first_ms = poll * 1000;
        w.max_ms = max_poll * 1000;
        w.timeout_ms = timeout * 1000;
        w.on_status = on_status;
        w.ud = (void *)uuid;
        w.cancel = &data_cancel;
        if ((rc = swx_job_wait(c, uuid, &w))) {
            cli_progress(0, NULL);
            exit_code = cli_fail(rc);
            cli_info("resume with: seawx soil job watch %s", uuid);
            return exit_code;
        }
    }
    snprintf(name, sizeof name, "soil-moisture.%s.nc", uuid);
    if (!(dest = data_dest(a, name)))
        return cli_fail(swx_error_set(SWX_ENOMEM, "out of memory"));
    data_download_opts(&o, &p, name);
    if ((rc = swx_job_download(&r, c, uuid, dest, &o))) {
        cli_progress(0, NULL);
        exit_code = cli_fail(rc);
        cli_info("resume with: seawx soil job download %s", uuid);
    } else {
        exit_code = data_download_done(&p, dest, &r);
    }
    swx_download_result_clear(&r);
    free(dest);
    return exit_code;
}

static int job(const cli_args *a)
{
    const char *verb = a->npositional > 1 ? a->positional[1] : NULL;
    swx_client *c = NULL;
    char *uuid = NULL, *status = NULL;
    int rc, exit_code;
    if (!verb) {
        cli_error("name a job action: start, watch, status or download");
        return EXIT_USAGE;
    }
    int start = strcmp(verb, "start") == 0;
    if (!start && strcmp(verb, "watch") != 0 && strcmp(verb, "status") != 0 &&
        strcmp(verb, "download") != 0) {
        cli_error("unknown job action '%s': use start, watch, status or download", verb);
        return EXIT_USAGE;
    }
    if (data_no_more_args(a, start ? 2 : 3))
        return EXIT_USAGE;
    if (start) {
        if (swx_job_check(cli_get(a, "region"), cli_get(a, "start"), cli_get(a, "end")) != 0)
            return cli_fail(SWX_EINVAL);
    } else {
        if (a->npositional < 3) {
            cli_error("name the job by its uuid: seawx soil job %s UUID", verb);
            return EXIT_USAGE;
        }
        if (cli_get(a, "region") || cli_get(a, "start") || cli_get(a, "end")) {
            cli_error("--region, --start and --end apply to 'seawx soil job start' only");
            return EXIT_USAGE;
        }
        if (swx_job_check_uuid(a->positional[2]) != 0)
            return cli_fail(SWX_EINVAL);
    }
    /* Where the result will go is checked before anything is sent. */
    if (strcmp(verb, "status") != 0 && !(start && cli_has(a, "no-wait"))) {
        char *dest = data_dest(a, "soil-moisture.job.nc");
        exit_code =
            dest ? data_check_dest(dest, 0) : cli_fail(swx_error_set(SWX_ENOMEM, "out of memory"));
        free(dest);
        if (exit_code)
            return exit_code;
    }
    if (cli_has(a, "quiet"))
        cli_set_quiet(1);
    if ((exit_code = cli_client(&c, a)))
        return exit_code;
    if (start) {
        if ((rc = swx_job_start(&uuid, &status, c, cli_get(a, "region"), cli_get(a, "start"),
                                cli_get(a, "end")))) {
            exit_code = cli_fail(rc);
            goto done;
        }
        printf("%s\n", uuid);
        fflush(stdout);
        cli_info("job %s started (%s)", uuid, status);
        if (!cli_has(a, "no-wait"))
            exit_code = watch_and_fetch(a, c, uuid, 0);
    } else if (strcmp(verb, "status") == 0) {
        if ((rc = swx_job_status(&status, c, a->positional[2])))
            exit_code = cli_fail(rc);
        else
            printf("%s\n", status);
    } else {
        exit_code = watch_and_fetch(a, c, a->positional[2], strcmp(verb, "download") == 0);
    }
done:
    free(uuid);
    free(status);
    swx_client_free(c);
    return exit_code;
}

int cmd_soil(const cli_cmd *cmd, int argc, char **argv)
{
    cli_args a;
    int pr = cli_parse(&a, cmd, argc, argv);
    if (pr)
        return pr > 0 ? EXIT_OK : EXIT_USAGE;
    if (a.npositional && strcmp(a.positional[0], "job") == 0)
        return job(&a);
    const char *action;
    int ac = data_action(&action, &a, SWX_FILES_SOIL, "point");
    if (ac >= 0)
        return ac;
    if (data_only_for(&a, "region", "soil job start"))
        return EXIT_USAGE;
    if (strcmp(action, "point") == 0)
        return data_point_run(&a, SWX_POINT_SOIL);
    if (strcmp(action, "history") == 0)
        return data_point_run(&a, SWX_POINT_SOIL_HISTORY);
    if (strcmp(action, "files") == 0)
        return data_files_run(&a, SWX_FILES_SOIL);
    cli_error("unknown soil action '%s': use point, history, files, download or job", action);
    return EXIT_USAGE;
}
