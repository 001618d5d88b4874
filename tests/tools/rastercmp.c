/*
 * rastercmp: compares two rasters pixel by pixel (every band, as bytes), for
 * the end-to-end tests. Prints "identical WxH BANDS" or the number of
 * differing pixels and the first one; exits 0 only when identical.
 *
 * usage: rastercmp A B
 *        rastercmp --open-update NAME   (tries update mode; prints GDAL's error)
 *        rastercmp --psnr MIN A B       (lossy encodings: prints the PSNR over the
 *                                        pixels visible in A and the largest
 *                                        per-channel error; exits 0 when the PSNR is
 *                                        at least MIN and every pixel transparent in
 *                                        A is transparent in B)
 */
#include <gdal.h>

#include <math.h>
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

/* Reads band b (1-based) of row y into row; 0 on success. */
static int read_row(GDALDatasetH ds, int b, int y, int w, unsigned char *row)
{
    return GDALRasterIO(GDALGetRasterBand(ds, b), GF_Read, 0, y, w, 1, row, w, 1, GDT_Byte, 0, 0) !=
           CE_None;
}

static int psnr(double min, const char *pa, const char *pb)
{
    GDALDatasetH a = GDALOpen(pa, GA_ReadOnly), b = GDALOpen(pb, GA_ReadOnly);
    if (!a || !b) {
        fprintf(stderr, "cannot open %s\n", a ? pb : pa);
        return 2;
    }
    int w = GDALGetRasterXSize(a), h = GDALGetRasterYSize(a);
    int na = GDALGetRasterCount(a), nb = GDALGetRasterCount(b);
    if (w != GDALGetRasterXSize(b) || h != GDALGetRasterYSize(b) || na < 3 || nb < 3) {
        printf("different shapes: %dx%dx%d and %dx%dx%d\n", w, h, na, GDALGetRasterXSize(b),
               GDALGetRasterYSize(b), nb);
        return 1;
    }
    unsigned char *ra = malloc((size_t)w * 4), *rb = malloc((size_t)w * 4);
    double se = 0, n = 0;
    int maxerr = 0;
    long lost_clear = 0;
    for (int y = 0; y < h; y++) {
        for (int k = 0; k < 4; k++) {
            int bad = k < na ? read_row(a, k + 1, y, w, ra + (size_t)k * w) : 0;
            bad |= k < nb ? read_row(b, k + 1, y, w, rb + (size_t)k * w) : 0;
            if (bad) {
                fprintf(stderr, "read failed: %s\n", CPLGetLastErrorMsg());
                return 2;
            }
            if (k >= na)
                memset(ra + (size_t)k * w, 255, (size_t)w);
            if (k >= nb)
                memset(rb + (size_t)k * w, 255, (size_t)w);
        }
        for (int x = 0; x < w; x++) {
            if (ra[3 * w + x] == 0) {
                lost_clear += rb[3 * w + x] != 0;
                continue;
            }
            for (int k = 0; k < 4; k++) {
                int d = abs((int)ra[k * w + x] - (int)rb[k * w + x]);
                se += (double)d * d;
                maxerr = d > maxerr ? d : maxerr;
                n++;
            }
        }
    }
    free(ra);
    free(rb);
    GDALClose(a);
    GDALClose(b);
    double p = se > 0 ? 10 * log10(255.0 * 255.0 * n / se) : 99;
    printf("psnr %.2f dB over %.0f visible pixels, largest error %d, %ld transparent pixels "
           "made visible\n",
           p, n / 4, maxerr, lost_clear);
    return p >= min && lost_clear == 0 && n > 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
    GDALAllRegister();
    if (argc == 3 && strcmp(argv[1], "--open-update") == 0)
        return open_update(argv[2]);
    if (argc == 5 && strcmp(argv[1], "--psnr") == 0)
        return psnr(atof(argv[2]), argv[3], argv[4]);
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
