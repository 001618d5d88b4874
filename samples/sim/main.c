/* main.c: seawx-sim, the local stand-in of the Weather, Ocean and Vessel Data
 * Service: options, start-up, the port file, and a clean stop on SIGTERM/SIGINT.
 *
 * Signals are blocked before any thread starts, so every thread inherits the
 * mask and only the main thread, in sigwait(), receives them. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "accesslog.h"
#include "app.h"
#include "cache.h"
#include "faults.h"
#include "landmask.h"
#include "options.h"
#include "ramp.h"
#include "server.h"
#include "stats.h"
#include "testing.h"
#include "wms_caps.h"

#include "seawx/atomicfile.h"

/* Writes "PORT\n" beside path, then renames it over path: readers never see a
 * partial file. */
static int write_port_file(const char *path, unsigned port)
{
    swx_atomicfile af = SWX_ATOMICFILE_INIT;

    if (swx_atomicfile_open(&af, path, 0666, 0) != 0)
        return -1;
    if (fprintf(af.f, "%u\n", port) <= 0) {
        swx_atomicfile_abort(&af);
        return -1;
    }
    return swx_atomicfile_commit(&af) != 0 ? -1 : 0;
}

int main(int argc, char **argv)
{
    struct sim_app app;
    struct sim_endpoint service, storage;
    sigset_t sigs;
    int sig = 0, rc, status = 1;

    memset(&app, 0, sizeof(app));
    memset(&service, 0, sizeof(service));
    memset(&storage, 0, sizeof(storage));
    service.fd = storage.fd = -1;
    rc = sim_options_parse(argc, argv, &app.opt);
    if (rc != 0) {
        sim_options_free(&app.opt);
        return rc > 0 ? 0 : 2;
    }
    sim_app_init(&app);

    sigemptyset(&sigs);
    sigaddset(&sigs, SIGINT);
    sigaddset(&sigs, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &sigs, NULL);
    signal(SIGPIPE, SIG_IGN);

    sim_ramp_init();
    if (sim_landmask_init() != 0 || sim_stats_new(&app.stats) != 0 ||
        sim_faults_new(&app.opt, &app.faults) != 0 ||
        sim_cache_new(app.opt.cache_mb << 20, &app.images) != 0 ||
        sim_caps_cache_new(&app.caps) != 0 || sim_testing_new(&app.testing) != 0) {
        fprintf(stderr, "seawx-sim: out of memory\n");
        goto done;
    }
    if (sim_accesslog_open(app.opt.access_log, &app.log) != 0) {
        fprintf(stderr, "seawx-sim: cannot open access log %s: %s\n", app.opt.access_log,
                strerror(errno));
        goto done;
    }
    /* Both sockets are bound before either daemon runs: handlers write both URLs
     * (capabilities, redirects) and must never see them unset. */
    service.fd = storage.fd = -1;
    if (sim_server_bind(&storage, &app, app.opt.storage_host, app.opt.storage_port, 1) != 0 ||
        sim_server_bind(&service, &app, app.opt.host, app.opt.port, 0) != 0)
        goto done;
    snprintf(app.storage_url, sizeof(app.storage_url), "http://%s", storage.hostport);
    snprintf(app.base_url, sizeof(app.base_url), "http://%s", service.hostport);
    app.storage = &storage;
    app.service = &service;
    if (sim_server_start(&storage) != 0 || sim_server_start(&service) != 0)
        goto done;

    if (app.opt.port_file != NULL && write_port_file(app.opt.port_file, service.port) != 0) {
        fprintf(stderr, "seawx-sim: cannot write port file %s: %s\n", app.opt.port_file,
                strerror(errno));
        goto done;
    }
    fprintf(stderr, "seawx-sim listening on %s\nseawx-sim storage host on %s\n", app.base_url,
            app.storage_url);
    fflush(stderr);

    while (sigwait(&sigs, &sig) != 0 || (sig != SIGINT && sig != SIGTERM))
        ;
    status = 0;
done:
    sim_app_stop(&app);
    sim_server_stop(&service);
    sim_server_stop(&storage);
    sim_testing_free(app.testing);
    sim_caps_cache_free(app.caps);
    sim_cache_free(app.images);
    sim_faults_free(app.faults);
    sim_stats_free(app.stats);
    sim_accesslog_close(app.log);
    sim_landmask_free();
    sim_app_destroy(&app);
    sim_options_free(&app.opt);
    return status;
}
