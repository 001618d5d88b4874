/* storm.h: the /storm/json and /storm/kmz endpoints of seawx-sim.
 *
 * Both take the interface's filters (status, id, name, category, intensity,
 * region, period, data_filter, limit, offset) and select the same storms:
 * the hand-made ones first, then the archive by season (storm_data.h). The key
 * is taken from the service-api-key header only. A bad filter value answers
 * 400 {"errors":[{"code":"invalid_parameter","message":...}]}. The KMZ is a
 * zip whose main document is "seawx_storms.kml" (not doc.kml), next to a
 * small "files/README.txt". data_filter=analysis leaves forecast tracks
 * empty, forecast leaves observed tracks empty. */
#ifndef SIM_STORM_H
#define SIM_STORM_H

struct sim_request;

/* Whether path is one of the storm endpoints. */
int sim_storm_path(const char *path);
/* Answers a request to /storm/json or /storm/kmz. */
int sim_storm_handle(struct sim_request *rq);

#endif
