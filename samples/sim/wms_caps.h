/* wms_caps.h: WMS GetCapabilities: generation of the document in the service's
 * nested shape, and a per-bundle cache of it (plain and gzip-encoded). */
#ifndef SIM_WMS_CAPS_H
#define SIM_WMS_CAPS_H

#include <stdint.h>

#include "buf.h"
#include "wms.h"

struct sim_app;
struct sim_caps_cache;

int sim_caps_cache_new(struct sim_caps_cache **out);
void sim_caps_cache_free(struct sim_caps_cache *c);
void sim_caps_cache_clear(struct sim_caps_cache *c);

/* Writes the WMS 1.3.0 capabilities of bundle b at the given clock. */
int sim_wms_caps_build(const struct sim_app *app, const struct sim_bundle *b, int64_t clock,
                       struct sim_buf *out);

int sim_wms_getcapabilities(struct sim_wms_req *w);

#endif
