/* auth.h: API key checks.
 *
 * Every service path takes the key in the service-api-key header. /ows/wms also
 * takes it as the service-api-key query parameter, or as HTTP Basic auth with
 * the key as user name and the configured password. When several forms are
 * present, the first in the order header, query, Basic decides. */
#ifndef SIM_AUTH_H
#define SIM_AUTH_H

#include "http.h"

/* Sets rq->forms: the key forms present in the request, right or wrong. */
void sim_auth_scan(struct sim_request *rq);
/* Returns 0 if the request carries the right key in an accepted form; otherwise
 * answers 401 and returns 1 (-1 if even that failed). */
int sim_auth_require(struct sim_request *rq, int wms_forms);

#endif
