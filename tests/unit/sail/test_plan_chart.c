/* test_plan_chart.c: lib/sail/plan_chart.c, the departure plan's chart.
 *
 * A plan is built by hand (six departures by twenty points along the route,
 * known winds, waves, storms and verdicts), drawn, and read back with libpng.
 * The test does not know the chart's layout: it finds the verdict row (the
 * pixel row with most verdict colours), the columns (its boxes), and the grid
 * above it (up to the frame), then checks colours where they must be.
 * SEAWX_KEEP_TEST_DIR=1 keeps the charts and names their folder. */
#include "cu_support.h"

#include "plan_result.h"
#include "seawx/error.h"
#include "seawx/plan.h"

#include <cairo.h>
#include <dirent.h>
#include <dlfcn.h>
#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define ND 6
#define NS 20

static char dir[64];

/* The chart's colours, written here again so that the test is a check of the
 * drawing, not a copy of it. */
#define GO 0x2e9e44u
#define MARGINAL 0xf0a400u
#define NOGO 0xd7301fu
#define GREY 0xbdbdbdu
#define FRAME 0x616161u
#define WHITE 0xffffffu
static const int verdicts[ND] = {SWX_PLAN_GO,   SWX_PLAN_GO,       SWX_PLAN_MARGINAL,
                                 SWX_PLAN_NOGO, SWX_PLAN_MARGINAL, SWX_PLAN_NOGO};
static const unsigned verdict_rgb[3] = {GO, MARGINAL, NOGO};

static int setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/swx-plan-chart-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void)
{
    const char *keep = getenv("SEAWX_KEEP_TEST_DIR");
    if (keep && !strcmp(keep, "1")) {
        fprintf(stderr, "\ncharts kept in %s\n", dir);
        return 0;
    }
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static const char *in_dir(const char *name)
{
    static char buf[2][128];
    static int k;
    k ^= 1;
    snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
    return buf[k];
}

/* ---- the plan ---- */

static swx_plan_departure rows[ND];
static double sample_nm[NS];
static double wind[ND * NS], wave[ND * NS];
static unsigned char storm[ND * NS];

/* Departure i, point j: wind 4 i + j kn (0 to 39), waves a tenth of it in
 * metres; some cells fixed to values the ramp names exactly. */
static swx_plan make_plan(void)
{
    for (size_t j = 0; j < NS; j++)
        sample_nm[j] = j + 1 < NS ? 15.0 * j : 281.4;
    for (size_t i = 0; i < ND; i++) {
        memset(&rows[i], 0, sizeof rows[i]);
        rows[i].depart = cu_time("2026-11-27T06:00:00Z") + (int64_t)i * 6 * 3600;
        rows[i].verdict = verdicts[i];
        for (size_t j = 0; j < NS; j++) {
            wind[i * NS + j] = 4.0 * i + j;
            wave[i * NS + j] = (4.0 * i + j) / 10;
            storm[i * NS + j] = 0;
        }
    }
    wind[0 * NS + 2] = 20;   /* yellow */
    wind[1 * NS + 5] = 35;   /* red */
    wind[2 * NS + 10] = 60;  /* past the top: purple */
    wind[0 * NS + 12] = 0;   /* calm: the lightest blue */
    wind[4 * NS + 4] = 12.5; /* halfway from green 10 to light green 15 */
    wave[0 * NS + 2] = 2;    /* yellow */
    wave[1 * NS + 5] = 8;    /* purple */
    wind[3 * NS + 7] = NAN;  /* no forecast */
    wave[3 * NS + 7] = NAN;
    for (size_t j = 14; j < 18; j++) /* a storm met by the last departure */
        storm[5 * NS + j] = 1;
    swx_plan p = {.n = ND,
                  .rows = rows,
                  .ns = NS,
                  .sample_nm = sample_nm,
                  .wind_kn = wind,
                  .wave_m = wave,
                  .storm = storm,
                  .length_nm = 281.4};
    p.opts.from = rows[0].depart;
    p.opts.to = rows[ND - 1].depart;
    p.opts.step = 6 * 3600;
    p.opts.min_kn = 5;
    p.opts.max_kn = 7;
    return p;
}

/* ---- reading the chart back ---- */

typedef struct image {
    int w, h;
    unsigned char *px; /* RGB */
} image;

static int load(image *im, const char *path)
{
    png_image pi;
    memset(&pi, 0, sizeof pi);
    pi.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&pi, path))
        return -1;
    pi.format = PNG_FORMAT_RGB;
    im->w = (int)pi.width;
    im->h = (int)pi.height;
    im->px = malloc(PNG_IMAGE_SIZE(pi));
    if (!im->px || !png_image_finish_read(&pi, NULL, im->px, 0, NULL)) {
        png_image_free(&pi);
        free(im->px);
        im->px = NULL;
        return -1;
    }
    return 0;
}

