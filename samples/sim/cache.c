/* cache.c: LRU blob cache (see cache.h).
 *
 * A chained hash table (power-of-two buckets, doubled when the load passes 2)
 * and a doubly linked recency list, both under one mutex: operations are a few
 * hundred nanoseconds, far below the cost of the HTTP exchange around them. */
#include "cache.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct entry {
    struct entry *chain;       /* next in the bucket */
    struct entry *prev, *next; /* recency list, most recent at head */
    uint64_t hash;
    size_t cost;
    struct sim_blob *blob;
    char key[];
};

struct sim_cache {
    pthread_mutex_t lock;
    struct entry **buckets;
    size_t nbuckets; /* power of two */
    size_t entries;
    size_t bytes, max_bytes;
    struct entry *head, *tail;
    uint64_t hits, misses;
};

static uint64_t fnv1a(const char *s)
{
    uint64_t h = 1469598103934665603ull;

    for (; *s != '\0'; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ull;
    }
    return h;
}

int sim_cache_new(size_t max_bytes, struct sim_cache **out)
{
    struct sim_cache *c;

    *out = NULL;
    if (max_bytes == 0)
        return 0;
    c = calloc(1, sizeof(*c));
    if (c == NULL)
        return -1;
    c->nbuckets = 1024;
    c->buckets = calloc(c->nbuckets, sizeof(*c->buckets));
    if (c->buckets == NULL) {
        free(c);
        return -1;
    }
    c->max_bytes = max_bytes;
    pthread_mutex_init(&c->lock, NULL);
    *out = c;
    return 0;
}

static void list_unlink(struct sim_cache *c, struct entry *e)
{
    if (e->prev != NULL)
        e->prev->next = e->next;
    else
        c->head = e->next;
    if (e->next != NULL)
        e->next->prev = e->prev;
    else
        c->tail = e->prev;
    e->prev = e->next = NULL;
}

static void list_push_front(struct sim_cache *c, struct entry *e)
{
    e->prev = NULL;
    e->next = c->head;
    if (c->head != NULL)
        c->head->prev = e;
    c->head = e;
    if (c->tail == NULL)
        c->tail = e;
}

static struct entry **find_slot(struct sim_cache *c, const char *key, uint64_t h)
{
    struct entry **pp = &c->buckets[h & (c->nbuckets - 1)];

    while (*pp != NULL && ((*pp)->hash != h || strcmp((*pp)->key, key) != 0))
        pp = &(*pp)->chain;
    return pp;
}

static void remove_entry(struct sim_cache *c, struct entry *e)
{
    struct entry **pp = find_slot(c, e->key, e->hash);

    *pp = e->chain;
    list_unlink(c, e);
    c->entries--;
    c->bytes -= e->cost;
    sim_blob_unref(e->blob);
    free(e);
}

static void grow(struct sim_cache *c)
{
    size_t n = c->nbuckets * 2;
    struct entry **nb = calloc(n, sizeof(*nb));

    if (nb == NULL)
        return; /* keep the longer chains */
    for (size_t i = 0; i < c->nbuckets; i++) {
        struct entry *e = c->buckets[i];
        while (e != NULL) {
            struct entry *next = e->chain;
            e->chain = nb[e->hash & (n - 1)];
            nb[e->hash & (n - 1)] = e;
            e = next;
        }
    }
    free(c->buckets);
    c->buckets = nb;
    c->nbuckets = n;
}

struct sim_blob *sim_cache_get(struct sim_cache *c, const char *key)
{
    uint64_t h;
    struct entry *e;
    struct sim_blob *b = NULL;

    if (c == NULL)
        return NULL;
    h = fnv1a(key);
    pthread_mutex_lock(&c->lock);
    e = *find_slot(c, key, h);
    if (e != NULL) {
        list_unlink(c, e);
        list_push_front(c, e);
        b = sim_blob_ref(e->blob);
        c->hits++;
    } else {
        c->misses++;
    }
    pthread_mutex_unlock(&c->lock);
    return b;
}

void sim_cache_put(struct sim_cache *c, const char *key, struct sim_blob *b)
{
    size_t klen, cost;
    uint64_t h;
    struct entry *e, **pp;

    if (c == NULL)
        return;
    klen = strlen(key);
    cost = sim_blob_len(b) + klen + sizeof(struct entry) + 64;
    if (cost > c->max_bytes / 8)
        return;
    e = malloc(sizeof(*e) + klen + 1);
    if (e == NULL)
        return;
    memcpy(e->key, key, klen + 1);
    h = fnv1a(key);
    e->hash = h;
    e->cost = cost;
    e->blob = sim_blob_ref(b);
    e->chain = NULL;
    e->prev = e->next = NULL;

    pthread_mutex_lock(&c->lock);
    pp = find_slot(c, key, h);
    if (*pp != NULL)
        remove_entry(c, *pp);
    while (c->bytes + cost > c->max_bytes && c->tail != NULL)
        remove_entry(c, c->tail);
    pp = find_slot(c, key, h);
    *pp = e;
    list_push_front(c, e);
    c->entries++;
    c->bytes += cost;
    if (c->entries > c->nbuckets * 2)
        grow(c);
    pthread_mutex_unlock(&c->lock);
}

void sim_cache_clear(struct sim_cache *c)
{
    if (c == NULL)
        return;
    pthread_mutex_lock(&c->lock);
    while (c->tail != NULL)
        remove_entry(c, c->tail);
    pthread_mutex_unlock(&c->lock);
}

void sim_cache_stats(struct sim_cache *c, uint64_t *hits, uint64_t *misses, size_t *bytes,
                     size_t *entries)
{
    *hits = *misses = 0;
    *bytes = *entries = 0;
    if (c == NULL)
        return;
    pthread_mutex_lock(&c->lock);
    *hits = c->hits;
    *misses = c->misses;
    *bytes = c->bytes;
    *entries = c->entries;
    pthread_mutex_unlock(&c->lock);
}

void sim_cache_free(struct sim_cache *c)
{
    if (c == NULL)
        return;
    sim_cache_clear(c);
    pthread_mutex_destroy(&c->lock);
    free(c->buckets);
    free(c);
}
