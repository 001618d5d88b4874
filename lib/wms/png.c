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
 *
 * Checking without keeping the pixels (swx_png_check) has a direct path for
 * the images the service sends: 8-bit RGBA, not interlaced, only IDAT and IEND
 * as critical chunks. It makes every check libpng makes on such an image:
 * signature; IHDR first, 13 bytes, valid fields, size within the limits; every
 * chunk's length, type letters and CRC-32; IDAT chunks consecutive; the zlib
 * header; the whole deflate stream inflated, ending exactly at the image's
 * size (h rows of 1 + 4w bytes); each row's filter type 0-4; IEND present.
 * What it leaves out is undoing the row filters, which cannot fail and was a
 * third of the seeder's CPU per tile (libpng's scalar Sub/Up/Paeth loops).
 * Whether every pixel is transparent is read from the filtered bytes: every
 * filter predicts 0 from neighbours that are all 0, so all alpha bytes are 0
 * exactly when all filtered alpha bytes are. Any other image goes to libpng;
 * so does nothing the direct path accepts that libpng would refuse:
 * tests/fuzz/fuzz_png.c aborts if that ever happens, and the unit tests
 * compare both on every kind of damage.
 */
#include "png_codec.h"

#include "buf.h"
#include "png_priv.h"
#include "seawx/error.h"

#include <png.h>
#include <setjmp.h>
#include <zlib.h>
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
    int keep;      /* 1: decode into rgba; 0: row by row, for a check */
    uint8_t *rgba; /* when keep */
    uint8_t *into; /* when keep: the caller's pixels (rgba not allocated) */
    size_t into_stride;
    uint8_t *row;    /* when !keep */
    png_bytep *rows; /* row pointers into rgba */
    int w, h;
    int all_transparent;
    int bad_size; /* the size check failed: empty, too large, or (into) not the
                   * size asked for; not a libpng error */
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

