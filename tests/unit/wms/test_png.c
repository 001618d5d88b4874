/* test_png.c: PNG decoding to RGBA, checking and encoding (lib/wms/png.c).
 *
 * The inputs are written here with libpng itself in each colour type, depth and
 * interlace the format allows, so that every conversion path is exercised. */
#include "cu_support.h"

#include "seawx/error.h"
#include "png_priv.h"
#include "png_codec.h"

#include <png.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct wbuf {
    uint8_t *p;
    size_t len, cap;
} wbuf;

static void wb_write(png_structp png, png_bytep p, png_size_t n)
{
    wbuf *b = png_get_io_ptr(png);
    if (b->len + n > b->cap) {
        b->cap = (b->len + n) * 2;
        b->p = realloc(b->p, b->cap);
    }
    memcpy(b->p + b->len, p, n);
    b->len += n;
}

static void wb_flush(png_structp png)
{
    (void)png;
}

/* Writes a w x h image of the given colour type and depth whose raw rows are
 * produced by fill(x, y, sample) -> sample value; optional palette and tRNS. */
typedef unsigned (*fill_fn)(int x, int y, int s);

typedef struct spec {
    int w, h, type, depth, interlace;
    fill_fn fill;
    const png_color *pal;
    int npal;
    const png_byte *trns;
    int ntrns;
    const png_color_16 *trns_color;
    int filters;   /* PNG_FILTER_* mask; 0: libpng's default choice */
    int idat_size; /* bytes per IDAT chunk; 0: libpng's default */
    int text;      /* 1: a tEXt chunk before and a zTXt-less tEXt after IDAT */
} spec;

static uint32_t crc32_png(const uint8_t *p, size_t n)
{
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
    }
    return c ^ 0xffffffffu;
}

static int channels(int type)
{
    switch (type) {
    case PNG_COLOR_TYPE_GRAY:
        return 1;
    case PNG_COLOR_TYPE_GRAY_ALPHA:
        return 2;
    case PNG_COLOR_TYPE_RGB:
        return 3;
    case PNG_COLOR_TYPE_RGB_ALPHA:
        return 4;
    default:
        return 1;
    }
}

static int write_png(const spec *s, wbuf *out)
{
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    int ch = channels(s->type);
    size_t rowbytes = ((size_t)s->w * ch * s->depth + 7) / 8;
    png_bytep row = calloc(1, rowbytes);
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        return -1;
    }
    png_set_write_fn(png, out, wb_write, wb_flush);
    if (s->filters)
        png_set_filter(png, 0, s->filters);
    if (s->idat_size)
        png_set_compression_buffer_size(png, (size_t)s->idat_size);
    png_set_IHDR(png, info, s->w, s->h, s->depth, s->type, s->interlace,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (s->pal)
        png_set_PLTE(png, info, s->pal, s->npal);
    if (s->trns || s->trns_color)
        png_set_tRNS(png, info, s->trns, s->ntrns, s->trns_color);
    png_text text = {PNG_TEXT_COMPRESSION_NONE, "Comment", "seawx test", 10, 0, NULL, NULL};
    if (s->text)
        png_set_text(png, info, &text, 1);
    png_write_info(png, info);
    int passes = png_set_interlace_handling(png);
    for (int p = 0; p < passes; p++)
        for (int y = 0; y < s->h; y++) {
            memset(row, 0, rowbytes);
            for (int x = 0; x < s->w; x++)
                for (int c = 0; c < ch; c++) {
                    unsigned v = s->fill(x, y, c);
                    size_t bit = ((size_t)x * ch + c) * s->depth;
                    if (s->depth == 16) {
                        row[bit / 8] = (png_byte)(v >> 8);
                        row[bit / 8 + 1] = (png_byte)v;
                    } else if (s->depth == 8) {
                        row[bit / 8] = (png_byte)v;
                    } else {
                        row[bit / 8] |= (png_byte)(v << (8 - s->depth - bit % 8));
                    }
                }
            png_write_row(png, row);
        }
    if (s->text) {
        png_text after = {PNG_TEXT_COMPRESSION_NONE, "Source", "after IDAT", 10, 0, NULL, NULL};
        png_set_text(png, info, &after, 1);
    }
    png_write_end(png, s->text ? info : NULL);
    png_destroy_write_struct(&png, &info);
    free(row);
    return 0;
}

