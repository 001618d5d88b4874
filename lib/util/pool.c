/* pool.c: worker threads beside a run (see pool.h). */
#include "pool.h"

#include "seawx/error.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define POOL_MAX_THREADS 16

struct swx_pool {
    swx_pool_ops ops;
    void *ctx;
    pthread_mutex_t mu;
    pthread_cond_t work; /* signalled when todo grows or closing is set */
    pthread_cond_t back; /* signalled when done grows, or pending falls */
    swx_pool_item *todo, *todo_tail, *done, *done_tail;
    int pending;
    int closing; /* no more items: workers end once todo is empty */
    int drop;    /* what is queued is dropped unrun (a failure, or a stop) */
    int rc;      /* SWX_POOL_KEEP: run()'s first failure */
    char msg[1024];
    int nthreads;
    pthread_t th[POOL_MAX_THREADS];
};

static void append(swx_pool_item **head, swx_pool_item **tail, swx_pool_item *it)
{
    it->next = NULL;
    if (*tail)
        (*tail)->next = it;
    else
        *head = it;
    *tail = it;
}

static void *worker(void *arg)
{
    swx_pool *p = arg;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->todo && !p->closing)
            pthread_cond_wait(&p->work, &p->mu);
        swx_pool_item *it = p->todo;
        if (!it)
            break;
        if (!(p->todo = it->next))
            p->todo_tail = NULL;
        int skip = p->drop;
        pthread_mutex_unlock(&p->mu);
        int rc = skip ? 0 : p->ops.run(p->ctx, it);
        int keep = p->ops.kind == SWX_POOL_KEEP;
        if (skip || keep)
            p->ops.drop(p->ctx, it);
        pthread_mutex_lock(&p->mu);
        if (skip || keep)
            p->pending--;
        else
            append(&p->done, &p->done_tail, it);
        if (keep && rc && !p->rc) {
            p->rc = rc;
            snprintf(p->msg, sizeof p->msg, "%s", swx_error_last());
            p->drop = 1;
        }
        pthread_cond_signal(&p->back);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

swx_pool *swx_pool_start(int max, const swx_pool_ops *ops, void *ctx)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int n = (int)(cpus < 1 ? 1 : cpus > POOL_MAX_THREADS ? POOL_MAX_THREADS : cpus);
    if (n > max)
        n = max;
    if (n < 1)
        return NULL;
    swx_pool *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->ops = *ops;
    p->ctx = ctx;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->work, NULL);
    pthread_cond_init(&p->back, NULL);
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    while (p->nthreads < n && pthread_create(&p->th[p->nthreads], NULL, worker, p) == 0)
        p->nthreads++;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (!p->nthreads) {
        pthread_cond_destroy(&p->back);
        pthread_cond_destroy(&p->work);
        pthread_mutex_destroy(&p->mu);
        free(p);
        return NULL;
    }
    return p;
}

int swx_pool_threads(const swx_pool *p)
{
    return p ? p->nthreads : 0;
}

int swx_pool_submit(swx_pool *p, swx_pool_item *item)
{
    pthread_mutex_lock(&p->mu);
    int rc = p->ops.kind == SWX_POOL_KEEP ? p->rc : 0;
    if (rc == 0) {
        append(&p->todo, &p->todo_tail, item);
        p->pending++;
        pthread_cond_signal(&p->work);
    }
    pthread_mutex_unlock(&p->mu);
    if (rc)
        p->ops.drop(p->ctx, item);
    return rc;
}

int swx_pool_pending(swx_pool *p)
{
    pthread_mutex_lock(&p->mu);
    int n = p->pending;
    pthread_mutex_unlock(&p->mu);
    return n;
}

swx_pool_item *swx_pool_take(swx_pool *p, int limit)
{
    pthread_mutex_lock(&p->mu);
    while (limit >= 0 && !p->done && p->pending > limit)
        pthread_cond_wait(&p->back, &p->mu);
    swx_pool_item *list = p->done;
    p->done = p->done_tail = NULL;
    for (swx_pool_item *it = list; it; it = it->next)
        p->pending--;
    pthread_mutex_unlock(&p->mu);
    return list;
}

int swx_pool_stop(swx_pool *p, int rc)
{
    if (!p)
        return rc;
    pthread_mutex_lock(&p->mu);
    p->closing = 1;
    if (rc)
        p->drop = 1;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->mu);
    for (int k = 0; k < p->nthreads; k++)
        pthread_join(p->th[k], NULL);
    for (swx_pool_item *it = p->done; it;) {
        swx_pool_item *next = it->next;
        p->ops.drop(p->ctx, it);
        it = next;
    }
    /* A worker's failure, also when it is what stopped the run. */
    if (p->rc != 0 && (rc == 0 || rc == p->rc))
        rc = swx_error_set(p->rc, "%s", p->msg);
    pthread_cond_destroy(&p->back);
    pthread_cond_destroy(&p->work);
    pthread_mutex_destroy(&p->mu);
    free(p);
    return rc;
}
