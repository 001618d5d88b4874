/*
 * png.c: PNG decoding to 8-bit RGBA and encoding from it, with libpng.
 *
 * libpng reports errors by longjmp. Each setjmp lives in a small function whose
 * own locals are never modified after it (the state is in a struct the caller
 * owns), so nothing is indeterminate after a jump.
 *
 * Decoding is strict: the IHDR size is checked against the caller's limits
 * before any pixel memory is allocated, every row is read, and the stream is
 * read to IEND (png_read_end), so a truncated or corrupt body is an error.
 * Transformations give RGBA8 whatever the input: palette and low-bit grey are
 * expanded, tRNS becomes alpha, 16-bit samples are scaled to 8, grey becomes
 * RGB, and an opaque filler alpha is added when there is none.
 */
#include "seawx/png.h"

#include "buf.h"
#include "seawx/error.h"

#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#define PNG_DEFAULT_MAX_DIM 16384
/* Ancillary chunks (text, ICC profiles) may not make libpng allocate more. */
#define PNG_CHUNK_MALLOC_MAX (8u * 1024u * 1024u)
#define PNG_MSG_MAX 200

typedef struct png_mem {
    const uint8_t *data;
    size_t len;
    size_t pos;
} png_mem;

typedef struct png_dec {
    png_structp png;
    png_infop info;
    png_mem src;
    int max_w, max_h;
    int keep;             /* 1: decode into rgba; 0: row by row, for a check */
    uint8_t *rgba;        /* when keep */
    uint8_t *row;         /* when !keep */
    png_bytep *rows;      /* row pointers into rgba */
    int w, h;
    int all_transparent;
    int too_big;          /* the size check failed (not a libpng error) */
    char msg[PNG_MSG_MAX];
} png_dec;

static void on_error(png_structp png, png_const_charp text)
{
    char *msg = png_get_error_ptr(png);
    if (msg) {
        strncpy(msg, text ? text : "unknown libpng error", PNG_MSG_MAX - 1);
        msg[PNG_MSG_MAX - 1] = '\0';
    }
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp text)
{
    (void)png;
    (void)text;
}

static void mem_read(png_structp png, png_bytep out, png_size_t n)
{
    png_mem *m = png_get_io_ptr(png);
    if (n > m->len - m->pos)
        png_error(png, "the image is truncated");
    memcpy(out, m->data + m->pos, n);
    m->pos += n;
}

static void scan_alpha(png_dec *d, const uint8_t *row)
{
    if (!d->all_transparent)
        return;
    for (int x = 0; x < d->w; x++)
        if (row[4 * x + 3]) {
            d->all_transparent = 0;
            return;
        }
}

