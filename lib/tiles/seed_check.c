/* seed_check.c: the seed's checker threads (lib/util/pool.h): answers handed
 * to them, and taken back and stored on the calling thread; and the fetch
 * engine's callback, which sends each answer there (or checks it on the
 * calling thread when there are none).
 */
#include "seawx/seed.h"

#include "pool.h"
#include "seed_run_int.h"
#include "seawx/error.h"

#include <stdio.h>
#include <unistd.h>

static int checker_run(void *ctx, swx_pool_item *item)
{
    (void)ctx;
    swx__seed_process_answer((answer *)item);
    return 0;
}

static void checker_drop(void *ctx, swx_pool_item *item)
{
    (void)ctx;
    swx__seed_answer_free((answer *)item); /* its job is on the live list, freed with it */
}

/* Starts the checkers, one per core; none on one core. */
void swx__seed_checkers_start(swx_seed *s)
{
    static const swx_pool_ops ops = {SWX_POOL_GIVE_BACK, checker_run, checker_drop};
    if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
        return;
    s->checkers = swx_pool_start(SEED_MAX_CHECKERS, &ops, NULL);
    s->checkers_cap = 4 * swx_pool_threads(s->checkers);
}

/* Takes the checked answers back and stores them, after waiting until at most
 * limit answers are pending (limit < 0: take what is there, do not wait).
 * Returns 0, or a negative code that stops the run. */
int swx__seed_pool_collect(swx_seed *s, int limit)
{
    int rc = 0;
    if (!s->checkers)
        return 0;
    for (;;) {
        swx_pool_item *list = swx_pool_take(s->checkers, limit);
        while (list) {
            answer *a = (answer *)list;
            list = list->next;
            if (!rc)
                rc = swx__seed_settle(s, a->j, swx__seed_store_answer(s, a), a->why);
            swx__seed_answer_free(a);
        }
        if (rc || !(limit >= 0 && swx_pool_pending(s->checkers) > limit))
            return rc;
    }
}

/* Hands an answer to the checkers, after making room. Returns 0, or a
 * negative code that stops the run. */
static int pool_submit(swx_seed *s, job *j, const swx_response *r)
{
    int rc = swx__seed_pool_collect(s, s->checkers_cap - 1);
    if (rc)
        return rc;
    answer *a = swx__seed_answer_new(s, j, r, 1);
    if (!a)
        return swx__seed_settle(s, j, swx_error_set(SWX_ENOMEM, "out of memory"), "");
    return swx_pool_submit(s->checkers, &a->link);
}

/* Waits for every pending answer: stored, or dropped once the run has
 * stopped. Returns 0 or the code that stopped it. */
int swx__seed_pool_finish(swx_seed *s)
{
    int rc = swx__seed_pool_collect(s, 0);
    while (s->checkers && swx_pool_pending(s->checkers) > 0) {
        swx_pool_item *list = swx_pool_take(s->checkers, 0);
        while (list) {
            swx_pool_item *next = list->next;
            swx__seed_answer_free((answer *)list);
            list = next;
        }
    }
    return rc;
}

static int is_permanent(int rc)
{
    return rc == SWX_EAUTH || rc == SWX_EFORBIDDEN || rc == SWX_ENOTFOUND || rc == SWX_EINVAL ||
           rc == SWX_ECONFIG || rc == SWX_EIO || rc == SWX_ENOMEM;
}

int swx__seed_fetched(void *ud, void *user, int rc, const swx_response *r)
{
    swx_seed *s = ud;
    job *j = user;
    char why[1024] = "";
    int crc = swx__seed_pool_collect(s, -1);
    if (crc) {
        swx__seed_job_free(s, j);
        return crc;
    }
    if (rc) {
        if (is_permanent(rc)) {
            s->stop_rc = rc;
            snprintf(s->stop_line, sizeof s->stop_line, "%s", swx_error_last());
            swx__seed_job_free(s, j);
            return rc;
        }
        snprintf(why, sizeof why, "%s", swx_error_last());
        swx__seed_job_failed(s, j, why);
        swx__seed_job_free(s, j);
        if (++s->consecutive_failures >= SEED_GIVE_UP_FAILURES) {
            s->stop_rc = rc;
            snprintf(s->stop_line, sizeof s->stop_line,
                     "giving up after %d failed requests in a row; the last: %.900s",
                     s->consecutive_failures, why);
            return rc;
        }
        swx__seed_notify(s);
        return 0;
    }
    if (s->checkers)
        return pool_submit(s, j, r);
    answer *a = swx__seed_answer_new(s, j, r, 0);
    if (!a)
        return swx__seed_settle(s, j, swx_error_set(SWX_ENOMEM, "out of memory"), "");
    swx__seed_process_answer(a);
    int t = swx__seed_store_answer(s, a);
    snprintf(why, sizeof why, "%s", a->why);
    swx__seed_answer_free(a);
    return swx__seed_settle(s, j, t, why);
}
