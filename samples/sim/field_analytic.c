/* field_analytic.c: the analytic switch (see field_int.h): with
 * SEAWX_SIM_ANALYTIC="wind=U,V;current=U,V" (m/s, toward east and north;
 * either part may be left out) every grid's 10 m wind and surface current
 * are that constant, over sea and land alike, and no storm's vortex is
 * added: fields on which a route's fastest time is known in closed form, so
 * that the router's exact answers can be checked through the service's own
 * forecast files. */
#include "field_int.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct sim_analytic analytic;
static pthread_once_t analytic_once = PTHREAD_ONCE_INIT;

/* "U,V" into u, v: 0, or -1. */
static int pair(const char *s, size_t len, double *u, double *v)
{
    char buf[64], *end;
    if (len == 0 || len >= sizeof buf)
        return -1;
    memcpy(buf, s, len);
    buf[len] = '\0';
    *u = strtod(buf, &end);
    if (end == buf || *end != ',')
        return -1;
    const char *q = end + 1;
    *v = strtod(q, &end);
    return end == q || *end != '\0' || *u != *u || *v != *v ? -1 : 0;
}

static void analytic_read(void)
{
    const char *env = getenv("SEAWX_SIM_ANALYTIC");
    struct sim_analytic a = {0};
    const char *p = env;
    if (env == NULL || *env == '\0')
        return;
    while (*p) {
        const char *semi = strchr(p, ';');
        size_t len = semi ? (size_t)(semi - p) : strlen(p);
        if (len > 5 && strncmp(p, "wind=", 5) == 0 && pair(p + 5, len - 5, &a.wu, &a.wv) == 0)
            a.wind = 1;
        else if (len > 8 && strncmp(p, "current=", 8) == 0 &&
                 pair(p + 8, len - 8, &a.cu, &a.cv) == 0)
            a.current = 1;
        else {
            fprintf(stderr,
                    "seawx-sim: SEAWX_SIM_ANALYTIC '%s': wind=U,V;current=U,V (m/s): the model's "
                    "fields are served\n",
                    env);
            return;
        }
        p += len + (semi ? 1 : 0);
    }
    a.on = a.wind || a.current;
    /* the files' cache names: a hash of the setting */
    uint64_t h = 1469598103934665603ull;
    for (p = env; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ull;
    snprintf(a.tag, sizeof a.tag, "an%016llx-", (unsigned long long)h);
    analytic = a;
}

const struct sim_analytic *sim_field_analytic(void)
{
    pthread_once(&analytic_once, analytic_read);
    return &analytic;
}

const char *sim_field_analytic_tag(void)
{
    return sim_field_analytic()->tag;
}