static unsigned fill_rgba8(int x, int y, int c)
{
    return (unsigned)((x * 7 + y * 13 + c * 50) & 0xff);
}

static unsigned fill_rgb16(int x, int y, int c)
{
    return (unsigned)(((x * 7 + y * 13 + c * 50) & 0xff) * 257);
}

static unsigned fill_grey2(int x, int y, int c)
{
    return (unsigned)((x + y) & 3);
}

static unsigned fill_pal(int x, int y, int c)
{
    return (unsigned)((x + 2 * y) % 3);
}

static unsigned fill_zero(int x, int y, int c)
{
    return 0;
}

/* Pixels of fill_rgba8 as RGBA. */
static void expect_rgba8(const uint8_t *px, int w, int h, int alpha_fixed)
{
    int bad = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            for (int c = 0; c < 4; c++) {
                unsigned want =
                    (c == 3 && alpha_fixed >= 0) ? (unsigned)alpha_fixed : fill_rgba8(x, y, c);
                if (px[((size_t)y * w + x) * 4 + c] != want)
                    bad++;
            }
    CU_ASSERT_EQUAL(bad, 0);
}

static void test_rgba_and_rgb(void)
{
    int types[] = {PNG_COLOR_TYPE_RGB_ALPHA, PNG_COLOR_TYPE_RGB};
    for (int t = 0; t < 2; t++)
        for (int il = 0; il < 2; il++) {
            spec s = {.w = 37,
                      .h = 23,
                      .type = types[t],
                      .depth = 8,
                      .interlace = il ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE,
                      .fill = fill_rgba8};
            wbuf b = {0};
            CU_ASSERT_FATAL(write_png(&s, &b) == 0);
            uint8_t *px = NULL;
            int w = 0, h = 0;
            CU_ASSERT_EQUAL(swx_png_decode_rgba(&px, &w, &h, b.p, b.len, 0, 0), 0);
            CU_ASSERT(w == 37 && h == 23);
            CU_ASSERT_FATAL(px != NULL);
            expect_rgba8(px, w, h, t == 0 ? -1 : 255);
            free(px);
            int at = -1;
            CU_ASSERT_EQUAL(swx_png_check(&w, &h, &at, b.p, b.len), 0);
            CU_ASSERT_EQUAL(at, 0);
            free(b.p);
        }
}

static void test_sixteen_bit(void)
{
    spec s = {.w = 16, .h = 9, .type = PNG_COLOR_TYPE_RGB, .depth = 16, .fill = fill_rgb16};
    wbuf b = {0};
    CU_ASSERT_FATAL(write_png(&s, &b) == 0);
    uint8_t *px = NULL;
    int w, h;
    CU_ASSERT_EQUAL(swx_png_decode_rgba(&px, &w, &h, b.p, b.len, 0, 0), 0);
    CU_ASSERT_FATAL(px != NULL);
    expect_rgba8(px, w, h, 255);
    free(px);
    free(b.p);
}

