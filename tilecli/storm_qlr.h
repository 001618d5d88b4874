/*
 * storm_qlr.h: the QGIS layer definition (.qlr) that `seawx storms -o DIR/`
 * writes beside its GeoJSON files: one layer per file written, each with
 * the style of styles/seawx_<layer>.qml, in one group.
 */
#ifndef SEAWX_STORM_QLR_H
#define SEAWX_STORM_QLR_H

#include "seawx/storm.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The QGIS styles of the storm layers, styles/seawx_<layer>.qml, by layer
 * name (storm_styles.c, made by embed_styles.cmake). */
typedef struct cli_storm_style {
    const char *layer;
    const char *qml;
} cli_storm_style;
extern const cli_storm_style cli_storm_styles[];
extern const size_t cli_storm_nstyles;

/* The .qml text of a kind's layer, or NULL when styles/ has none. */
const char *cli_storm_qml(int kind);
/* Every kind's, by swx_storm_kind (for swx_package_storms.qml). */
const char *const *cli_storm_qml_by_kind(void);

/* The name of the file (beside the GeoJSON files). */
#define CLI_STORM_QLR "seawx_storms.qlr"

/* Writes the layer definition of the kinds in mask (files <layer>.geojson
 * beside it). Returns 0, or -1 when a write failed (errno tells). */
int cli_storm_qlr_write(FILE *f, unsigned mask);

/* The name of the project written beside them (`seawx storms -o DIR/`). */
#define CLI_STORM_QGS "seawx_storms.qgs"
/* Its Temporal Controller's step: the spacing of the fixes. */
#define CLI_STORM_STEP_S (6 * 3600)

/* What the project's time range and view are made of: the times and box of
 * every position written (observed and forecast). Zero it, then add each
 * storm. */
typedef struct cli_storm_span {
    size_t n; /* positions seen with a time */
    int64_t t0, t1;
    double w, s, e, nn;
} cli_storm_span;
void cli_storm_span_add(cli_storm_span *sp, const swx_storm *s);

/* Writes a QGIS project of the kinds in mask (files beside it): the layers
 * of the .qlr, the Temporal Controller animated over sp's times with a
 * 6-hour step, the view on sp's box. Returns 0, or -1 when a write failed. */
int cli_storm_qgs_write(FILE *f, unsigned mask, const cli_storm_span *sp);

#endif
