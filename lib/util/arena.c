/* arena.c: a region allocator (see arena.h). */
#include "arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct swx_arena_chunk {
    swx_arena_chunk *next;
    size_t used, cap;
    max_align_t data[]; /* cap bytes */
};

void swx_arena_init(swx_arena *a, size_t chunk, size_t limit)
{
    a->head = NULL;
    a->chunk = chunk ? chunk : 4096;
    a->limit = limit;
    a->total = 0;
}

/* A fresh chunk with room for n bytes, linked in; NULL on ENOMEM or limit. */
static swx_arena_chunk *grow(swx_arena *a, size_t n)
{
    size_t cap = n > a->chunk / 4 ? n : a->chunk;
    if (cap > SIZE_MAX - sizeof(swx_arena_chunk) ||
        (a->limit && (cap > a->limit || a->total > a->limit - cap)))
        return NULL;
    swx_arena_chunk *nc = malloc(sizeof *nc + cap);
    if (!nc)
        return NULL;
    a->total += cap;
    nc->cap = cap;
    nc->used = 0;
    swx_arena_chunk *c = a->head;
    if (cap != a->chunk && c) { /* a big block of its own: keep filling the current chunk */
        nc->next = c->next;
        c->next = nc;
    } else {
        nc->next = c;
        a->head = nc;
    }
    return nc;
}

void *swx_arena_alloc(swx_arena *a, size_t n)
{
    const size_t align = _Alignof(max_align_t);
    if (n > SIZE_MAX - align)
        return NULL;
    n = n ? (n + align - 1) / align * align : align;
    swx_arena_chunk *c = a->head;
    size_t at = c ? (c->used + align - 1) / align * align : 0;
    if (!c || at > c->cap || c->cap - at < n) {
        if (!(c = grow(a, n)))
            return NULL;
        at = 0;
    }
    c->used = at + n;
    return (char *)c->data + at;
}

char *swx_arena_strndup(swx_arena *a, const char *s, size_t n)
{
    if (!s || n == SIZE_MAX)
        return NULL;
    swx_arena_chunk *c = a->head;
    if (!c || c->cap - c->used < n + 1) {
        if (!(c = grow(a, n + 1)))
            return NULL;
    }
    char *p = (char *)c->data + c->used;
    memcpy(p, s, n);
    p[n] = '\0';
    c->used += n + 1;
    return p;
}

void swx_arena_free(swx_arena *a)
{
    for (swx_arena_chunk *c = a->head, *next; c; c = next) {
        next = c->next;
        free(c);
    }
    a->head = NULL;
    a->total = 0;
}