static void test_grey_low_depth(void)
{
    spec s = {.w = 13, .h = 5, .type = PNG_COLOR_TYPE_GRAY, .depth = 2, .fill = fill_grey2};
    wbuf b = {0};
    CU_ASSERT_FATAL(write_png(&s, &b) == 0);
    uint8_t *px = NULL;
    int w, h;
    CU_ASSERT_EQUAL(swx_png_decode_rgba(&px, &w, &h, b.p, b.len, 0, 0), 0);
    CU_ASSERT_FATAL(px != NULL);
    int bad = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            const uint8_t *p = px + ((size_t)y * w + x) * 4;
            unsigned g = ((x + y) & 3) * 85;
            if (p[0] != g || p[1] != g || p[2] != g || p[3] != 255)
                bad++;
        }
    CU_ASSERT_EQUAL(bad, 0);
    free(px);
    free(b.p);

    /* Grey with a tRNS colour: value 0 becomes transparent. */
    png_color_16 key = {0};
    spec s2 = {
        13, 5, PNG_COLOR_TYPE_GRAY, 2, PNG_INTERLACE_NONE, fill_grey2, NULL, 0, NULL, 0, &key, 0,
        0,  0};
    wbuf b2 = {0};
    CU_ASSERT_FATAL(write_png(&s2, &b2) == 0);
    CU_ASSERT_EQUAL(swx_png_decode_rgba(&px, &w, &h, b2.p, b2.len, 0, 0), 0);
    CU_ASSERT_FATAL(px != NULL);
    CU_ASSERT_EQUAL(px[3], 0);       /* (0,0): grey 0 */
    CU_ASSERT_EQUAL(px[4 + 3], 255); /* (1,0): grey 1 */
    free(px);
    free(b2.p);
}

static void test_palette_trns(void)
{
    png_color pal[3] = {{255, 0, 0}, {0, 255, 0}, {0, 0, 255}};
    png_byte trns[3] = {0, 128, 255};
    for (int il = 0; il < 2; il++) {
        spec s = {10,
                  10,
                  PNG_COLOR_TYPE_PALETTE,
                  4,
                  il ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE,
                  fill_pal,
                  pal,
                  3,
                  trns,
                  3,
                  NULL,
                  0,
                  0,
                  0};
        wbuf b = {0};
        CU_ASSERT_FATAL(write_png(&s, &b) == 0);
        uint8_t *px = NULL;
        int w, h;
        CU_ASSERT_EQUAL(swx_png_decode_rgba(&px, &w, &h, b.p, b.len, 0, 0), 0);
        CU_ASSERT_FATAL(px != NULL);
        int bad = 0;
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                int i = (x + 2 * y) % 3;
                const uint8_t *p = px + ((size_t)y * w + x) * 4;
                if (p[0] != pal[i].red || p[1] != pal[i].green || p[2] != pal[i].blue ||
                    p[3] != trns[i])
                    bad++;
            }
        CU_ASSERT_EQUAL(bad, 0);
        free(px);
        free(b.p);
    }
}

static void test_all_transparent(void)
{
    for (int il = 0; il < 2; il++) {
        spec s = {.w = 31,
                  .h = 17,
                  .type = PNG_COLOR_TYPE_RGB_ALPHA,
                  .depth = 8,
                  .interlace = il ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE,
                  .fill = fill_zero};
        wbuf b = {0};
        CU_ASSERT_FATAL(write_png(&s, &b) == 0);
        int w = 0, h = 0, at = -1;
        CU_ASSERT_EQUAL(swx_png_check(&w, &h, &at, b.p, b.len), 0);
        CU_ASSERT(w == 31 && h == 17 && at == 1);
        free(b.p);
    }
    /* One visible pixel in the last row, interlaced or not, is found. */
    uint8_t px[8 * 8 * 4] = {0};
    px[(7 * 8 + 5) * 4 + 3] = 1;
    void *png = NULL;
    size_t n = 0;
    CU_ASSERT_EQUAL(swx_png_encode_rgba(&png, &n, px, 8, 8, 32, 6), 0);
    int at = -1;
    CU_ASSERT_EQUAL(swx_png_check(NULL, NULL, &at, png, n), 0);
    CU_ASSERT_EQUAL(at, 0);
    free(png);
}