/* The body of a decode; 0 or -1 (message in d->msg, or d->too_big). */
static int decode_run(png_dec *d)
{
    if (setjmp(png_jmpbuf(d->png)))
        return -1;
    png_set_read_fn(d->png, &d->src, mem_read);
    png_set_chunk_malloc_max(d->png, PNG_CHUNK_MALLOC_MAX);
    png_set_user_limits(d->png, (png_uint_32)d->max_w, (png_uint_32)d->max_h);
#ifdef PNG_IGNORE_ADLER32
    /* When only checking, zlib's Adler-32 is skipped: every chunk's CRC-32
     * already covers every compressed byte, and truncation is still caught.
     * It is a fifth of the seeder's CPU per tile. */
    if (!d->keep)
        png_set_option(d->png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
#endif
    png_read_info(d->png, d->info);

    png_uint_32 w = png_get_image_width(d->png, d->info);
    png_uint_32 h = png_get_image_height(d->png, d->info);
    if (w == 0 || h == 0 || w > (png_uint_32)d->max_w || h > (png_uint_32)d->max_h) {
        d->w = (int)(w > 0x7fffffff ? 0x7fffffff : w);
        d->h = (int)(h > 0x7fffffff ? 0x7fffffff : h);
        d->too_big = 1;
        return -1;
    }
    d->w = (int)w;
    d->h = (int)h;

    int type = png_get_color_type(d->png, d->info);
    int depth = png_get_bit_depth(d->png, d->info);
    if (type == PNG_COLOR_TYPE_PALETTE)
        png_set_palette_to_rgb(d->png);
    if (type == PNG_COLOR_TYPE_GRAY && depth < 8)
        png_set_expand_gray_1_2_4_to_8(d->png);
    if (png_get_valid(d->png, d->info, PNG_INFO_tRNS))
        png_set_tRNS_to_alpha(d->png);
    if (depth == 16)
        png_set_scale_16(d->png);
    if (type == PNG_COLOR_TYPE_GRAY || type == PNG_COLOR_TYPE_GRAY_ALPHA)
        png_set_gray_to_rgb(d->png);
    if (!(type & PNG_COLOR_MASK_ALPHA))
        png_set_filler(d->png, 0xff, PNG_FILLER_AFTER);
    int passes = png_set_interlace_handling(d->png);
    png_read_update_info(d->png, d->info);
    if (png_get_rowbytes(d->png, d->info) != (size_t)d->w * 4)
        png_error(d->png, "unexpected row size after conversion to RGBA");

    size_t stride = (size_t)d->w * 4;
    if (d->keep) {
        d->rgba = malloc(stride * (size_t)d->h);
        d->rows = malloc(sizeof *d->rows * (size_t)d->h);
        if (!d->rgba || !d->rows)
            png_error(d->png, "out of memory for the decoded image");
        for (int y = 0; y < d->h; y++)
            d->rows[y] = d->rgba + stride * (size_t)y;
        png_read_image(d->png, d->rows);
        for (int y = 0; y < d->h && d->all_transparent; y++)
            scan_alpha(d, d->rows[y]);
    } else {
        d->row = malloc(stride);
        if (!d->row)
            png_error(d->png, "out of memory for a row");
        /* With interlace handling and no display row, each pass writes only its
         * own pixels into the row; zeroing the row first leaves the others
         * transparent, so the alpha scan sees each pixel exactly once. */
        for (int p = 0; p < passes; p++)
            for (int y = 0; y < d->h; y++) {
                memset(d->row, 0, stride);
                png_read_row(d->png, d->row, NULL);
                scan_alpha(d, d->row);
            }
    }
    png_read_end(d->png, NULL);
    return 0;
}

static int decode(const void *data, size_t len, int max_w, int max_h, int keep, png_dec *d)
{
    memset(d, 0, sizeof *d);
    d->src.data = data;
    d->src.len = len;
    d->max_w = max_w > 0 ? max_w : PNG_DEFAULT_MAX_DIM;
    d->max_h = max_h > 0 ? max_h : PNG_DEFAULT_MAX_DIM;
    d->keep = keep;
    d->all_transparent = 1;
    if (!data || len < 8 || png_sig_cmp((png_const_bytep)data, 0, 8) != 0)
        return swx_error_set(SWX_EPARSE, "not a PNG image (%zu bytes without the PNG signature)",
                             len);
    /* IHDR must come first: its size is checked before libpng reads on, so a
     * huge image is refused as such even when its body is cut short. */
    const uint8_t *b = data;
    if (len >= 24 && memcmp(b + 12, "IHDR", 4) == 0) {
        uint32_t w = (uint32_t)b[16] << 24 | (uint32_t)b[17] << 16 | (uint32_t)b[18] << 8 | b[19];
        uint32_t h = (uint32_t)b[20] << 24 | (uint32_t)b[21] << 16 | (uint32_t)b[22] << 8 | b[23];
        if (w > (uint32_t)d->max_w || h > (uint32_t)d->max_h)
            return swx_error_set(SWX_ETOOBIG,
                                 "PNG image of %lu x %lu pixels: larger than the %d x %d allowed",
                                 (unsigned long)w, (unsigned long)h, d->max_w, d->max_h);
    }
    d->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, d->msg, on_error, on_warning);
    if (!d->png || !(d->info = png_create_info_struct(d->png))) {
        png_destroy_read_struct(d->png ? &d->png : NULL, NULL, NULL);
        return swx_error_set(SWX_ENOMEM, "out of memory starting a PNG decoder");
    }
    int rc = 0;
    if (decode_run(d) != 0) {
        if (d->too_big)
            rc = swx_error_set(SWX_ETOOBIG,
                               "PNG image of %d x %d pixels: empty, or larger than the "
                               "%d x %d allowed",
                               d->w, d->h, d->max_w, d->max_h);
        else
            rc = swx_error_set(SWX_EPARSE, "invalid PNG image: %s", d->msg);
        free(d->rgba);
        d->rgba = NULL;
    }
    png_destroy_read_struct(&d->png, &d->info, NULL);
    free(d->rows);
    free(d->row);
    d->rows = NULL;
    d->row = NULL;
    return rc;
}

