/* vessels.c: the Vessels API's enhanced data, paged and flattened (see
 * seawx/vessels.h). The field table below is the interface's EVD table. */
#include "seawx/setting.h"
#include "seawx/vessels.h"

#include "jsonr.h"
#include "params.h"
#include "seawx/error.h"
#include "table_build.h"
#include "vessels_int.h"
#include "http_core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PAGE_MAX_BODY (64u * 1024u * 1024u)

static const char *const categories[] = {"capacity",    "history",      "vessel_and_trading_type",
                                         "propulsions", "registration", "design",
                                         "dimensions"};
#define NCAT (sizeof categories / sizeof categories[0])

typedef struct evd_field {
    unsigned cat; /* index into categories */
    const char *name;
    swx_col_type type;
} evd_field;

static const evd_field fields[] = {
    {0, "dwt", SWX_COL_INT},
    {0, "gross_tonnage", SWX_COL_INT},
    {0, "displacement", SWX_COL_REAL},
    {0, "grain_cubic_capacity", SWX_COL_REAL},
    {0, "liquid_cubic_98_percent", SWX_COL_REAL},
    {0, "net_tonnage", SWX_COL_INT},
    {0, "teu", SWX_COL_REAL},
    {0, "tpcmi", SWX_COL_REAL},
    {1, "built_year", SWX_COL_INT},
    {1, "commercial_owner", SWX_COL_STRING},
    {1, "dead_year", SWX_COL_INT},
    {1, "hull_number", SWX_COL_STRING},
    {1, "ship_builder", SWX_COL_STRING},
    {1, "name_date", SWX_COL_TIME},
    {2, "vessel_type", SWX_COL_STRING},
    {2, "subtype", SWX_COL_STRING},
    {2, "trading_category", SWX_COL_STRING},
    {2, "trading_status", SWX_COL_STRING},
    {3, "engine_designation", SWX_COL_STRING},
    {3, "main_engine_designer", SWX_COL_STRING},
    {3, "main_engines", SWX_COL_INT},
    {3, "mco", SWX_COL_REAL},
    {3, "mco_unit", SWX_COL_STRING},
    {3, "mcorpm", SWX_COL_REAL},
    {3, "propeller_type", SWX_COL_STRING},
    {3, "propellers", SWX_COL_INT},
    {3, "propulsion_type", SWX_COL_STRING},
    {4, "class_1_code", SWX_COL_STRING},
    {4, "ice_class", SWX_COL_STRING},
    {4, "ice_classed", SWX_COL_BOOL},
    {5, "coated", SWX_COL_INT},
    {6, "air_draught", SWX_COL_REAL},
    {6, "draught", SWX_COL_REAL},
    {6, "ktm", SWX_COL_REAL},
    {6, "loa", SWX_COL_REAL},
};
#define NFIELDS (sizeof fields / sizeof fields[0])

size_t swx_vessels_category_count(void)
{
    return NCAT;
}

const char *swx_vessels_category(size_t i)
{
    return i < NCAT ? categories[i] : NULL;
}

/* Bit i set for each category of the comma list (NULL: all). */
static int category_mask(const char *list, unsigned *mask)
{
    *mask = 0;
    if (!list) {
        *mask = (1u << NCAT) - 1;
        return 0;
    }
    const char *p = list;
    if (!*p)
        goto bad;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        size_t i;
        for (i = 0; i < NCAT; i++)
            if (strlen(categories[i]) == n && strncmp(categories[i], p, n) == 0)
                break;
        if (i == NCAT || (*mask & (1u << i)))
            goto bad;
        *mask |= 1u << i;
        if (!comma)
            return 0;
        p = comma + 1;
    }
bad:
    return swx_error_set(SWX_EINVAL,
                         "categories must be a comma list of capacity, design, dimensions, "
                         "history, propulsions, registration, vessel_and_trading_type (no "
                         "repeats), not '%.80s'",
                         list);
}

int swx_vessels_check(const swx_vessels_query *q)
{
    unsigned mask;
    long v;
    int rc;
    if ((rc = category_mask(q->categories, &mask)))
        return rc;
    if (q->limit && (rc = swx_param_int(&v, "limit", q->limit, 1, 1000)))
        return rc;
    if (q->max_pages && (rc = swx_param_int(&v, "pages", q->max_pages, 1, SWX_VESSELS_MAX_PAGES)))
        return rc;
    for (size_t i = 0; q->filters && q->filters[i]; i++) {
        const char *f = q->filters[i];
        const char *eq = strchr(f, '=');
        if (!eq || eq == f || strlen(f) > 512)
            return swx_error_set(SWX_EINVAL, "filter must be NAME=VALUE, not '%.60s'", f);
        size_t n = (size_t)(eq - f);
        if ((n == 5 && strncmp(f, "embed", 5) == 0) || (n == 4 && strncmp(f, "next", 4) == 0) ||
            (n == 5 && strncmp(f, "limit", 5) == 0))
            return swx_error_set(SWX_EINVAL, "filter %.*s is set by seawx itself (use %s)", (int)n,
                                 f, swx_setting_name(SWX_SET_VESSEL_FILTERS));
    }
    return 0;
}

