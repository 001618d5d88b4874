/* test_encode.c: tiles encoded as palette PNG, WebP and JPEG (lib/tiles/encode.c).
 *
 * The inputs are weather-map-like tiles made here: a smooth colour ramp with a
 * fully transparent disc and a band of half-transparent pixels, and stepped
 * classes. Each encoding is decoded again (libpng through the core, libwebp,
 * libjpeg) and compared with the input. */
#include "cu_support.h"

#include "encode.h"
#include "png_codec.h"
#include "seawx/error.h"

#include <jpeglib.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <webp/decode.h>

#define TS 256

/* A smooth ramp (a wave-height field: blue to red), a transparent disc in the
 * middle, a half-transparent band on the left; opaque: no transparency. */
static uint8_t *ramp_tile(int opaque)
{
    uint8_t *px = malloc((size_t)TS * TS * 4);
    for (int y = 0; y < TS; y++)
        for (int x = 0; x < TS; x++) {
            uint8_t *p = px + ((size_t)y * TS + (size_t)x) * 4;
            double v = (x + 0.5 * y) / (1.5 * TS) + 0.05 * sin(y / 23.0);
            v = v < 0 ? 0 : v > 1 ? 1 : v;
            p[0] = (uint8_t)(255 * v);
            p[1] = (uint8_t)(255 * (1 - fabs(2 * v - 1)));
            p[2] = (uint8_t)(255 * (1 - v));
            p[3] = 255;
            if (opaque)
                continue;
            double dx = x - 128, dy = y - 128;
            if (dx * dx + dy * dy < 40 * 40) {
                p[3] = 0;
                p[0] = (uint8_t)x; /* colour under transparency: varies, invisible */
            } else if (x < 16) {
                p[3] = 128;
            }
        }
    return px;
}

/* Stepped classes: eight flat colours in bands, a transparent corner. */
static uint8_t *classes_tile(void)
{
    static const uint8_t cls[8][3] = {{0, 0, 128},   {0, 64, 255},  {0, 200, 255}, {0, 255, 100},
                                      {200, 255, 0}, {255, 180, 0}, {255, 60, 0},  {160, 0, 0}};
    uint8_t *px = malloc((size_t)TS * TS * 4);
    for (int y = 0; y < TS; y++)
        for (int x = 0; x < TS; x++) {
            uint8_t *p = px + ((size_t)y * TS + (size_t)x) * 4;
            int c = ((x + y) / 64) % 8;
            memcpy(p, cls[c], 3);
            p[3] = x + y < 40 ? 0 : 255;
        }
    return px;
}

static uint8_t *decode(const void *data, size_t len, swx_tile_format f)
{
    uint8_t *px = NULL;
    int w = 0, h = 0;
    if (f == SWX_FORMAT_WEBP) {
        px = WebPDecodeRGBA(data, len, &w, &h);
        if (px) { /* hand back a malloc'd copy */
            uint8_t *copy = malloc((size_t)w * (size_t)h * 4);
            memcpy(copy, px, (size_t)w * (size_t)h * 4);
            WebPFree(px);
            px = copy;
        }
    } else if (f == SWX_FORMAT_JPEG) {
        struct jpeg_decompress_struct c;
        struct jpeg_error_mgr e;
        c.err = jpeg_std_error(&e);
        jpeg_create_decompress(&c);
        jpeg_mem_src(&c, data, (unsigned long)len);
        jpeg_read_header(&c, TRUE);
        c.out_color_space = JCS_EXT_RGBA;
        jpeg_start_decompress(&c);
        w = (int)c.output_width;
        h = (int)c.output_height;
        px = malloc((size_t)w * (size_t)h * 4);
        while (c.output_scanline < c.output_height) {
            JSAMPROW r = px + (size_t)c.output_scanline * (size_t)w * 4;
            jpeg_read_scanlines(&c, &r, 1);
        }
        jpeg_finish_decompress(&c);
        jpeg_destroy_decompress(&c);
    } else if (swx_png_decode_rgba(&px, &w, &h, data, len, 0, 0)) {
        return NULL;
    }
    CU_ASSERT(w == TS && h == TS);
    return px;
}

/* PSNR over the pixels visible in a, and the largest per-channel error there. */
static double psnr(const uint8_t *a, const uint8_t *b, int *maxerr)
{
    double se = 0;
    size_t n = 0;
    *maxerr = 0;
    for (size_t i = 0; i < (size_t)TS * TS; i++) {
        if (a[4 * i + 3] == 0)
            continue;
        for (int c = 0; c < 4; c++) {
            int d = abs((int)a[4 * i + c] - (int)b[4 * i + c]);
            se += (double)d * d;
            *maxerr = d > *maxerr ? d : *maxerr;
        }
        n += 4;
    }
    if (se == 0)
        return 99;
    return 10 * log10(255.0 * 255.0 * (double)n / se);
}

