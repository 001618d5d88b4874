/* test_pool.c: swx_pool (lib/util/pool.c): items given back are each done
 * once and taken once; a kept failure drops what was queued after it, is
 * returned by submit and by stop with its message, and gives way to the
 * run's own failure; workers run with SIGINT and SIGTERM blocked; every item
 * is freed once. */
#include "cu_support.h"

#include "pool.h"
#include "seawx/error.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

typedef struct item {
    swx_pool_item link;
    int n;
    int square; /* what run() made */
    int runs;
} item;

typedef struct ctx {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int gate_open; /* run() of item 0 waits for it */
    int fail_at;   /* run() of this item fails (-1: none) */
    int ran, freed;
    int signals_blocked, signals_open;
} ctx;

static int run(void *ud, swx_pool_item *it)
{
    ctx *c = ud;
    item *x = (item *)it;
    sigset_t cur;
    pthread_sigmask(SIG_BLOCK, NULL, &cur);
    int blocked = sigismember(&cur, SIGINT) == 1 && sigismember(&cur, SIGTERM) == 1;
    pthread_mutex_lock(&c->mu);
    while (x->n == 0 && !c->gate_open)
        pthread_cond_wait(&c->cv, &c->mu);
    c->ran++;
    if (blocked)
        c->signals_blocked++;
    else
        c->signals_open++;
    pthread_mutex_unlock(&c->mu);
    x->square = x->n * x->n;
    x->runs++;
    if (x->n == c->fail_at)
        return swx_error_set(SWX_EIO, "item %d could not be done", x->n);
    return 0;
}

static void drop(void *ud, swx_pool_item *it)
{
    ctx *c = ud;
    pthread_mutex_lock(&c->mu);
    c->freed++;
    pthread_mutex_unlock(&c->mu);
    free(it);
}

static void ctx_init(ctx *c, int fail_at)
{
    memset(c, 0, sizeof *c);
    pthread_mutex_init(&c->mu, NULL);
    pthread_cond_init(&c->cv, NULL);
    c->fail_at = fail_at;
}

static void open_gate(ctx *c)
{
    pthread_mutex_lock(&c->mu);
    c->gate_open = 1;
    pthread_cond_broadcast(&c->cv);
    pthread_mutex_unlock(&c->mu);
}

static item *new_item(int n)
{
    item *x = calloc(1, sizeof *x);
    x->n = n;
    return x;
}

#define N 200

static void test_give_back(void)
{
    static const swx_pool_ops ops = {SWX_POOL_GIVE_BACK, run, drop};
    ctx c;
    ctx_init(&c, 7); /* a failure is the item's to carry: nothing is kept */
    swx_pool *p = swx_pool_start(4, &ops, &c);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT(swx_pool_threads(p) >= 1 && swx_pool_threads(p) <= 4);
    /* Item 0 holds a worker: nothing is back yet, and limit < 0 does not
     * wait; a limit at or above what is pending does not wait either. */
    CU_ASSERT_EQUAL(swx_pool_submit(p, &new_item(0)->link), 0);
    CU_ASSERT_PTR_NULL(swx_pool_take(p, -1));
    CU_ASSERT_PTR_NULL(swx_pool_take(p, 1));
    CU_ASSERT_EQUAL(swx_pool_pending(p), 1);
    for (int n = 1; n < N; n++)
        CU_ASSERT_EQUAL(swx_pool_submit(p, &new_item(n)->link), 0);
    open_gate(&c);
    int seen[N] = {0}, taken = 0, wrong = 0;
    while (swx_pool_pending(p) > 0) {
        swx_pool_item *list = swx_pool_take(p, 0);
        CU_ASSERT_PTR_NOT_NULL(list); /* waited for something */
        while (list) {
            item *x = (item *)list;
            list = list->next;
            if (x->square != x->n * x->n || x->runs != 1)
                wrong++;
            seen[x->n]++;
            taken++;
            free(x);
        }
    }
    CU_ASSERT_EQUAL(taken, N);
    CU_ASSERT_EQUAL(wrong, 0);
    int once = 0;
    for (int n = 0; n < N; n++)
        once += seen[n] == 1;
    CU_ASSERT_EQUAL(once, N);
    CU_ASSERT_EQUAL(c.signals_blocked, N);
    CU_ASSERT_EQUAL(c.signals_open, 0);
    /* A run that failed elsewhere, with nothing kept: its code and message. */
    swx_error_set(SWX_ENET, "the run's own failure");
    CU_ASSERT_EQUAL(swx_pool_stop(p, SWX_ENET), SWX_ENET);
    CU_ASSERT_STRING_EQUAL(swx_error_last(), "the run's own failure");
    CU_ASSERT_EQUAL(c.freed, 0); /* all were taken */
}