/* The body of a decode; 0 or -1 (message in d->msg, or d->bad_size). */
static int decode_run(png_dec *d)
{
    if (setjmp(png_jmpbuf(d->png)))
        return -1;
    png_set_read_fn(d->png, &d->src, mem_read);
    png_set_chunk_malloc_max(d->png, PNG_CHUNK_MALLOC_MAX);
    png_set_user_limits(d->png, (png_uint_32)d->max_w, (png_uint_32)d->max_h);
#ifdef PNG_IGNORE_ADLER32
    /* zlib's Adler-32 is skipped: every chunk's CRC-32 already covers every
     * compressed byte, and truncation is still caught. It is a fifth of the
     * seeder's CPU per tile, and of zlib's in a copy through the plugin. */
    png_set_option(d->png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
#endif
    png_read_info(d->png, d->info);

    png_uint_32 w = png_get_image_width(d->png, d->info);
    png_uint_32 h = png_get_image_height(d->png, d->info);
    if (w == 0 || h == 0 || w > (png_uint_32)d->max_w || h > (png_uint_32)d->max_h ||
        (d->into && (w != (png_uint_32)d->max_w || h != (png_uint_32)d->max_h))) {
        d->w = (int)(w > 0x7fffffff ? 0x7fffffff : w);
        d->h = (int)(h > 0x7fffffff ? 0x7fffffff : h);
        d->bad_size = 1;
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
        if (!d->into)
            d->rgba = malloc(stride * (size_t)d->h);
        d->rows = malloc(sizeof *d->rows * (size_t)d->h);
        if ((!d->into && !d->rgba) || !d->rows)
            png_error(d->png, "out of memory for the decoded image");
        for (int y = 0; y < d->h; y++)
            d->rows[y] =
                d->into ? d->into + d->into_stride * (size_t)y : d->rgba + stride * (size_t)y;
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

/* keep: decode the pixels, into the caller's (into, rows stride bytes apart,
 * exactly max_w x max_h) or a new image (into NULL); otherwise only check. */
static int decode(const void *data, size_t len, int max_w, int max_h, int keep, uint8_t *into,
                  size_t into_stride, png_dec *d)
{
    memset(d, 0, sizeof *d);
    d->into = into;
    d->into_stride = into_stride;
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
        if (d->bad_size && d->into && d->w <= d->max_w && d->h <= d->max_h)
            rc = swx_error_set(SWX_ESERVICE, "image is %d x %d, not the %d x %d asked for", d->w,
                               d->h, d->max_w, d->max_h);
        else if (d->bad_size)
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

int swx_png_decode_rgba_into(uint8_t *dst, size_t stride, int w, int h, const void *data,
                             size_t len)
{
    png_dec d;
    return decode(data, len, w, h, 1, dst, stride, &d);
}

int swx_png_decode_rgba(uint8_t **rgba, int *w, int *h, const void *data, size_t len, int max_w,
                        int max_h)
{
    png_dec d;
    *rgba = NULL;
    int rc = decode(data, len, max_w, max_h, 1, NULL, 0, &d);
    if (rc)
        return rc;
    *rgba = d.rgba;
    if (w)
        *w = d.w;
    if (h)
        *h = d.h;
    return 0;
}

/* ---- the direct check of 8-bit RGBA images ---- */

#define FAST_OTHER 1 /* not an image for the direct path: ask libpng */

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int chunk_type_ok(const uint8_t *t)
{
    for (int i = 0; i < 4; i++)
        if (!((t[i] >= 'A' && t[i] <= 'Z') || (t[i] >= 'a' && t[i] <= 'z')))
            return 0;
    return 1;
}

/* Where inflated bytes are in the image: the row being read, the byte in it
 * (0: the filter type), and whether a non-zero alpha byte was seen. */
typedef struct fast_scan {
    size_t row_bytes; /* 1 + 4w */
    uint32_t rows_left;
    size_t col;
    int opaque_seen;
} fast_scan;

/* Walks n inflated bytes; -1 on a bad filter type or bytes past the image. */
static int fast_scan_bytes(fast_scan *f, const uint8_t *p, size_t n)
{
    while (n) {
        if (!f->rows_left)
            return -1;
        if (f->col == 0) {
            if (*p > 4)
                return -1;
            f->col = 1;
            p++;
            n--;
            continue;
        }
        size_t take = f->row_bytes - f->col;
        if (take > n)
            take = n;
        if (!f->opaque_seen) {
            /* Alpha is byte 4 of each pixel: columns 4, 8, ... of the row. */
            size_t first = (f->col + 3) & ~(size_t)3;
            for (size_t c = first; c < f->col + take; c += 4)
                if (p[c - f->col]) {
                    f->opaque_seen = 1;
                    break;
                }
        }
        f->col += take;
        p += take;
        n -= take;
        if (f->col == f->row_bytes) {
            f->col = 0;
            f->rows_left--;
        }
    }
    return 0;
}

/* 0 (valid), FAST_OTHER, or -1 with the reason in why. */
static int fast_check(const uint8_t *b, size_t len, int max_w, int max_h, int *w, int *h,
                      int *all_transparent, const char **why)
{
    static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (len < 8 + 25 || memcmp(b, sig, 8) != 0 || be32(b + 8) != 13 ||
        memcmp(b + 12, "IHDR", 4) != 0)
        return FAST_OTHER;
    const uint8_t *ih = b + 16;
    uint32_t iw = be32(ih), ihh = be32(ih + 4);
    if (ih[8] != 8 || ih[9] != 6 || ih[10] != 0 || ih[11] != 0 || ih[12] != 0)
        return FAST_OTHER; /* not 8-bit RGBA, or interlaced, or invalid: libpng says */
    if (iw == 0 || ihh == 0 || iw > (uint32_t)max_w || ihh > (uint32_t)max_h)
        return FAST_OTHER;
    if (crc32(crc32(0L, Z_NULL, 0), b + 12, 17) != be32(b + 29)) {
        *why = "IHDR: CRC error";
        return -1;
    }

    fast_scan f = {(size_t)iw * 4 + 1, ihh, 0, 0};
    z_stream z;
    memset(&z, 0, sizeof z);
    int zinit = 0, zdone = 0, idat_state = 0; /* 0 none yet, 1 in IDATs, 2 after */
    int rc = -1;
    uint8_t out[16384];
    uint8_t zhdr[2];
    size_t zhdr_have = 0;
    size_t pos = 33;
    *why = "the image is truncated (no IEND)";
    while (len - pos >= 12) {
        uint32_t clen = be32(b + pos);
        const uint8_t *type = b + pos + 4, *cdata = b + pos + 8;
        if (clen > 0x7fffffffu || !chunk_type_ok(type)) {
            *why = clen > 0x7fffffffu ? "a chunk length over 2^31-1" : "an invalid chunk type";
            goto done;
        }
        if (clen > PNG_CHUNK_MALLOC_MAX) {
            *why = "chunk data is too large";
            goto done;
        }
        if (clen > len - pos - 12) {
            *why = "the image is truncated";
            goto done;
        }
        int is_idat = memcmp(type, "IDAT", 4) == 0, is_iend = memcmp(type, "IEND", 4) == 0;
        if (!is_idat && !is_iend && !(type[0] & 0x20)) {
            rc = FAST_OTHER; /* PLTE, a second IHDR, an unknown critical chunk */
            goto done;
        }
        if (crc32(crc32(0L, Z_NULL, 0), type, clen + 4) != be32(cdata + clen)) {
            *why = "a chunk's CRC does not match";
            goto done;
        }
        if (is_iend) {
            if (clen != 0 || idat_state == 0 || !zdone) {
                *why = idat_state == 0 ? "no image data"
                       : clen          ? "a bad IEND chunk"
                                       : "not enough image data";
                goto done;
            }
            rc = 0;
            goto done;
        }
        if (is_idat) {
            if (idat_state == 2) {
                *why = "IDAT chunks not consecutive";
                goto done;
            }
            idat_state = 1;
            const uint8_t *p = cdata;
            size_t n = clen;
            /* The two-byte zlib header, then the raw deflate stream: its
             * Adler-32 is not checked (the chunks' CRC-32 covers every byte). */
            while (zhdr_have < 2 && n) {
                zhdr[zhdr_have++] = *p++;
                n--;
            }
            if (zhdr_have == 2 && !zinit) {
                if ((zhdr[0] & 0x0f) != 8 || (zhdr[0] >> 4) > 7 || (zhdr[1] & 0x20) ||
                    ((unsigned)zhdr[0] << 8 | zhdr[1]) % 31 != 0) {
                    *why = "a bad zlib header";
                    goto done;
                }
                if (inflateInit2(&z, -15) != Z_OK) {
                    *why = "out of memory for zlib";
                    goto done;
                }
                zinit = 1;
            }
            if (zinit && !zdone && n) {
                z.next_in = (Bytef *)p;
                z.avail_in = (uInt)n;
                do {
                    z.next_out = out;
                    z.avail_out = sizeof out;
                    int zr = inflate(&z, Z_NO_FLUSH);
                    if (zr != Z_OK && zr != Z_STREAM_END && zr != Z_BUF_ERROR) {
                        *why = "a damaged deflate stream";
                        goto done;
                    }
                    if (fast_scan_bytes(&f, out, sizeof out - z.avail_out) != 0) {
                        *why = f.rows_left ? "a bad row filter type" : "too much image data";
                        goto done;
                    }
                    if (zr == Z_STREAM_END) {
                        zdone = 1;
                        break;
                    }
                    if (zr == Z_BUF_ERROR) {
                        if (z.avail_in) {
                            *why = "a damaged deflate stream";
                            goto done;
                        }
                        break;
                    }
                } while (z.avail_in > 0 || z.avail_out == 0);
                if (zdone && (f.rows_left || f.col)) {
                    *why = "not enough image data";
                    goto done;
                }
            }
        } else if (idat_state == 1) {
            idat_state = 2;
        }
        pos += 12 + (size_t)clen;
    }
done:
    if (zinit)
        inflateEnd(&z);
    if (rc == 0) {
        *w = (int)iw;
        *h = (int)ihh;
        *all_transparent = !f.opaque_seen;
    }
    return rc;
}

int swx_png_check_libpng(int *w, int *h, int *all_transparent, const void *data, size_t len)
{
    png_dec d;
    int rc = decode(data, len, 0, 0, 0, NULL, 0, &d);
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

int swx_png_check(int *w, int *h, int *all_transparent, const void *data, size_t len)
{
    int fw = 0, fh = 0, fe = 0;
    const char *why = NULL;
    int fr =
        data ? fast_check(data, len, PNG_DEFAULT_MAX_DIM, PNG_DEFAULT_MAX_DIM, &fw, &fh, &fe, &why)
             : FAST_OTHER;
    if (fr == 0) {
        if (w)
            *w = fw;
        if (h)
            *h = fh;
        if (all_transparent)
            *all_transparent = fe;
        return 0;
    }
    if (fr < 0)
        return swx_error_set(SWX_EPARSE, "invalid PNG image: %s", why);
    return swx_png_check_libpng(w, h, all_transparent, data, len);
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
    png_set_IHDR(e->png, e->info, (png_uint_32)e->w, (png_uint_32)e->h, 8, PNG_COLOR_TYPE_RGB_ALPHA,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(e->png, e->level);
    if (e->level <= 1)
        png_set_filter(e->png, 0, PNG_FILTER_NONE);
    png_write_info(e->png, e->info);
    for (int y = 0; y < e->h; y++)
        png_write_row(e->png, (png_const_bytep)(e->rgba + e->stride * (size_t)y));
    png_write_end(e->png, NULL);
    return 0;
}

int swx_png_encode_rgba(void **out, size_t *out_len, const uint8_t *rgba, int w, int h,
                        size_t stride, int level)
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
    *out = swx_buf_take(&n, &e.out);
    if (!*out)
        return swx_error_set(SWX_ENOMEM, "out of memory encoding a %d x %d PNG", w, h);
    if (out_len)
        *out_len = n;
    return 0;
}
