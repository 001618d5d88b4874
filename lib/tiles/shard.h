/*
 * shard.h: the partition of a seed's tiles into N shards that every shard
 * computes alone (internal; seawx/shard.h has what front ends use).
 *
 * Partition "hilbert-v1": the units are the plan's GetMap blocks (metatile
 * blocks of swx_tile_iter, every zoom), so a metatile never crosses shards.
 * Each block gets a key: the start of the range of a Hilbert curve of order D
 * (D the plan's deepest zoom) that its square covers at zoom D (an aligned
 * square of side 2^s is one contiguous range of 4^s), then its zoom; blocks are
 * ordered by key (unique) and cut into N contiguous runs balanced by tiles: a
 * block goes to shard floor((before + tiles / 2) * N / total), where `before`
 * counts the tiles of the blocks ordered ahead of it. A shard is one key range
 * [lo, hi), so neighbours, and a coarse block with the fine tiles it covers,
 * stay together, and each shard differs from the mean by at most one block.
 */
#ifndef SEAWX_SHARD_INT_H
#define SEAWX_SHARD_INT_H

#include "seawx/shard.h"
#include "seawx/tiles.h"
#include "sha256.h"

#include <stdint.h>

#define SWX_SHARD_PARTITION "hilbert-v1"
/* Blocks a partition orders at most (8 bytes each while it is computed). */
#define SWX_SHARD_MAX_BLOCKS (1u << 26)

typedef struct swx_shard_part {
    int k, n;        /* this shard, K of N (1-based) */
    int deep;        /* the curve's order: the deepest zoom */
    int metatile;    /* 1, 2, 4 or 8 */
    uint64_t lo, hi; /* this shard's keys: lo <= key < hi */
    uint64_t per_zoom[SWX_TILE_MAX_ZOOM + 1];
    uint64_t tiles; /* this shard's tiles of the area, every zoom */
} swx_shard_part;

/* The part of shard k (1 to n) of the area's tiles at the zooms (bit z set)
 * in blocks of metatile tiles a side. */
int swx_shard_part_new(swx_shard_part **out, const swx_area *a, uint32_t zooms, int metatile, int k,
                       int n);
void swx_shard_part_free(swx_shard_part *p);
/* The whole partition in one pass (for tests and tools that look at every
 * shard): lo[0..n] receives where each shard's keys start (lo[n] is
 * UINT64_MAX), tiles[0..n-1] (may be NULL) their tiles, per_zoom[0..24] (may
 * be NULL) shard k's tiles by zoom, deep the curve's order. */
int swx_shard_bounds(uint64_t *lo, uint64_t *tiles, uint64_t *per_zoom, int *deep,
                     const swx_area *a, uint32_t zooms, int metatile, int k, int n);
/* The shard (0-based) of a block given the bounds, or -1 when it is of none
 * (a zoom deeper than the plan's). */
int swx_shard_of(const uint64_t *lo, int n, int deep, int metatile, int z, uint32_t x0,
                 uint32_t y0);
/* 1 when the block of zoom z from tile (x0, y0) (as swx_tile_iter gives it)
 * is this shard's, else 0. */
int swx_shard_part_has(const swx_shard_part *p, int z, uint32_t x0, uint32_t y0);
/* Feeds what defines the area's tiles (its kind, bounds and geometry) to a
 * hash of the request. */
void swx_shard_hash_area(swx_sha256_ctx *c, const swx_area *a);

#endif
