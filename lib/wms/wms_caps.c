/*
 * wms_caps.c: WMS GetCapabilities documents (1.3.0 and 1.1.1) read into leaf layers.
 *
 * The document is parsed with libxml2 into a tree, walked once, and dropped:
 * everything kept (strings, CRS lists, bounding boxes, styles) lives in one
 * arena owned by the swx_caps, freed in one go; the time dimensions are the only
 * other allocations, listed in caps->dims. Inherited properties are shared, not
 * copied: a layer that adds nothing to its parent's CRS list points at the
 * parent's array.
 *
 * Safety (util's hardened reader, xml.c): the parser never loads a DTD, never
 * touches the network and never expands an entity. Any <!ENTITY> declaration
 * stops the parse at once (SAX entityDecl hook), before a reference could be
 * expanded, so an external entity reads no file and an entity bomb costs
 * nothing.
 *
 * After the walk, three indexes are built over the layers:
 *   by_name  layer pointers sorted by Name (then document order), for find();
 *   by_var   sorted by variable id, then newest run first, then document order;
 *            var_begin[v] .. var_begin[v + 1] is the slice of variable v;
 *   var_sorted  variable ids sorted by name, to look a variable up.
 * Variable ids number the distinct variables in document order.
 */
#include "seawx/wms_caps.h"

#include "seawx/error.h"
#include "seawx/iso8601.h"

#include "arena.h"
#include "buf.h"
#include "xml.h"

#include <libxml/parser.h>
#include <libxml/tree.h>

#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define CAPS_MAX_DEPTH 64        /* nested Layer elements */
#define CAPS_MAX_LAYERS 1000000u /* named layers in one document */
#define ARENA_CHUNK (64u * 1024u)

/* ---- the parsed document ------------------------------------------------ */

struct swx_layer {
    const char *name, *title, *abstract;
    const char *product, *variable, *unit; /* product, unit NULL unless the pattern */
    const char *run_date, *run_hour;       /* NULL unless the pattern */
    int has_run;
    int64_t run_time;
    const char *const *crs;
    size_t ncrs;
    const swx_bbox *bbox;
    size_t nbbox;
    const swx_style *styles;
    size_t nstyles;
    int has_geo;
    double geo[4]; /* west, south, east, north */
    const swx_timedim *time, *ref_time;
    size_t index;   /* position in document order */
    size_t var_id;  /* index into caps->vars */
    int run_hour_n; /* issuance hour 0..23, -1 without a run */
    int complete;
};

struct swx_caps {
    int refs; /* holders: 1 from the parse, more from swx_caps_ref */
    swx_arena mem;
    const char *version, *title;
    int max_width, max_height;
    const char **formats;
    size_t nformats;
    swx_layer *layers;
    size_t nlayers, caplayers;
    const swx_layer **by_name;
    const swx_layer **by_var;
    size_t *var_begin;
    const char **vars;
    size_t *var_sorted;
    size_t nvars;
    swx_timedim **dims;
    size_t ndims, capdims;
};

/* What a layer inherits from its ancestors (WMS 1.3.0 7.2.4.8). */
typedef struct inherit {
    const char *const *crs;
    size_t ncrs;
    const swx_bbox *bbox;
    size_t nbbox;
    const swx_style *styles;
    size_t nstyles;
    int has_geo;
    double geo[4];
    const swx_timedim *time, *ref_time;
} inherit;

