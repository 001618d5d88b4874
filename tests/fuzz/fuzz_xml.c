/* fuzz_xml.c: util's hardened XML reader and its node helpers, on any bytes. */
#include "fuzz.h"

#include "xml.h"

#include <libxml/parser.h>

static void walk(const xmlNode *n, int depth)
{
    for (; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        (void)swx_xml_line(n);
        (void)swx_xml_attr(n, "code");
        (void)swx_xml_child(n, "Layer");
        if (depth < 300)
            walk(n->children, depth + 1);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    xmlDoc *doc = NULL;
    if (swx_xml_read(&doc, (const char *)data, size, "fuzz input") == 0) {
        walk(xmlDocGetRootElement(doc), 0);
        xmlFreeDoc(doc);
    }
    return 0;
}