/* Items given back and not taken are freed when the pool stops. */
static void test_give_back_not_taken(void)
{
    static const swx_pool_ops ops = {SWX_POOL_GIVE_BACK, run, drop};
    ctx c;
    ctx_init(&c, -1);
    c.gate_open = 1;
    swx_pool *p = swx_pool_start(2, &ops, &c);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    for (int n = 0; n < 20; n++)
        CU_ASSERT_EQUAL(swx_pool_submit(p, &new_item(n)->link), 0);
    CU_ASSERT_EQUAL(swx_pool_stop(p, 0), 0);
    CU_ASSERT_EQUAL(c.freed, 20);
    CU_ASSERT(c.ran <= 20);
}

static void test_keep_failure(void)
{
    static const swx_pool_ops ops = {SWX_POOL_KEEP, run, drop};
    ctx c;
    ctx_init(&c, 0); /* item 0 fails, once the gate opens */
    /* One worker, so that the items after it are still queued. */
    swx_pool *p = swx_pool_start(1, &ops, &c);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL(swx_pool_threads(p), 1);
    for (int n = 0; n < 10; n++)
        CU_ASSERT_EQUAL(swx_pool_submit(p, &new_item(n)->link), 0);
    open_gate(&c);
    /* Done items are not given back; pending falls to 0 as the rest are
     * dropped unrun. */
    while (swx_pool_pending(p) > 0)
        CU_ASSERT_PTR_NULL(swx_pool_take(p, 0));
    CU_ASSERT_EQUAL(c.ran, 1);
    CU_ASSERT_EQUAL(c.freed, 10);
    /* After the failure an item is refused with its code, and freed. */
    CU_ASSERT_EQUAL(swx_pool_submit(p, &new_item(11)->link), SWX_EIO);
    CU_ASSERT_EQUAL(c.freed, 11);
    swx_error_set(SWX_EINVAL, "something else");
    CU_ASSERT_EQUAL(swx_pool_stop(p, SWX_EIO), SWX_EIO);
    CU_ASSERT_STRING_EQUAL(swx_error_last(), "item 0 could not be done");
    CU_ASSERT_EQUAL(c.ran, 1);
}

/* The run's own failure wins over a kept one of another code; with rc 0
 * the kept failure is returned. */
static void test_keep_which_failure(void)
{
    static const swx_pool_ops ops = {SWX_POOL_KEEP, run, drop};
    for (int own = 0; own < 2; own++) {
        ctx c;
        ctx_init(&c, 3);
        c.gate_open = 1;
        swx_pool *p = swx_pool_start(4, &ops, &c);
        CU_ASSERT_PTR_NOT_NULL_FATAL(p);
        for (int n = 1; n <= 5; n++)
            swx_pool_submit(p, &new_item(n)->link);
        while (swx_pool_pending(p) > 0)
            swx_pool_take(p, 0);
        if (own) {
            swx_error_set(SWX_ECANCEL, "stopped by the caller");
            CU_ASSERT_EQUAL(swx_pool_stop(p, SWX_ECANCEL), SWX_ECANCEL);
            CU_ASSERT_STRING_EQUAL(swx_error_last(), "stopped by the caller");
        } else {
            CU_ASSERT_EQUAL(swx_pool_stop(p, 0), SWX_EIO);
            CU_ASSERT_STRING_EQUAL(swx_error_last(), "item 3 could not be done");
        }
        CU_ASSERT_EQUAL(c.freed, 5);
    }
    CU_ASSERT_EQUAL(swx_pool_stop(NULL, SWX_ENET), SWX_ENET);
    CU_ASSERT_EQUAL(swx_pool_threads(NULL), 0);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("pool", NULL, NULL);
    CU_add_test(s, "items given back, each done and taken once", test_give_back);
    CU_add_test(s, "items given back and not taken are freed", test_give_back_not_taken);
    CU_add_test(s, "a kept failure drops what is queued after it", test_keep_failure);
    CU_add_test(s, "which failure stop returns", test_keep_which_failure);
    return cu_run();
}