/* ---- small helpers -------------------------------------------------------- */

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Reports a problem found in the tree, with the line of node. */
static int bad(int code, const xmlNode *node, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int bad(int code, const xmlNode *node, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return swx_error_set(code, "malformed capabilities: line %ld: %s", swx_xml_line(node), msg);
}

static int nomem(void)
{
    return swx_error_set(SWX_ENOMEM, "out of memory reading capabilities");
}

/* The text of an element, blanks trimmed, copied into the arena; NULL when
 * absent or empty. *err is set on ENOMEM. */
static const char *text_of(swx_caps *c, const xmlNode *n, int *err)
{
    if (!n)
        return NULL;
    const xmlNode *t = n->children;
    const char *s;
    xmlChar *owned = NULL;
    if (t && !t->next && (t->type == XML_TEXT_NODE || t->type == XML_CDATA_SECTION_NODE))
        s = (const char *)t->content;
    else if (!t)
        return NULL;
    else
        s = (const char *)(owned = xmlNodeGetContent(n));
    if (!s) {
        *err = nomem();
        return NULL;
    }
    size_t len = strlen(s);
    while (len && is_blank(*s)) {
        s++;
        len--;
    }
    while (len && is_blank(s[len - 1]))
        len--;
    char *r = len ? swx_arena_strndup(&c->mem, s, len) : NULL;
    if (len && !r)
        *err = nomem();
    xmlFree(owned);
    return r;
}

/* Parses a number written in the document ("C" locale: the walk runs under it). */
static int number(const xmlNode *n, const char *what, const char *s, double *out)
{
    char *end;
    if (!s)
        return bad(SWX_EPARSE, n, "<%s> has no %s", (const char *)n->name, what);
    double v = strtod(s, &end);
    while (is_blank(*end))
        end++;
    if (end == s || *end || !isfinite(v))
        return bad(SWX_EPARSE, n, "<%s> %s '%.40s' is not a number", (const char *)n->name, what,
                   s);
    *out = v;
    return 0;
}

static int integer(const xmlNode *n, const char *s, int *out)
{
    if (!s) {
        *out = 0;
        return 0;
    }
    char *end;
    long v = strtol(s, &end, 10);
    while (is_blank(*end))
        end++;
    if (end == s || *end || v < 0 || v > 1000000)
        return bad(SWX_EPARSE, n, "<%s> '%.40s' is not a size in pixels", (const char *)n->name, s);
    *out = (int)v;
    return 0;
}

/* Removes credentials a server may have echoed into a URL: the user info before
 * the host (Basic auth takes the key as user name) and service-api-key query
 * parameters. */
static const char *url_without_key(swx_caps *c, const char *url)
{
    size_t n = strlen(url);
    char *out = swx_arena_alloc(&c->mem, n + 1);
    if (!out)
        return NULL;
    const char *p = url, *end = url + n;
    char *o = out;
    const char *scheme = strstr(url, "://");
    const char *query = strchr(url, '?');
    if (scheme && (!query || scheme < query)) {
        const char *host = scheme + 3;
        size_t hl = strcspn(host, "/?#");
        const char *at = memchr(host, '@', hl);
        memcpy(o, url, (size_t)(host - url));
        o += host - url;
        p = at ? at + 1 : host;
    }
    size_t upto = query ? (size_t)(query - p) : (size_t)(end - p);
    memcpy(o, p, upto);
    o += upto;
    p += upto;
    if (query) {
        const char *frag = strchr(query, '#');
        const char *qend = frag ? frag : end;
        int first = 1;
        p = query + 1;
        while (p <= qend) {
            const char *amp = memchr(p, '&', (size_t)(qend - p));
            const char *pe = amp ? amp : qend;
            size_t nl = strcspn(p, "=&#");
            if (p + nl > pe)
                nl = (size_t)(pe - p);
            int is_key = nl == 15 && strncasecmp(p, "service-api-key", 15) == 0;
            if (!is_key && pe > p) {
                *o++ = first ? '?' : '&';
                memcpy(o, p, (size_t)(pe - p));
                o += pe - p;
                first = 0;
            }
            if (!amp)
                break;
            p = amp + 1;
        }
        if (frag) {
            memcpy(o, frag, (size_t)(end - frag));
            o += end - frag;
        }
    }
    *o = '\0';
    return out;
}

/* ---- reading one Layer's own properties ----------------------------------- */

/* A string set for de-duplicating CRS names (case-insensitive), open addressing. */
static size_t hash_ci(const char *s)
{
    size_t h = 14695981039346656037u;
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch >= 'A' && ch <= 'Z')
            ch = (unsigned char)(ch - 'A' + 'a');
        h = (h ^ ch) * 1099511628211u;
    }
    return h;
}

/* Appends s to list (n entries, room for it) unless it is there already. The
 * table (tcap slots, a power of two) indexes the list. */
static void crs_add(const char **list, size_t *n, size_t *table, size_t tcap, const char *s)
{
    size_t i = hash_ci(s) & (tcap - 1);
    for (; table[i] != (size_t)-1; i = (i + 1) & (tcap - 1))
        if (strcasecmp(list[table[i]], s) == 0)
            return;
    table[i] = *n;
    list[(*n)++] = s;
}

/* The CRS (1.3.0) or SRS (1.1.1, possibly several separated by blanks) of this
 * layer, added to the inherited list. */
static int read_crs(swx_caps *c, const xmlNode *layer, inherit *in)
{
    size_t own = 0;
    int rc = 0;
    for (const xmlNode *k = layer->children; k; k = k->next) {
        if (!swx_xml_is(k, "CRS") && !swx_xml_is(k, "SRS"))
            continue;
        const char *s = text_of(c, k, &rc);
        if (rc)
            return rc;
        for (; s && *s;) { /* count the tokens */
            while (is_blank(*s))
                s++;
            if (!*s)
                break;
            own++;
            while (*s && !is_blank(*s))
                s++;
        }
    }
    if (!own)
        return 0;
    size_t total = in->ncrs + own, tcap = 16, n = 0;
    while (tcap < total * 2)
        tcap *= 2;
    const char **list = swx_arena_alloc(&c->mem, total * sizeof *list);
    size_t *table = malloc(tcap * sizeof *table);
    if (!list || !table) {
        free(table);
        return nomem();
    }
    memset(table, 0xff, tcap * sizeof *table);
    for (size_t i = 0; i < in->ncrs; i++)
        crs_add(list, &n, table, tcap, in->crs[i]);
    for (const xmlNode *k = layer->children; k && !rc; k = k->next) {
        if (!swx_xml_is(k, "CRS") && !swx_xml_is(k, "SRS"))
            continue;
        const char *s = text_of(c, k, &rc);
        while (s && *s && !rc) {
            while (is_blank(*s))
                s++;
            size_t len = 0;
            while (s[len] && !is_blank(s[len]))
                len++;
            if (!len)
                break;
            const char *tok = swx_arena_strndup(&c->mem, s, len);
            if (!tok)
                rc = nomem();
            else
                crs_add(list, &n, table, tcap, tok);
            s += len;
        }
    }
    free(table);
    in->crs = list;
    in->ncrs = n;
    return rc;
}

