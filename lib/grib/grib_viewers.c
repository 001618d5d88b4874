/* grib_viewers.c: which viewer opens which form of voyage GRIB and draws
 * every time of it in the right place (seawx/grib.h, docs/grib.md "Which
 * viewer opens what").
 *
 * Seen in each program (tests/integration/test_grib_forms.sh and
 * test_grib_viewers.sh):
 *   - OpenCPN's GRIB plugin and XyGrib read each message's own grid, so a
 *     window cut (a grid a time) is drawn right, and they open a .bz2 as it
 *     is;
 *   - QGIS (MDAL) builds its mesh, and GDAL its raster, from the first
 *     message's grid and reads every later message onto it: a window cut's
 *     later times are drawn where the ship cannot be, with no warning. Both
 *     open only the plain file.
 * A route or box cut has one grid for the whole file: every viewer draws it
 * right. */
#include "seawx/setting.h"
#include "seawx/error.h"
#include "seawx/grib.h"

#include <string.h>

typedef struct grib_viewer {
    const char *name;
    unsigned bit;
    int opens_bzip2;  /* opens a .bz2 as it is */
    int grid_a_time;  /* draws each message on its own grid */
    const char *says; /* why it cannot have a window cut */
} grib_viewer;

static const grib_viewer viewers[] = {
    {"opencpn", SWX_GRIB_VIEWER_OPENCPN, 1, 1, ""},
    {"xygrib", SWX_GRIB_VIEWER_XYGRIB, 1, 1, ""},
    {"qgis", SWX_GRIB_VIEWER_QGIS, 0, 0, "QGIS draws every time on the first time's grid"},
    {"gdal", SWX_GRIB_VIEWER_GDAL, 0, 0, "GDAL reads every time onto the first time's grid"},
};
#define N_VIEWERS (sizeof viewers / sizeof viewers[0])

int swx_grib_viewer_parse(unsigned *out, const char *text)
{
    if (strcmp(text, "any") == 0) {
        *out = SWX_GRIB_VIEWER_ALL;
        return 0;
    }
    for (size_t i = 0; i < N_VIEWERS; i++)
        if (strcmp(text, viewers[i].name) == 0) {
            *out = viewers[i].bit;
            return 0;
        }
    return swx_error_set(SWX_EINVAL,
                         "unknown viewer '%.40s': use opencpn, xygrib, qgis, gdal or any", text);
}

int swx_grib_form_pick(swx_grib_cut *cut, int cut_given, int bzip2, unsigned viewers_asked)
{
    unsigned asked = viewers_asked ? viewers_asked : SWX_GRIB_VIEWER_ALL;
    /* the viewers that will open the file: those asked for that open its
     * container; a .bz2 with no viewer named is for those that open it */
    const grib_viewer *window_refuser = NULL;
    for (size_t i = 0; i < N_VIEWERS; i++) {
        const grib_viewer *v = &viewers[i];
        if (!(asked & v->bit))
            continue;
        if (bzip2 && !v->opens_bzip2) {
            if (viewers_asked && viewers_asked != SWX_GRIB_VIEWER_ALL)
                return swx_error_set(SWX_EINVAL,
                                     "%s cannot open a bzip2-compressed GRIB: write the plain "
                                     "file (.grb2, or %s)",
                                     v->name, swx_setting_name(SWX_SET_GRIB_PLAIN));
            continue;
        }
        if (!v->grid_a_time && !window_refuser)
            window_refuser = v;
    }
    if (!cut_given) {
        if (*cut == SWX_GRIB_CUT_WINDOW && window_refuser)
            *cut = SWX_GRIB_CUT_ROUTE;
        return 0;
    }
    if (*cut == SWX_GRIB_CUT_WINDOW && window_refuser)
        return swx_error_set(SWX_EINVAL,
                             "a window cut gives each time its own grid and %s, in the wrong "
                             "place: use the route cut, or name a viewer that reads it "
                             "(opencpn, xygrib)",
                             window_refuser->says);
    return 0;
}