static unsigned at(const image *im, int x, int y)
{
    const unsigned char *q = im->px + ((size_t)y * im->w + x) * 3;
    return (unsigned)q[0] << 16 | (unsigned)q[1] << 8 | q[2];
}

static int near(unsigned a, unsigned b, int tol)
{
    for (int sh = 0; sh <= 16; sh += 8)
        if (abs((int)((a >> sh) & 255) - (int)((b >> sh) & 255)) > tol)
            return 0;
    return 1;
}

/* Every channel below lim: ink, hatching. */
static int dark(unsigned c, unsigned lim)
{
    return ((c >> 16) & 255) < lim && ((c >> 8) & 255) < lim && (c & 255) < lim;
}

static int is_verdict(unsigned c)
{
    return c == GO || c == MARGINAL || c == NOGO;
}

/* Where the chart put things, as the test finds them. */
typedef struct found {
    int vy;               /* a pixel row through the verdict boxes */
    int nbox;             /* boxes found on it */
    int bx0[64], bx1[64]; /* each box's first and last pixel */
    int gy0, gy1;         /* the grid's first and last pixel row */
    int gx1;              /* the grid's last pixel column */
} found;

static void find(found *f, const image *im)
{
    memset(f, 0, sizeof *f);
    int best = 0;
    for (int y = 0; y < im->h; y++) {
        int n = 0;
        for (int x = 0; x < im->w; x++)
            n += is_verdict(at(im, x, y));
        if (n > best) {
            best = n;
            f->vy = y;
        }
    }
    for (int x = 0; x < im->w && f->nbox < 64;) {
        if (!is_verdict(at(im, x, f->vy))) {
            x++;
            continue;
        }
        unsigned c = at(im, x, f->vy);
        int x0 = x;
        while (x < im->w && at(im, x, f->vy) == c)
            x++;
        if (x - x0 >= 4) { /* the key's swatches are further down; boxes are wide */
            f->bx0[f->nbox] = x0;
            f->bx1[f->nbox] = x - 1;
            f->nbox++;
        }
    }
    if (!f->nbox)
        return;
    /* up from the first box: the gap, the frame, the grid, the frame */
    int x = (f->bx0[0] + f->bx1[0]) / 2, y = f->vy;
    while (y > 0 && at(im, x, y) != FRAME)
        y--;
    f->gy1 = y - 1;
    y--;
    while (y > 0 && at(im, x, y) != FRAME)
        y--;
    f->gy0 = y + 1;
    int yc = (f->gy0 + f->gy1) / 2, xr = f->bx1[f->nbox - 1];
    while (xr < im->w - 1 && at(im, xr, yc) != FRAME)
        xr++;
    f->gx1 = xr - 1;
}

/* The centre of departure i's cell at point j. */
static void cell(int *x, int *y, const found *f, int i, int j)
{
    *x = (f->bx0[i] + f->bx1[i]) / 2;
    *y = f->gy0 + (int)((j + 0.5) * (f->gy1 - f->gy0 + 1) / NS);
}

static int render(const swx_plan *p, const char *name, int what, int w, int h, image *im)
{
    int rc = swx_plan_chart_png(p, in_dir(name), what, w, h);
    if (rc) {
        fprintf(stderr, "\n%s: %s\n", name, swx_error_last());
        return rc;
    }
    return load(im, in_dir(name));
}