static int read_bbox(swx_caps *c, const xmlNode *layer, inherit *in)
{
    size_t own = 0;
    for (const xmlNode *k = layer->children; k; k = k->next)
        own += swx_xml_is(k, "BoundingBox");
    if (!own)
        return 0;
    swx_bbox *list = swx_arena_alloc(&c->mem, (in->nbbox + own) * sizeof *list);
    if (!list)
        return nomem();
    if (in->nbbox)
        memcpy(list, in->bbox, in->nbbox * sizeof *list);
    size_t n = in->nbbox;
    for (const xmlNode *k = layer->children; k; k = k->next) {
        if (!swx_xml_is(k, "BoundingBox"))
            continue;
        const char *crs = swx_xml_attr(k, "CRS");
        if (!crs)
            crs = swx_xml_attr(k, "SRS");
        if (!crs || !*crs)
            return bad(SWX_EPARSE, k, "<BoundingBox> has no CRS");
        swx_bbox b;
        memset(&b, 0, sizeof b);
        int rc = number(k, "minx", swx_xml_attr(k, "minx"), &b.minx);
        if (!rc)
            rc = number(k, "miny", swx_xml_attr(k, "miny"), &b.miny);
        if (!rc)
            rc = number(k, "maxx", swx_xml_attr(k, "maxx"), &b.maxx);
        if (!rc)
            rc = number(k, "maxy", swx_xml_attr(k, "maxy"), &b.maxy);
        if (rc)
            return rc;
        if (strlen(crs) >= sizeof b.crs)
            continue; /* a CRS URI too long to hold: it can't be asked for by name either */
        memcpy(b.crs, crs, strlen(crs) + 1);
        size_t i = 0;
        while (i < n && strcasecmp(list[i].crs, b.crs) != 0)
            i++;
        list[i] = b; /* replaces the inherited box of the same CRS */
        if (i == n)
            n++;
    }
    in->bbox = list;
    in->nbbox = n;
    return 0;
}

static int read_geo(swx_caps *c, const xmlNode *layer, inherit *in)
{
    for (const xmlNode *k = layer->children; k; k = k->next) {
        int rc = 0;
        if (swx_xml_is(k, "EX_GeographicBoundingBox")) {
            static const char *const names[4] = {"westBoundLongitude", "southBoundLatitude",
                                                 "eastBoundLongitude", "northBoundLatitude"};
            for (int i = 0; i < 4 && !rc; i++) {
                const xmlNode *e = swx_xml_child(k, names[i]);
                if (!e)
                    return bad(SWX_EPARSE, k, "<EX_GeographicBoundingBox> has no <%s>", names[i]);
                const char *s = text_of(c, e, &rc);
                if (!rc)
                    rc = number(e, "value", s, &in->geo[i]);
            }
        } else if (swx_xml_is(k, "LatLonBoundingBox")) {
            rc = number(k, "minx", swx_xml_attr(k, "minx"), &in->geo[0]);
            if (!rc)
                rc = number(k, "miny", swx_xml_attr(k, "miny"), &in->geo[1]);
            if (!rc)
                rc = number(k, "maxx", swx_xml_attr(k, "maxx"), &in->geo[2]);
            if (!rc)
                rc = number(k, "maxy", swx_xml_attr(k, "maxy"), &in->geo[3]);
        } else {
            continue;
        }
        if (rc)
            return rc;
        in->has_geo = 1;
    }
    return 0;
}

static int read_styles(swx_caps *c, const xmlNode *layer, inherit *in)
{
    size_t own = 0;
    int rc = 0;
    for (const xmlNode *k = layer->children; k; k = k->next)
        own += swx_xml_is(k, "Style");
    if (!own)
        return 0;
    swx_style *list = swx_arena_alloc(&c->mem, (in->nstyles + own) * sizeof *list);
    if (!list)
        return nomem();
    if (in->nstyles)
        memcpy(list, in->styles, in->nstyles * sizeof *list);
    size_t n = in->nstyles;
    for (const xmlNode *k = layer->children; k; k = k->next) {
        if (!swx_xml_is(k, "Style"))
            continue;
        swx_style s = {NULL, NULL, NULL};
        s.name = text_of(c, swx_xml_child(k, "Name"), &rc);
        if (!rc)
            s.title = text_of(c, swx_xml_child(k, "Title"), &rc);
        if (rc)
            return rc;
        if (!s.name)
            continue; /* a style that cannot be asked for */
        const xmlNode *res = swx_xml_child(swx_xml_child(k, "LegendURL"), "OnlineResource");
        const char *href = res ? swx_xml_attr(res, "href") : NULL;
        if (href && *href && !(s.legend_url = url_without_key(c, href)))
            return nomem();
        size_t i = 0;
        while (i < n && strcmp(list[i].name, s.name) != 0)
            i++;
        if (i == n) /* an inherited style of the same name stays (7.2.4.6.5) */
            list[n++] = s;
    }
    in->styles = list;
    in->nstyles = n;
    return 0;
}

static int add_dim(swx_caps *c, swx_timedim *d)
{
    swx_timedim **p = swx_array_reserve(c->dims, &c->capdims, c->ndims + 1, sizeof *p, 64);
    if (!p)
        return nomem();
    c->dims = p;
    c->dims[c->ndims++] = d;
    return 0;
}

/* The time and reference_time values: Dimension elements with content (1.3.0)
 * or Extent elements (1.1.1); they replace inherited ones of the same name. A
 * 1.1.1 Dimension only declares the name and has no content. */
