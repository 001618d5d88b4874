/* polar.c: sailing polars (see seawx/plan.h): the text table routing
 * software reads, checked strictly, and the boat speed bilinear in it.
 *
 * Format: lines of cells; spaces and tabs separate cells (runs count as one),
 * and so does one ';' or ',' (with blanks around it); two of those in a row
 * leave an empty cell, which is refused (one at the end of a line is
 * allowed). Blank lines are skipped. The first
 * line is the header: a label (any cell that is not a number, "TWA\TWS",
 * "twa/tws") and the wind speeds; every other line is an angle and one boat
 * speed per wind speed. */
#include "seawx/plan.h"
#include "polar_priv.h"

#include "seawx/error.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define POLAR_MAX_TEXT (1u << 20)
#define POLAR_MAX_COLS 128
#define POLAR_MAX_ROWS 361
#define POLAR_MAX_CELL 64

struct swx_polar {
    size_t nrows, ncols;
    double *twa;   /* nrows, increasing, 0..180 */
    double *tws;   /* ncols, increasing, >= 0 */
    double *speed; /* nrows * ncols, knots */
};

void swx_polar_free(swx_polar *p)
{
    if (!p)
        return;
    free(p->twa);
    free(p->tws);
    free(p->speed);
    free(p);
}

/* One cell of a line: *cell and *n, *pos moved past it and its separator.
 * Returns 1 for a cell, 0 at the end of the line, -1 for an empty cell. */
static int next_cell(const char **cell, size_t *n, const char **pos, const char *end)
{
    const char *p = *pos;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    if (p == end)
        return 0;
    if (*p == ';' || *p == ',')
        return -1;
    const char *s = p;
    while (p < end && *p != ' ' && *p != '\t' && *p != ';' && *p != ',')
        p++;
    *cell = s;
    *n = (size_t)(p - s);
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    if (p < end && (*p == ';' || *p == ',')) {
        p++;
        /* a separator must be followed by a cell */
        const char *q = p;
        while (q < end && (*q == ' ' || *q == '\t'))
            q++;
        if (q == end)
            p = end; /* one separator closing the line */
    }
    *pos = p;
    return 1;
}

