/* gen_archive.c: writes the storm archive of seawx-sim (storm_data.c: the
 * hand-made storms and about 3,500 storms / 150,000 positions of past seasons,
 * deterministic) as one /storm/json answer, to stdout. Built by run.sh. */
#include <stdio.h>
#include <stdlib.h>

#include "buf.h"
#include "storm_data.h"

int main(void)
{
    struct sim_storm_set set;
    struct sim_buf b;
    if (sim_storm_set_build(&set, 1) != 0) {
        fprintf(stderr, "gen_archive: out of memory\n");
        return 1;
    }
    sim_buf_init(&b, (size_t)1 << 31);
    fputs("[", stdout);
    for (size_t i = 0; i < set.n; i++) {
        sim_buf_reset(&b);
        if (i)
            sim_buf_puts(&b, ",\n");
        if (sim_storm_json(&b, &set.storms[i], 0) != 0 || b.failed) {
            fprintf(stderr, "gen_archive: out of memory\n");
            return 1;
        }
        fwrite(b.data, 1, b.len, stdout);
    }
    fputs("]\n", stdout);
    fprintf(stderr, "gen_archive: %zu storms, %zu positions\n", set.n, set.npositions);
    sim_storm_set_free(&set);
    return fflush(stdout) == 0 ? 0 : 1;
}
