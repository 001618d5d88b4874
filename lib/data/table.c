/*
 * table.c: typed rows and their output (see seawx/table.h).
 *
 * Rows are stored row-major, each row an array of cells as long as the table
 * was wide when the row last grew; a cell past the end of its row is null.
 * That lets parsers add a column when a record brings a new value name
 * without touching earlier rows.
 */
#include "seawx/setting.h"
#include "seawx/table.h"

#include "buf.h"
#include "csv.h"
#include "seawx/error.h"
#include "seawx/iso8601.h"
#include "seawx/jsonw.h"
#include "table_build.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define META_MAX 32

typedef struct cell {
    unsigned char set;
    union {
        int64_t i;
        double d;
        char *s;
    } v;
} cell;

typedef struct row {
    cell *cells;
    size_t n;
} row;

typedef struct column {
    char *name;
    swx_col_type type;
} column;

struct swx_table {
    column *cols;
    size_t ncols, cols_cap;
    row *rows;
    size_t nrows, rows_cap;
    int has_point;
    size_t lat_col, lon_col;
    char *meta_k[META_MAX], *meta_v[META_MAX];
    size_t nmeta;
};

static char *dupstr(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p)
        memcpy(p, s, n);
    return p;
}

int swx_table_new(swx_table **out)
{
    *out = calloc(1, sizeof **out);
    return *out ? 0 : swx_error_set(SWX_ENOMEM, "out of memory");
}

void swx_table_free(swx_table *t)
{
    if (!t)
        return;
    for (size_t r = 0; r < t->nrows; r++) {
        for (size_t c = 0; c < t->rows[r].n; c++)
            if (t->cols[c].type == SWX_COL_STRING && t->rows[r].cells[c].set)
                free(t->rows[r].cells[c].v.s);
        free(t->rows[r].cells);
    }
    free(t->rows);
    for (size_t c = 0; c < t->ncols; c++)
        free(t->cols[c].name);
    free(t->cols);
    for (size_t i = 0; i < t->nmeta; i++) {
        free(t->meta_k[i]);
        free(t->meta_v[i]);
    }
    free(t);
}

long swx_table_find_column(const swx_table *t, const char *name)
{
    for (size_t c = 0; c < t->ncols; c++)
        if (strcmp(t->cols[c].name, name) == 0)
            return (long)c;
    return -1;
}

int swx_table_add_column(size_t *index, swx_table *t, const char *name, swx_col_type type)
{
    long have = swx_table_find_column(t, name);
    if (have >= 0) {
        if (t->cols[have].type != type)
            return swx_error_set(SWX_EINVAL, "column %s holds values of two types", name);
        if (index)
            *index = (size_t)have;
        return 0;
    }
    if (t->ncols >= SWX_TABLE_MAX_COLUMNS)
        return swx_error_set(SWX_ETOOBIG, "the answer has more than %d columns",
                             SWX_TABLE_MAX_COLUMNS);
    column *cols = swx_array_reserve(t->cols, &t->cols_cap, t->ncols + 1, sizeof *cols, 16);
    if (!cols)
        return SWX_ENOMEM;
    t->cols = cols;
    char *n = dupstr(name);
    if (!n)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    t->cols[t->ncols].name = n;
    t->cols[t->ncols].type = type;
    if (index)
        *index = t->ncols;
    t->ncols++;
    return 0;
}

int swx_table_set_point(swx_table *t, size_t lat_col, size_t lon_col)
{
    if (lat_col >= t->ncols || lon_col >= t->ncols || t->cols[lat_col].type != SWX_COL_REAL ||
        t->cols[lon_col].type != SWX_COL_REAL)
        return swx_error_set(SWX_EINVAL, "point columns must be real columns of the table");
    t->has_point = 1;
    t->lat_col = lat_col;
    t->lon_col = lon_col;
    return 0;
}

int swx_table_point_columns(size_t *lat_col, size_t *lon_col, const swx_table *t)
{
    if (!t->has_point)
        return 0;
    *lat_col = t->lat_col;
    *lon_col = t->lon_col;
    return 1;
}

