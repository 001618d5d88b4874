/* test_xml.c: lib/util/xml.c, the one hardened XML reader and its node helpers. */
#include "cu_support.h"

#include "seawx/error.h"
#include "xml.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int read_str(xmlDoc **doc, const char *s)
{
    return swx_xml_read(doc, s, strlen(s), "test document");
}

static void test_read_and_helpers(void)
{
    const char *s = "<?xml version=\"1.0\"?>\n"
                    "<r:Root xmlns:r=\"urn:x\" xmlns:a=\"urn:a\">\n"
                    "  <Other/>\n"
                    "  <r:Item a:code=\"A&amp;B\" empty=\"\">one &lt; two</r:Item>\n"
                    "  <Item>second</Item>\n"
                    "</r:Root>\n";
    xmlDoc *doc = NULL;
    CU_ASSERT_EQUAL_FATAL(read_str(&doc, s), 0);
    const xmlNode *root = xmlDocGetRootElement(doc);
    CU_ASSERT(swx_xml_is(root, "Root"));
    CU_ASSERT(!swx_xml_is(root, "Item"));
    CU_ASSERT(!swx_xml_is(NULL, "Root"));
    const xmlNode *item = swx_xml_child(root, "Item");
    CU_ASSERT_FATAL(item != NULL);
    CU_ASSERT_EQUAL(swx_xml_line(item), 4);
    CU_ASSERT_STRING_EQUAL(swx_xml_attr(item, "code"), "A&B");
    CU_ASSERT_STRING_EQUAL(swx_xml_attr(item, "empty"), "");
    CU_ASSERT_PTR_NULL(swx_xml_attr(item, "missing"));
    xmlChar *t = xmlNodeGetContent(item);
    CU_ASSERT_STRING_EQUAL((const char *)t, "one < two");
    xmlFree(t);
    CU_ASSERT_PTR_NULL(swx_xml_child(root, "Nothing"));
    CU_ASSERT_PTR_NULL(swx_xml_child(NULL, "Item"));
    CU_ASSERT_EQUAL(swx_xml_line(NULL), 0);
    xmlFreeDoc(doc);
}

/* Every kind of entity declaration refuses the document before anything is
 * expanded or read: an entity bomb, a file, a network address. */
static void test_entities_refused(void)
{
    const char *docs[] = {
        "<!DOCTYPE r [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;\">\n"
        "<!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;\">]><r>&c;</r>",
        "<!DOCTYPE r [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><r>&x;</r>",
        "<!DOCTYPE r [<!ENTITY % p SYSTEM \"http://127.0.0.1:9/evil.dtd\"> %p;]><r/>",
        "<!DOCTYPE r [<!NOTATION n SYSTEM \"x\"><!ENTITY u SYSTEM \"y\" NDATA n>]><r/>",
    };
    for (size_t i = 0; i < sizeof docs / sizeof *docs; i++) {
        xmlDoc *doc = (xmlDoc *)1;
        CU_ASSERT_EQUAL(read_str(&doc, docs[i]), SWX_EPARSE);
        CU_ASSERT_PTR_NULL(doc);
        CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "malformed test document: entity "
                                                        "declarations are not allowed (line 1"));
    }
}

/* An external DTD is neither fetched nor applied: no default attributes, and
 * the document still reads. */
static void test_external_dtd_ignored(void)
{
    const char *s = "<!DOCTYPE r SYSTEM \"http://127.0.0.1:9/r.dtd\"><r a=\"1\"/>";
    xmlDoc *doc = NULL;
    CU_ASSERT_EQUAL_FATAL(read_str(&doc, s), 0);
    const xmlNode *root = xmlDocGetRootElement(doc);
    CU_ASSERT_STRING_EQUAL(swx_xml_attr(root, "a"), "1");
    CU_ASSERT_PTR_NULL(root->properties->next);
    xmlFreeDoc(doc);
}

static void test_malformed(void)
{
    xmlDoc *doc = NULL;
    CU_ASSERT_EQUAL(read_str(&doc, "<a>\n<b></a>"), SWX_EPARSE);
    CU_ASSERT_PTR_NULL(doc);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "malformed test document: line 2: "));
    CU_ASSERT_EQUAL(read_str(&doc, ""), SWX_EPARSE);
    CU_ASSERT_EQUAL(read_str(&doc, "<?xml version=\"1.0\" encoding=\"nonesuch\"?><a/>"),
                    SWX_EPARSE);
    CU_ASSERT_PTR_NULL(doc);
}

static void test_limits(void)
{
    /* Deeper than libxml2's 256 levels: refused, nothing printed. */
    size_t depth = 300, n = 0;
    char *s = malloc(depth * 7 + 1);
    CU_ASSERT_FATAL(s != NULL);
    for (size_t i = 0; i < depth; i++)
        n += (size_t)sprintf(s + n, "<a>");
    for (size_t i = 0; i < depth; i++)
        n += (size_t)sprintf(s + n, "</a>");
    xmlDoc *doc = NULL;
    CU_ASSERT_EQUAL(swx_xml_read(&doc, s, n, "deep"), SWX_EPARSE);
    CU_ASSERT_PTR_NULL(doc);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "malformed deep: line 1: "));
    free(s);
    /* Larger than the reader takes: refused before a byte is read. */
    CU_ASSERT_EQUAL(swx_xml_read(&doc, "<a/>", (size_t)SWX_XML_MAX + 1, "huge"), SWX_ETOOBIG);
    CU_ASSERT_STRING_EQUAL(swx_error_last(), "huge larger than 256 MiB");
}

int main(void)
{
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("xml", NULL, NULL);
    CU_add_test(s, "reads a document; node helpers", test_read_and_helpers);
    CU_add_test(s, "entity declarations refused", test_entities_refused);
    CU_add_test(s, "an external DTD is not fetched", test_external_dtd_ignored);
    CU_add_test(s, "malformed documents: one line", test_malformed);
    CU_add_test(s, "depth and size limits", test_limits);
    return cu_run();
}
