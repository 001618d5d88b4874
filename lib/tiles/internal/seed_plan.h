/*
 * seed_plan.h: what the domains above tiles read of a plan beyond seawx/seed.h
 * (internal): a file's area, for counting the GetMaps of several plans
 * together (lib/voyage/fleet.c).
 */
#ifndef SEAWX_SEED_PLAN_H
#define SEAWX_SEED_PLAN_H

#include "seawx/seed.h"

/* The area of file `file` of the plan (the voyage's stretch at that time). */
const swx_area *swx_seed_plan_area(const swx_seed_plan *p, size_t file);

#endif