int swx_table_add_row(size_t *index, swx_table *t)
{
    if (t->nrows >= SWX_TABLE_MAX_ROWS)
        return swx_error_set(SWX_ETOOBIG, "the answer has more than %d rows", SWX_TABLE_MAX_ROWS);
    row *rows = swx_array_reserve(t->rows, &t->rows_cap, t->nrows + 1, sizeof *rows, 64);
    if (!rows)
        return SWX_ENOMEM;
    t->rows = rows;
    t->rows[t->nrows].cells = NULL;
    t->rows[t->nrows].n = 0;
    if (index)
        *index = t->nrows;
    t->nrows++;
    return 0;
}

/* The cell to write, growing the row to the table's width; NULL on failure. */
static cell *cell_for(swx_table *t, size_t r, size_t c, swx_col_type want, int *rc)
{
    if (r >= t->nrows || c >= t->ncols) {
        *rc = swx_error_set(SWX_EINVAL, "no cell %zu,%zu in the table", r, c);
        return NULL;
    }
    int ok = t->cols[c].type == want || (want == SWX_COL_TIME && t->cols[c].type == SWX_COL_DATE);
    if (!ok) {
        *rc = swx_error_set(SWX_EINVAL, "column %s does not take this type", t->cols[c].name);
        return NULL;
    }
    row *rw = &t->rows[r];
    if (c >= rw->n) {
        cell *p = realloc(rw->cells, t->ncols * sizeof *p);
        if (!p) {
            *rc = swx_error_set(SWX_ENOMEM, "out of memory");
            return NULL;
        }
        memset(p + rw->n, 0, (t->ncols - rw->n) * sizeof *p);
        rw->cells = p;
        rw->n = t->ncols;
    }
    cell *ce = &rw->cells[c];
    if (ce->set && t->cols[c].type == SWX_COL_STRING) {
        free(ce->v.s);
        ce->v.s = NULL;
    }
    ce->set = 0;
    return ce;
}

/* An integer, time or boolean cell of a column of that type. */
static int set_i64(swx_table *t, size_t r, size_t c, swx_col_type type, int64_t v)
{
    int rc = 0;
    cell *ce = cell_for(t, r, c, type, &rc);
    if (!ce)
        return rc;
    ce->v.i = v;
    ce->set = 1;
    return 0;
}

int swx_table_set_int(swx_table *t, size_t r, size_t c, int64_t v)
{
    return set_i64(t, r, c, SWX_COL_INT, v);
}

int swx_table_set_real(swx_table *t, size_t r, size_t c, double v)
{
    int rc = 0;
    cell *ce = cell_for(t, r, c, SWX_COL_REAL, &rc);
    if (!ce)
        return rc;
    if (!isfinite(v))
        return 0; /* JSON has no NaN: a value that is not finite is null */
    ce->v.d = v;
    ce->set = 1;
    return 0;
}

int swx_table_set_string(swx_table *t, size_t r, size_t c, const char *v)
{
    int rc = 0;
    cell *ce = cell_for(t, r, c, SWX_COL_STRING, &rc);
    if (!ce)
        return rc;
    if (!v)
        return 0;
    if (!(ce->v.s = dupstr(v)))
        return swx_error_set(SWX_ENOMEM, "out of memory");
    ce->set = 1;
    return 0;
}

int swx_table_set_time(swx_table *t, size_t r, size_t c, int64_t v)
{
    return set_i64(t, r, c, SWX_COL_TIME, v);
}

int swx_table_set_bool(swx_table *t, size_t r, size_t c, int v)
{
    return set_i64(t, r, c, SWX_COL_BOOL, v ? 1 : 0);
}

