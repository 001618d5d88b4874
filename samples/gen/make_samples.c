/*
 * make_samples.c: writes the sample files seawx-sim serves for downloads,
 * made with GDAL at build time (nothing is downloaded or committed):
 *
 *   soil-moisture.nc  NetCDF, 2-degree global grid, the four soil variables
 *                     soil_moisture_0_10cm, soil_moisture_10_40cm,
 *                     soil_moisture_40_100cm (m3/m3), soil_temperature_0_10cm (K)
 *
 * (The forecast and current-weather GRIB2 files are made by seawx-sim itself,
 * per file name, with ecCodes: samples/sim/grib.c.)
 *
 * Usage: seawx-make-samples DIR. Files are written to DIR/name.tmp and
 * renamed, so a reader never sees half a file.
 */
#include <gdal.h>
#include <cpl_conv.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct var {
    const char *name;
    const char *units;
    double base, amp;
} var;

static double field(int v, double lat, double lon)
{
    double rad = 3.14159265358979 / 180.0;
    return sin((lon + 37 * v) * rad * 2) * cos(lat * rad * 1.5 + v);
}

static int str_attr(GDALMDArrayH a, const char *name, const char *value)
{
    GDALExtendedDataTypeH st = GDALExtendedDataTypeCreateString(0);
    GDALAttributeH at = GDALMDArrayCreateAttribute(a, name, 0, NULL, st, NULL);
    int ok = at && GDALAttributeWriteString(at, value);
    if (at)
        GDALAttributeRelease(at);
    GDALExtendedDataTypeRelease(st);
    return ok ? 0 : -1;
}

/* NetCDF through GDAL's multidimensional API: one variable per entry of vars
 * on lat/lon coordinate variables, as CF readers expect. */
static int write_netcdf(const char *dir, const char *name, const var *vars, int nvars, double west,
                        double north, double res, int w, int h)
{
    char path[4096], tmp[4200];
    int ok = 0;
    GDALDriverH drv = GDALGetDriverByName("netCDF");
    if (!drv)
        return -1;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    snprintf(tmp, sizeof tmp, "%s/tmp-%s", dir, name);
    GDALDatasetH ds = GDALCreateMultiDimensional(drv, tmp, NULL, NULL);
    if (!ds)
        return -1;
    GDALGroupH rg = GDALDatasetGetRootGroup(ds);
    GDALDimensionH dims[2] = {
        GDALGroupCreateDimension(rg, "lat", GDAL_DIM_TYPE_HORIZONTAL_Y, NULL, (GUInt64)h, NULL),
        GDALGroupCreateDimension(rg, "lon", GDAL_DIM_TYPE_HORIZONTAL_X, NULL, (GUInt64)w, NULL)};
    GDALExtendedDataTypeH f64 = GDALExtendedDataTypeCreate(GDT_Float64);
    GDALExtendedDataTypeH f32 = GDALExtendedDataTypeCreate(GDT_Float32);
    double *coord = malloc(sizeof(double) * (size_t)(w > h ? w : h));
    float *buf = malloc(sizeof(float) * (size_t)w * (size_t)h);
    if (!coord || !buf || !dims[0] || !dims[1])
        goto done;
    for (int k = 0; k < 2; k++) {
        int n = k ? w : h;
        GDALMDArrayH a = GDALGroupCreateMDArray(rg, k ? "lon" : "lat", 1, &dims[k], f64, NULL);
        GUInt64 start = 0;
        size_t count = (size_t)n;
        for (int i = 0; i < n; i++)
            coord[i] = k ? west + (i + 0.5) * res : north - (i + 0.5) * res;
        int wr = a &&
                 GDALMDArrayWrite(a, &start, &count, NULL, NULL, f64, coord, coord,
                                  sizeof(double) * (size_t)n) &&
                 str_attr(a, "units", k ? "degrees_east" : "degrees_north") == 0 &&
                 str_attr(a, "standard_name", k ? "longitude" : "latitude") == 0;
        if (a)
            GDALMDArrayRelease(a);
        if (!wr)
            goto done;
    }
    for (int v = 0; v < nvars; v++) {
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                double lat = north - (y + 0.5) * res, lon = west + (x + 0.5) * res;
                buf[(size_t)y * (size_t)w + (size_t)x] =
                    (float)(vars[v].base + vars[v].amp * field(v, lat, lon));
            }
        GDALMDArrayH a = GDALGroupCreateMDArray(rg, vars[v].name, 2, dims, f32, NULL);
        GUInt64 start[2] = {0, 0};
        size_t count[2] = {(size_t)h, (size_t)w};
        int wr = a &&
                 GDALMDArrayWrite(a, start, count, NULL, NULL, f32, buf, buf,
                                  sizeof(float) * (size_t)w * (size_t)h) &&
                 str_attr(a, "units", vars[v].units) == 0 &&
                 str_attr(a, "long_name", vars[v].name) == 0;
        if (a)
            GDALMDArrayRelease(a);
        if (!wr)
            goto done;
    }
    ok = 1;
done:
    free(coord);
    free(buf);
    GDALExtendedDataTypeRelease(f64);
    GDALExtendedDataTypeRelease(f32);
    for (int k = 0; k < 2; k++)
        if (dims[k])
            GDALDimensionRelease(dims[k]);
    GDALGroupRelease(rg);
    GDALClose(ds);
    if (ok)
        ok = rename(tmp, path) == 0;
    if (!ok) {
        fprintf(stderr, "seawx-make-samples: cannot write %s\n", path);
        remove(tmp);
    }
    return ok ? 0 : -1;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: seawx-make-samples DIR\n");
        return 2;
    }
    GDALAllRegister();
    CPLSetConfigOption("GDAL_PAM_ENABLED", "NO");
    static const var soil[] = {
        {"soil_moisture_0_10cm", "m3 m-3", 0.25, 0.1},
        {"soil_moisture_10_40cm", "m3 m-3", 0.28, 0.08},
        {"soil_moisture_40_100cm", "m3 m-3", 0.30, 0.06},
        {"soil_temperature_0_10cm", "K", 285, 12},
    };
    int rc = write_netcdf(argv[1], "soil-moisture.nc", soil, 4, -180, 90, 2.0, 180, 90);
    return rc ? 1 : 0;
}
