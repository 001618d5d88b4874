/* encode.c: tiles encoded as palette PNG, WebP or JPEG (encode.h).
 *
 * Every encoder works on a copy of the tile where fully transparent pixels
 * are (0, 0, 0, 0): the colour under a transparent pixel is invisible, and
 * making it canonical lets identical-looking tiles encode to identical bytes.
 */
#include "encode.h"

#include "png_codec.h"
#include "seawx/error.h"

#include <libimagequant.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <webp/encode.h>

#include <jpeglib.h>

/* Tiles are at most SWX_SEED_MAX_IMAGE wide; an encoded tile larger than
 * this is refused rather than grown further. */
#define ENCODE_MAX_OUT (64u * 1024u * 1024u)
#define PNG8_SPEED 4  /* libimagequant's default speed: fixed, so output is too */
#define WEBP_METHOD 4 /* libwebp's effort, 0-6: 4 is its default */
#define PNG8_ZLIB_LEVEL 9

const char *swx_tile_format_mbtiles(swx_tile_format f)
{
    const swx_tile_format_info *t = swx_tile_format_get((int)f);
    return t ? t->mbtiles : "png";
}

/* A contiguous copy with transparent pixels made (0, 0, 0, 0); *opaque tells
 * whether every pixel is fully opaque. */
static uint8_t *canonical_copy(const uint8_t *rgba, int w, int h, size_t stride, int *opaque)
{
    size_t row = (size_t)w * 4;
    uint8_t *px = malloc(row * (size_t)h);
    if (!px)
        return NULL;
    *opaque = 1;
    for (int y = 0; y < h; y++) {
        uint8_t *d = px + row * (size_t)y;
        memcpy(d, rgba + stride * (size_t)y, row);
        for (int x = 0; x < w; x++) {
            uint8_t *p = d + 4 * (size_t)x;
            if (p[3] == 0)
                p[0] = p[1] = p[2] = 0;
            if (p[3] != 255)
                *opaque = 0;
        }
    }
    return px;
}

/* ---- png8 ---- */

typedef struct membuf {
    uint8_t *data;
    size_t len, cap;
    int too_big;
} membuf;

static void membuf_write(png_structp png, png_bytep data, png_size_t n)
{
    membuf *b = png_get_io_ptr(png);
    if (b->too_big)
        return;
    if (n > ENCODE_MAX_OUT - b->len) {
        b->too_big = 1;
        png_error(png, "encoded tile too large");
    }
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n)
            cap *= 2;
        uint8_t *nd = realloc(b->data, cap);
        if (!nd)
            png_error(png, "out of memory");
        b->data = nd;
        b->cap = cap;
    }
    memcpy(b->data + b->len, data, n);
    b->len += n;
}

static void membuf_flush(png_structp png)
{
    (void)png;
}

typedef struct png_err {
    char msg[256];
} png_err;

static void png8_error(png_structp png, png_const_charp msg)
{
    png_err *e = png_get_error_ptr(png);
    snprintf(e->msg, sizeof e->msg, "%s", msg);
    png_longjmp(png, 1);
}

static void png8_warning(png_structp png, png_const_charp msg)
{
    (void)png;
    (void)msg;
}

/* Writes an indexed PNG: n palette entries (RGBA), one index per pixel. */
static int png8_write(void **out, size_t *out_len, const uint8_t *idx, int w, int h,
                      const liq_color *pal, int n)
{
    membuf b = {0};
    png_err e = {""};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &e, png8_error, png8_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    int rc = 0;
    if (!png || !info) {
        rc = swx_error_set(SWX_ENOMEM, "out of memory");
        goto done;
    }
    if (setjmp(png_jmpbuf(png))) {
        rc = b.too_big ? swx_error_set(SWX_ETOOBIG, "an encoded tile is larger than %u MiB",
                                       ENCODE_MAX_OUT >> 20)
                       : swx_error_set(SWX_ENOMEM, "encoding a palette PNG failed: %s", e.msg);
        goto done;
    }
    png_set_write_fn(png, &b, membuf_write, membuf_flush);
    png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, 8, PNG_COLOR_TYPE_PALETTE,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_color rgb[256];
    png_byte alpha[256];
    int ntrans = 0;
    for (int i = 0; i < n; i++) {
        rgb[i].red = pal[i].r;
        rgb[i].green = pal[i].g;
        rgb[i].blue = pal[i].b;
        alpha[i] = pal[i].a;
        if (pal[i].a != 255)
            ntrans = i + 1;
    }
    png_set_PLTE(png, info, rgb, n);
    if (ntrans)
        png_set_tRNS(png, info, alpha, ntrans, NULL);
    png_set_compression_level(png, PNG8_ZLIB_LEVEL);
    png_set_filter(png, 0, PNG_FILTER_NONE); /* palette images compress best unfiltered */
    png_write_info(png, info);
    for (int y = 0; y < h; y++)
        png_write_row(png, idx + (size_t)w * (size_t)y);
    png_write_end(png, info);
done:
    png_destroy_write_struct(png ? &png : NULL, info ? &info : NULL);
    if (rc) {
        free(b.data);
        return rc;
    }
    *out = b.data;
    *out_len = b.len;
    return 0;
}