int swx_table_set_meta(swx_table *t, const char *key, const char *value)
{
    for (size_t i = 0; i < t->nmeta; i++)
        if (strcmp(t->meta_k[i], key) == 0) {
            free(t->meta_v[i]);
            if (!value) {
                free(t->meta_k[i]);
                memmove(&t->meta_k[i], &t->meta_k[i + 1], (t->nmeta - i - 1) * sizeof(char *));
                memmove(&t->meta_v[i], &t->meta_v[i + 1], (t->nmeta - i - 1) * sizeof(char *));
                t->nmeta--;
                return 0;
            }
            t->meta_v[i] = dupstr(value);
            return t->meta_v[i] ? 0 : swx_error_set(SWX_ENOMEM, "out of memory");
        }
    if (!value)
        return 0;
    if (t->nmeta >= META_MAX)
        return swx_error_set(SWX_ETOOBIG, "too many table facts");
    char *k = dupstr(key), *v = dupstr(value);
    if (!k || !v) {
        free(k);
        free(v);
        return swx_error_set(SWX_ENOMEM, "out of memory");
    }
    t->meta_k[t->nmeta] = k;
    t->meta_v[t->nmeta] = v;
    t->nmeta++;
    return 0;
}

const char *swx_table_meta(const swx_table *t, const char *key)
{
    for (size_t i = 0; i < t->nmeta; i++)
        if (strcmp(t->meta_k[i], key) == 0)
            return t->meta_v[i];
    return NULL;
}

size_t swx_table_meta_count(const swx_table *t)
{
    return t->nmeta;
}

const char *swx_table_meta_key(const swx_table *t, size_t i)
{
    return i < t->nmeta ? t->meta_k[i] : NULL;
}

size_t swx_table_rows(const swx_table *t)
{
    return t->nrows;
}

size_t swx_table_columns(const swx_table *t)
{
    return t->ncols;
}

const char *swx_table_column_name(const swx_table *t, size_t c)
{
    return c < t->ncols ? t->cols[c].name : NULL;
}

swx_col_type swx_table_column_type(const swx_table *t, size_t c)
{
    return c < t->ncols ? t->cols[c].type : SWX_COL_STRING;
}

static const cell *get(const swx_table *t, size_t r, size_t c)
{
    if (r >= t->nrows || c >= t->rows[r].n || !t->rows[r].cells[c].set)
        return NULL;
    return &t->rows[r].cells[c];
}

int swx_table_is_null(const swx_table *t, size_t r, size_t c)
{
    return get(t, r, c) == NULL;
}

int64_t swx_table_get_int(const swx_table *t, size_t r, size_t c)
{
    const cell *ce = get(t, r, c);
    return ce && t->cols[c].type == SWX_COL_INT ? ce->v.i : 0;
}

double swx_table_get_real(const swx_table *t, size_t r, size_t c)
{
    const cell *ce = get(t, r, c);
    return ce && t->cols[c].type == SWX_COL_REAL ? ce->v.d : 0.0;
}

const char *swx_table_get_string(const swx_table *t, size_t r, size_t c)
{
    const cell *ce = get(t, r, c);
    return ce && t->cols[c].type == SWX_COL_STRING ? ce->v.s : NULL;
}

int64_t swx_table_get_time(const swx_table *t, size_t r, size_t c)
{
    const cell *ce = get(t, r, c);
    return ce && (t->cols[c].type == SWX_COL_TIME || t->cols[c].type == SWX_COL_DATE) ? ce->v.i : 0;
}

int swx_table_get_bool(const swx_table *t, size_t r, size_t c)
{
    const cell *ce = get(t, r, c);
    return ce && t->cols[c].type == SWX_COL_BOOL ? (int)ce->v.i : 0;
}

int swx_table_format_parse(swx_table_format *out, const char *s)
{
    if (strcasecmp(s, "json") == 0)
        *out = SWX_TABLE_JSON;
    else if (strcasecmp(s, "csv") == 0)
        *out = SWX_TABLE_CSV;
    else if (strcasecmp(s, "geojson") == 0)
        *out = SWX_TABLE_GEOJSON;
    else if (strcasecmp(s, "table") == 0 || strcasecmp(s, "text") == 0)
        *out = SWX_TABLE_TEXT;
    else
        return swx_error_set(SWX_EINVAL, "%s must be one of json, csv, geojson, table, not '%.40s'",
                             swx_setting_name(SWX_SET_TABLE_FORMAT), s);
    return 0;
}