static int read_dims(swx_caps *c, const xmlNode *layer, const char *layer_name, inherit *in)
{
    for (const xmlNode *k = layer->children; k; k = k->next) {
        if (!swx_xml_is(k, "Dimension") && !swx_xml_is(k, "Extent"))
            continue;
        const char *name = swx_xml_attr(k, "name");
        const swx_timedim **slot = NULL;
        if (name && strcasecmp(name, "time") == 0)
            slot = &in->time;
        else if (name && strcasecmp(name, "reference_time") == 0)
            slot = &in->ref_time;
        if (!slot)
            continue;
        const xmlNode *t = k->children;
        xmlChar *owned = NULL;
        const char *s;
        if (!t)
            continue;
        if (!t->next && (t->type == XML_TEXT_NODE || t->type == XML_CDATA_SECTION_NODE))
            s = (const char *)t->content;
        else if (!(s = (const char *)(owned = xmlNodeGetContent(k))))
            return nomem();
        size_t len = strlen(s), i = 0;
        while (i < len && is_blank(s[i]))
            i++;
        swx_timedim *d = NULL;
        int rc = 0;
        if (i < len) { /* a blank value list declares nothing */
            rc = swx_timedim_parse(&d, s, len, swx_xml_attr(k, "default"));
            if (rc)
                swx_error_prefix(rc, "malformed capabilities: line %ld: %s%s%sdimension '%s'",
                                 swx_xml_line(k), layer_name ? "layer '" : "",
                                 layer_name ? layer_name : "", layer_name ? "', " : "", name);
            else if ((rc = add_dim(c, d)) != 0)
                swx_timedim_free(d);
            else
                *slot = d;
        }
        xmlFree(owned);
        if (rc)
            return rc;
    }
    return 0;
}

/* ---- layer names ---------------------------------------------------------- */

static int all_digits(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return 0;
    return 1;
}

static int two(const char *s)
{
    return (s[0] - '0') * 10 + (s[1] - '0');
}

/* Reads {product}/{YYYYMMDD}/{HH}/{variable}[:{unit}] into l; returns 1 when the
 * name follows it, 0 when not, < 0 on ENOMEM. */
static int read_pattern(swx_caps *c, swx_layer *l, const char *name)
{
    const char *s1 = strchr(name, '/');
    if (!s1 || s1 == name)
        return 0;
    const char *date = s1 + 1, *s2 = strchr(date, '/');
    if (!s2 || s2 - date != 8 || !all_digits(date, 8))
        return 0;
    const char *hour = s2 + 1, *s3 = strchr(hour, '/');
    if (!s3 || s3 - hour != 2 || !all_digits(hour, 2))
        return 0;
    const char *var = s3 + 1;
    if (strchr(var, '/'))
        return 0;
    int y = two(date) * 100 + two(date + 2), mo = two(date + 4), d = two(date + 6);
    int h = two(hour);
    static const int mdays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    if (mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] || (mo == 2 && d == 29 && !leap) || h > 23)
        return 0;
    const char *colon = strchr(var, ':');
    size_t vlen = colon ? (size_t)(colon - var) : strlen(var);
    if (!vlen)
        return 0;
    l->product = swx_arena_strndup(&c->mem, name, (size_t)(s1 - name));
    l->run_date = swx_arena_strndup(&c->mem, date, 8);
    l->run_hour = swx_arena_strndup(&c->mem, hour, 2);
    l->variable = swx_arena_strndup(&c->mem, var, vlen);
    l->unit = colon && colon[1] ? swx_arena_strndup(&c->mem, colon + 1, strlen(colon + 1)) : NULL;
    if (!l->product || !l->run_date || !l->run_hour || !l->variable ||
        (colon && colon[1] && !l->unit))
        return -1;
    l->has_run = 1;
    l->run_time = swx_days_from_civil(y, (unsigned)mo, (unsigned)d) * 86400 + h * 3600;
    l->run_hour_n = h;
    return 1;
}

static int add_layer(swx_caps *c, const xmlNode *node, const char *name, const inherit *in)
{
    int rc = 0;
    if (c->nlayers == CAPS_MAX_LAYERS)
        return bad(SWX_ETOOBIG, node, "more than %u layers", CAPS_MAX_LAYERS);
    swx_layer *layers =
        swx_array_reserve(c->layers, &c->caplayers, c->nlayers + 1, sizeof *layers, 64);
    if (!layers)
        return nomem();
    c->layers = layers;
    swx_layer *l = &c->layers[c->nlayers];
    memset(l, 0, sizeof *l);
    l->name = name;
    l->title = text_of(c, swx_xml_child(node, "Title"), &rc);
    if (!rc)
        l->abstract = text_of(c, swx_xml_child(node, "Abstract"), &rc);
    if (rc)
        return rc;
    l->crs = in->crs;
    l->ncrs = in->ncrs;
    l->bbox = in->bbox;
    l->nbbox = in->nbbox;
    l->styles = in->styles;
    l->nstyles = in->nstyles;
    l->has_geo = in->has_geo;
    memcpy(l->geo, in->geo, sizeof l->geo);
    l->time = in->time;
    l->ref_time = in->ref_time;
    l->index = c->nlayers;
    l->run_hour_n = -1;
    int p = read_pattern(c, l, name);
    if (p < 0)
        return nomem();
    if (p == 0) {
        l->variable = name;
        l->product = l->unit = l->run_date = l->run_hour = NULL;
        if (l->ref_time) {
            l->has_run = 1;
            l->run_time = swx_timedim_default(l->ref_time);
            int64_t sod = l->run_time % 86400;
            l->run_hour_n = (int)((sod < 0 ? sod + 86400 : sod) / 3600);
        }
    }
    c->nlayers++;
    return 0;
}

static int walk_layer(swx_caps *c, const xmlNode *node, const inherit *parent, int depth)
{
    if (depth > CAPS_MAX_DEPTH)
        return bad(SWX_EPARSE, node, "layers nested more than %d deep", CAPS_MAX_DEPTH);
    inherit in = *parent;
    int rc = 0;
    const char *name = text_of(c, swx_xml_child(node, "Name"), &rc);
    if (!rc)
        rc = read_crs(c, node, &in);
    if (!rc)
        rc = read_bbox(c, node, &in);
    if (!rc)
        rc = read_geo(c, node, &in);
    if (!rc)
        rc = read_styles(c, node, &in);
    if (!rc)
        rc = read_dims(c, node, name, &in);
    if (!rc && name)
        rc = add_layer(c, node, name, &in);
    for (const xmlNode *k = node->children; k && !rc; k = k->next)
        if (swx_xml_is(k, "Layer"))
            rc = walk_layer(c, k, &in, depth + 1);
    return rc;
}

