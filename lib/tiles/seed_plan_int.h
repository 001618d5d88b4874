/*
 * seed_plan_int.h: the body of a seed's plan, shared by the seeding engine's
 * files (seed_plan.c builds it, seed_run.c reads it); not public. What the
 * domains above tiles read of a plan is in seed_plan.h.
 */
#ifndef SEAWX_SEED_PLAN_INT_H
#define SEAWX_SEED_PLAN_INT_H

#include "seawx/seed.h"

#include "shard.h"

#include <stddef.h>
#include <stdint.h>

/* One file of a plan: its area and tile counts. */
typedef struct plan_file {
    const swx_area *area; /* the plan's area, or own */
    swx_area *own;        /* a voyage's area for this file's valid time */
    swx_shard_part *part; /* a shard: its blocks of the area (NULL: all) */
    int own_part;         /* part is this file's to free */
    uint64_t per_zoom[SWX_TILE_MAX_ZOOM + 1];
    uint64_t tiles; /* of the area, or of the shard's part of it */
} plan_file;

struct swx_seed_plan {
    swx_seed_opts o;
    const swx_layer *layer;
    const char *style; /* as given: NULL sends none, the service's default */
    int64_t *times;
    size_t ntimes;
    int warp;
    char run[16];
    plan_file *files; /* one per file: ntimes, or 1 without times */
    size_t nfiles;
};

#endif