/* ---- output ---- */

/* The text of a cell as CSV and the text table write it ("" for null). */
static void cell_text(const swx_table *t, size_t r, size_t c, char *buf, size_t n)
{
    const cell *ce = get(t, r, c);
    buf[0] = '\0';
    if (!ce)
        return;
    switch (t->cols[c].type) {
    case SWX_COL_INT:
        snprintf(buf, n, "%lld", (long long)ce->v.i);
        break;
    case SWX_COL_REAL:
        snprintf(buf, n, "%.10g", ce->v.d);
        break;
    case SWX_COL_STRING:
        snprintf(buf, n, "%s", ce->v.s);
        break;
    case SWX_COL_TIME: {
        char ts[SWX_ISO8601_LEN];
        swx_iso8601_format(ts, ce->v.i);
        snprintf(buf, n, "%s", ts);
        break;
    }
    case SWX_COL_DATE: {
        char ts[SWX_ISO8601_LEN];
        swx_iso8601_format(ts, ce->v.i);
        snprintf(buf, n, "%.10s", ts);
        break;
    }
    case SWX_COL_BOOL:
        snprintf(buf, n, "%s", ce->v.i ? "true" : "false");
        break;
    }
}

static void json_cell(const swx_table *t, swx_jsonw *w, size_t r, size_t c)
{
    const cell *ce = get(t, r, c);
    char buf[SWX_ISO8601_LEN];
    if (!ce) {
        swx_jsonw_null(w);
        return;
    }
    switch (t->cols[c].type) {
    case SWX_COL_INT:
        swx_jsonw_int(w, ce->v.i);
        break;
    case SWX_COL_REAL:
        swx_jsonw_number(w, ce->v.d, -1);
        break;
    case SWX_COL_STRING:
        swx_jsonw_string(w, ce->v.s);
        break;
    case SWX_COL_TIME:
        swx_jsonw_time(w, ce->v.i);
        break;
    case SWX_COL_DATE:
        swx_iso8601_format(buf, ce->v.i);
        buf[10] = '\0';
        swx_jsonw_string(w, buf);
        break;
    case SWX_COL_BOOL:
        swx_jsonw_bool(w, (int)ce->v.i);
        break;
    }
}

static void json_props(const swx_table *t, swx_jsonw *w, size_t r)
{
    swx_jsonw_object_begin(w);
    for (size_t c = 0; c < t->ncols; c++) {
        swx_jsonw_key(w, t->cols[c].name);
        json_cell(t, w, r, c);
    }
    swx_jsonw_object_end(w);
}

static int write_json(const swx_table *t, FILE *f, int geo)
{
    swx_jsonw *w = NULL;
    int rc = swx_jsonw_new(&w, f, geo ? 0 : 2);
    if (rc)
        return rc;
    swx_jsonw_object_begin(w);
    if (geo) {
        swx_jsonw_key(w, "type");
        swx_jsonw_string(w, "FeatureCollection");
    }
    swx_jsonw_key(w, "meta");
    swx_jsonw_object_begin(w);
    for (size_t i = 0; i < t->nmeta; i++) {
        swx_jsonw_key(w, t->meta_k[i]);
        swx_jsonw_string(w, t->meta_v[i]);
    }
    swx_jsonw_object_end(w);
    swx_jsonw_key(w, geo ? "features" : "data");
    swx_jsonw_array_begin(w);
    for (size_t r = 0; r < t->nrows; r++) {
        if (!geo) {
            json_props(t, w, r);
            continue;
        }
        swx_jsonw_object_begin(w);
        swx_jsonw_key(w, "type");
        swx_jsonw_string(w, "Feature");
        swx_jsonw_key(w, "geometry");
        if (t->has_point && get(t, r, t->lat_col) && get(t, r, t->lon_col)) {
            swx_jsonw_object_begin(w);
            swx_jsonw_key(w, "type");
            swx_jsonw_string(w, "Point");
            swx_jsonw_key(w, "coordinates");
            swx_jsonw_array_begin(w);
            swx_jsonw_number(w, get(t, r, t->lon_col)->v.d, -1);
            swx_jsonw_number(w, get(t, r, t->lat_col)->v.d, -1);
            swx_jsonw_array_end(w);
            swx_jsonw_object_end(w);
        } else {
            swx_jsonw_null(w);
        }
        swx_jsonw_key(w, "properties");
        json_props(t, w, r);
        swx_jsonw_object_end(w);
        if (fputc('\n', f) == EOF)
            break;
    }
    swx_jsonw_array_end(w);
    swx_jsonw_object_end(w);
    rc = swx_jsonw_finish(w);
    if (!rc && fputc('\n', f) == EOF)
        rc = swx_error_set(SWX_EIO, "writing the output failed");
    return rc;
}