/* ---- indexes -------------------------------------------------------------- */

static int cmp_name(const void *pa, const void *pb)
{
    const swx_layer *a = *(const swx_layer *const *)pa, *b = *(const swx_layer *const *)pb;
    int r = strcmp(a->name, b->name);
    return r ? r : (a->index > b->index) - (a->index < b->index);
}

static int cmp_variable(const void *pa, const void *pb)
{
    const swx_layer *a = *(const swx_layer *const *)pa, *b = *(const swx_layer *const *)pb;
    int r = strcmp(a->variable, b->variable);
    return r ? r : (a->index > b->index) - (a->index < b->index);
}

/* Variable, then newest run first (layers without a run last), then document order. */
static int cmp_var_run(const void *pa, const void *pb)
{
    const swx_layer *a = *(const swx_layer *const *)pa, *b = *(const swx_layer *const *)pb;
    if (a->var_id != b->var_id)
        return a->var_id < b->var_id ? -1 : 1;
    if (a->has_run != b->has_run)
        return a->has_run ? -1 : 1;
    if (a->has_run && a->run_time != b->run_time)
        return a->run_time > b->run_time ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index);
}

static int cmp_opt_str(const char *a, const char *b)
{
    if (!a || !b)
        return (a != NULL) - (b != NULL);
    return strcmp(a, b);
}

/* The groups of the completeness rule: same product, variable, unit and hour. */
static int cmp_group(const void *pa, const void *pb)
{
    const swx_layer *a = *(const swx_layer *const *)pa, *b = *(const swx_layer *const *)pb;
    if (a->var_id != b->var_id)
        return a->var_id < b->var_id ? -1 : 1;
    int r = cmp_opt_str(a->unit, b->unit);
    if (!r)
        r = cmp_opt_str(a->product, b->product);
    if (!r && a->run_hour_n != b->run_hour_n)
        r = a->run_hour_n < b->run_hour_n ? -1 : 1;
    return r;
}

/* A group of layers of one variable in tmp[start .. end), first = the document
 * index of its first layer, rank = its place in name order. */
typedef struct var_group {
    size_t first, start, end, rank;
} var_group;

static int cmp_group_first(const void *pa, const void *pb)
{
    const var_group *a = pa, *b = pb;
    return (a->first > b->first) - (a->first < b->first);
}

static size_t time_count(const swx_layer *l)
{
    return l->time ? swx_timedim_count(l->time) : 0;
}

