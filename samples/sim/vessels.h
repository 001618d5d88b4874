/* vessels.h: the Vessels API's /vessels with enhanced data, in seawx-sim.
 * embed=enhanced_data | enhanced_data.CATEGORY[,...] (anything else: 400);
 * limit (1..1000, default 3) vessels a page; next=CURSOR as the previous
 * page's paging.next said; the last page has no next. SEAWX_SIM_VESSELS
 * vessels in all (default 7); every fifth has "_embedded": null, every third
 * has null values; SEAWX_SIM_VESSELS_TIER=standard leaves the extended (E)
 * fields out of every category. */
#ifndef SIM_VESSELS_H
#define SIM_VESSELS_H

#include "http.h"

int sim_vessels_handle(struct sim_request *rq);

#endif
