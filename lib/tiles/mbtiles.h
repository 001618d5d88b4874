/*
 * mbtiles.h: an MBTiles 1.3 file written tile by tile, safe to interrupt.
 *
 * Layout: the images / map schema, where `images` holds each distinct tile
 * image once (tile_id = SHA-256 of its bytes, in hex) and `map` says which
 * image each (zoom_level, tile_column, tile_row) shows; a `tiles` view joins
 * them as readers expect. Rows are TMS (row 0 at the south): the functions here
 * take XYZ rows and flip them. `PRAGMA application_id` is 0x4d504258 ("MPBX").
 *
 * Durability: tiles are committed in batches with a rollback journal, so a
 * process killed at any moment leaves a valid database holding every batch
 * committed before (the -journal it leaves undoes the unfinished batch when
 * the file is opened again), and opening it again continues (tiles present
 * are reported by swx_mbtiles_has()). A rollback journal rather than WAL: with
 * WAL, batches committed before a disk filled up live in the -wal file until
 * a checkpoint that the full disk refuses, and a user who moves the file alone
 * elsewhere to finish it loses them; with the journal every committed batch is
 * in the file itself, and a batch the full disk refused is rolled back.
 * swx_mbtiles_close() leaves no -wal, -shm or -journal file beside it.
 */
#ifndef SEAWX_MBTILES_H
#define SEAWX_MBTILES_H

#include "seawx/visibility.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SWX_MBTILES_APPLICATION_ID 0x4d504258

typedef struct swx_mbtiles swx_mbtiles;

/* One metadata row. */
typedef struct swx_mbtiles_kv {
    const char *name;
    const char *value;
} swx_mbtiles_kv;

/* Opens path for writing, creating it when missing (*created tells which, if
 * not NULL). meta (n rows) is written into the metadata table. An existing file
 * must be an MBTiles file whose metadata rows named in `identity` (a
 * NULL-terminated list of names, may be NULL) have the values meta gives them:
 * a file holding another layer or time is refused with SWX_EINVAL, never mixed.
 * batch is the number of tiles per transaction (0: 256). */
int swx_mbtiles_open(swx_mbtiles **out, int *created, const char *path, const swx_mbtiles_kv *meta,
                     size_t n, const char *const *identity, int batch);
/* 1 when the tile (XYZ row) is stored, 0 when not, negative on error. */
int swx_mbtiles_has(swx_mbtiles *m, int z, uint32_t x, uint32_t y);
/* Stores one tile (XYZ row); an image already stored under the same content is
 * not stored again. Commits every batch tiles, and at the first put half a
 * second or more after the transaction began. */
int swx_mbtiles_put(swx_mbtiles *m, int z, uint32_t x, uint32_t y, const void *data, size_t len);
/* Commits the tiles put so far. */
int swx_mbtiles_commit(swx_mbtiles *m);
/* Sets one metadata row, committing the tiles put so far with it. */
int swx_mbtiles_meta_set(swx_mbtiles *m, const char *name, const char *value);
/* Tiles in map and distinct images, committed or not. */
int swx_mbtiles_counts(int64_t *tiles, int64_t *images, swx_mbtiles *m);
/* The file at path, read only: fn is called with the stored bytes of each
 * tile of zoom z (its image's, shared images counted at every tile). */
int swx_mbtiles_tile_bytes(const char *path, int z, void (*fn)(void *ud, double bytes), void *ud);
/* Commits and closes; no side file is left beside the file. Accepts NULL. */
int swx_mbtiles_close(swx_mbtiles *m);

#ifdef __cplusplus
}
#endif
#endif