/* Every pixel transparent in src is transparent in out. */
static int clear_kept(const uint8_t *src, const uint8_t *out)
{
    for (size_t i = 0; i < (size_t)TS * TS; i++)
        if (src[4 * i + 3] == 0 && out[4 * i + 3] != 0)
            return 0;
    return 1;
}

static void encode_ok(void **out, size_t *len, const uint8_t *px, swx_tile_format f, int q)
{
    int rc = swx_tile_encode(out, len, px, TS, TS, TS * 4, f, q);
    if (rc)
        fprintf(stderr, "encode %s q%d: %s\n", swx_tile_format_name(f), q, swx_error_last());
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    CU_ASSERT(*len > 0);
}

static void test_deterministic(void)
{
    uint8_t *px = ramp_tile(0), *opaque = ramp_tile(1);
    struct {
        swx_tile_format f;
        int q;
    } cases[] = {{SWX_FORMAT_PNG, 0},
                 {SWX_FORMAT_PNG8, 0},
                 {SWX_FORMAT_WEBP, 0},
                 {SWX_FORMAT_WEBP, 80},
                 {SWX_FORMAT_JPEG, 85}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const uint8_t *in = cases[k].f == SWX_FORMAT_JPEG ? opaque : px;
        void *a = NULL, *b = NULL;
        size_t la = 0, lb = 0;
        encode_ok(&a, &la, in, cases[k].f, cases[k].q);
        for (int rep = 0; rep < 3; rep++) {
            encode_ok(&b, &lb, in, cases[k].f, cases[k].q);
            CU_ASSERT(la == lb && memcmp(a, b, la) == 0);
            free(b);
        }
        free(a);
    }
    /* The colour under transparent pixels does not change the bytes. */
    uint8_t *other = ramp_tile(0);
    for (size_t i = 0; i < (size_t)TS * TS; i++)
        if (other[4 * i + 3] == 0)
            other[4 * i + 1] = 77;
    void *a = NULL, *b = NULL;
    size_t la = 0, lb = 0;
    encode_ok(&a, &la, px, SWX_FORMAT_PNG8, 0);
    encode_ok(&b, &lb, other, SWX_FORMAT_PNG8, 0);
    CU_ASSERT(la == lb && memcmp(a, b, la) == 0);
    free(a);
    free(b);
    free(other);
    free(px);
    free(opaque);
}

static void test_png8(void)
{
    uint8_t *tiles[2] = {ramp_tile(0), classes_tile()};
    for (int k = 0; k < 2; k++) {
        void *enc = NULL;
        size_t len = 0;
        encode_ok(&enc, &len, tiles[k], SWX_FORMAT_PNG8, 0);
        /* A palette PNG: colour type 3 in IHDR. */
        CU_ASSERT(len > 26 && ((const uint8_t *)enc)[25] == 3);
        uint8_t *out = decode(enc, len, SWX_FORMAT_PNG8);
        CU_ASSERT_PTR_NOT_NULL_FATAL(out);
        int maxerr = 0;
        double p = psnr(tiles[k], out, &maxerr);
        CU_ASSERT(p >= 38.0);
        if (k == 1) /* eight classes: exact */
            CU_ASSERT_EQUAL(maxerr, 0);
        CU_ASSERT(clear_kept(tiles[k], out));
        free(out);
        free(enc);
        free(tiles[k]);
    }
}

static void test_webp(void)
{
    uint8_t *px = ramp_tile(0), *cls = classes_tile();
    void *enc = NULL;
    size_t len = 0;
    int maxerr = 0;
    /* Lossless: every visible pixel exact. */
    for (int k = 0; k < 2; k++) {
        const uint8_t *in = k ? cls : px;
        encode_ok(&enc, &len, in, SWX_FORMAT_WEBP, 0);
        CU_ASSERT(len > 12 && memcmp((const char *)enc + 8, "WEBP", 4) == 0);
        uint8_t *out = decode(enc, len, SWX_FORMAT_WEBP);
        CU_ASSERT_PTR_NOT_NULL_FATAL(out);
        psnr(in, out, &maxerr);
        CU_ASSERT_EQUAL(maxerr, 0);
        CU_ASSERT(clear_kept(in, out));
        free(out);
        free(enc);
    }
    /* Lossy: close, and transparent stays transparent. */
    encode_ok(&enc, &len, px, SWX_FORMAT_WEBP, 80);
    uint8_t *out = decode(enc, len, SWX_FORMAT_WEBP);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    CU_ASSERT(psnr(px, out, &maxerr) >= 35.0);
    CU_ASSERT(clear_kept(px, out));
    free(out);
    free(enc);
    free(px);
    free(cls);
}

