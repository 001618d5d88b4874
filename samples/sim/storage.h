/* storage.h: the second daemon, standing for the file storage host that
 * downloads redirect to. Any path: 403 "key received by storage host" if the
 * request carries the API key in any form (service-api-key header or query
 * parameter, or any Authorization header), else 200 "storage ok". The point is
 * to catch clients that forward the key to another host on a redirect. */
#ifndef SIM_STORAGE_H
#define SIM_STORAGE_H

#include "http.h"

int sim_storage_handle(struct sim_request *rq);

#endif
