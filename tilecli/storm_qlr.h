/*
 * storm_qlr.h: the QGIS layer definition (.qlr) that `seawx storms -o DIR/`
 * writes beside its GeoJSON files: one layer per file written, each with
 * the style of styles/seawx_<layer>.qml, in one group.
 */
#ifndef SEAWX_STORM_QLR_H
#define SEAWX_STORM_QLR_H

#include <stdio.h>

/* The .qml of each storm layer, by swx_storm_kind (storm_styles.c, made by
 * embed_styles.cmake). */
extern const char *const cli_storm_qml[];

/* The name of the file (beside the GeoJSON files). */
#define CLI_STORM_QLR "seawx_storms.qlr"

/* Writes the layer definition of the kinds in mask (files <layer>.geojson
 * beside it). Returns 0, or -1 when a write failed (errno tells). */
int cli_storm_qlr_write(FILE *f, unsigned mask);

#endif
