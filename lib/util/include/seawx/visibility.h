/*
 * seawx/visibility.h: what the core exports. Everything else is hidden.
 *
 * Only what the GDAL plugin and the seawx command need, and what forms a
 * coherent API for another front end around it, is public (SWX_API, in
 * lib/<domain>/include/seawx/). Helpers, encoders, builders, hashing and the
 * HTTP engine's inner calls live in internal headers beside their sources;
 * the tests and fuzz targets link the static library and include those.
 *
 * Argument order, everywhere in the core: out-parameters first (what the
 * function writes for its caller; what comes back through `**out` belongs to
 * the caller), then the object acted on, then the inputs:
 *     int swx_wms_get_caps(swx_caps **out, swx_client *c, const char *bundle);
 *     int swx_iso8601_parse(int64_t *out, const char *s);
 * Three shapes are not out-parameters in this sense and keep their place:
 *   - a getter of one value returns it (swx_map_width(m), swx_layer_name(l));
 *   - a caller's array filled up to a maximum ends the list as the pair
 *     (out, max), and the function returns how many it wrote
 *     (swx_caps_runs, swx_timedim_nearest); a text buffer with its size is
 *     the same pair (msg, msgsz);
 *   - an object that is updated in place (a table being filled, a writer, a
 *     buffer, a scanner, a hash context) is the subject and comes right after
 *     the out-parameters, not among them; a FILE * is where output goes, an
 *     input.
 */
#ifndef SEAWX_VISIBILITY_H
#define SEAWX_VISIBILITY_H
#define SWX_API __attribute__((visibility("default")))
#endif
