/* test_http_errors.c: the service's message out of each error body shape. */
#include "cu_support.h"

#include "http_errors.h"

#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

static int read_msg(const char *fixture, const char *ctype, char *msg, char *code)
{
    size_t n;
    char *body = cu_fixture(fixture, &n);
    int found = swx_service_message(body, n, ctype, msg, 300, code, 64);
    free(body);
    return found;
}

static void test_json_errors(void)
{
    char msg[300], code[64];
    CU_ASSERT_TRUE(read_msg("errors/json_errors.json", "application/json", msg, code));
    CU_ASSERT_STRING_EQUAL(msg, "lat must be between -90 and 90");
    CU_ASSERT_STRING_EQUAL(code, "invalid_parameter");
    CU_ASSERT_TRUE(read_msg("errors/json_errors_object.json", "application/json", msg, code));
    CU_ASSERT_STRING_EQUAL(msg, "start_time: must be before end_time");
}

static void test_json_fault(void)
{
    char msg[300], code[64];
    CU_ASSERT_TRUE(read_msg("errors/json_fault.json", "application/json", msg, code));
    CU_ASSERT_STRING_EQUAL(msg, "Rate limit quota violation. Quota limit exceeded.");
    CU_ASSERT_STRING_EQUAL(code, "policies.ratelimit.QuotaViolation");
}

static void test_wms_exception(void)
{
    char msg[300], code[64];
    CU_ASSERT_TRUE(read_msg("errors/wms_exception.xml", "text/xml", msg, code));
    CU_ASSERT_STRING_EQUAL(msg, "Time 2024-10-01T07:30:00Z is not a valid time of layer "
                                "sof-d/20241001/00/t2m:K");
    CU_ASSERT_STRING_EQUAL(code, "InvalidDimensionValue");
    CU_ASSERT_TRUE(swx_exception_code_is_permanent(code));
    size_t n;
    char *body = cu_fixture("errors/wms_exception.xml", &n);
    CU_ASSERT_TRUE(swx_is_exception_doc(body, n));
    free(body);
}

static void test_ows_exception(void)
{
    char msg[300], code[64];
    CU_ASSERT_TRUE(read_msg("errors/ows_exception.xml", "application/xml", msg, code));
    CU_ASSERT_STRING_EQUAL(msg, "Parameter bbox is required");
    CU_ASSERT_STRING_EQUAL(code, "MissingParameterValue");
}

/* Exception documents from outside go through the hardened reader. One that
 * names an external DTD is read without fetching it. One that declares
 * entities (an entity bomb, a local file) gives nothing to quote: none is
 * expanded. */
static void test_exception_dtd_and_entities(void)
{
    char msg[300], code[64];
    CU_ASSERT_TRUE(read_msg("errors/wms_exception_dtd.xml", "text/xml", msg, code));
    CU_ASSERT_STRING_EQUAL(msg, "Unknown layer t2m");
    CU_ASSERT_STRING_EQUAL(code, "LayerNotDefined");
    CU_ASSERT_FALSE(read_msg("errors/wms_exception_entities.xml", "text/xml", msg, code));
    CU_ASSERT_STRING_EQUAL(msg, "");
    CU_ASSERT_STRING_EQUAL(code, "");
}

static void test_plain_and_html(void)
{
    char msg[300], code[64];
    CU_ASSERT_TRUE(read_msg("errors/plain.txt", "text/plain; charset=utf-8", msg, code));
    CU_ASSERT_STRING_EQUAL(msg, "Upstream timed out");
    CU_ASSERT_FALSE(read_msg("errors/html_page.html", "text/html", msg, code));
    CU_ASSERT_STRING_EQUAL(msg, "");
    size_t n;
    char *body = cu_fixture("errors/html_page.html", &n);
    CU_ASSERT_FALSE(swx_is_exception_doc(body, n));
    free(body);
}

static void test_truncated_and_empty(void)
{
    char msg[300], code[64];
    CU_ASSERT_FALSE(read_msg("errors/truncated.json", "application/json", msg, code));
    CU_ASSERT_FALSE(swx_service_message("", 0, NULL, msg, sizeof msg, code, sizeof code));
    CU_ASSERT_FALSE(swx_service_message(NULL, 0, NULL, msg, sizeof msg, code, sizeof code));
}

static void test_cut_to_one_line(void)
{
    char msg[16], code[8];
    const char *body = "{\"errors\":[{\"message\":\"line one\\nline two is long\"}]}";
    CU_ASSERT_TRUE(
        swx_service_message(body, strlen(body), NULL, msg, sizeof msg, code, sizeof code));
    CU_ASSERT_PTR_NULL(strchr(msg, '\n'));
    CU_ASSERT_EQUAL(strlen(msg), sizeof msg - 1);
    CU_ASSERT_STRING_EQUAL(msg + strlen(msg) - 3, "...");
}

static void test_permanent_codes(void)
{
    CU_ASSERT_TRUE(swx_exception_code_is_permanent("LayerNotDefined"));
    CU_ASSERT_TRUE(swx_exception_code_is_permanent("layernotdefined"));
    CU_ASSERT_FALSE(swx_exception_code_is_permanent(""));
    CU_ASSERT_FALSE(swx_exception_code_is_permanent(NULL));
    CU_ASSERT_FALSE(swx_exception_code_is_permanent("NoApplicableCode"));
}

int main(void)
{
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("http_errors", NULL, NULL);
    CU_add_test(s, "JSON errors", test_json_errors);
    CU_add_test(s, "JSON fault", test_json_fault);
    CU_add_test(s, "WMS exception", test_wms_exception);
    CU_add_test(s, "OWS exception", test_ows_exception);
    CU_add_test(s, "exception with a DTD or entities", test_exception_dtd_and_entities);
    CU_add_test(s, "plain text and HTML", test_plain_and_html);
    CU_add_test(s, "truncated and empty", test_truncated_and_empty);
    CU_add_test(s, "one line, cut", test_cut_to_one_line);
    CU_add_test(s, "permanent codes", test_permanent_codes);
    return cu_run();
}