static void test_encode_round_trip(void)
{
    int w = 256, h = 256;
    size_t stride = (size_t)w * 4 + 12; /* a padded stride, as when cut from a metatile */
    uint8_t *src = malloc(stride * h);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < (int)stride; x++)
            src[(size_t)y * stride + x] = (uint8_t)(x * 3 + y * 5);
    for (int level = 0; level <= 9; level += 3) {
        void *png = NULL;
        size_t n = 0;
        CU_ASSERT_EQUAL(swx_png_encode_rgba(&png, &n, src, w, h, stride, level), 0);
        CU_ASSERT(n > 8);
        uint8_t *px = NULL;
        int dw, dh;
        CU_ASSERT_EQUAL(swx_png_decode_rgba(&px, &dw, &dh, png, n, 256, 256), 0);
        CU_ASSERT_FATAL(px != NULL);
        int bad = 0;
        for (int y = 0; y < h; y++)
            if (memcmp(px + (size_t)y * w * 4, src + (size_t)y * stride, (size_t)w * 4))
                bad++;
        CU_ASSERT_EQUAL(bad, 0);
        free(px);
        free(png);
    }
    free(src);
    void *png = (void *)1;
    CU_ASSERT_EQUAL(swx_png_encode_rgba(&png, NULL, NULL, 1, 1, 4, 6), SWX_EINVAL);
    CU_ASSERT_PTR_NULL(png);
    uint8_t one[4] = {0};
    CU_ASSERT_EQUAL(swx_png_encode_rgba(&png, NULL, one, 1, 1, 3, 6), SWX_EINVAL);
    CU_ASSERT_EQUAL(swx_png_encode_rgba(&png, NULL, one, 1, 1, 4, 10), SWX_EINVAL);
}

static void test_limits(void)
{
    spec s = {.w = 300, .h = 20, .type = PNG_COLOR_TYPE_RGB, .depth = 8, .fill = fill_rgba8};
    wbuf b = {0};
    CU_ASSERT_FATAL(write_png(&s, &b) == 0);
    uint8_t *px = (uint8_t *)1;
    int w, h;
    CU_ASSERT_EQUAL(swx_png_decode_rgba(&px, &w, &h, b.p, b.len, 256, 256), SWX_ETOOBIG);
    CU_ASSERT_PTR_NULL(px);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "300 x 20"));
    CU_ASSERT_EQUAL(swx_png_decode_rgba(&px, &w, &h, b.p, b.len, 300, 20), 0);
    free(px);
    CU_ASSERT_EQUAL(swx_png_decode_rgba(&px, &w, &h, b.p, b.len, 300, 19), SWX_ETOOBIG);
    free(b.p);

    /* A header claiming 100000 x 100000 is refused before anything is allocated. */
    uint8_t hdr[] = {0x89, 'P',  'N', 'G', 0x0d, 0x0a, 0x1a, 0x0a, 0,    0, 0,
                     13,   'I',  'H', 'D', 'R',  0,    1,    0x86, 0xa0, 0, 1,
                     0x86, 0xa0, 8,   6,   0,    0,    0,    0,    0,    0, 0};
    /* CRC of the IHDR chunk (type + data). */
    uint32_t crc = crc32_png(hdr + 12, 17);
    hdr[29] = (uint8_t)(crc >> 24);
    hdr[30] = (uint8_t)(crc >> 16);
    hdr[31] = (uint8_t)(crc >> 8);
    hdr[32] = (uint8_t)crc;
    CU_ASSERT_EQUAL(swx_png_decode_rgba(&px, &w, &h, hdr, sizeof hdr, 0, 0), SWX_ETOOBIG);
    CU_ASSERT_EQUAL(swx_png_check(&w, &h, NULL, hdr, sizeof hdr), SWX_ETOOBIG);
}

