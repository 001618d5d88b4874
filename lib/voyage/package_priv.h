/* package_priv.h: what the files of a voyage package share (package_*.c):
 * the package's body, the sizes a budget counts with, and the helpers each
 * topic uses of the others. Seen only inside lib/voyage. */
#ifndef SEAWX_PACKAGE_PRIV_H
#define SEAWX_PACKAGE_PRIV_H

#include "package_int.h"
#include "seawx/package.h"
#include "sha256.h"

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

/* The fixed cost of an MBTiles file written by the engine (schema, metadata
 * and the first pages of each table and index, 4 KiB pages), measured; and
 * the least a tile can add (the smallest pages seen for an empty tile). */
#define FILE_BYTES 28672.0
#define MIN_TILE_BYTES 40.0
/* Bytes per tile before anything is measured: a 256 px tile of a smooth
 * field of seawx-sim with its SQLite pages. */
#define GUESS_TILE_BYTES 14000.0
/* The route, manifest and project: room kept for them under a budget. */
#define EXTRA_FIXED 12288.0
#define EXTRA_PER_FILE 2560.0
#define SAMPLE_POINTS 8
#define MAX_MANIFEST (16u << 20)
#define MANIFEST_FORMAT "seawx-package"

typedef struct pkg_file {
    char name[96];
    char identity[SWX_SHA256_HEX_LEN];
    int zooms_done;
    int failed;
    int copied;
    int present; /* on disk in the folder being built */
    uint64_t tiles;
    uint64_t size;
} pkg_file;

typedef struct pkg_layer {
    swx_package_layer spec;
    swx_seed_opts so;
    swx_seed_plan *plan;
    char safe[64];
    size_t first; /* the files before it are past */
    size_t nfiles;
    int nzooms;
    pkg_file *files;
    double bpt[SWX_TILE_MAX_ZOOM + 1]; /* measured bytes per tile */
    swx_seed *seed;
    swx_seed_counts c;
} pkg_layer;

struct swx_package {
    swx_package_opts o;
    const swx_caps *caps;
    pkg_layer *layers;
    size_t n;
    double route_bytes;
    swx_package_storms storm_opts; /* query NULL: no storms */
    swx_pkg_storms *storms;
    struct swx_pkg_grib *grib;   /* NULL: no voyage GRIB */
    struct swx_pkg_planf *planf; /* NULL: no departure plan */
    struct swx_pkg_coast *coast; /* NULL: no coastline (coast_note says why) */
    char coast_note[256];
};

/* ---- the coastline (package_coast.c) ---- */

/* Reads GSHHG's land for the project's area at the finest resolution a
 * tenth of the budget holds, and counts it in route_bytes; none, with
 * coast_note saying why, when GSHHG is missing or nothing fits. */
void swx_pkg_coast_plan(swx_package *p);
void swx_pkg_coast_free(struct swx_pkg_coast *c);
/* Writes dir/coast.geojson (nothing without a coastline). */
int swx_pkg_coast_write(swx_package *p, const char *dir);
uint64_t swx_pkg_coast_bytes(const swx_package *p);
void swx_pkg_coast_manifest(struct swx_jsonw *w, const swx_package *p);
void swx_pkg_coast_tree(FILE *f, const swx_package *p);
void swx_pkg_coast_layers(FILE *f, const swx_package *p, const char *srs);

/* ---- the voyage GRIB (package_grib.c) ---- */

typedef struct swx_pkg_grib swx_pkg_grib;
/* Writes dir/voyage.grb2 (nothing without a GRIB). */
int swx_pkg_grib_write(swx_package *p, swx_client *c, const char *dir,
                       volatile sig_atomic_t *cancel);
/* Its size once written, else 0. */
uint64_t swx_pkg_grib_bytes(const swx_package *p);
struct swx_jsonw;
void swx_pkg_grib_manifest(struct swx_jsonw *w, const swx_package *p);
/* Its entry in the QGIS project's layer tree and its map layer (a mesh
 * layer with its times), when it has one grid (the route cut). */
void swx_pkg_grib_tree(FILE *f, const swx_package *p);
void swx_pkg_grib_layers(FILE *f, const swx_package *p, const char *srs);

/* ---- the departure plan (package_plan_files.c) ---- */

/* Writes dir/plan.json, plan.csv and plan.png (nothing without a plan); the
 * storms are those of the package's storm files, written before. */
int swx_pkg_plan_write(swx_package *p, swx_client *c, const char *dir,
                       volatile sig_atomic_t *cancel);
/* Its files' size once written, else 0. */
uint64_t swx_pkg_plan_bytes(const swx_package *p);
/* Its departures by verdict (SWX_PLAN_GO, ...), once written. */
void swx_pkg_plan_counts(const swx_package *p, size_t out[3]);
void swx_pkg_plan_manifest(struct swx_jsonw *w, const swx_package *p);
void swx_pkg_plan_free(swx_package *p);

/* ---- files and folders (package_files.c) ---- */

/* snprintf into a path buffer; a path too long is cut (and then not found or
 * refused by the system), which never happens below PATH_MAX. */
void swx_pkg_pathf(char *out, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The folder of path and its last name. */
int swx_pkg_split_path(char *dir, size_t dn, char *base, size_t bn, const char *path);
/* N of a version folder ".BASE.vN", or -1. */
long swx_pkg_version_of(const char *name, const char *base);
void swx_pkg_rm_tree(const char *path);
int swx_pkg_copy_file(const char *from, const char *to);
/* The size of the file at path, 0 when there is none. */
uint64_t swx_pkg_file_size(const char *path);
/* t as YYYYMMDDTHHMMSSZ. */
void swx_pkg_compact_time(char *out, size_t n, int64_t t);

/* ---- planning (package_plan.c) ---- */

/* The lowest zoom of a zoom set, -1 for none. */
int swx_pkg_lowest_zoom(uint32_t zooms);

/* ---- what the package writes (package_write.c, package_manifest.c) ---- */

/* The range of moments a viewer shows file f of layer L (the manifest's
 * shown_from and shown_until, the QGIS project's fixed temporal range, both
 * inclusive): the moments nearer to its valid time than to any other, the
 * window whose stretch of route its tiles cover (seawx/voyage.h). */
int64_t swx_pkg_range_start(const pkg_layer *L, size_t f);
int64_t swx_pkg_range_end(const pkg_layer *L, size_t f);
/* The last file of layer L in the package, or SIZE_MAX when it has none. */
size_t swx_pkg_last_present(const pkg_layer *L);
int swx_pkg_write_route(const char *path, const swx_package *p);
int swx_pkg_write_project(const char *path, const swx_package *p);
int swx_pkg_write_manifest(const char *dir, const swx_package *p, const swx_package_result *res,
                           const char *cut_layer, int64_t cut_time, int cut_zoom);
int swx_pkg_write_resume(const char *part, const swx_package *p);
/* Files of the current version (old_dir) complete with the same identity,
 * copied into part; *copied counts them. */
int swx_pkg_copy_unchanged(swx_package *p, const char *old_dir, const char *part, size_t *copied);
/* Makes part anew, or keeps the files of an interrupted build's part that
 * its resume.json names with the same identity (marked present). */
int swx_pkg_resume_part(swx_package *p, const char *part);

#endif
