/* faults.h: injected failures of the service endpoints (never of /_sim/).
 *
 * One uniform draw per request picks at most one fault, with the configured
 * shares stacked in the order 429, 503, drop, truncation, exception. Draws come
 * from a counter-based generator (splitmix64 of seed + n), so the sequence of
 * faults is the same on every run with the same seed, whatever the threads. */
#ifndef SIM_FAULTS_H
#define SIM_FAULTS_H

#include <stdint.h>

#include "options.h"

enum sim_fault {
    SIM_FAULT_NONE,
    SIM_FAULT_429,
    SIM_FAULT_503,
    SIM_FAULT_DROP,
    SIM_FAULT_TRUNC,
    SIM_FAULT_EXCEPTION
};

struct sim_faults;

int sim_faults_new(const struct sim_options *o, struct sim_faults **out);
void sim_faults_free(struct sim_faults *f);
enum sim_fault sim_faults_draw(struct sim_faults *f);
/* The same for a request of kind op (enum sim_wms_op): no fault, and no draw
 * used up, when --faults-on leaves that kind out. */
enum sim_fault sim_faults_draw_op(struct sim_faults *f, int op);

#endif