static void test_corrupt(void)
{
    spec s = {.w = 64, .h = 64, .type = PNG_COLOR_TYPE_RGB_ALPHA, .depth = 8, .fill = fill_rgba8};
    wbuf b = {0};
    CU_ASSERT_FATAL(write_png(&s, &b) == 0);
    uint8_t *px = (uint8_t *)1;
    int w, h, at;

    /* Every truncation is an error, including one that only loses IEND. */
    int bad = 0;
    for (size_t cut = 0; cut < b.len; cut += (cut < 100 ? 1 : 37)) {
        if (swx_png_decode_rgba(&px, &w, &h, b.p, cut, 0, 0) == 0 || px)
            bad++;
        if (swx_png_check(&w, &h, &at, b.p, cut) == 0)
            bad++;
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_NOT_EQUAL(swx_png_check(&w, &h, &at, b.p, b.len - 1), 0);
    CU_ASSERT_EQUAL(swx_png_check(&w, &h, &at, b.p, b.len - 12), SWX_EPARSE);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "invalid PNG image"));

    /* A flipped byte inside IDAT fails its CRC. */
    uint8_t *c = malloc(b.len);
    memcpy(c, b.p, b.len);
    c[b.len / 2] ^= 0x40;
    CU_ASSERT_EQUAL(swx_png_decode_rgba(&px, &w, &h, c, b.len, 0, 0), SWX_EPARSE);
    CU_ASSERT_PTR_NULL(px);
    free(c);

    CU_ASSERT_EQUAL(swx_png_check(&w, &h, &at, "GIF89a....", 10), SWX_EPARSE);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "not a PNG"));
    CU_ASSERT_EQUAL(swx_png_check(&w, &h, &at, NULL, 0), SWX_EPARSE);
    free(b.p);
}

/* Decoding into a place in a larger image: the rows land at the stride, the
 * pixels around stay as they were; another size is refused before a pixel is
 * written; damage is an error. */
static void test_decode_into(void)
{
    for (int il = 0; il < 2; il++) {
        spec s = {.w = 37,
                  .h = 23,
                  .type = PNG_COLOR_TYPE_RGB_ALPHA,
                  .depth = 8,
                  .interlace = il ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE,
                  .fill = fill_rgba8};
        wbuf b = {0};
        CU_ASSERT_FATAL(write_png(&s, &b) == 0);
        const int W = 50, H = 30, ox = 5, oy = 4;
        uint8_t *big = malloc((size_t)W * H * 4);
        CU_ASSERT_FATAL(big != NULL);
        memset(big, 0xA5, (size_t)W * H * 4);
        uint8_t *at = big + ((size_t)oy * W + ox) * 4;
        CU_ASSERT_EQUAL(swx_png_decode_rgba_into(at, (size_t)W * 4, 37, 23, b.p, b.len), 0);
        int bad = 0, outside = 0;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                for (int c = 0; c < 4; c++) {
                    uint8_t v = big[((size_t)y * W + x) * 4 + c];
                    int in = x >= ox && x < ox + 37 && y >= oy && y < oy + 23;
                    if (in && v != fill_rgba8(x - ox, y - oy, c))
                        bad++;
                    if (!in && v != 0xA5)
                        outside++;
                }
        CU_ASSERT_EQUAL(bad, 0);
        CU_ASSERT_EQUAL(outside, 0);

        /* Smaller or larger than asked: refused, nothing written. */
        memset(big, 0xA5, (size_t)W * H * 4);
        CU_ASSERT_EQUAL(swx_png_decode_rgba_into(big, (size_t)W * 4, 38, 23, b.p, b.len),
                        SWX_ESERVICE);
        CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "37 x 23, not the 38 x 23 asked for"));
        CU_ASSERT_NOT_EQUAL(swx_png_decode_rgba_into(big, (size_t)W * 4, 36, 23, b.p, b.len), 0);
        int touched = 0;
        for (size_t k = 0; k < (size_t)W * H * 4; k++)
            touched += big[k] != 0xA5;
        CU_ASSERT_EQUAL(touched, 0);

        /* Truncated or with a flipped byte: an error. */
        CU_ASSERT_EQUAL(swx_png_decode_rgba_into(big, (size_t)W * 4, 37, 23, b.p, b.len - 12),
                        SWX_EPARSE);
        b.p[b.len / 2] ^= 0x40;
        CU_ASSERT_EQUAL(swx_png_decode_rgba_into(big, (size_t)W * 4, 37, 23, b.p, b.len),
                        SWX_EPARSE);
        free(big);
        free(b.p);
    }
}

/* One image, checked by swx_png_check (for 8-bit RGBA: its direct path) and by
 * libpng alone. Counts a disagreement: the direct path accepting what libpng
 * refuses, or both accepting with another size or transparency. */
