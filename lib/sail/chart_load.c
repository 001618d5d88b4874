/* chart_load.c: libseawx_chart loaded once, and the PNG sink and ending the
 * plan's and the route's charts share (chart_load.h). */
#define _GNU_SOURCE /* dladdr */
#include "chart_load.h"

#include "plan_chart.h"

#include "seawx/error.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static void *handle;
static char load_why[512];

static void load(void)
{
    Dl_info info;
    if (dladdr((void *)swx__chart_symbol, &info) && info.dli_fname) {
        const char *slash = strrchr(info.dli_fname, '/');
        char path[4096];
        if (slash && snprintf(path, sizeof path, "%.*s/%s", (int)(slash - info.dli_fname),
                              info.dli_fname, SWX_CHART_LIB) < (int)sizeof path)
            handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    }
    if (!handle)
        handle = dlopen(SWX_CHART_LIB, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *e = dlerror();
        snprintf(load_why, sizeof load_why, "%s", e ? e : SWX_CHART_LIB ": not found");
    }
}

void *swx__chart_symbol(const char *name, char *why, size_t why_size)
{
    pthread_once(&once, load);
    if (!handle) {
        snprintf(why, why_size, "%s", load_why);
        return NULL;
    }
    void *sym = dlsym(handle, name);
    if (!sym)
        snprintf(why, why_size, "%s: no %s", SWX_CHART_LIB, name);
    return sym;
}

int swx__chart_sink_write(void *closure, const unsigned char *data, unsigned len)
{
    swx__chart_sink *s = closure;
    errno = 0;
    if (len && fwrite(data, 1, len, s->f) != len) {
        s->err = errno ? errno : EIO;
        return -1;
    }
    return 0;
}

int swx__chart_end(int rc, swx_atomicfile *af, const swx__chart_sink *s, const char *kind,
                   const char *path, int width, int height, const char *why)
{
    if (rc == SWX_ENOMEM)
        return swx_error_set(SWX_ENOMEM, "%s %s: out of memory for %dx%d pixels", kind, path, width,
                             height);
    if (rc && why)
        return swx_error_set(rc, "%s %s: drawing failed: %s", kind, path, why);
    if (rc)
        return swx_error_set(SWX_EIO, "cannot write %s: %s", path, strerror(s->err ? s->err : EIO));
    return swx_atomicfile_commit(af);
}
