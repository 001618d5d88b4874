/* package_int.h: what the tiles domain, the tests and the fuzz targets use of
 * a voyage package beyond seawx/package.h (internal): its options and layer
 * plans, for a fleet (lib/tiles/fleet.c), and what a package reads back of
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

#endif
