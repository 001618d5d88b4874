/*
 * xml.h: the one way the core reads XML from outside, and the node helpers its
 * readers share (internal).
 *
 * swx_xml_read() parses with libxml2 hardened for untrusted input: nothing is
 * fetched (XML_PARSE_NONET, no external subset, no entity resolver), no DTD is
 * loaded or applied and no entity is expanded (no NOENT, DTDLOAD, DTDATTR), any
 * entity declaration refuses the document, libxml2's own limits hold (no
 * XML_PARSE_HUGE: 256 levels of nesting, 10 MB text nodes), the input is at most
 * SWX_XML_MAX bytes, and nothing is printed: errors become one line.
 */
#ifndef SWX_XML_H
#define SWX_XML_H

#include <libxml/tree.h>
#include <stddef.h>
#include <stdio.h>

#define SWX_XML_MAX (256u << 20)

/* Parses len bytes of xml into *out (free with xmlFreeDoc). `what` names the
 * document in messages: "malformed WHAT: line N: libxml2's reason",
 * "malformed WHAT: entity declarations are not allowed (line N, entity 'E')"
 * (SWX_EPARSE), "WHAT larger than 256 MiB" (SWX_ETOOBIG), "out of memory
 * reading WHAT" (SWX_ENOMEM). *out is NULL on failure. */
int swx_xml_read(xmlDoc **out, const char *xml, size_t len, const char *what);

/* 1 when n is an element with this local name (any namespace). */
int swx_xml_is(const xmlNode *n, const char *local);
/* The first child element of n with this local name, or NULL (also for n NULL). */
const xmlNode *swx_xml_child(const xmlNode *n, const char *local);
/* An attribute's value by local name (any namespace), pointing into the tree;
 * "" when empty, NULL when absent. */
const char *swx_xml_attr(const xmlNode *n, const char *local);
/* The line of n in the document, 0 for NULL. */
long swx_xml_line(const xmlNode *n);

/* Writes s to f as XML text or a double-quoted attribute value: & < > and "
 * escaped, every other byte as it is. */
void swx_xml_put(FILE *f, const char *s);

#endif
