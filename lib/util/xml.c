/* xml.c: the hardened XML reader and node helpers (see xml.h). */
#include "xml.h"

#include "seawx/error.h"

#include <libxml/parser.h>
#include <libxml/xmlerror.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* What the parse hooks learn, reached through ctxt->_private. */
typedef struct parse_guard {
    long entity_line; /* > 0 once an entity declaration was seen */
    char entity[48];
    int err_line; /* the first fatal error libxml2 reported, else the first error */
    int err_fatal;
    char err[256];
} parse_guard;

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static void refuse_entity(void *ctx, const xmlChar *name)
{
    xmlParserCtxtPtr ctxt = ctx;
    parse_guard *g = ctxt->_private;
    if (!g->entity_line) {
        g->entity_line = ctxt->input ? ctxt->input->line : 1;
        snprintf(g->entity, sizeof g->entity, "%s", name ? (const char *)name : "");
    }
    xmlStopParser(ctxt);
}

static void on_entity_decl(void *ctx, const xmlChar *name, int type, const xmlChar *public_id,
                           const xmlChar *system_id, xmlChar *content)
{
    (void)type;
    (void)public_id;
    (void)system_id;
    (void)content;
    refuse_entity(ctx, name);
}

static void on_unparsed_entity_decl(void *ctx, const xmlChar *name, const xmlChar *public_id,
                                    const xmlChar *system_id, const xmlChar *notation)
{
    (void)public_id;
    (void)system_id;
    (void)notation;
    refuse_entity(ctx, name);
}

static void on_external_subset(void *ctx, const xmlChar *name, const xmlChar *external_id,
                               const xmlChar *system_id)
{
    (void)ctx; /* never loaded */
    (void)name;
    (void)external_id;
    (void)system_id;
}

static xmlParserInputPtr on_resolve_entity(void *ctx, const xmlChar *public_id,
                                           const xmlChar *system_id)
{
    (void)ctx; /* nothing outside the document is ever read */
    (void)public_id;
    (void)system_id;
    return NULL;
}

/* Keeps the first error for the error line. */
static void on_error(void *ctx, xmlErrorPtr e)
{
    xmlParserCtxtPtr ctxt = ctx;
    parse_guard *g = ctxt ? ctxt->_private : NULL;
    if (!g || !e || e->level < XML_ERR_ERROR || g->err_fatal ||
        (g->err[0] && e->level != XML_ERR_FATAL))
        return;
    g->err_fatal = e->level == XML_ERR_FATAL;
    g->err_line = e->line;
    snprintf(g->err, sizeof g->err, "%s", e->message ? e->message : "not well-formed XML");
    size_t n = strlen(g->err);
    while (n && is_blank(g->err[n - 1]))
        g->err[--n] = '\0';
}

/* libxml2 reports some errors (encodings) through its thread's generic
 * handler, which prints: it is silenced for the parse. */
static void quiet(void *ctx, const char *msg, ...)
{
    (void)ctx;
    (void)msg;
}

static pthread_once_t xml_once = PTHREAD_ONCE_INIT;

static void xml_init(void)
{
    xmlInitParser();
}

int swx_xml_read(xmlDoc **out, const char *xml, size_t len, const char *what)
{
    parse_guard g;
    xmlParserCtxtPtr ctxt = NULL;
    xmlDocPtr doc = NULL;
    int rc = 0;
    memset(&g, 0, sizeof g);
    *out = NULL;
    if (len > SWX_XML_MAX)
        return swx_error_set(SWX_ETOOBIG, "%s larger than %u MiB", what, SWX_XML_MAX >> 20);
    pthread_once(&xml_once, xml_init);
    xmlGenericErrorFunc old_err = xmlGenericError;
    void *old_ctx = xmlGenericErrorContext;
    xmlSetGenericErrorFunc(NULL, quiet);
    if (!(ctxt = xmlNewParserCtxt())) {
        rc = swx_error_set(SWX_ENOMEM, "out of memory reading %s", what);
        goto done;
    }
    ctxt->_private = &g;
    ctxt->sax->entityDecl = on_entity_decl;
    ctxt->sax->unparsedEntityDecl = on_unparsed_entity_decl;
    ctxt->sax->externalSubset = on_external_subset;
    ctxt->sax->resolveEntity = on_resolve_entity;
    ctxt->sax->serror = on_error;
    ctxt->sax->warning = NULL;
    /* No NOENT, DTDLOAD, DTDATTR or HUGE: nothing is expanded or fetched and
     * libxml2's own size limits hold. */
    int opts = XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_NOCDATA |
               XML_PARSE_BIG_LINES | XML_PARSE_COMPACT;
    doc = xmlCtxtReadMemory(ctxt, xml, (int)len, NULL, NULL, opts);
    if (g.entity_line || (doc && doc->intSubset && doc->intSubset->entities)) {
        rc = swx_error_set(SWX_EPARSE,
                           "malformed %s: entity declarations are not allowed "
                           "(line %ld, entity '%s')",
                           what, g.entity_line, g.entity);
    } else if (!doc || !ctxt->wellFormed) {
        if (g.err[0])
            rc = swx_error_set(SWX_EPARSE, "malformed %s: line %d: %s", what, g.err_line, g.err);
        else if (!doc && ctxt->errNo == XML_ERR_NO_MEMORY)
            rc = swx_error_set(SWX_ENOMEM, "out of memory reading %s", what);
        else
            rc = swx_error_set(SWX_EPARSE, "malformed %s: line %d: not well-formed XML", what,
                               ctxt->input ? ctxt->input->line : 0);
    }
done:
    if (rc)
        xmlFreeDoc(doc);
    else
        *out = doc;
    if (ctxt) {
        ctxt->_private = NULL;
        xmlFreeParserCtxt(ctxt);
    }
    xmlSetGenericErrorFunc(old_ctx, old_err);
    return rc;
}

int swx_xml_is(const xmlNode *n, const char *local)
{
    return n && n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, local) == 0;
}

const xmlNode *swx_xml_child(const xmlNode *n, const char *local)
{
    for (const xmlNode *c = n ? n->children : NULL; c; c = c->next)
        if (swx_xml_is(c, local))
            return c;
    return NULL;
}

const char *swx_xml_attr(const xmlNode *n, const char *local)
{
    for (const xmlAttr *a = n ? n->properties : NULL; a; a = a->next) {
        if (strcmp((const char *)a->name, local) != 0)
            continue;
        const xmlNode *t = a->children;
        if (t && t->type == XML_TEXT_NODE && !t->next && t->content)
            return (const char *)t->content;
        return ""; /* empty; never several nodes, as entities are refused */
    }
    return NULL;
}

long swx_xml_line(const xmlNode *n)
{
    return n ? xmlGetLineNo(n) : 0;
}

void swx_xml_put(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&':
            fputs("&amp;", f);
            break;
        case '<':
            fputs("&lt;", f);
            break;
        case '>':
            fputs("&gt;", f);
            break;
        case '"':
            fputs("&quot;", f);
            break;
        default:
            fputc(*s, f);
        }
    }
}
