/* blob.h: immutable, reference-counted byte blocks.
 *
 * Cached answers (capabilities documents, PNG images) are shared between the
 * cache and the connections that are still sending them; whoever drops the
 * last reference frees the block. */
#ifndef SIM_BLOB_H
#define SIM_BLOB_H

#include <stddef.h>

struct sim_blob;

/* Takes ownership of data (malloc'd); on failure data is freed and NULL returned. */
struct sim_blob *sim_blob_adopt(void *data, size_t len);
const unsigned char *sim_blob_data(const struct sim_blob *b);
size_t sim_blob_len(const struct sim_blob *b);
struct sim_blob *sim_blob_ref(struct sim_blob *b);
/* Accepts NULL. */
void sim_blob_unref(struct sim_blob *b);

#endif