int swx_png_decode_rgba(const void *data, size_t len, int max_w, int max_h, uint8_t **rgba,
                        int *w, int *h)
{
    png_dec d;
    *rgba = NULL;
    int rc = decode(data, len, max_w, max_h, 1, &d);
    if (rc)
        return rc;
    *rgba = d.rgba;
    if (w)
        *w = d.w;
    if (h)
        *h = d.h;
    return 0;
}

int swx_png_check(const void *data, size_t len, int *w, int *h, int *all_transparent)
{
    png_dec d;
    int rc = decode(data, len, 0, 0, 0, &d);
    if (rc)
        return rc;
    if (w)
        *w = d.w;
    if (h)
        *h = d.h;
    if (all_transparent)
        *all_transparent = d.all_transparent;
    return 0;
}

/* ---- encoding ---- */

typedef struct png_enc {
    png_structp png;
    png_infop info;
    swx_buf out;
    int oom;
    const uint8_t *rgba;
    int w, h, level;
    size_t stride;
    char msg[PNG_MSG_MAX];
} png_enc;

static void mem_write(png_structp png, png_bytep p, png_size_t n)
{
    png_enc *e = png_get_io_ptr(png);
    if (swx_buf_append(&e->out, p, n) != 0) {
        e->oom = 1;
        png_error(png, "out of memory for the encoded image");
    }
}

static void mem_flush(png_structp png)
{
    (void)png;
}

static int encode_run(png_enc *e)
{
    if (setjmp(png_jmpbuf(e->png)))
        return -1;
    png_set_write_fn(e->png, e, mem_write, mem_flush);
    png_set_IHDR(e->png, e->info, (png_uint_32)e->w, (png_uint_32)e->h, 8,
                 PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(e->png, e->level);
    if (e->level <= 1)
        png_set_filter(e->png, 0, PNG_FILTER_NONE);
    png_write_info(e->png, e->info);
    for (int y = 0; y < e->h; y++)
        png_write_row(e->png, (png_const_bytep)(e->rgba + e->stride * (size_t)y));
    png_write_end(e->png, NULL);
    return 0;
}

int swx_png_encode_rgba(const uint8_t *rgba, int w, int h, size_t stride, int level, void **out,
                        size_t *out_len)
{
    *out = NULL;
    if (out_len)
        *out_len = 0;
    if (!rgba || w <= 0 || h <= 0 || w > PNG_DEFAULT_MAX_DIM || h > PNG_DEFAULT_MAX_DIM ||
        stride < (size_t)w * 4 || level < 0 || level > 9)
        return swx_error_set(SWX_EINVAL,
                             "cannot encode a PNG of %d x %d pixels, stride %zu, level %d", w, h,
                             stride, level);
    png_enc e;
    memset(&e, 0, sizeof e);
    e.rgba = rgba;
    e.w = w;
    e.h = h;
    e.stride = stride;
    e.level = level;
    /* Worst case of deflate with no compression plus headers, with room. */
    swx_buf_init(&e.out, ((size_t)w * 4 + 1) * (size_t)h * 2 + 65536);
    e.png = png_create_write_struct(PNG_LIBPNG_VER_STRING, e.msg, on_error, on_warning);
    if (!e.png || !(e.info = png_create_info_struct(e.png))) {
        png_destroy_write_struct(e.png ? &e.png : NULL, NULL);
        return swx_error_set(SWX_ENOMEM, "out of memory starting a PNG encoder");
    }
    int rc = 0;
    if (encode_run(&e) != 0)
        rc = e.oom ? swx_error_set(SWX_ENOMEM, "out of memory encoding a %d x %d PNG", w, h)
                   : swx_error_set(SWX_EIO, "could not encode a PNG: %s", e.msg);
    png_destroy_write_struct(&e.png, &e.info);
    if (rc) {
        swx_buf_free(&e.out);
        return rc;
    }
    size_t n = 0;
    *out = swx_buf_take(&e.out, &n);
    if (!*out)
        return swx_error_set(SWX_ENOMEM, "out of memory encoding a %d x %d PNG", w, h);
    if (out_len)
        *out_len = n;
    return 0;
}
