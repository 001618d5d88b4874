/*
 * storm_priv.h: the storm module's own functions (internal): names, copies, the
 * streaming reader and page requests that only the library uses, and building
 * storms: the JSON parser of storm_json.c and the KML reader of kmz.c fill the
 * same model through these.
 *
 * A storm owns one arena; every string of the storm and of its positions lives
 * there and is freed with the storm.
 */
#ifndef SWX_STORM_PRIV_H
#define SWX_STORM_PRIV_H

#include "seawx/storm.h"
#include "http_core.h"

/* ---- the module's own part of the model (not exported) ---- */

const char *swx_storm_category_name(int rank); /* "Category 3 Hurricane / Typhoon" */
/* Basin and sub-basin codes of the interface (NA, SA, EP, WP, NI, SI, SP;
 * CS, GM, MM, CP, AS, BB, WA, EA). Return 1 when known. */
int swx_storm_basin_known(const char *code);
int swx_storm_subbasin_known(const char *code);

/* 34, 50, 64 knots for SWX_STORM_R34.. */
int swx_storm_radii_kt(int threshold);
/* Parses one storm object (JSON text of len bytes). */
int swx_storm_parse_json(swx_storm **out, const char *json, size_t len);
void swx_storm_free(swx_storm *s);
/* Title for maps: the name, or the ATCF id when the storm is unnamed. */
const char *swx_storm_title(const swx_storm *s);
/* Status "active" / "inactive" / NULL. */
const char *swx_storm_status(const swx_storm *s);
/* Incremental reader of a JSON array of storms: feed bytes as they come, each
 * complete element is parsed and handed to fn. Memory stays bounded by the
 * largest element. */
typedef struct swx_storm_reader swx_storm_reader;
int swx_storm_reader_new(swx_storm_reader **out, swx_storm_fn fn, void *ud);
int swx_storm_reader_feed(swx_storm_reader *r, const char *data, size_t len);
/* Checks that the array was complete. */
int swx_storm_reader_finish(swx_storm_reader *r);
/* Storms read so far. */
size_t swx_storm_reader_count(const swx_storm_reader *r);
void swx_storm_reader_free(swx_storm_reader *r);
/* The request for one page (kmz: /storm/kmz). *qs is the caller's. */
int swx_storm_request(swx_request *req, swx_query **qs, const swx_storm_query *q, int kmz,
                      long offset);
/* A deep copy. */
int swx_storm_copy(swx_storm **out, const swx_storm *s);

/* ---- building storms ---- */

/* A storm with every field null and no positions. */
int swx_storm_new_empty(swx_storm **out);
/* A copy of n bytes of str in the storm's arena (NULL when str is NULL). */
const char *swx_storm_str(swx_storm *s, const char *str, size_t n);
/* Appends a null position to the observed (forecast = 0) or forecast track. */
int swx_storm_add_pos(swx_storm_pos **out, swx_storm *s, int forecast);
void swx_storm_pos_init(swx_storm_pos *p);
/* Derives what follows from the fields: category ranks, ATCF parts,
 * longitudes in [-180, 180). Checks coordinates: SWX_EPARSE when a position
 * has no valid lat/lon. */
int swx_storm_finish(swx_storm *s);

/* The streaming reader between documents: ready for a new array, keeping its
 * buffers (and its high-water mark). */
void swx_storm_reader_reset(swx_storm_reader *r);
/* The most JSON bytes the reader held at once: the part of a storm kept
 * across chunks plus the chunk being fed. Bounded by the largest storm plus
 * one chunk when fed as the answer arrives; the whole document when fed in
 * one piece. */
size_t swx_storm_reader_held_max(const swx_storm_reader *r);
/* swx_storm_fetch, also telling the reader's high-water mark over all pages
 * (held_max may be NULL). */
int swx_storm_fetch_held(int *pages, size_t *held_max, swx_client *c, const swx_storm_query *q,
                         swx_storm_fn fn, void *ud);

#endif