/* Gives every fully transparent pixel a fully transparent palette entry
 * (added when the palette has room, else the least opaque entry becomes
 * one), then orders the palette with its translucent entries first, so that
 * the tRNS chunk is as short as it can be. */
static void png8_fix_palette(liq_color *pal, int *n, uint8_t *idx, const uint8_t *px, size_t npx)
{
    int clear = -1, least = 0;
    for (int i = 0; i < *n; i++) {
        if (pal[i].a == 0 && clear < 0)
            clear = i;
        if (pal[i].a < pal[least].a)
            least = i;
    }
    for (size_t i = 0; i < npx; i++) {
        if (px[4 * i + 3] != 0 || pal[idx[i]].a == 0)
            continue;
        if (clear < 0) {
            clear = *n < 256 ? (*n)++ : least;
            pal[clear] = (liq_color){0, 0, 0, 0};
        }
        idx[i] = (uint8_t)clear;
    }
    int order[256], map[256], k = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < *n; i++)
            if ((pass == 0) == (pal[i].a != 255))
                order[k++] = i;
    liq_color sorted[256];
    for (int i = 0; i < *n; i++) {
        sorted[i] = pal[order[i]];
        map[order[i]] = i;
    }
    memcpy(pal, sorted, sizeof sorted[0] * (size_t)*n);
    for (size_t i = 0; i < npx; i++)
        idx[i] = (uint8_t)map[idx[i]];
}

static int encode_png8(void **out, size_t *out_len, const uint8_t *px, int w, int h)
{
    liq_attr *attr = liq_attr_create();
    liq_image *img = NULL;
    liq_result *res = NULL;
    uint8_t *idx = NULL;
    size_t npx = (size_t)w * (size_t)h;
    int rc = 0;
    if (!attr || !(idx = malloc(npx))) {
        rc = swx_error_set(SWX_ENOMEM, "out of memory");
        goto done;
    }
    liq_set_speed(attr, PNG8_SPEED);
    liq_set_max_colors(attr, 256);
    img = liq_image_create_rgba(attr, px, w, h, 0);
    if (!img || liq_image_quantize(img, attr, &res) != LIQ_OK) {
        rc = swx_error_set(SWX_ENOMEM, "reducing a tile to 256 colours failed");
        goto done;
    }
    liq_set_dithering_level(res, 0.0f); /* no dithering: smaller, and the same every time */
    if (liq_write_remapped_image(res, img, idx, npx) != LIQ_OK) {
        rc = swx_error_set(SWX_ENOMEM, "mapping a tile to its palette failed");
        goto done;
    }
    const liq_palette *lp = liq_get_palette(res);
    liq_color pal[256];
    int n = (int)lp->count;
    memcpy(pal, lp->entries, sizeof pal[0] * (size_t)n);
    png8_fix_palette(pal, &n, idx, px, npx);
    rc = png8_write(out, out_len, idx, w, h, pal, n);
done:
    free(idx);
    liq_result_destroy(res);
    liq_image_destroy(img);
    liq_attr_destroy(attr);
    return rc;
}

/* ---- webp ---- */

static int encode_webp(void **out, size_t *out_len, const uint8_t *px, int w, int h, int quality)
{
    WebPConfig cfg;
    WebPPicture pic;
    WebPMemoryWriter wr;
    int rc = 0;
    if (!WebPConfigInit(&cfg) || !WebPPictureInit(&pic))
        return swx_error_set(SWX_EINVAL, "libwebp does not match the version seawx was built with");
    WebPMemoryWriterInit(&wr);
    cfg.method = WEBP_METHOD;
    cfg.thread_level = 0;
    if (quality <= 0) {
        cfg.lossless = 1;
        cfg.quality = 75; /* lossless effort, libwebp's default */
        cfg.exact = 0;    /* the colour under transparent pixels is already canonical */
    } else {
        cfg.quality = (float)quality;
        cfg.alpha_compression = 1;
        cfg.alpha_quality = 100; /* alpha kept exact: transparent stays transparent */
    }
    pic.use_argb = cfg.lossless;
    pic.width = w;
    pic.height = h;
    pic.writer = WebPMemoryWrite;
    pic.custom_ptr = &wr;
    if (!WebPPictureImportRGBA(&pic, px, w * 4)) {
        rc = swx_error_set(SWX_ENOMEM, "out of memory");
        goto done;
    }
    if (!WebPEncode(&cfg, &pic)) {
        rc = swx_error_set(pic.error_code == VP8_ENC_ERROR_OUT_OF_MEMORY ? SWX_ENOMEM : SWX_EINVAL,
                           "encoding a WebP tile failed (libwebp error %d)", (int)pic.error_code);
        goto done;
    }
    if (wr.size > ENCODE_MAX_OUT) {
        rc = swx_error_set(SWX_ETOOBIG, "an encoded tile is larger than %u MiB",
                           ENCODE_MAX_OUT >> 20);
        goto done;
    }
    /* The caller frees with free(): copy out of libwebp's allocation. */
    *out = malloc(wr.size ? wr.size : 1);
    if (!*out) {
        rc = swx_error_set(SWX_ENOMEM, "out of memory");
        goto done;
    }
    memcpy(*out, wr.mem, wr.size);
    *out_len = wr.size;
done:
    WebPPictureFree(&pic);
    WebPMemoryWriterClear(&wr);
    return rc;
}