static int disagree(const uint8_t *p, size_t n, int *accepted)
{
    int w = 0, h = 0, at = -1, lw = 0, lh = 0, lat = -1;
    int rc = swx_png_check(&w, &h, &at, p, n);
    int lrc = swx_png_check_libpng(&lw, &lh, &lat, p, n);
    *accepted = rc == 0;
    if (rc == 0 && (lrc != 0 || w != lw || h != lh || at != lat))
        return 1;
    return 0;
}

static void test_direct_path(void)
{
    int filters[] = {PNG_FILTER_NONE, PNG_FILTER_SUB,   PNG_FILTER_UP,
                     PNG_FILTER_AVG,  PNG_FILTER_PAETH, PNG_ALL_FILTERS};
    fill_fn fills[] = {fill_rgba8, fill_zero};
    for (int f = 0; f < 6; f++)
        for (int k = 0; k < 2; k++) {
            spec s = {.w = 40,
                      .h = 24,
                      .type = PNG_COLOR_TYPE_RGB_ALPHA,
                      .depth = 8,
                      .fill = fills[k],
                      .filters = filters[f],
                      .idat_size = f == 5 ? 100 : 0,
                      .text = f >= 4};
            wbuf b = {0};
            CU_ASSERT_FATAL(write_png(&s, &b) == 0);
            int acc, w = 0, h = 0, at = -1;
            /* Valid: accepted, with the size and transparency libpng reads. */
            CU_ASSERT_EQUAL(disagree(b.p, b.len, &acc), 0);
            CU_ASSERT_EQUAL(acc, 1);
            CU_ASSERT_EQUAL(swx_png_check(&w, &h, &at, b.p, b.len), 0);
            CU_ASSERT(w == 40 && h == 24 && at == (k == 1));
            /* Damaged: every truncation and every byte flipped (two ways) is
             * refused by both, or accepted by libpng too. */
            int bad = 0, refused = 0;
            for (size_t cut = 0; cut < b.len; cut++) {
                bad += disagree(b.p, cut, &acc);
                refused += !acc;
            }
            CU_ASSERT_EQUAL(refused, (int)b.len);
            uint8_t *c = malloc(b.len);
            for (size_t i = 0; i < b.len; i++)
                for (int m = 0; m < 2; m++) {
                    memcpy(c, b.p, b.len);
                    c[i] ^= m ? 0xff : 0x01;
                    bad += disagree(c, b.len, &acc);
                }
            CU_ASSERT_EQUAL(bad, 0);
            free(c);
            free(b.p);
        }
    /* An image of the seeder's own encoder, at every level. */
    uint8_t px[16 * 16 * 4];
    for (size_t i = 0; i < sizeof px; i++)
        px[i] = (uint8_t)(i * 7);
    for (int level = 0; level <= 9; level++) {
        void *png = NULL;
        size_t n = 0;
        int acc;
        CU_ASSERT_EQUAL(swx_png_encode_rgba(&png, &n, px, 16, 16, 64, level), 0);
        CU_ASSERT_EQUAL(disagree(png, n, &acc), 0);
        CU_ASSERT_EQUAL(acc, 1);
        free(png);
    }
}

int main(void)
{
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("png", NULL, NULL);
    CU_add_test(s, "RGBA and RGB, interlaced or not", test_rgba_and_rgb);
    CU_add_test(s, "16-bit", test_sixteen_bit);
    CU_add_test(s, "grey at 2 bits, tRNS colour", test_grey_low_depth);
    CU_add_test(s, "palette with tRNS", test_palette_trns);
    CU_add_test(s, "all transparent", test_all_transparent);
    CU_add_test(s, "encode round trip", test_encode_round_trip);
    CU_add_test(s, "size limits", test_limits);
    CU_add_test(s, "truncated and corrupt", test_corrupt);
    CU_add_test(s, "decoded into a larger image", test_decode_into);
    CU_add_test(s, "the check's direct path against libpng", test_direct_path);
    return cu_run();
}
