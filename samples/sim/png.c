/* png.c: streaming PNG encoder (see png.h).
 *
 * libpng reports errors by longjmp to the jmp_buf of the png struct; every
 * function here that calls into libpng sets that point first and turns the jump
 * into a -1 return. */
#include "png.h"

#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <zlib.h>

#include "buf.h"

struct sim_png {
    png_structp png;
    png_infop info;
    struct sim_buf out;
    unsigned width, height, rows_done;
};

static void on_write(png_structp png, png_bytep data, png_size_t len)
{
    struct sim_png *p = png_get_io_ptr(png);

    if (sim_buf_append(&p->out, data, len) != 0)
        png_error(png, "encoded image larger than the limit");
}

static void on_flush(png_structp png)
{
    (void)png;
}

static void on_error(png_structp png, png_const_charp msg)
{
    (void)msg;
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp msg)
{
    (void)png;
    (void)msg;
}

int sim_png_begin(struct sim_png **out, unsigned width, unsigned height, size_t limit)
{
    struct sim_png *p = calloc(1, sizeof(*p));

    *out = NULL;
    if (p == NULL)
        return -1;
    sim_buf_init(&p->out, limit);
    p->width = width;
    p->height = height;
    p->png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, on_error, on_warning);
    if (p->png == NULL)
        goto fail;
    p->info = png_create_info_struct(p->png);
    if (p->info == NULL)
        goto fail;
    if (setjmp(png_jmpbuf(p->png)))
        goto fail;
    png_set_write_fn(p->png, p, on_write, on_flush);
    /* Level 1 with the SUB filter: about as fast as no filter, and much smaller on
     * smooth fields. */
    png_set_compression_level(p->png, 1);
    png_set_filter(p->png, PNG_FILTER_TYPE_BASE, PNG_FILTER_SUB);
    png_set_compression_buffer_size(p->png, 65536);
    png_set_IHDR(p->png, p->info, width, height, 8, PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
    png_write_info(p->png, p->info);
    *out = p;
    return 0;
fail:
    sim_png_free(p);
    return -1;
}

int sim_png_rows(struct sim_png *p, const uint8_t *rgba, unsigned nrows)
{
    if (nrows > p->height - p->rows_done)
        return -1;
    if (setjmp(png_jmpbuf(p->png)))
        return -1;
    for (unsigned j = 0; j < nrows; j++)
        png_write_row(p->png, rgba + (size_t)j * p->width * 4);
    p->rows_done += nrows;
    return 0;
}

int sim_png_end(struct sim_png *p, char **data, size_t *len)
{
    *data = NULL;
    if (p->rows_done != p->height)
        return -1;
    if (setjmp(png_jmpbuf(p->png)))
        return -1;
    png_write_end(p->png, NULL);
    *data = sim_buf_steal(&p->out, len);
    return *data != NULL ? 0 : -1;
}

void sim_png_free(struct sim_png *p)
{
    if (p == NULL)
        return;
    if (p->png != NULL)
        png_destroy_write_struct(&p->png, p->info != NULL ? &p->info : NULL);
    sim_buf_free(&p->out);
    free(p);
}
