/* app.c: shared simulator state (see app.h). */
#include "app.h"

#include <errno.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int sim_app_init(struct sim_app *app)
{
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    pthread_condattr_t ca;

    pthread_mutex_init(&app->stop_lock, NULL);
    /* Monotonic waits: a clock change must not stretch a sleep. */
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&app->stop_cond, &ca);
    pthread_condattr_destroy(&ca);
    app->stopping = 0;
    pthread_mutex_init(&app->render_lock, NULL);
    pthread_cond_init(&app->render_cond, NULL);
    app->renders_active = 0;
    app->renders_max = (unsigned)(ncpu > 0 ? (ncpu > 32 ? 64 : ncpu * 2) : 4);
    return 0;
}

void sim_app_destroy(struct sim_app *app)
{
    pthread_mutex_destroy(&app->stop_lock);
    pthread_cond_destroy(&app->stop_cond);
    pthread_mutex_destroy(&app->render_lock);
    pthread_cond_destroy(&app->render_cond);
}

int64_t sim_app_real_time(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec;
}

int64_t sim_app_clock(const struct sim_app *app)
{
    int64_t t;

    if (app->opt.have_now)
        return app->opt.now;
    t = sim_app_real_time();
    return t - ((t % 60) + 60) % 60;
}

int sim_app_sleep_ms(struct sim_app *app, unsigned ms)
{
    struct timespec until;
    int stopped;

    clock_gettime(CLOCK_MONOTONIC, &until);
    until.tv_sec += ms / 1000;
    until.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&app->stop_lock);
    while (!app->stopping) {
        if (pthread_cond_timedwait(&app->stop_cond, &app->stop_lock, &until) == ETIMEDOUT)
            break;
    }
    stopped = app->stopping;
    pthread_mutex_unlock(&app->stop_lock);
    return stopped ? -1 : 0;
}

void sim_app_stop(struct sim_app *app)
{
    pthread_mutex_lock(&app->stop_lock);
    app->stopping = 1;
    pthread_cond_broadcast(&app->stop_cond);
    pthread_mutex_unlock(&app->stop_lock);
}

void sim_app_render_enter(struct sim_app *app)
{
    pthread_mutex_lock(&app->render_lock);
    while (app->renders_active >= app->renders_max)
        pthread_cond_wait(&app->render_cond, &app->render_lock);
    app->renders_active++;
    pthread_mutex_unlock(&app->render_lock);
}

void sim_app_render_leave(struct sim_app *app)
{
    pthread_mutex_lock(&app->render_lock);
    app->renders_active--;
    pthread_cond_signal(&app->render_cond);
    pthread_mutex_unlock(&app->render_lock);
}

int sim_app_bundle_denied(const struct sim_app *app, const char *bundle)
{
    for (size_t i = 0; i < app->opt.ndeny; i++)
        if (strcmp(app->opt.deny[i], bundle) == 0)
            return 1;
    return 0;
}