/* A finite number filling the whole cell. */
static int cell_number(double *out, const char *cell, size_t n)
{
    char buf[POLAR_MAX_CELL + 1];
    char *e;
    if (n == 0 || n > POLAR_MAX_CELL)
        return -1;
    memcpy(buf, cell, n);
    buf[n] = 0;
    if (!isdigit((unsigned char)buf[0]) && buf[0] != '-' && buf[0] != '+' && buf[0] != '.')
        return -1;
    errno = 0;
    double v = strtod(buf, &e);
    if (*e || errno || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

static int bad_cell(size_t line, size_t col, const char *cell, size_t n, const char *why)
{
    return swx_error_set(SWX_EINVAL, "polar line %zu, column %zu: '%.*s' %s", line, col,
                         (int)(n > 20 ? 20 : n), cell, why);
}

/* A speed of 0 to max knots in a cell; what names it in the error. */
static int cell_speed(double *v, size_t line, size_t col, const char *cell, size_t n,
                      const char *what, double max)
{
    char why[64];
    if (cell_number(v, cell, n)) {
        snprintf(why, sizeof why, "is not a %s", what);
        return bad_cell(line, col, cell, n, why);
    }
    if (*v < 0 || *v > max) {
        snprintf(why, sizeof why, "is not a %s of 0 to %g kn", what, max);
        return bad_cell(line, col, cell, n, why);
    }
    return 0;
}

/* A line of the polar being read: its number and what is left of it. */
struct polar_line {
    size_t no;
    const char *pos, *end;
};

/* The header (its first cell, c, cell and n, already read): a label, then
 * the wind speeds, increasing, into p->tws. */
static int read_header(swx_polar *p, struct polar_line *ln, int c, const char *cell, size_t n)
{
    size_t col = 0;
    double v;
    if (c < 0 || cell_number(&v, cell, n) == 0)
        return swx_error_set(SWX_EINVAL,
                             "polar line %zu, column 1: the header starts with a label "
                             "(TWA\\TWS) before the wind speeds",
                             ln->no);
    while ((c = next_cell(&cell, &n, &ln->pos, ln->end)) != 0) {
        int rc;
        col++;
        if (c < 0)
            return bad_cell(ln->no, col + 1, "", 0, "is empty");
        if (p->ncols == POLAR_MAX_COLS)
            return swx_error_set(SWX_EINVAL, "polar line %zu: more than %d wind speeds", ln->no,
                                 POLAR_MAX_COLS);
        if ((rc = cell_speed(&v, ln->no, col + 1, cell, n, "wind speed", 200)))
            return rc;
        if (p->ncols && v <= p->tws[p->ncols - 1])
            return bad_cell(ln->no, col + 1, cell, n,
                            "does not increase: wind speeds go up from left to right");
        p->tws[p->ncols++] = v;
    }
    if (p->ncols == 0)
        return swx_error_set(SWX_EINVAL, "polar line %zu: the header gives no wind speed", ln->no);
    return 0;
}

/* Room for one more row (*cap rows allocated). */
static int grow_rows(swx_polar *p, size_t *cap, size_t line)
{
    if (p->nrows == POLAR_MAX_ROWS)
        return swx_error_set(SWX_EINVAL, "polar line %zu: more than %d angles", line,
                             POLAR_MAX_ROWS);
    if (p->nrows < *cap)
        return 0;
    size_t nc = *cap ? 2 * *cap : 16;
    if (nc > POLAR_MAX_ROWS)
        nc = POLAR_MAX_ROWS;
    double *t2 = realloc(p->twa, nc * sizeof *t2);
    if (t2)
        p->twa = t2;
    double *s2 = t2 ? realloc(p->speed, nc * p->ncols * sizeof *s2) : NULL;
    if (!s2)
        return swx_error_set(SWX_ENOMEM, "out of memory reading the polar");
    p->speed = s2;
    *cap = nc;
    return 0;
}

/* A row (its first cell, c, cell and n, already read): the angle, then one
 * boat speed per wind speed of the header (line header_line). */
static int read_row(swx_polar *p, size_t *cap, struct polar_line *ln, size_t header_line, int c,
                    const char *cell, size_t n)
{
    size_t col = 0;
    int rc = grow_rows(p, cap, ln->no);
    if (rc)
        return rc;
    double a, *row = p->speed + p->nrows * p->ncols;
    if (c < 0)
        return bad_cell(ln->no, 1, "", 0, "is empty");
    if (cell_number(&a, cell, n))
        return bad_cell(ln->no, 1, cell, n, "is not an angle");
    if (a < 0 || a > 180)
        return bad_cell(ln->no, 1, cell, n, "is not an angle of 0 to 180 degrees");
    if (p->nrows && a <= p->twa[p->nrows - 1])
        return bad_cell(ln->no, 1, cell, n, "does not increase: angles go down the table");
    while ((c = next_cell(&cell, &n, &ln->pos, ln->end)) != 0) {
        double v;
        col++;
        if (c < 0)
            return bad_cell(ln->no, col + 1, "", 0, "is empty");
        if (col > p->ncols)
            return swx_error_set(SWX_EINVAL,
                                 "polar line %zu: more than the %zu speeds of the header "
                                 "(line %zu)",
                                 ln->no, p->ncols, header_line);
        if ((rc = cell_speed(&v, ln->no, col + 1, cell, n, "boat speed", 100)))
            return rc;
        row[col - 1] = v;
    }
    if (col < p->ncols)
        return swx_error_set(SWX_EINVAL,
                             "polar line %zu, column %zu: missing: the header (line %zu) gives "
                             "%zu wind speeds",
                             ln->no, col + 2, header_line, p->ncols);
    p->twa[p->nrows++] = a;
    return 0;
}

int swx_polar_parse(swx_polar **out, const char *text, size_t len)
{
    swx_polar *p = NULL;
    int rc = 0;
    size_t header_line = 0;
    struct polar_line ln = {0};
    const char *pos = text, *end = text + len;
    *out = NULL;
    if (!text || len == 0)
        return swx_error_set(SWX_EINVAL, "the polar is empty");
    if (len > POLAR_MAX_TEXT)
        return swx_error_set(SWX_EINVAL, "the polar is larger than %u bytes", POLAR_MAX_TEXT);
    size_t cap = 0; /* rows allocated */
    if (!(p = calloc(1, sizeof *p)) || !(p->tws = malloc(POLAR_MAX_COLS * sizeof *p->tws))) {
        rc = swx_error_set(SWX_ENOMEM, "out of memory reading the polar");
        goto done;
    }
    while (pos < end) {
        const char *eol = memchr(pos, '\n', (size_t)(end - pos));
        const char *cell = NULL;
        size_t n = 0;
        int c;
        ln.no++;
        ln.pos = pos;
        ln.end = eol ? eol : end;
        pos = eol ? eol + 1 : end;
        if (ln.end > ln.pos && ln.end[-1] == '\r')
            ln.end--;
        if (memchr(ln.pos, 0, (size_t)(ln.end - ln.pos))) {
            rc = swx_error_set(SWX_EINVAL, "polar line %zu: a NUL byte: not a text table", ln.no);
            goto done;
        }
        if ((c = next_cell(&cell, &n, &ln.pos, ln.end)) == 0)
            continue; /* blank line */
        if (!header_line) {
            header_line = ln.no;
            rc = read_header(p, &ln, c, cell, n);
        } else {
            rc = read_row(p, &cap, &ln, header_line, c, cell, n);
        }
        if (rc)
            goto done;
    }
    if (!header_line) {
        rc = swx_error_set(SWX_EINVAL, "the polar is empty");
        goto done;
    }
    if (p->nrows == 0) {
        rc = swx_error_set(SWX_EINVAL, "polar line %zu: a header but no angle below it",
                           header_line);
        goto done;
    }
done:
    if (rc) {
        swx_polar_free(p);
        return rc;
    }
    *out = p;
    return 0;
}

/* The interval of x in v[0..n-1] (increasing): index i and weight w of
 * v[i + 1], x clamped to [v[0], v[n-1]]. */
static void bracket(size_t *i, double *w, const double *v, size_t n, double x)
{
    if (n == 1 || x <= v[0]) {
        *i = 0;
        *w = 0;
        return;
    }
    if (x >= v[n - 1]) {
        *i = n - 2;
        *w = 1;
        return;
    }
    size_t lo = 0, hi = n - 1;
    while (hi - lo > 1) {
        size_t m = (lo + hi) / 2;
        if (v[m] <= x)
            lo = m;
        else
            hi = m;
    }
    *i = lo;
    *w = (x - v[lo]) / (v[lo + 1] - v[lo]);
}

/* Boat speed at row r for tws: linear between columns; from 0 at 0 kn to
 * the first column; the last column's past it. */
static double row_speed(const swx_polar *p, size_t r, double tws)
{
    const double *row = p->speed + r * p->ncols;
    if (tws < p->tws[0])
        return p->tws[0] > 0 ? row[0] * tws / p->tws[0] : row[0];
    size_t i;
    double w;
    bracket(&i, &w, p->tws, p->ncols, tws);
    return p->ncols == 1 ? row[0] : row[i] * (1 - w) + row[i + 1] * w;
}

double swx_polar_speed(const swx_polar *p, double tws_kn, double twa_deg)
{
    if (!p || isnan(tws_kn) || isnan(twa_deg) || !isfinite(tws_kn) || !isfinite(twa_deg))
        return NAN;
    if (tws_kn < 0)
        tws_kn = 0;
    double a = fmod(fabs(twa_deg), 360.0);
    if (a > 180)
        a = 360 - a;
    if (a < p->twa[0])
        return 0;
    size_t i;
    double w;
    bracket(&i, &w, p->twa, p->nrows, a);
    if (p->nrows == 1)
        return row_speed(p, 0, tws_kn);
    return row_speed(p, i, tws_kn) * (1 - w) + row_speed(p, i + 1, tws_kn) * w;
}

double swx__polar_top_tws(const swx_polar *p)
{
    return p->tws[p->ncols - 1];
}