static int build_indexes(swx_caps *c)
{
    size_t n = c->nlayers, nv = 0;
    const swx_layer **tmp = malloc(n * sizeof *tmp);
    var_group *groups = NULL;
    int rc = 0;
    c->by_name = swx_arena_alloc(&c->mem, n * sizeof *c->by_name);
    c->by_var = swx_arena_alloc(&c->mem, n * sizeof *c->by_var);
    if (!tmp || !c->by_name || !c->by_var) {
        rc = nomem();
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        c->by_name[i] = tmp[i] = &c->layers[i];
    qsort(c->by_name, n, sizeof *c->by_name, cmp_name);

    /* Variable ids in document order: group the layers by variable, then order
     * the groups by their first layer. */
    qsort(tmp, n, sizeof *tmp, cmp_variable);
    for (size_t i = 0; i < n; i++)
        nv += i == 0 || strcmp(tmp[i]->variable, tmp[i - 1]->variable) != 0;
    groups = malloc(nv * sizeof *groups);
    c->vars = swx_arena_alloc(&c->mem, nv * sizeof *c->vars);
    c->var_sorted = swx_arena_alloc(&c->mem, nv * sizeof *c->var_sorted);
    c->var_begin = swx_arena_alloc(&c->mem, (nv + 1) * sizeof *c->var_begin);
    if (!groups || !c->vars || !c->var_sorted || !c->var_begin) {
        rc = nomem();
        goto done;
    }
    for (size_t i = 0, g = 0; i < n; i++) {
        if (i == 0 || strcmp(tmp[i]->variable, tmp[i - 1]->variable) != 0) {
            groups[g] = (var_group){tmp[i]->index, i, i, g};
            g++;
        }
        groups[g - 1].end = i + 1;
    }
    qsort(groups, nv, sizeof *groups, cmp_group_first);
    for (size_t v = 0; v < nv; v++) {
        c->vars[v] = c->layers[groups[v].first].variable;
        c->var_sorted[groups[v].rank] = v;
        for (size_t i = groups[v].start; i < groups[v].end; i++)
            c->layers[tmp[i]->index].var_id = v;
    }
    c->nvars = nv;

    memcpy(c->by_var, c->by_name, n * sizeof *c->by_var);
    qsort(c->by_var, n, sizeof *c->by_var, cmp_var_run);
    for (size_t i = 0, v = 0; v <= nv; v++) {
        while (i < n && c->by_var[i]->var_id < v)
            i++;
        c->var_begin[v] = i;
    }

    /* Completeness: a run is complete when it lists at least as many times as
     * every other run of its group. */
    qsort(tmp, n, sizeof *tmp, cmp_group);
    for (size_t i = 0; i < n;) {
        size_t j = i, most = 0;
        for (; j < n && cmp_group(&tmp[i], &tmp[j]) == 0; j++)
            if (time_count(tmp[j]) > most)
                most = time_count(tmp[j]);
        for (; i < j; i++)
            c->layers[tmp[i]->index].complete = time_count(tmp[i]) >= most;
    }
done:
    free(groups);
    free(tmp);
    return rc;
}

/* ---- the document --------------------------------------------------------- */

/* An HTML page (a proxy's or a login page) is named as such, with its title. */
static int refuse_html(const char *xml, size_t len)
{
    size_t i = 0;
    if (len >= 3 && memcmp(xml, "\xEF\xBB\xBF", 3) == 0)
        i = 3;
    while (i < len && is_blank(xml[i]))
        i++;
    const char *s = xml + i;
    size_t n = len - i;
    if (!((n >= 14 && strncasecmp(s, "<!doctype html", 14) == 0) ||
          (n >= 5 && strncasecmp(s, "<html", 5) == 0)))
        return 0;
    char title[128] = "";
    size_t scan = n < 16384 ? n : 16384;
    for (size_t k = 0; k + 7 <= scan; k++) {
        if (strncasecmp(s + k, "<title", 6) != 0 || (s[k + 6] != '>' && !is_blank(s[k + 6])))
            continue;
        const char *gt = memchr(s + k, '>', scan - k);
        size_t t = 0;
        for (const char *p = gt ? gt + 1 : s + scan;
             p < s + scan && *p != '<' && t < sizeof title - 1; p++) {
            char ch = is_blank(*p) ? ' ' : *p;
            if (ch == ' ' && (t == 0 || title[t - 1] == ' '))
                continue;
            title[t++] = ch;
        }
        while (t && title[t - 1] == ' ')
            t--;
        title[t] = '\0';
        break;
    }
    return swx_error_set(SWX_ESERVICE,
                         "not a WMS capabilities document: the server sent an HTML page%s%s%s",
                         title[0] ? " (\"" : "", title, title[0] ? "\")" : "");
}

/* The text of an exception report (WMS ServiceExceptionReport or OWS
 * ExceptionReport), whitespace collapsed. */
static int refuse_exception(const xmlNode *root)
{
    char msg[400] = "";
    size_t n = 0;
    const char *code = NULL;
    for (const xmlNode *e = root->children; e; e = e->next) {
        if (!swx_xml_is(e, "ServiceException") && !swx_xml_is(e, "Exception"))
            continue;
        code = swx_xml_attr(e, "code");
        if (!code)
            code = swx_xml_attr(e, "exceptionCode");
        xmlChar *t = xmlNodeGetContent(e);
        for (const char *p = (const char *)t; p && *p && n < sizeof msg - 1; p++) {
            char ch = is_blank(*p) ? ' ' : *p;
            if (ch == ' ' && (n == 0 || msg[n - 1] == ' '))
                continue;
            msg[n++] = ch;
        }
        xmlFree(t);
        break;
    }
    while (n && msg[n - 1] == ' ')
        n--;
    msg[n] = '\0';
    return swx_error_set(SWX_ESERVICE,
                         "the server answered with an exception instead of capabilities: %s%s%s",
                         code ? code : "", code && n ? ": " : "",
                         n      ? msg
                         : code ? ""
                                : "(no text)");
}

static int read_service(swx_caps *c, const xmlNode *root)
{
    int rc = 0;
    const xmlNode *svc = swx_xml_child(root, "Service");
    const char *v = swx_xml_attr(root, "version");
    c->version = v && *v ? swx_arena_strndup(&c->mem, v, strlen(v))
                 : swx_xml_is(root, "WMT_MS_Capabilities") ? "1.1.1"
                                                           : "1.3.0";
    if (!c->version)
        return nomem();
    c->title = text_of(c, swx_xml_child(svc, "Title"), &rc);
    const xmlNode *mw = swx_xml_child(svc, "MaxWidth"), *mh = swx_xml_child(svc, "MaxHeight");
    const char *w = rc ? NULL : text_of(c, mw, &rc);
    const char *h = rc ? NULL : text_of(c, mh, &rc);
    if (!rc)
        rc = integer(mw, w, &c->max_width);
    if (!rc)
        rc = integer(mh, h, &c->max_height);
    return rc;
}

static int read_formats(swx_caps *c, const xmlNode *cap)
{
    const xmlNode *getmap = swx_xml_child(swx_xml_child(cap, "Request"), "GetMap");
    size_t n = 0;
    int rc = 0;
    for (const xmlNode *k = getmap ? getmap->children : NULL; k; k = k->next)
        n += swx_xml_is(k, "Format");
    if (!n)
        return 0;
    c->formats = swx_arena_alloc(&c->mem, n * sizeof *c->formats);
    if (!c->formats)
        return nomem();
    for (const xmlNode *k = getmap->children; k && !rc; k = k->next) {
        const char *f = swx_xml_is(k, "Format") ? text_of(c, k, &rc) : NULL;
        if (f)
            c->formats[c->nformats++] = f;
    }
    return rc;
}

static int read_document(swx_caps *c, const xmlNode *root)
{
    if (swx_xml_is(root, "ServiceExceptionReport") || swx_xml_is(root, "ExceptionReport"))
        return refuse_exception(root);
    if (!swx_xml_is(root, "WMS_Capabilities") && !swx_xml_is(root, "WMT_MS_Capabilities"))
        return swx_error_set(SWX_ESERVICE,
                             "not a WMS capabilities document: the root element is <%.60s>",
                             root ? (const char *)root->name : "");
    int rc = read_service(c, root);
    if (rc)
        return rc;
    const xmlNode *cap = swx_xml_child(root, "Capability");
    if (!cap)
        return bad(SWX_EPARSE, root, "<%s> has no <Capability>", (const char *)root->name);
    rc = read_formats(c, cap);
    inherit none;
    memset(&none, 0, sizeof none);
    for (const xmlNode *k = cap->children; k && !rc; k = k->next)
        if (swx_xml_is(k, "Layer"))
            rc = walk_layer(c, k, &none, 1);
    if (rc)
        return rc;
    if (!c->nlayers)
        return swx_error_set(SWX_ENOTFOUND,
                             "the capabilities list no layers: the bundle may be empty or "
                             "not part of your subscription");
    return build_indexes(c);
}

int swx_caps_parse(swx_caps **out, const char *xml, size_t len)
{
    swx_caps *c = NULL;
    xmlDocPtr doc = NULL;
    locale_t cloc = (locale_t)0, old = (locale_t)0;
    int rc = 0;
    if (!out)
        return swx_error_set(SWX_EINVAL, "swx_caps_parse: out is NULL");
    *out = NULL;
    if (!xml && len)
        return swx_error_set(SWX_EINVAL, "swx_caps_parse: xml is NULL");
    if (len > SWX_CAPS_MAX_BYTES)
        return swx_error_set(SWX_ETOOBIG,
                             "the capabilities document is %zu bytes, more than the limit of "
                             "%u MiB",
                             len, SWX_CAPS_MAX_BYTES / (1024u * 1024u));
    if (len == 0)
        return swx_error_set(SWX_EPARSE, "malformed capabilities: the document is empty");
    if ((rc = refuse_html(xml, len)) != 0)
        return rc;
    c = calloc(1, sizeof *c);
    if (!c)
        return nomem();
    c->refs = 1;
    swx_arena_init(&c->mem, ARENA_CHUNK, 0); /* bounded by SWX_CAPS_MAX_BYTES */
    rc = swx_xml_read(&doc, xml, len, "capabilities");
    if (rc)
        goto done;
    /* Numbers in the document use '.', whatever the host application's locale. */
    cloc = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
    if (cloc)
        old = uselocale(cloc);
    rc = read_document(c, xmlDocGetRootElement(doc));
    if (cloc) {
        uselocale(old);
        freelocale(cloc);
    }
    if (rc)
        goto done;
    *out = c;
    c = NULL;
done:
    xmlFreeDoc(doc);
    swx_caps_free(c);
    return rc;
}

swx_caps *swx_caps_ref(swx_caps *c)
{
    __atomic_add_fetch(&c->refs, 1, __ATOMIC_RELAXED);
    return c;
}

void swx_caps_free(swx_caps *c)
{
    if (!c || __atomic_sub_fetch(&c->refs, 1, __ATOMIC_ACQ_REL) > 0)
        return;
    for (size_t i = 0; i < c->ndims; i++)
        swx_timedim_free(c->dims[i]);
    free(c->dims);
    free(c->layers);
    swx_arena_free(&c->mem);
    free(c);
}

/* ---- queries -------------------------------------------------------------- */

const char *swx_caps_version(const swx_caps *c)
{
    return c ? c->version : NULL;
}

const char *swx_caps_title(const swx_caps *c)
{
    return c ? c->title : NULL;
}

int swx_caps_max_width(const swx_caps *c)
{
    return c ? c->max_width : 0;
}

int swx_caps_max_height(const swx_caps *c)
{
    return c ? c->max_height : 0;
}

size_t swx_caps_format_count(const swx_caps *c)
{
    return c ? c->nformats : 0;
}

const char *swx_caps_format(const swx_caps *c, size_t i)
{
    return c && i < c->nformats ? c->formats[i] : NULL;
}

size_t swx_caps_layer_count(const swx_caps *c)
{
    return c ? c->nlayers : 0;
}

const swx_layer *swx_caps_layer(const swx_caps *c, size_t i)
{
    return c && i < c->nlayers ? &c->layers[i] : NULL;
}

const swx_layer *swx_caps_find(const swx_caps *c, const char *name)
{
    if (!c || !name)
        return NULL;
    size_t lo = 0, hi = c->nlayers;
    while (lo < hi) { /* the first layer whose name is >= name */
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(c->by_name[mid]->name, name) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < c->nlayers && strcmp(c->by_name[lo]->name, name) == 0 ? c->by_name[lo] : NULL;
}

/* The id of a variable, or (size_t)-1. */
static size_t var_id(const swx_caps *c, const char *variable)
{
    size_t lo = 0, hi = c->nvars;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int r = strcmp(c->vars[c->var_sorted[mid]], variable);
        if (r == 0)
            return c->var_sorted[mid];
        if (r < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (size_t)-1;
}

static int unit_matches(const swx_layer *l, const char *unit)
{
    if (!unit)
        return 1;
    if (!*unit)
        return l->unit == NULL;
    return l->unit && strcmp(l->unit, unit) == 0;
}

size_t swx_caps_runs(const swx_caps *c, const char *variable, const char *unit,
                     const swx_layer **out, size_t max)
{
    if (!c || !variable)
        return 0;
    size_t v = var_id(c, variable), n = 0;
    if (v == (size_t)-1)
        return 0;
    for (size_t i = c->var_begin[v]; i < c->var_begin[v + 1]; i++) {
        if (!unit_matches(c->by_var[i], unit))
            continue;
        if (out && n < max)
            out[n] = c->by_var[i];
        n++;
    }
    return n;
}

/* Appends "a, b, c" to b, stopping once the line is long enough. */
static void list_names(swx_buf *b, const char *const *names, size_t n)
{
    for (size_t i = 0; i < n && b->len < 600; i++)
        swx_buf_printf(b, "%s%s", i ? ", " : "", names[i]);
}

int swx_caps_latest(const swx_layer **out, const swx_caps *c, const char *variable,
                    const char *unit)
{
    if (out)
        *out = NULL;
    if (!c || !variable || !out)
        return swx_error_set(SWX_EINVAL, "swx_caps_latest: caps, variable and out are required");
    size_t v = var_id(c, variable);
    if (v == (size_t)-1) {
        swx_buf b;
        swx_buf_init(&b, 2048);
        list_names(&b, c->vars, c->nvars);
        int rc = swx_error_set(SWX_ENOTFOUND, "no layer has the variable '%s'; variables: %s",
                               variable, b.data ? b.data : "");
        swx_buf_free(&b);
        return rc;
    }
    for (size_t i = c->var_begin[v]; i < c->var_begin[v + 1]; i++) {
        const swx_layer *l = c->by_var[i];
        if (unit_matches(l, unit) && l->complete) {
            *out = l;
            return 0;
        }
    }
    /* Only a unit that no layer of the variable has gets here: every group has
     * a complete run. */
    swx_buf b;
    swx_buf_init(&b, 2048);
    for (size_t i = c->var_begin[v], shown = 0; i < c->var_begin[v + 1] && b.len < 600; i++) {
        size_t j = c->var_begin[v];
        while (j < i && cmp_opt_str(c->by_var[j]->unit, c->by_var[i]->unit) != 0)
            j++;
        if (j < i)
            continue; /* listed already */
        const char *u = c->by_var[i]->unit ? c->by_var[i]->unit : "(none)";
        swx_buf_printf(&b, "%s%s", shown++ ? ", " : "", u);
    }
    int rc =
        swx_error_set(SWX_ENOTFOUND, "variable '%s' has no layer %s%s%s; units: %s", variable,
                      unit && *unit ? "in unit '" : "without a unit", unit && *unit ? unit : "",
                      unit && *unit ? "'" : "", b.data ? b.data : "");
    swx_buf_free(&b);
    return rc;
}

int swx_caps_run_is_complete(const swx_caps *c, const swx_layer *l)
{
    return c && l && l->complete;
}

size_t swx_caps_variable_count(const swx_caps *c)
{
    return c ? c->nvars : 0;
}

const char *swx_caps_variable(const swx_caps *c, size_t i)
{
    return c && i < c->nvars ? c->vars[i] : NULL;
}

const char *swx_layer_name(const swx_layer *l)
{
    return l ? l->name : NULL;
}

const char *swx_layer_title(const swx_layer *l)
{
    return l ? l->title : NULL;
}

const char *swx_layer_abstract(const swx_layer *l)
{
    return l ? l->abstract : NULL;
}

const char *swx_layer_product(const swx_layer *l)
{
    return l ? l->product : NULL;
}

const char *swx_layer_variable(const swx_layer *l)
{
    return l ? l->variable : NULL;
}

const char *swx_layer_unit(const swx_layer *l)
{
    return l ? l->unit : NULL;
}

const char *swx_layer_run_date(const swx_layer *l)
{
    return l ? l->run_date : NULL;
}

const char *swx_layer_run_hour(const swx_layer *l)
{
    return l ? l->run_hour : NULL;
}

int swx_layer_run_time(int64_t *t, const swx_layer *l)
{
    if (!l || !t)
        return swx_error_set(SWX_EINVAL, "swx_layer_run_time: layer and t are required");
    if (!l->has_run)
        return swx_error_set(SWX_ENOTFOUND,
                             "layer '%s' names no run: its name has no date and it has no "
                             "reference_time dimension",
                             l->name);
    *t = l->run_time;
    return 0;
}

size_t swx_layer_crs_count(const swx_layer *l)
{
    return l ? l->ncrs : 0;
}

const char *swx_layer_crs(const swx_layer *l, size_t i)
{
    return l && i < l->ncrs ? l->crs[i] : NULL;
}

int swx_layer_has_crs(const swx_layer *l, const char *crs)
{
    for (size_t i = 0; l && crs && i < l->ncrs; i++)
        if (strcasecmp(l->crs[i], crs) == 0)
            return 1;
    return 0;
}

int swx_layer_geo_bbox(double *west, double *south, double *east, double *north, const swx_layer *l)
{
    if (!l)
        return swx_error_set(SWX_EINVAL, "swx_layer_geo_bbox: layer is NULL");
    if (!l->has_geo)
        return swx_error_set(SWX_ENOTFOUND, "layer '%s' has no geographic bounding box", l->name);
    if (west)
        *west = l->geo[0];
    if (south)
        *south = l->geo[1];
    if (east)
        *east = l->geo[2];
    if (north)
        *north = l->geo[3];
    return 0;
}

size_t swx_layer_bbox_count(const swx_layer *l)
{
    return l ? l->nbbox : 0;
}

const swx_bbox *swx_layer_bbox(const swx_layer *l, size_t i)
{
    return l && i < l->nbbox ? &l->bbox[i] : NULL;
}

const swx_timedim *swx_layer_time(const swx_layer *l)
{
    return l ? l->time : NULL;
}

const swx_timedim *swx_layer_reference_time(const swx_layer *l)
{
    return l ? l->ref_time : NULL;
}

size_t swx_layer_style_count(const swx_layer *l)
{
    return l ? l->nstyles : 0;
}

const swx_style *swx_layer_style(const swx_layer *l, size_t i)
{
    return l && i < l->nstyles ? &l->styles[i] : NULL;
}
