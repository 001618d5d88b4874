/* blob.c: reference-counted immutable byte blocks (see blob.h). */
#include "blob.h"

#include <stdatomic.h>
#include <stdlib.h>

struct sim_blob {
    atomic_size_t refs;
    size_t len;
    unsigned char *data;
};

struct sim_blob *sim_blob_adopt(void *data, size_t len)
{
    struct sim_blob *b = malloc(sizeof(*b));

    if (b == NULL) {
        free(data);
        return NULL;
    }
    atomic_init(&b->refs, 1);
    b->len = len;
    b->data = data;
    return b;
}

const unsigned char *sim_blob_data(const struct sim_blob *b)
{
    return b->data;
}

size_t sim_blob_len(const struct sim_blob *b)
{
    return b->len;
}

struct sim_blob *sim_blob_ref(struct sim_blob *b)
{
    atomic_fetch_add_explicit(&b->refs, 1, memory_order_relaxed);
    return b;
}

void sim_blob_unref(struct sim_blob *b)
{
    if (b == NULL)
        return;
    if (atomic_fetch_sub_explicit(&b->refs, 1, memory_order_acq_rel) == 1) {
        free(b->data);
        free(b);
    }
}
