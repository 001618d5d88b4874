/* polar_priv.h: what the polar's own folder reads of it beyond seawx/plan.h. */
#ifndef SWX_POLAR_PRIV_H
#define SWX_POLAR_PRIV_H

#include "seawx/plan.h"

/* The polar's last (highest) wind speed, knots. */
double swx__polar_top_tws(const swx_polar *p);

#endif