static int write_csv(const swx_table *t, FILE *f)
{
    char buf[4096];
    for (size_t c = 0; c < t->ncols; c++) {
        if (c)
            fputc(',', f);
        swx_csv_field(f, t->cols[c].name);
    }
    fputs("\r\n", f);
    for (size_t r = 0; r < t->nrows; r++) {
        for (size_t c = 0; c < t->ncols; c++) {
            if (c)
                fputc(',', f);
            const cell *ce = get(t, r, c);
            if (ce && t->cols[c].type == SWX_COL_STRING)
                swx_csv_field(f, ce->v.s);
            else {
                cell_text(t, r, c, buf, sizeof buf);
                fputs(buf, f);
            }
        }
        if (fputs("\r\n", f) == EOF)
            break;
    }
    return ferror(f) ? swx_error_set(SWX_EIO, "writing the output failed") : 0;
}

#define TEXT_MAX_WIDTH 40

static int write_text(const swx_table *t, FILE *f)
{
    char buf[4096];
    size_t *width = calloc(t->ncols ? t->ncols : 1, sizeof *width);
    if (!width)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    for (size_t i = 0; i < t->nmeta; i++)
        fprintf(f, "%s: %s\n", t->meta_k[i], t->meta_v[i]);
    for (size_t c = 0; c < t->ncols; c++) {
        width[c] = strlen(t->cols[c].name);
        for (size_t r = 0; r < t->nrows; r++) {
            cell_text(t, r, c, buf, sizeof buf);
            size_t n = strlen(buf);
            if (n > width[c])
                width[c] = n;
        }
        if (width[c] > TEXT_MAX_WIDTH)
            width[c] = TEXT_MAX_WIDTH;
        if (width[c] < 1)
            width[c] = 1;
    }
    for (size_t c = 0; c < t->ncols; c++)
        fprintf(f, "%s%-*.*s", c ? "  " : "", (int)width[c], (int)width[c], t->cols[c].name);
    fputc('\n', f);
    for (size_t r = 0; r < t->nrows; r++) {
        for (size_t c = 0; c < t->ncols; c++) {
            cell_text(t, r, c, buf, sizeof buf);
            if (!get(t, r, c))
                snprintf(buf, sizeof buf, "-");
            int right = t->cols[c].type == SWX_COL_INT || t->cols[c].type == SWX_COL_REAL;
            if (strlen(buf) > width[c] && width[c] > 3)
                memcpy(buf + width[c] - 3, "...", 4);
            fprintf(f, "%s%*.*s", c ? "  " : "", right ? (int)width[c] : -(int)width[c],
                    (int)width[c], buf);
        }
        fputc('\n', f);
    }
    fprintf(f, "(%zu row%s)\n", t->nrows, t->nrows == 1 ? "" : "s");
    free(width);
    return ferror(f) ? swx_error_set(SWX_EIO, "writing the output failed") : 0;
}

int swx_table_write(const swx_table *t, swx_table_format fmt, FILE *f)
{
    switch (fmt) {
    case SWX_TABLE_JSON:
        return write_json(t, f, 0);
    case SWX_TABLE_GEOJSON:
        return write_json(t, f, 1);
    case SWX_TABLE_CSV:
        return write_csv(t, f);
    case SWX_TABLE_TEXT:
        break;
    }
    return write_text(t, f);
}
