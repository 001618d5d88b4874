/*
 * pool.h: a few worker threads beside a run (internal).
 *
 * The run hands items in (swx_pool_submit); a worker takes them in the order
 * they came and does run() on each. What happens to an item then is the
 * pool's kind:
 *   - SWX_POOL_GIVE_BACK: the item waits for the run to take it back
 *     (swx_pool_take), so what it made is stored on the run's own thread
 *     (the seeder's checkers: files and counts stay on one thread);
 *   - SWX_POOL_KEEP: the worker drops it (drop()), and run()'s first failure
 *     is kept, with its message, for swx_pool_stop; items queued after it
 *     are dropped unrun (the window decoders: each answer decoded straight
 *     into its place, a failure fails the read).
 * Workers start with SIGINT and SIGTERM blocked, so that those signals
 * reach the run's thread, whose handlers set the flags the run stops on.
 *
 * The seeder (lib/tiles/seed_check.c) and the WMS window reader (lib/wms/wms_map.c)
 * each use one.
 */
#ifndef SWX_POOL_H
#define SWX_POOL_H

#include <stddef.h>

typedef struct swx_pool swx_pool;

/* The first member of the caller's item (items are handed back as this). */
typedef struct swx_pool_item {
    struct swx_pool_item *next;
} swx_pool_item;

typedef enum swx_pool_kind { SWX_POOL_GIVE_BACK, SWX_POOL_KEEP } swx_pool_kind;

typedef struct swx_pool_ops {
    swx_pool_kind kind;
    /* On a worker: the item's work. 0, or a failure code with its message
     * set (swx_error_set); SWX_POOL_GIVE_BACK ignores the code (the item
     * carries what it needs to say). */
    int (*run)(void *ctx, swx_pool_item *item);
    /* Frees an item: one dropped unrun, one done (SWX_POOL_KEEP), one given
     * back and not taken when the pool stops. */
    void (*drop)(void *ctx, swx_pool_item *item);
} swx_pool_ops;

/* Starts one worker per processor, at most max; NULL when no worker starts
 * (or out of memory): the caller then does the work on its own thread. */
swx_pool *swx_pool_start(int max, const swx_pool_ops *ops, void *ctx);
/* Workers started. */
int swx_pool_threads(const swx_pool *p);
/* Queues an item. 0; or, for SWX_POOL_KEEP after a failure, that failure's
 * code (the item is dropped; the message is given by swx_pool_stop). */
int swx_pool_submit(swx_pool *p, swx_pool_item *item);
/* Items handed in and not yet taken back (SWX_POOL_GIVE_BACK) or not yet
 * done (SWX_POOL_KEEP). */
int swx_pool_pending(swx_pool *p);
/* SWX_POOL_GIVE_BACK: the items done, oldest first, linked by next (NULL:
 * none). limit >= 0 first waits while none is done and more than limit are
 * pending; limit < 0 does not wait. */
swx_pool_item *swx_pool_take(swx_pool *p, int limit);
/* Lets the workers finish what is queued (or drops it unrun when rc is not
 * 0: the run failed, or is over), waits for them and frees the pool; items
 * given back and not taken are dropped. Returns rc, or, when rc is 0 or the kept failure's
 * own code (the run stopped on what swx_pool_submit returned), the kept
 * failure with its message set again. Accepts NULL (returns rc). */
int swx_pool_stop(swx_pool *p, int rc);

#endif
