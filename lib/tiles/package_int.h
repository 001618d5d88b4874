/*
 * package_int.h: what the tiles domain reads of a package beyond
 * seawx/package.h (internal): its options and layer plans, for a fleet
 * (lib/tiles/fleet.c).
 */
#ifndef SEAWX_PACKAGE_INT_H
#define SEAWX_PACKAGE_INT_H

#include "seawx/package.h"

const swx_package_opts *swx_package_options(const swx_package *p);
/* The plan of layer i; *first is its first file not yet past. */
const swx_seed_plan *swx_package_plan(const swx_package *p, size_t i, size_t *first);

#endif
