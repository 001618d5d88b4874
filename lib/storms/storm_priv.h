/*
 * storm_priv.h: building storms (internal): the JSON parser of storm_json.c and the
 * KML reader of kmz.c fill the same model through these.
 *
 * A storm owns one arena; every string of the storm and of its positions lives
 * there and is freed with the storm.
 */
#ifndef SWX_STORM_PRIV_H
#define SWX_STORM_PRIV_H

#include "seawx/storm.h"

/* A storm with every field null and no positions. */
int swx_storm_new_empty(swx_storm **out);
/* A copy of n bytes of str in the storm's arena (NULL when str is NULL). */
const char *swx_storm_str(swx_storm *s, const char *str, size_t n);
/* Appends a null position to the observed (forecast = 0) or forecast track. */
int swx_storm_add_pos(swx_storm *s, int forecast, swx_storm_pos **out);
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
int swx_storm_fetch_held(swx_client *c, const swx_storm_query *q, swx_storm_fn fn, void *ud,
                         int *pages, size_t *held_max);

#endif
