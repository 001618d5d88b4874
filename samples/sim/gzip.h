/* gzip.h: one-shot gzip (RFC 1952) compression of a memory block, for
 * Content-Encoding: gzip answers. */
#ifndef SIM_GZIP_H
#define SIM_GZIP_H

#include <stddef.h>

/* Compresses in (len bytes) at zlib level into a new malloc'd block. */
int sim_gzip(const void *in, size_t len, int level, char **out, size_t *out_len);

/* Whether an Accept-Encoding header value accepts gzip (a gzip, x-gzip or *
 * coding whose q is not 0). NULL accepts nothing. */
int sim_gzip_accepted(const char *accept_encoding);

#endif