static void column_name(const evd_field *f, char *out, size_t n)
{
    snprintf(out, n, "%s_%s", categories[f->cat], f->name);
}

int swx_vessels_table_new(swx_table **out, const char *cats)
{
    swx_table *t = NULL;
    unsigned mask;
    int rc;
    char name[96];
    *out = NULL;
    if ((rc = category_mask(cats, &mask)) || (rc = swx_table_new(&t)))
        return rc;
    if ((rc = swx_table_add_column(NULL, t, "id", SWX_COL_STRING)) ||
        (rc = swx_table_add_column(NULL, t, "imo", SWX_COL_INT)) ||
        (rc = swx_table_add_column(NULL, t, "mmsi", SWX_COL_INT)) ||
        (rc = swx_table_add_column(NULL, t, "name", SWX_COL_STRING)))
        goto done;
    for (size_t i = 0; i < NFIELDS && !rc; i++) {
        if (!(mask & (1u << fields[i].cat)))
            continue;
        column_name(&fields[i], name, sizeof name);
        rc = swx_table_add_column(NULL, t, name, fields[i].type);
    }
done:
    if (rc) {
        swx_table_free(t);
        return rc;
    }
    *out = t;
    return 0;
}

/* A scalar as text (ids may come as numbers or strings). */
static int set_id(swx_table *t, size_t row, size_t col, json_object *v)
{
    int64_t i;
    const char *s = swx_jsonr_str(v);
    if (s)
        return swx_table_set_string(t, row, col, s);
    if (swx_jsonr_int(&i, v)) {
        char buf[32];
        snprintf(buf, sizeof buf, "%lld", (long long)i);
        return swx_table_set_string(t, row, col, buf);
    }
    return 0;
}

static int set_int(swx_table *t, size_t row, size_t col, json_object *v)
{
    int64_t i;
    const char *s = swx_jsonr_str(v);
    if (s) {
        char *end;
        long long x = strtoll(s, &end, 10);
        if (*s && !*end)
            return swx_table_set_int(t, row, col, x);
        return 0;
    }
    return swx_jsonr_int(&i, v) ? swx_table_set_int(t, row, col, i) : 0;
}

/* One EVD value into its typed cell; a value of another type is null. */
static int set_field(swx_table *t, size_t row, size_t col, swx_col_type type, json_object *v)
{
    double d;
    int64_t tm;
    if (!v || json_object_is_type(v, json_type_null))
        return 0;
    switch (type) {
    case SWX_COL_INT:
        return set_int(t, row, col, v);
    case SWX_COL_REAL:
        return swx_jsonr_num(&d, v) ? swx_table_set_real(t, row, col, d) : 0;
    case SWX_COL_STRING:
        if (swx_jsonr_str(v))
            return swx_table_set_string(t, row, col, swx_jsonr_str(v));
        if (swx_jsonr_num(&d, v))
            return set_id(t, row, col, v);
        return 0;
    case SWX_COL_TIME:
    case SWX_COL_DATE:
        return swx_jsonr_time(&tm, v) ? swx_table_set_time(t, row, col, tm) : 0;
    case SWX_COL_BOOL:
        if (json_object_is_type(v, json_type_boolean))
            return swx_table_set_bool(t, row, col, json_object_get_boolean(v));
        return 0;
    }
    return 0;
}

int swx_vessels_parse_page(char **next, long long *total, swx_table *t, const char *body,
                           size_t len)
{
    json_object *root = NULL;
    char name[96];
    int rc;
    *next = NULL;
    *total = -1;
    if ((rc = swx_jsonr_parse(&root, body, len, "the vessels page")))
        return rc;
    json_object *data = swx_jsonr_path(root, "data", NULL);
    if (!data || !json_object_is_type(data, json_type_array)) {
        rc = swx_error_set(SWX_ESERVICE, "the vessels page has no data array");
        goto done;
    }
    size_t n = json_object_array_length(data);
    for (size_t i = 0; i < n && !rc; i++) {
        json_object *v = json_object_array_get_idx(data, i);
        size_t row;
        if (!v || !json_object_is_type(v, json_type_object)) {
            rc = swx_error_set(SWX_ESERVICE, "vessel %zu of the page is not an object", i + 1);
            break;
        }
        if ((rc = swx_table_add_row(&row, t)))
            break;
        rc = set_id(t, row, (size_t)swx_table_find_column(t, "id"), swx_jsonr_path(v, "id", NULL));
        if (!rc)
            rc = set_int(t, row, (size_t)swx_table_find_column(t, "imo"),
                         swx_jsonr_path(v, "imo", NULL));
        if (!rc)
            rc = set_int(t, row, (size_t)swx_table_find_column(t, "mmsi"),
                         swx_jsonr_path(v, "mmsi", NULL));
        if (!rc)
            rc = set_field(t, row, (size_t)swx_table_find_column(t, "name"), SWX_COL_STRING,
                           swx_jsonr_path(v, "name", NULL));
        json_object *emb = swx_jsonr_path(v, "_embedded", "enhanced_data", "_embedded", NULL);
        for (size_t f = 0; f < NFIELDS && !rc && emb; f++) {
            column_name(&fields[f], name, sizeof name);
            long col = swx_table_find_column(t, name);
            if (col < 0)
                continue;
            json_object *cat = swx_jsonr_path(emb, categories[fields[f].cat], NULL);
            rc = set_field(t, row, (size_t)col, fields[f].type,
                           swx_jsonr_path(cat, fields[f].name, NULL));
        }
    }
    if (rc)
        goto done;
    json_object *paging = swx_jsonr_path(root, "paging", NULL);
    int64_t tot;
    if (swx_jsonr_int(&tot, swx_jsonr_path(paging, "total", NULL)))
        *total = tot;
    const char *nx = swx_jsonr_str(swx_jsonr_path(paging, "next", NULL));
    if (nx && *nx) {
        if (strlen(nx) > 4096) {
            rc = swx_error_set(SWX_ESERVICE, "the vessels page's next cursor is too long");
            goto done;
        }
        if (!(*next = strdup(nx)))
            rc = swx_error_set(SWX_ENOMEM, "out of memory");
    }
done:
    json_object_put(root);
    return rc;
}

