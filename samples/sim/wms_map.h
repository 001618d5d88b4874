/* wms_map.h: WMS GetMap and GetLegendGraphic. */
#ifndef SIM_WMS_MAP_H
#define SIM_WMS_MAP_H

#include "wms.h"

int sim_wms_getmap(struct sim_wms_req *w);
int sim_wms_getlegendgraphic(struct sim_wms_req *w);

#endif
