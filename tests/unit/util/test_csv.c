/* test_csv.c: lib/util/csv.c, CSV fields as RFC 4180 writes them. */
#include "cu_support.h"

#include "csv.h"

#include <stdlib.h>
#include <string.h>

/* The field s as swx_csv_field writes it (a static buffer). */
static const char *field(const char *s)
{
    static char out[256];
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    swx_csv_field(f, s);
    fclose(f);
    snprintf(out, sizeof out, "%s", buf);
    free(buf);
    return out;
}

static void test_csv_field(void)
{
    /* Plain text as it is: names, ids, times, reasons without commas. */
    CU_ASSERT_STRING_EQUAL(field("HELGA"), "HELGA");
    CU_ASSERT_STRING_EQUAL(field("AL092024"), "AL092024");
    CU_ASSERT_STRING_EQUAL(field("inside the 34 kt winds of HELGA"),
                           "inside the 34 kt winds of HELGA");
    CU_ASSERT_STRING_EQUAL(field("2024-10-01T06:00:00Z"), "2024-10-01T06:00:00Z");
    CU_ASSERT_STRING_EQUAL(field("x"), "x");
    /* Empty and NULL: an empty field. */
    CU_ASSERT_STRING_EQUAL(field(""), "");
    CU_ASSERT_STRING_EQUAL(field(NULL), "");
    /* Quoted when a reader would split or trim it, quotes doubled. */
    CU_ASSERT_STRING_EQUAL(field("wind 25 kn, near 30 kn"), "\"wind 25 kn, near 30 kn\"");
    CU_ASSERT_STRING_EQUAL(field("the \"Bay\""), "\"the \"\"Bay\"\"\"");
    CU_ASSERT_STRING_EQUAL(field("\""), "\"\"\"\"");
    CU_ASSERT_STRING_EQUAL(field("two\nlines"), "\"two\nlines\"");
    CU_ASSERT_STRING_EQUAL(field("cr\r"), "\"cr\r\"");
    CU_ASSERT_STRING_EQUAL(field(" lead"), "\" lead\"");
    CU_ASSERT_STRING_EQUAL(field("trail "), "\"trail \"");
    CU_ASSERT_STRING_EQUAL(field(" "), "\" \"");
    CU_ASSERT_STRING_EQUAL(field("in side"), "in side");
}

int main(void)
{
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("csv", NULL, NULL);
    CU_add_test(s, "a field quoted only when it must be", test_csv_field);
    return cu_run();
}