int swx_vessels_get(swx_table **out, swx_client *c, const swx_vessels_query *q,
                    swx_vessels_page_fn on_page, void *ud)
{
    swx_table *t = NULL;
    swx_query *qs = NULL;
    swx_response *resp = NULL;
    char *next = NULL, *prev = NULL;
    char embed[512];
    long limit = 0, max_pages = SWX_VESSELS_MAX_PAGES;
    unsigned mask;
    long long total = -1;
    int rc, pages = 0;
    *out = NULL;
    if ((rc = swx_vessels_check(q)))
        return rc;
    category_mask(q->categories, &mask);
    if (q->limit)
        swx_param_int(&limit, "limit", q->limit, 1, 1000);
    if (q->max_pages)
        swx_param_int(&max_pages, "pages", q->max_pages, 1, SWX_VESSELS_MAX_PAGES);
    if (mask == (1u << NCAT) - 1) {
        snprintf(embed, sizeof embed, "enhanced_data");
    } else {
        size_t at = 0;
        embed[0] = '\0';
        for (size_t i = 0; i < NCAT; i++)
            if (mask & (1u << i))
                at += (size_t)snprintf(embed + at, sizeof embed - at, "%senhanced_data.%s",
                                       at ? "," : "", categories[i]);
    }
    if ((rc = swx_vessels_table_new(&t, q->categories)))
        return rc;
    do {
        swx_query_free(qs);
        qs = NULL;
        if ((rc = swx_query_new(&qs)))
            goto done;
        for (size_t i = 0; q->filters && q->filters[i] && !rc; i++) {
            const char *eq = strchr(q->filters[i], '=');
            char key[128];
            snprintf(key, sizeof key, "%.*s", (int)(eq - q->filters[i]), q->filters[i]);
            rc = swx_query_add(qs, key, eq + 1);
        }
        if (!rc)
            rc = swx_query_add(qs, "embed", embed);
        if (!rc && limit)
            rc = swx_query_addf(qs, "limit", "%ld", limit);
        if (!rc && next)
            rc = swx_query_add(qs, "next", next);
        if (rc)
            goto done;
        swx_request req = {0};
        req.service = SWX_SERVICE_VESSELS;
        req.path = "/vessels";
        req.query = qs;
        req.accept = "application/json";
        req.max_body = PAGE_MAX_BODY;
        swx_response_free(resp);
        resp = NULL;
        if ((rc = swx_http_get(&resp, c, &req)))
            goto done;
        free(prev);
        prev = next;
        next = NULL;
        if ((rc = swx_vessels_parse_page(&next, &total, t, resp->body, resp->len))) {
            swx_error_prefix(rc, "%s", resp->url);
            goto done;
        }
        pages++;
        if (next && prev && strcmp(next, prev) == 0) {
            rc = swx_error_set(SWX_ESERVICE, "the Vessels API answered the same next cursor twice");
            goto done;
        }
        if (on_page && on_page(ud, pages, swx_table_rows(t), total)) {
            rc = swx_error_set(SWX_ECANCEL, "stopped after %d pages", pages);
            goto done;
        }
    } while (next && pages < max_pages);
    if (total >= 0) {
        char s[32];
        snprintf(s, sizeof s, "%lld", total);
        rc = swx_table_set_meta(t, "total", s);
    }
    if (!rc) {
        char s[32];
        snprintf(s, sizeof s, "%d", pages);
        rc = swx_table_set_meta(t, "pages", s);
    }
done:
    free(next);
    free(prev);
    swx_response_free(resp);
    swx_query_free(qs);
    if (rc) {
        swx_table_free(t);
        return rc;
    }
    *out = t;
    return 0;
}
