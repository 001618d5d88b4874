/* catalog.h: what the simulated service offers: bundles, their variables
 * (layer leaves), units, styles and CRSs. Static tables; nothing here changes
 * at run time. */
#ifndef SIM_CATALOG_H
#define SIM_CATALOG_H

#include <stddef.h>
#include <stdint.h>

#include "field.h"
#include "ramp.h"

/* The only product of the WMS (the request's product parameter). */
#define SIM_PRODUCT "sof-d"

enum sim_crs { SIM_CRS_4326 = 1, SIM_CRS_3857 = 2, SIM_CRS_84 = 4 };

enum sim_renderer { SIM_RENDER_NEAREST, SIM_RENDER_CONTOUR, SIM_RENDER_VECTOR, SIM_RENDER_BARB };

enum {
    SIM_VAR_SEA_ONLY = 1,  /* transparent over land */
    SIM_VAR_LAND_ONLY = 2, /* transparent over sea */
    SIM_VAR_STATIC = 4     /* no time dimension (land-sea mask) */
};

#define SIM_MAX_STYLES 4

struct sim_variable {
    const char *id;    /* layer name segment: "t2m:K", "r", "sfcwind:m s-1" */
    const char *title; /* "2 metre temperature" */
    enum sim_field field;
    double scale, offset; /* value in the id's unit = SI value * scale + offset */
    double contour_step;  /* contour interval in the id's unit */
    enum sim_ramp ramp;
    double lo, hi;  /* SI values at both ends of the ramp */
    unsigned flags; /* SIM_VAR_* */
    enum sim_vector vector;
    const char *styles[SIM_MAX_STYLES]; /* "{base}{variant}/{renderer}", NULL-ended */
};

struct sim_bundle {
    const char *name;    /* bundle parameter value */
    const char *product; /* first segment of its layer names */
    const char *title;
    unsigned crs;      /* SIM_CRS_* advertised */
    int interval_time; /* time dimension written as start/end/period items */
    const struct sim_variable *vars;
    size_t nvars;
};

size_t sim_catalog_bundle_count(void);
const struct sim_bundle *sim_catalog_bundle_at(size_t i);
const struct sim_bundle *sim_catalog_bundle(const char *name);
/* "basic, precipitation, ..." for error messages. */
const char *sim_catalog_bundle_names(void);
const struct sim_variable *sim_catalog_variable(const struct sim_bundle *b, const char *id);

size_t sim_style_count(const struct sim_variable *v);
/* Index of style name in v's styles, or -1. */
int sim_style_find(const struct sim_variable *v, const char *name);
enum sim_renderer sim_style_renderer(const char *style);
/* A readable title for a style name (static storage). */
const char *sim_renderer_title(enum sim_renderer r);

/* "EPSG:4326" and friends; sim_crs_parse returns 0 for unknown names. */
const char *sim_crs_name(enum sim_crs c);
enum sim_crs sim_crs_parse(const char *s);

/* Splits "sof-d/20241001/00/t2m:K" into the run (issuance instant) and the
 * variable of bundle b. Returns 0, or -1 if the name is not a leaf of b (the
 * run is not checked against the runs that exist now). */
int sim_catalog_parse_layer(const struct sim_bundle *b, const char *name, int64_t *run,
                            const struct sim_variable **var);

#endif
