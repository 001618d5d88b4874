/*
 * arena.h: a region allocator for data that lives and dies together (internal).
 *
 * Memory comes from chunks of `chunk` bytes (a request larger than a quarter of
 * a chunk gets a block of its own); nothing is freed before swx_arena_free(),
 * which releases everything at once. `limit` caps the bytes taken from malloc
 * (0: no cap of its own, for callers whose input is already bounded); an
 * allocation past it fails like one that runs out of memory.
 */
#ifndef SWX_ARENA_H
#define SWX_ARENA_H

#include <stddef.h>

typedef struct swx_arena_chunk swx_arena_chunk;

typedef struct swx_arena {
    swx_arena_chunk *head; /* the chunk being filled first */
    size_t chunk;          /* bytes of an ordinary chunk */
    size_t limit;          /* largest total, 0 for none */
    size_t total;          /* bytes taken so far */
} swx_arena;

void swx_arena_init(swx_arena *a, size_t chunk, size_t limit);
/* n bytes aligned for any type; NULL on ENOMEM or past the limit. */
void *swx_arena_alloc(swx_arena *a, size_t n);
/* A NUL-terminated copy of n bytes of s, packed without alignment; NULL on
 * ENOMEM or past the limit (and for s NULL). */
char *swx_arena_strndup(swx_arena *a, const char *s, size_t n);
/* Frees every chunk; the arena may be used again afterwards. */
void swx_arena_free(swx_arena *a);

#endif