static void test_wind(void)
{
    swx_plan p = make_plan();
    image im = {0};
    CU_ASSERT_EQUAL_FATAL(render(&p, "wind.png", 'w', 1000, 700, &im), 0);
    CU_ASSERT_EQUAL(im.w, 1000);
    CU_ASSERT_EQUAL(im.h, 700);
    found f;
    find(&f, &im);
    /* one box per departure, in its verdict's colour, left to right */
    CU_ASSERT_EQUAL_FATAL(f.nbox, ND);
    for (int i = 0; i < ND; i++) {
        unsigned c = at(&im, (f.bx0[i] + f.bx1[i]) / 2, f.vy);
        CU_ASSERT_EQUAL(c, verdict_rgb[verdicts[i]]);
        if (i)
            CU_ASSERT(f.bx0[i] > f.bx1[i - 1]);
    }
    CU_ASSERT_FATAL(f.gy0 > 0 && f.gy1 > f.gy0 + 4 * NS && f.gy1 < f.vy);
    CU_ASSERT(f.gx1 >= f.bx1[ND - 1] && f.gx1 < im.w - 40);
    int x, y;
    /* cells in the ramp's colours: exact at its stops, blended between */
    cell(&x, &y, &f, 0, 2);
    CU_ASSERT_EQUAL(at(&im, x, y), 0xfee08bu);
    cell(&x, &y, &f, 1, 5);
    CU_ASSERT_EQUAL(at(&im, x, y), 0xd73027u);
    cell(&x, &y, &f, 2, 10);
    CU_ASSERT_EQUAL(at(&im, x, y), 0x6a1b9au);
    cell(&x, &y, &f, 0, 12);
    CU_ASSERT_EQUAL(at(&im, x, y), 0xe3f2fdu);
    cell(&x, &y, &f, 4, 4);
    CU_ASSERT(near(at(&im, x, y), 0x7ace86u, 2)); /* (0x4fc3a1 + 0xa6d96a) / 2 */
    /* no forecast: grey */
    cell(&x, &y, &f, 3, 7);
    CU_ASSERT_EQUAL(at(&im, x, y), GREY);
    /* the storm: black hatching inside its cells, none in the column beside */
    int black_in = 0, black_out = 0;
    for (int j = 14; j < 18; j++)
        for (int xx = f.bx0[5] + 3; xx < f.bx1[5] - 3; xx++) {
            cell(&x, &y, &f, 5, j);
            black_in += dark(at(&im, xx, y), 0x50);
            cell(&x, &y, &f, 4, j);
            black_out += dark(at(&im, xx - (f.bx0[5] - f.bx0[4]), y), 0x50);
        }
    CU_ASSERT(black_in > 4);
    CU_ASSERT_EQUAL(black_out, 0);
    /* the legend right of the grid: a colour bar from the lightest blue at
     * the bottom to purple at the top, and its numbers */
    int coloured = 0, xb = -1;
    for (int xx = f.gx1 + 2; xx < im.w; xx++) {
        unsigned c = at(&im, xx, (f.gy0 + f.gy1) / 2);
        if (c != WHITE && c != FRAME) {
            coloured++;
            if (xb < 0)
                xb = xx;
        }
    }
    CU_ASSERT_FATAL(coloured > 10 && xb > 0);
    xb += 4;
    CU_ASSERT(near(at(&im, xb, f.gy0 + 1), 0x6a1b9au, 8));
    CU_ASSERT(near(at(&im, xb, f.gy1 - 1), 0xe3f2fdu, 8));
    int ink = 0;
    for (int yy = f.gy0; yy <= f.gy1; yy++)
        for (int xx = xb + 20; xx < im.w; xx++)
            ink += dark(at(&im, xx, yy), 0x50);
    CU_ASSERT(ink > 50); /* tick numbers */
    /* text above the grid (the title) and below the boxes (labels, key) */
    int top_ink = 0, bottom_ink = 0;
    for (int yy = 0; yy < f.gy0 - 2; yy++)
        for (int xx = 0; xx < im.w; xx++)
            top_ink += dark(at(&im, xx, yy), 0x50);
    for (int yy = f.vy + 12; yy < im.h; yy++)
        for (int xx = 0; xx < im.w; xx++)
            bottom_ink += dark(at(&im, xx, yy), 0x50);
    CU_ASSERT(top_ink > 200);
    CU_ASSERT(bottom_ink > 200);
    free(im.px);
}

