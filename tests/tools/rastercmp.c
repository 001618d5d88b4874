/*
 * rastercmp: compares two rasters pixel by pixel (every band, as bytes), for
 * the end-to-end tests. Prints "identical WxH BANDS" or the number of
 * differing pixels and the first one; exits 0 only when identical.
 *
 * usage: rastercmp A B
 *        rastercmp --open-update NAME   (tries update mode; prints GDAL's error)
 */
#include <gdal.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int open_update(const char *name)
{
    GDALDatasetH ds = GDALOpenEx(name, GDAL_OF_RASTER | GDAL_OF_UPDATE, NULL, NULL, NULL);
    if (ds) {
        GDALClose(ds);
        printf("opened in update mode\n");
        return 1;
    }
    printf("refused: %s\n", CPLGetLastErrorMsg());
    return 0;
}

int main(int argc, char **argv)
{
    GDALAllRegister();
    if (argc == 3 && strcmp(argv[1], "--open-update") == 0)
        return open_update(argv[2]);
    if (argc != 3) {
        fprintf(stderr, "usage: rastercmp A B\n");
        return 2;
    }
    GDALDatasetH a = GDALOpen(argv[1], GA_ReadOnly), b = GDALOpen(argv[2], GA_ReadOnly);
    if (!a || !b) {
        fprintf(stderr, "cannot open %s\n", a ? argv[2] : argv[1]);
        return 2;
    }
    int w = GDALGetRasterXSize(a), h = GDALGetRasterYSize(a), n = GDALGetRasterCount(a);
    if (w != GDALGetRasterXSize(b) || h != GDALGetRasterYSize(b) || n != GDALGetRasterCount(b)) {
        printf("different shapes: %dx%dx%d and %dx%dx%d\n", w, h, n, GDALGetRasterXSize(b),
               GDALGetRasterYSize(b), GDALGetRasterCount(b));
        return 1;
    }
    unsigned char *ra = malloc((size_t)w), *rb = malloc((size_t)w);
    long diff = 0;
    int fx = -1, fy = -1, fb = -1, va = 0, vb = 0;
    for (int band = 1; band <= n; band++)
        for (int y = 0; y < h; y++) {
            if (GDALRasterIO(GDALGetRasterBand(a, band), GF_Read, 0, y, w, 1, ra, w, 1, GDT_Byte, 0,
                             0) != CE_None ||
                GDALRasterIO(GDALGetRasterBand(b, band), GF_Read, 0, y, w, 1, rb, w, 1, GDT_Byte, 0,
                             0) != CE_None) {
                fprintf(stderr, "read failed: %s\n", CPLGetLastErrorMsg());
                return 2;
            }
            for (int x = 0; x < w; x++)
                if (ra[x] != rb[x]) {
                    if (!diff++) {
                        fx = x;
                        fy = y;
                        fb = band;
                        va = ra[x];
                        vb = rb[x];
                    }
                }
        }
    free(ra);
    free(rb);
    GDALClose(a);
    GDALClose(b);
    if (diff) {
        printf("%ld values differ; first at band %d x %d y %d: %d and %d\n", diff, fb, fx, fy, va,
               vb);
        return 1;
    }
    printf("identical %dx%d, %d bands\n", w, h, n);
    return 0;
}
