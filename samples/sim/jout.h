/* jout.h: JSON answers written into a sim_buf, optionally reduced by an
 * X-Fields mask: a member is written only when the mask selects its path of
 * keys (array elements add nothing to the path). Mask grammar:
 *   mask = "{" item *("," item) "}" ; item = name [mask] ; name = [A-Za-z0-9_*-]+ */
#ifndef SIM_JOUT_H
#define SIM_JOUT_H

#include "buf.h"

#define SIM_JOUT_DEPTH 16

struct sim_jout {
    struct sim_buf *b;
    const char *mask; /* NULL: everything */
    const char *path[SIM_JOUT_DEPTH];
    int npath[SIM_JOUT_DEPTH]; /* path length at each open container */
    int first[SIM_JOUT_DEPTH];
    int depth;
};

/* 0 when the mask is well formed. */
int sim_xfields_valid(const char *mask);
/* Whether the mask selects the path (n keys). */
int sim_xfields_selects(const char *mask, const char *const *path, int n);

void sim_jout_init(struct sim_jout *j, struct sim_buf *b, const char *mask);
/* Opens an object ('{') or array ('['); key is NULL in arrays and at the top.
 * Returns 0, without writing, when the mask leaves the member out: the caller
 * then writes nothing of it and does not call sim_jout_end. */
int sim_jout_begin(struct sim_jout *j, const char *key, char open);
void sim_jout_end(struct sim_jout *j, char close);
void sim_jout_num(struct sim_jout *j, const char *key, double v, int decimals);
void sim_jout_int(struct sim_jout *j, const char *key, long long v);
void sim_jout_str(struct sim_jout *j, const char *key, const char *s); /* NULL: null */
void sim_jout_bool(struct sim_jout *j, const char *key, int v);
void sim_jout_null(struct sim_jout *j, const char *key);

#endif