static void test_jpeg(void)
{
    uint8_t *px = ramp_tile(0), *opaque = ramp_tile(1);
    void *enc = NULL;
    size_t len = 0;
    /* Refused with one line when the tile has transparency. */
    CU_ASSERT_EQUAL(swx_tile_encode(&enc, &len, px, TS, TS, TS * 4, SWX_FORMAT_JPEG, 85),
                    SWX_EINVAL);
    CU_ASSERT_PTR_NULL(enc);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "transparen"));
    CU_ASSERT_PTR_NULL(strchr(swx_error_last(), '\n'));
    encode_ok(&enc, &len, opaque, SWX_FORMAT_JPEG, 0);
    CU_ASSERT(len > 3 && memcmp(enc, "\xff\xd8\xff", 3) == 0);
    uint8_t *out = decode(enc, len, SWX_FORMAT_JPEG);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    int maxerr = 0;
    CU_ASSERT(psnr(opaque, out, &maxerr) >= 35.0);
    free(out);
    free(enc);
    free(px);
    free(opaque);
}

static void test_empty_and_stride(void)
{
    /* A fully transparent tile: every encoding with alpha keeps it clear. */
    uint8_t *clear = calloc((size_t)TS * TS, 4);
    swx_tile_format fs[] = {SWX_FORMAT_PNG8, SWX_FORMAT_WEBP};
    for (int k = 0; k < 2; k++) {
        void *enc = NULL;
        size_t len = 0;
        encode_ok(&enc, &len, clear, fs[k], 0);
        uint8_t *out = decode(enc, len, fs[k]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(out);
        int any = 0;
        for (size_t i = 0; i < (size_t)TS * TS; i++)
            any |= out[4 * i + 3];
        CU_ASSERT_EQUAL(any, 0);
        free(out);
        free(enc);
    }
    free(clear);
    /* A tile cut from a wider image (stride) encodes like the tile alone. */
    uint8_t *px = ramp_tile(0), *wide = calloc((size_t)TS * TS * 2, 4);
    for (int y = 0; y < TS; y++)
        memcpy(wide + (size_t)y * TS * 8 + TS * 4, px + (size_t)y * TS * 4, TS * 4);
    void *a = NULL, *b = NULL;
    size_t la = 0, lb = 0;
    encode_ok(&a, &la, px, SWX_FORMAT_PNG8, 0);
    CU_ASSERT_EQUAL(swx_tile_encode(&b, &lb, wide + TS * 4, TS, TS, TS * 8, SWX_FORMAT_PNG8, 0), 0);
    CU_ASSERT(la == lb && a && b && memcmp(a, b, la) == 0);
    free(a);
    free(b);
    free(wide);
    /* Bad arguments. */
    CU_ASSERT_EQUAL(swx_tile_encode(&a, &la, px, TS, TS, TS * 4, SWX_FORMAT_WEBP, 101), SWX_EINVAL);
    CU_ASSERT_EQUAL(swx_tile_encode(&a, &la, px, TS, TS, TS * 2, SWX_FORMAT_WEBP, 0), SWX_EINVAL);
    CU_ASSERT_EQUAL(swx_tile_encode(&a, &la, px, TS, TS, TS * 4, (swx_tile_format)9, 0),
                    SWX_EINVAL);
    free(px);
}

static void test_names(void)
{
    swx_tile_format f = SWX_FORMAT_PNG;
    CU_ASSERT(swx_tile_format_parse(&f, "png8") == 0 && f == SWX_FORMAT_PNG8);
    CU_ASSERT(swx_tile_format_parse(&f, "webp") == 0 && f == SWX_FORMAT_WEBP);
    CU_ASSERT(swx_tile_format_parse(&f, "jpeg") == 0 && f == SWX_FORMAT_JPEG);
    CU_ASSERT(swx_tile_format_parse(&f, "png") == 0 && f == SWX_FORMAT_PNG);
    CU_ASSERT_EQUAL(swx_tile_format_parse(&f, "gif"), SWX_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "png, png8, webp or jpeg"));
    CU_ASSERT_STRING_EQUAL(swx_tile_format_name(SWX_FORMAT_PNG8), "png8");
    CU_ASSERT_STRING_EQUAL(swx_tile_format_mbtiles(SWX_FORMAT_PNG8), "png");
    CU_ASSERT_STRING_EQUAL(swx_tile_format_mbtiles(SWX_FORMAT_WEBP), "webp");
    CU_ASSERT_STRING_EQUAL(swx_tile_format_mbtiles(SWX_FORMAT_JPEG), "jpg");
}

int main(void)
{
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("encode", NULL, NULL);
    CU_add_test(s, "identical input, identical bytes", test_deterministic);
    CU_add_test(s, "png8: close pixels, transparency kept", test_png8);
    CU_add_test(s, "webp: lossless exact, lossy close", test_webp);
    CU_add_test(s, "jpeg: opaque only", test_jpeg);
    CU_add_test(s, "empty tiles, strides, bad arguments", test_empty_and_stride);
    CU_add_test(s, "format names", test_names);
    return cu_run();
}