static void test_waves(void)
{
    swx_plan p = make_plan();
    image im = {0};
    CU_ASSERT_EQUAL_FATAL(render(&p, "waves.png", 'h', 800, 600, &im), 0);
    CU_ASSERT_EQUAL(im.w, 800);
    CU_ASSERT_EQUAL(im.h, 600);
    found f;
    find(&f, &im);
    CU_ASSERT_EQUAL_FATAL(f.nbox, ND);
    int x, y;
    cell(&x, &y, &f, 0, 2);
    CU_ASSERT_EQUAL(at(&im, x, y), 0xfee08bu);
    cell(&x, &y, &f, 1, 5);
    CU_ASSERT_EQUAL(at(&im, x, y), 0x6a1b9au);
    cell(&x, &y, &f, 3, 7);
    CU_ASSERT_EQUAL(at(&im, x, y), GREY);
    /* 0.1 m (departure 0, point 1) is between the two lightest blues */
    cell(&x, &y, &f, 0, 1);
    unsigned c = at(&im, x, y);
    CU_ASSERT(((c >> 16) & 255) < 0xe3 && ((c >> 16) & 255) > 0x90);
    free(im.px);
}

/* The smallest size, and many departures: the chart is drawn whole and the
 * boxes keep their verdicts' colours. */
static void test_small_and_many(void)
{
    swx_plan p = make_plan();
    image im = {0};
    CU_ASSERT_EQUAL_FATAL(render(&p, "small.png", 'w', 320, 320, &im), 0);
    CU_ASSERT_EQUAL(im.w, 320);
    CU_ASSERT_EQUAL(im.h, 320);
    found f;
    find(&f, &im);
    CU_ASSERT_EQUAL(f.nbox, ND);
    free(im.px);

    enum { N = 120 };
    swx_plan_departure *many = calloc(N, sizeof *many);
    double *w = calloc(N * NS, sizeof *w), *h = calloc(N * NS, sizeof *h);
    CU_ASSERT_FATAL(many && w && h);
    for (int i = 0; i < N; i++) {
        many[i].depart = rows[0].depart + (int64_t)i * 3 * 3600;
        many[i].verdict = i % 3;
        for (int j = 0; j < NS; j++)
            w[i * NS + j] = h[i * NS + j] = (i + j) % 50;
    }
    p.n = N;
    p.rows = many;
    p.wind_kn = w;
    p.wave_m = h;
    p.storm = NULL;
    p.opts.step = 3 * 3600;
    CU_ASSERT_EQUAL(render(&p, "many.png", 'w', 1200, 600, &im), 0);
    CU_ASSERT_EQUAL(im.w, 1200);
    find(&f, &im);
    /* adjacent boxes of different colours touch: at least one run per verdict */
    CU_ASSERT(f.nbox >= 3);
    free(im.px);
    free(many);
    free(w);
    free(h);
}

static int exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

static int tmp_files(void)
{
    int n = 0;
    DIR *d = opendir(dir);
    struct dirent *de;
    while (d && (de = readdir(d))) {
        size_t l = strlen(de->d_name);
        n += l > 4 && !strcmp(de->d_name + l - 4, ".tmp");
    }
    if (d)
        closedir(d);
    return n;
}