/* ---- jpeg ---- */

typedef struct jpeg_err {
    struct jpeg_error_mgr mgr;
    jmp_buf jb;
    char msg[JMSG_LENGTH_MAX];
} jpeg_err;

static void jpeg_fail(j_common_ptr c)
{
    jpeg_err *e = (jpeg_err *)c->err;
    c->err->format_message(c, e->msg);
    longjmp(e->jb, 1);
}

static int encode_jpeg(void **out, size_t *out_len, const uint8_t *px, int w, int h, int quality)
{
    struct jpeg_compress_struct c;
    jpeg_err e;
    unsigned char *mem = NULL;
    unsigned long len = 0;
    uint8_t *volatile row = NULL;
    volatile int rc = 0;
    memset(&c, 0, sizeof c);
    c.err = jpeg_std_error(&e.mgr);
    e.mgr.error_exit = jpeg_fail;
    e.msg[0] = '\0';
    if (setjmp(e.jb)) {
        rc = swx_error_set(SWX_ENOMEM, "encoding a JPEG tile failed: %s", e.msg);
        goto done;
    }
    jpeg_create_compress(&c);
    jpeg_mem_dest(&c, &mem, &len);
    c.image_width = (JDIMENSION)w;
    c.image_height = (JDIMENSION)h;
    c.input_components = 3;
    c.in_color_space = JCS_RGB;
    jpeg_set_defaults(&c);
    jpeg_set_quality(&c, quality > 0 ? quality : SWX_JPEG_DEFAULT_QUALITY, TRUE);
    c.optimize_coding = TRUE;
    row = malloc((size_t)w * 3);
    if (!row) {
        rc = swx_error_set(SWX_ENOMEM, "out of memory");
        goto done;
    }
    jpeg_start_compress(&c, TRUE);
    while (c.next_scanline < c.image_height) {
        const uint8_t *s = px + (size_t)w * 4 * c.next_scanline;
        for (int x = 0; x < w; x++)
            memcpy(row + 3 * (size_t)x, s + 4 * (size_t)x, 3);
        JSAMPROW r = row;
        jpeg_write_scanlines(&c, &r, 1);
    }
    jpeg_finish_compress(&c);
    if (len > ENCODE_MAX_OUT) {
        rc = swx_error_set(SWX_ETOOBIG, "an encoded tile is larger than %u MiB",
                           ENCODE_MAX_OUT >> 20);
        goto done;
    }
    *out = mem;
    *out_len = len;
    mem = NULL;
done:
    jpeg_destroy_compress(&c);
    free(mem);
    free(row);
    return rc;
}

int swx_tile_encode(void **out, size_t *out_len, const uint8_t *rgba, int w, int h, size_t stride,
                    swx_tile_format f, int quality)
{
    int opaque = 0, rc;
    *out = NULL;
    *out_len = 0;
    if (w <= 0 || h <= 0 || w > SWX_SEED_MAX_IMAGE || h > SWX_SEED_MAX_IMAGE ||
        stride < (size_t)w * 4)
        return swx_error_set(SWX_EINVAL, "cannot encode a %d x %d tile", w, h);
    if (quality < 0 || quality > 100)
        return swx_error_set(SWX_EINVAL, "quality must be from 1 to 100, not %d", quality);
    uint8_t *px = canonical_copy(rgba, w, h, stride, &opaque);
    if (!px)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    switch (f) {
    case SWX_FORMAT_PNG:
        rc = swx_png_encode_rgba(out, out_len, px, w, h, (size_t)w * 4, 9);
        break;
    case SWX_FORMAT_PNG8:
        rc = encode_png8(out, out_len, px, w, h);
        break;
    case SWX_FORMAT_WEBP:
        rc = encode_webp(out, out_len, px, w, h, quality);
        break;
    case SWX_FORMAT_JPEG:
        rc = opaque ? encode_jpeg(out, out_len, px, w, h, quality)
                    : swx_error_set(SWX_EINVAL, "JPEG has no transparency and this tile has "
                                                "transparent pixels: use png8 or webp");
        break;
    default:
        rc = swx_error_set(SWX_EINVAL, "unknown tile format %d", (int)f);
    }
    free(px);
    return rc;
}
