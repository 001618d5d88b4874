/*
 * storm_qlr.h: the QGIS layer definition (.qlr) that `seawx storms -o DIR/`
 * writes beside its GeoJSON files: one layer per file written, each with
 * the style of styles/seawx_<layer>.qml, in one group.
 */
#ifndef SEAWX_STORM_QLR_H
#define SEAWX_STORM_QLR_H

#include <stddef.h>
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

#endif