static void test_refusals(void)
{
    swx_plan p = make_plan();
    const char *out = in_dir("refused.png");
    static const int sizes[][2] = {{319, 600},  {600, 319}, {8001, 600},
                                   {600, 8001}, {0, 0},     {-5, 400}};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        CU_ASSERT_EQUAL(swx_plan_chart_png(&p, out, 'w', sizes[k][0], sizes[k][1]), SWX_EINVAL);
        CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "320 to 8000"));
    }
    CU_ASSERT_EQUAL(swx_plan_chart_png(&p, out, 'x', 800, 600), SWX_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "'w'"));
    CU_ASSERT_EQUAL(swx_plan_chart_png(NULL, out, 'w', 800, 600), SWX_EINVAL);
    swx_plan empty = p;
    empty.n = 0;
    CU_ASSERT_EQUAL(swx_plan_chart_png(&empty, out, 'w', 800, 600), SWX_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "no departures"));
    empty = p;
    empty.ns = 0;
    CU_ASSERT_EQUAL(swx_plan_chart_png(&empty, out, 'w', 800, 600), SWX_EINVAL);
    CU_ASSERT_EQUAL(swx_plan_chart_png(&p, NULL, 'w', 800, 600), SWX_EINVAL);
    CU_ASSERT(!exists(out));
    /* a folder that does not exist: an I/O error naming the file */
    char missing[160];
    snprintf(missing, sizeof missing, "%s/no/such/folder/chart.png", dir);
    CU_ASSERT_EQUAL(swx_plan_chart_png(&p, missing, 'w', 800, 600), SWX_EIO);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "chart.png"));
    /* a folder as the output: refused, left as it is */
    CU_ASSERT_EQUAL(swx_plan_chart_png(&p, dir, 'w', 800, 600), SWX_EIO);
    CU_ASSERT_EQUAL(tmp_files(), 0);
}

/* Written atomically: an older file is replaced whole, nothing is left
 * beside it; a link keeps pointing at the new chart; a device is written
 * through. */
static void test_atomic(void)
{
    swx_plan p = make_plan();
    const char *out = in_dir("again.png");
    FILE *f = fopen(out, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs("an older file", f);
    fclose(f);
    CU_ASSERT_EQUAL(swx_plan_chart_png(&p, out, 'w', 640, 480), 0);
    image im = {0};
    CU_ASSERT_EQUAL_FATAL(load(&im, out), 0);
    CU_ASSERT_EQUAL(im.w, 640);
    CU_ASSERT_EQUAL(im.h, 480);
    free(im.px);
    CU_ASSERT_EQUAL(tmp_files(), 0);

    char link[128];
    snprintf(link, sizeof link, "%s", in_dir("link.png"));
    CU_ASSERT_EQUAL_FATAL(symlink("again.png", link), 0);
    CU_ASSERT_EQUAL(swx_plan_chart_png(&p, link, 'h', 500, 400), 0);
    struct stat st;
    CU_ASSERT(lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
    CU_ASSERT_EQUAL_FATAL(load(&im, out), 0);
    CU_ASSERT_EQUAL(im.w, 500);
    free(im.px);

    CU_ASSERT_EQUAL(swx_plan_chart_png(&p, "/dev/null", 'w', 400, 400), 0);
    /* a device that refuses the bytes: an I/O error naming it */
    struct stat full;
    if (stat("/dev/full", &full) == 0 && S_ISCHR(full.st_mode)) {
        CU_ASSERT_EQUAL(swx_plan_chart_png(&p, "/dev/full", 'w', 400, 400), SWX_EIO);
        CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "/dev/full"));
    }
    CU_ASSERT_EQUAL(tmp_files(), 0);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("plan_chart", setup, teardown);
    CU_add_test(s, "wind: verdicts, ramp, no forecast, storms, legend", test_wind);
    CU_add_test(s, "waves: the metre ramp", test_waves);
    CU_add_test(s, "the smallest size and many departures", test_small_and_many);
    CU_add_test(s, "bad sizes, variables, plans and places refused", test_refusals);
    CU_add_test(s, "written atomically, through links and devices", test_atomic);
    int rc = cu_run();
    /* Empty cairo's font cache and fontconfig's configuration, so that
     * valgrind and LeakSanitizer see what the chart itself leaves: fontconfig
     * (reached through cairo, not linked here) loses a block of its
     * configuration unless FcFini runs. */
    cairo_debug_reset_static_data();
    void (*fc_fini)(void);
    *(void **)&fc_fini = dlsym(RTLD_DEFAULT, "FcFini");
    if (fc_fini)
        fc_fini();
    return rc;
}
