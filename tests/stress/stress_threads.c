/* stress_threads.c: SEAWX rasters opened and read through GDAL from several
 * threads at once, as QGIS does when it renders layers in parallel (each
 * render job opens its own dataset): different layers and the same layer,
 * with the disk cache on and off, a small cache limit so that entries are
 * pruned while others read them. Every window read must equal, pixel for
 * pixel, the same window of a single-threaded read made first.
 *
 *   stress_threads SECONDS THREADS
 * with SEAWX_BASE_URL / SEAWX_API_KEY pointing at seawx-sim, GDAL_DRIVER_PATH
 * at the plugin and SEAWX_CACHE_DIR at an empty folder. Prints one summary
 * line; exits 0 when every read succeeded and matched, 1 otherwise. Run under
 * ThreadSanitizer by the test command (scripts/test.sh). */
#include <gdal.h>
#include <cpl_conv.h>
#include <cpl_error.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_THREADS 64
#define WIN 256

/* The rasters read: two layers, each with the cache off and on, and one of
 * them in a second CRS (another grid of the same layer). Each is read whole
 * once for the reference, so they are 1440 pixels wide (the model's 0.25
 * degree grid; the default grid is 32 times finer). */
static const char *const sources[] = {
    "SEAWX:bundle=basic,variable=t2m:K,width=1440,cache=no",
    "SEAWX:bundle=basic,variable=t2m:K,width=1440,cache=yes",
    "SEAWX:bundle=maritime,variable=swh,width=1440,cache=no",
    "SEAWX:bundle=maritime,variable=swh,width=1440,cache=yes",
    "SEAWX:bundle=basic,variable=t2m:K,crs=EPSG:3857,width=1440,cache=yes",
};
#define NSOURCES (sizeof sources / sizeof sources[0])

typedef struct reference {
    int w, h;
    uint8_t *px; /* w * h * 4, pixel-interleaved RGBA */
} reference;

static reference refs[NSOURCES];
static double deadline;
static atomic_long reads, mismatches, failures;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int read_window(GDALDatasetH ds, int x, int y, int w, int h, uint8_t *out)
{
    int bands[4] = {1, 2, 3, 4};
    return GDALDatasetRasterIO(ds, GF_Read, x, y, w, h, out, w, h, GDT_Byte, 4, bands, 4,
                               (GSpacing)w * 4, 1) == CE_None
               ? 0
               : -1;
}

static int load_reference(size_t i)
{
    GDALDatasetH ds = GDALOpen(sources[i], GA_ReadOnly);
    if (!ds) {
        fprintf(stderr, "stress: cannot open %s: %s\n", sources[i], CPLGetLastErrorMsg());
        return -1;
    }
    reference *r = &refs[i];
    r->w = GDALGetRasterXSize(ds);
    r->h = GDALGetRasterYSize(ds);
    r->px = malloc((size_t)r->w * r->h * 4);
    int rc = r->px ? read_window(ds, 0, 0, r->w, r->h, r->px) : -1;
    if (rc)
        fprintf(stderr, "stress: cannot read %s: %s\n", sources[i], CPLGetLastErrorMsg());
    GDALClose(ds);
    return rc;
}

static void *worker(void *arg)
{
    unsigned seed = (unsigned)(uintptr_t)arg * 2654435761u + 1;
    uint8_t *buf = malloc(WIN * WIN * 4);
    if (!buf) {
        atomic_fetch_add(&failures, 1);
        return NULL;
    }
    for (unsigned n = 0; now_s() < deadline; n++) {
        size_t i = (size_t)(rand_r(&seed) % NSOURCES);
        /* A dataset per job, as QGIS opens one per render. */
        GDALDatasetH ds = GDALOpen(sources[i], GA_ReadOnly);
        if (!ds) {
            fprintf(stderr, "stress: open %s: %s\n", sources[i], CPLGetLastErrorMsg());
            atomic_fetch_add(&failures, 1);
            continue;
        }
        const reference *r = &refs[i];
        for (int k = 0; k < 4; k++) {
            /* A window on the block grid or off it, clipped to the raster. */
            int x = rand_r(&seed) % r->w, y = rand_r(&seed) % r->h;
            if (rand_r(&seed) % 2) {
                x -= x % 256;
                y -= y % 256;
            }
            int w = r->w - x < WIN ? r->w - x : WIN, h = r->h - y < WIN ? r->h - y : WIN;
            if (read_window(ds, x, y, w, h, buf)) {
                fprintf(stderr, "stress: read %s at %d,%d: %s\n", sources[i], x, y,
                        CPLGetLastErrorMsg());
                atomic_fetch_add(&failures, 1);
                break;
            }
            atomic_fetch_add(&reads, 1);
            for (int row = 0; row < h; row++)
                if (memcmp(buf + (size_t)row * w * 4, r->px + ((size_t)(y + row) * r->w + x) * 4,
                           (size_t)w * 4) != 0) {
                    fprintf(stderr, "stress: %s: window %d,%d %dx%d differs at row %d\n",
                            sources[i], x, y, w, h, y + row);
                    atomic_fetch_add(&mismatches, 1);
                    break;
                }
        }
        GDALClose(ds);
    }
    free(buf);
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: stress_threads SECONDS THREADS\n");
        return 2;
    }
    double seconds = atof(argv[1]);
    int nthreads = atoi(argv[2]);
    if (!(seconds > 0) || nthreads < 1 || nthreads > MAX_THREADS) {
        fprintf(stderr, "stress_threads: SECONDS > 0, THREADS from 1 to %d\n", MAX_THREADS);
        return 2;
    }
    GDALAllRegister();
    if (!GDALGetDriverByName("SEAWX")) {
        fprintf(stderr, "stress: the SEAWX driver is not loaded (GDAL_DRIVER_PATH)\n");
        return 1;
    }
    for (size_t i = 0; i < NSOURCES; i++)
        if (load_reference(i))
            return 1;
    pthread_t th[MAX_THREADS];
    double t0 = now_s();
    deadline = t0 + seconds;
    int started = 0;
    for (int i = 0; i < nthreads; i++)
        if (pthread_create(&th[started], NULL, worker, (void *)(uintptr_t)(i + 1)) == 0)
            started++;
    for (int i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    long nr = atomic_load(&reads), nm = atomic_load(&mismatches), nf = atomic_load(&failures);
    printf("stress: %ld windows read by %d threads in %.1f s over %zu rasters: %ld differ from "
           "the single-threaded read, %ld failed\n",
           nr, started, now_s() - t0, NSOURCES, nm, nf);
    for (size_t i = 0; i < NSOURCES; i++)
        free(refs[i].px);
    GDALDestroyDriverManager();
    return started == nthreads && nr >= nthreads && nm == 0 && nf == 0 ? 0 : 1;
}
