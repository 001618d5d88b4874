/* fuzz_shard.c: what a merge reads from outside: "K/N" (seawx seed --shard,
 * the shard metadata row) and a shard's file, an SQLite database a user
 * gives. An input that starts as an SQLite file is written to a temporary
 * file, read as shard 1 of 1 and, when it passes, merged. */
#include "fuzz.h"

#include "seawx/shard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char text[64];
    size_t n = size < sizeof text - 1 ? size : sizeof text - 1;
    memcpy(text, data, n);
    text[n] = '\0';
    int k, count;
    if (swx_shard_parse(&k, &count, text) == 0 && (k < 1 || k > count || count > SWX_SHARD_MAX))
        abort();
    if (size < 16 || memcmp(data, "SQLite format 3", 16) != 0)
        return 0;
    char in[64], out[80];
    snprintf(in, sizeof in, "/tmp/fuzz_shard.%ld.mbtiles", (long)getpid());
    snprintf(out, sizeof out, "%s.merged", in);
    FILE *f = fopen(in, "wb");
    if (!f)
        return 0;
    int ok = fwrite(data, 1, size, f) == size;
    if (fclose(f) != 0 || !ok) {
        unlink(in);
        return 0;
    }
    const char *paths[] = {in};
    swx_merge *m = NULL;
    if (swx_merge_open(&m, paths, 1, 0) == 0) {
        long long tiles, images;
        if (swx_merge_bad_count(m) == 0 && swx_merge_write(&tiles, &images, m, out) == 0 &&
            (tiles < 0 || images < 0))
            abort();
        swx_merge_free(m);
    }
    unlink(in);
    unlink(out);
    char journal[96];
    snprintf(journal, sizeof journal, "%s-journal", in);
    unlink(journal);
    return 0;
}
