/* app.h: the state of one running simulator, shared by all connection threads.
 *
 * Everything here is either set before the daemons start and then only read
 * (options, URLs), or is a module with its own lock. */
#ifndef SIM_APP_H
#define SIM_APP_H

#include <pthread.h>
#include <stdint.h>

#include "options.h"

struct sim_endpoint;
struct sim_stats;
struct sim_faults;
struct sim_accesslog;
struct sim_cache;
struct sim_caps_cache;
struct sim_testing;

struct sim_app {
    struct sim_options opt;
    struct sim_endpoint *service;
    struct sim_endpoint *storage;
    char base_url[128];    /* "http://127.0.0.1:PORT", no trailing slash */
    char storage_url[128]; /* "http://127.0.0.2:PORT" */
    struct sim_stats *stats;
    struct sim_faults *faults;
    struct sim_accesslog *log;
    struct sim_cache *images;
    struct sim_caps_cache *caps;
    struct sim_testing *testing;

    /* Interruptible sleeps: latency and slow answers end early on shutdown. */
    pthread_mutex_t stop_lock;
    pthread_cond_t stop_cond;
    int stopping;

    /* Renders running at once are limited, which bounds memory whatever the
     * number of connections (each render holds its band buffers and PNG). */
    pthread_mutex_t render_lock;
    pthread_cond_t render_cond;
    unsigned renders_active, renders_max;
};

int sim_app_init(struct sim_app *app);
void sim_app_destroy(struct sim_app *app);

/* The simulated clock: --now if given, else the real time truncated to the
 * minute (so cached capabilities and GetMap checks agree within a minute). */
int64_t sim_app_clock(const struct sim_app *app);
/* The real time, seconds. */
int64_t sim_app_real_time(void);

/* Sleeps ms milliseconds, or less if the simulator stops; -1 if it stopped. */
int sim_app_sleep_ms(struct sim_app *app, unsigned ms);
void sim_app_stop(struct sim_app *app);

void sim_app_render_enter(struct sim_app *app);
void sim_app_render_leave(struct sim_app *app);

/* Whether --deny-bundle named b. */
int sim_app_bundle_denied(const struct sim_app *app, const char *bundle);

#endif
