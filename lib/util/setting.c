/* setting.c: the words for the settings the library's messages point to
 * (seawx/setting.h). */
#include "seawx/setting.h"

#include <stddef.h>

/* The library's own words, for a front end that sets none: each reads in
 * its message as the front end's would. */
static const char *const library_words[SWX_SET_COUNT] = {
    [SWX_SET_CA_BUNDLE] = "SEAWX_CA_BUNDLE",
    [SWX_SET_INSECURE] = "the client's insecure setting",
    [SWX_SET_TABLE_FORMAT] = "the output format",
    [SWX_SET_VESSEL_FILTERS] = "the categories and limit settings",
    [SWX_SET_GRIB_PLAIN] = "no compression",
    [SWX_SET_NOW] = "a 'now'",
    [SWX_SET_RUN] = "the run",
    [SWX_SET_GRIB_BBOX] = "a box",
    [SWX_SET_GRIB_WIND] = "a voyage GRIB with the wind",
    [SWX_SET_METATILE] = "metatile",
    [SWX_SET_SKIP_EMPTY] = "the skip-empty setting",
    [SWX_SET_SEED_SHARD] = "a seed of one shard",
    [SWX_SET_SHARDS] = "the shard count",
};

static const char *const *front_words;

void swx_setting_names(const char *const *names)
{
    front_words = names;
}

const char *swx_setting_name(swx_setting s)
{
    if ((unsigned)s >= SWX_SET_COUNT)
        return "?";
    if (front_words && front_words[s])
        return front_words[s];
    return library_words[s];
}
