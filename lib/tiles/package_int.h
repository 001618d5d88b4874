/* package_int.h: what the voyage package reads back of its own files, shared
 * with its tests and fuzz target. */
#ifndef SEAWX_PACKAGE_INT_H
#define SEAWX_PACKAGE_INT_H

#include <stddef.h>

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
