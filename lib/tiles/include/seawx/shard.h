/*
 * seawx/shard.h: sharded seeds and their merge.
 *
 * A seed can be cut into N shards (swx_seed_opts.shard, .shard_count) that
 * run apart, on other machines, with no coordinator: each computes the same
 * partition alone (lib/tiles/shard.h describes it) and seeds only its part
 * into its own MBTiles file, which carries these metadata rows besides the
 * usual ones:
 *   shard           "K/N"
 *   partition       the partition's name ("hilbert-v1")
 *   request         SHA-256 (hex) of what defines the tiles: bundle, layer,
 *                   time, style, tile size, metatile, encoding, empty tiles,
 *                   zooms and area
 *   shard_complete  "1" once every tile of the shard is in the file
 * A rerun of the same shard resumes its file; a file of another shard,
 * partition or request is refused.
 *
 * The merge checks that shards 1 to N are all there, of one request,
 * complete and whole (every image's bytes hash to its key, every tile names
 * an image, the database reads to its end), then writes the file an
 * unsharded seed would have written (the same metadata, tiles and images;
 * each distinct image once), atomically, never over one of the shards.
 */
#ifndef SEAWX_SHARD_H
#define SEAWX_SHARD_H

#include "seawx/visibility.h"

#include <signal.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The most shards a seed is cut into. */
#define SWX_SHARD_MAX 10000

/* "K/N" with 1 <= K <= N <= SWX_SHARD_MAX; SWX_EINVAL says what is wrong. */
SWX_API int swx_shard_parse(int *k, int *n, const char *text);

/* What the merge found of one shard, 1 to N. */
typedef enum swx_shard_state {
    SWX_SHARD_OK = 0,
    SWX_SHARD_MISSING,    /* no file holds it */
    SWX_SHARD_INCOMPLETE, /* its file is not complete (run it again to finish it) */
    SWX_SHARD_OTHER,      /* its file is of another request or partition (run it again) */
    SWX_SHARD_DAMAGED     /* its file is damaged: truncated, unreadable, or an image whose
                             bytes do not hash to its key (run it again) */
} swx_shard_state;

typedef struct swx_merge swx_merge;

/* Reads and checks the shard files (n paths; files that do not exist are
 * skipped) of a seed cut into `shards` shards (0: the count the files give).
 * Returns 0 when they were read, whatever their states (a file too damaged to
 * tell its shard is listed by swx_merge_damaged_file()); SWX_EINVAL when they
 * do not make one seed (counts disagree, one shard in two files, a database
 * that is not a shard's file) and SWX_EIO when a file cannot be opened, both
 * with the file named. */
SWX_API int swx_merge_open(swx_merge **out, const char *const *paths, size_t n, int shards);
SWX_API void swx_merge_free(swx_merge *m);
SWX_API int swx_merge_shard_count(const swx_merge *m);
/* The state of shard k (1 to N), and the file that holds it (or NULL). */
SWX_API swx_shard_state swx_merge_state(const swx_merge *m, int k, const char **path);
/* Files too damaged to tell which shard they hold (i from 0), or NULL past
 * the last: the shards still missing are the ones to run again. (One such
 * file when one shard has no file is taken as that shard's, DAMAGED.) */
SWX_API const char *swx_merge_damaged_file(const swx_merge *m, size_t i);
/* Shards not SWX_SHARD_OK (or, when all are, the number of files of
 * swx_merge_damaged_file(): the merge stops on any damaged file). */
SWX_API int swx_merge_bad_count(const swx_merge *m);
/* Writes the merged file at path atomically (a temporary beside it renamed
 * over it; path as swx_atomicfile_target() allows, not a shard's file);
 * SWX_EINVAL unless every shard is SWX_SHARD_OK. tiles and images (may be
 * NULL) receive the counts of the result. */
SWX_API int swx_merge_write(long long *tiles, long long *images, swx_merge *m, const char *path);
/* Once *cancel (may be NULL: never) turns non-zero, swx_merge_write stops
 * within moments with SWX_ECANCEL, leaving path as it was (a program's
 * Ctrl-C). */
SWX_API void swx_merge_set_cancel(swx_merge *m, volatile sig_atomic_t *cancel);

#ifdef __cplusplus
}
#endif
#endif
