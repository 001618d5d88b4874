/*
 * seawx/setting.h: what a front end calls the settings the library's
 * messages point to ("--insecure" on a command line, "SEAWX_INSECURE=YES" in
 * GDAL), so that a message names what its reader can type, and the library
 * names no front end's flags. The same idea as swx_seed_names
 * (seawx/seed.h), for the messages far from any options struct.
 *
 * A front end sets its words once, before it starts threads; without them a
 * message uses the library's own words (the second column of setting.c).
 */
#ifndef SEAWX_SETTING_H
#define SEAWX_SETTING_H

#include "seawx/visibility.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum swx_setting {
    SWX_SET_CA_BUNDLE,      /* the CA bundle's file */
    SWX_SET_INSECURE,       /* no check of the service's certificate */
    SWX_SET_TABLE_FORMAT,   /* a data listing's output format */
    SWX_SET_VESSEL_FILTERS, /* the vessel filters seawx sets itself */
    SWX_SET_GRIB_PLAIN,     /* a voyage GRIB written without compression */
    SWX_SET_NOW,            /* the moment taken as now */
    SWX_SET_RUN,            /* the forecast run */
    SWX_SET_GRIB_BBOX,      /* a voyage GRIB cut to a box */
    SWX_SET_GRIB_WIND,      /* a voyage GRIB with the 10 m wind */
    SWX_SET_METATILE,       /* tiles per GetMap side */
    SWX_SET_SKIP_EMPTY,     /* leave fully transparent tiles out */
    SWX_SET_SEED_SHARD,     /* a seed of one shard */
    SWX_SET_SHARDS,         /* the shard count, for a merge */
    SWX_SET_COUNT
} swx_setting;

/* names[s] is the front end's word for setting s (NULL: the library's);
 * names must hold SWX_SET_COUNT entries and outlive every message, or be
 * NULL to go back to the library's words. Not thread-safe: call it before
 * starting threads. */
SWX_API void swx_setting_names(const char *const *names);
/* The word for s: the front end's, else the library's. */
SWX_API const char *swx_setting_name(swx_setting s);

#ifdef __cplusplus
}
#endif
#endif
