/* package_int.h: what the voyage domain, the tests and the fuzz targets use of
 * a voyage package beyond seawx/package.h (internal): its options and layer
 * plans, for a fleet (lib/voyage/fleet.c), and what a package reads back of
 * its own files. */
#ifndef SEAWX_PACKAGE_INT_H
#define SEAWX_PACKAGE_INT_H

#include "seawx/package.h"

#include <stddef.h>

const swx_package_opts *swx_package_options(const swx_package *p);
/* The plan of layer i; *first is its first file not yet past. */
const swx_seed_plan *swx_package_plan(const swx_package *p, size_t i, size_t *first);

/* Called for each file a listing names: its name (one plain file name: no
 * '/', not "." or "..") and identity (a non-empty string). A non-zero return
 * stops the walk and is returned. */
typedef int (*swx_package_listing_fn)(void *ud, const char *name, const char *identity);

/* Walks the "files" of a listing (a package's manifest.json, or the
 * resume.json an interrupted build leaves): {"files": [{"path": NAME,
 * "identity": ID, ...}, ...], ...}, text of len bytes (`what` names it in
 * errors). Entries without both, or with another name, are passed over: the
 * file is a hint of what need not be fetched again, never a list of what to
 * open. Returns 0, SWX_EPARSE for text that is not such a JSON object, or
 * fn's first non-zero return. */
int swx_package_listing_read(const char *text, size_t len, const char *what,
                             swx_package_listing_fn fn, void *ud);

/* ---- the storms of a package: package_storms.c, used by the package's
 * planning, quote and build (package_storms.c reads nothing of a package) ---- */

#include "seawx/http.h"
#include "seawx/jsonw.h"
#include "seawx/voyage.h"
#include "sha256.h"

#include <stdint.h>
#include <stdio.h>

/* The SHA-256 of a file as 64 hex digits. */
int swx_package_file_sha256(char hex[SWX_SHA256_HEX_LEN], const char *path);

typedef struct swx_pkg_storms swx_pkg_storms;
struct swx_package_storms;
struct swx_package;
/* What swx_package_set_storms() asked for (NULL: nothing), and the voyage
 * (package_plan.c). */
const struct swx_package_storms *swx_package_storms_of(const struct swx_package *p);
const swx_voyage *swx_package_voyage_of(const struct swx_package *p);
int swx_pkg_storms_new(swx_pkg_storms **out, const struct swx_package_storms *o);
void swx_pkg_storms_free(swx_pkg_storms *s);
/* Fetches the storms and writes their files and the voyage's risk into dir
 * (replacing those of an earlier call). */
int swx_pkg_storms_write(swx_pkg_storms *s, swx_client *c, const swx_voyage *v, const char *dir);
/* Removes the files a write put into dir (not dir itself). */
void swx_pkg_storms_remove(const char *dir);
/* The files written: how many, their bytes, the storms fetched. */
size_t swx_pkg_storms_files(const swx_pkg_storms *s);
uint64_t swx_pkg_storms_bytes(const swx_pkg_storms *s);
size_t swx_pkg_storms_count(const swx_pkg_storms *s);
/* The storms fetched by the last write (for the departure plan). */
const struct swx_storm_list *swx_pkg_storms_list(const swx_pkg_storms *s);
/* Bytes the storms add to project.qgs and manifest.json (at most). */
double swx_pkg_storms_extra(const swx_pkg_storms *s);
const struct swx_risk_report *swx_pkg_storms_risk(const swx_pkg_storms *s);
/* The manifest's "storms" value (the files of dir hashed). */
int swx_pkg_storms_manifest(swx_jsonw *w, const swx_pkg_storms *s, const char *dir);
/* The project's "Storms" group of the layer tree, and its map layers (srs:
 * the <srs> element of EPSG:4326). */
void swx_pkg_storms_tree(FILE *f, const swx_pkg_storms *s);
void swx_pkg_storms_layers(FILE *f, const swx_pkg_storms *s, const char *srs);

#endif
