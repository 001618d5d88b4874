/* storage.c: the storage host (see storage.h). */
#include "storage.h"

#include <stdio.h>

#include "app.h"
#include "files.h"

int sim_storage_handle(struct sim_request *rq)
{
    if (rq->forms != 0) {
        fprintf(stderr, "seawx-sim: storage host received an API key (%s%s%s) on %s\n",
                (rq->forms & SIM_AUTH_HEADER) ? "header " : "",
                (rq->forms & SIM_AUTH_QUERY) ? "query " : "",
                (rq->forms & SIM_AUTH_BASIC) ? "authorization " : "", rq->path);
        return sim_http_reply(rq, 403, "text/plain; charset=utf-8", "key received by storage host",
                              28, NULL, 0);
    }
    {
        int handled = 0;
        int rc;
        rq->rate = rq->app->opt.storage_kibps * 1024u;
        rc = sim_files_storage(rq, &handled); /* /files/...: the sample files */
        if (handled)
            return rc;
    }
    return sim_http_reply(rq, 200, "text/plain; charset=utf-8", "storage ok", 10, NULL, 0);
}
