/* test_outputs.c: lib/util/outputs.c, the files one run writes told apart. */
#include "cu_support.h"

#include "seawx/error.h"
#include "seawx/outputs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64];

static int setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/swx-outputs.XXXXXX");
    if (!mkdtemp(dir) || chdir(dir) != 0)
        return -1;
    FILE *f = fopen("a.json", "w");
    if (!f)
        return -1;
    fputs("{}", f);
    fclose(f);
    /* the folder sub/ and a link to it, a link to a.json, a hard link to it,
     * a dangling link to c.csv, a loop of links */
    if (mkdir("sub", 0755) != 0 || symlink("sub", "sublink") != 0 ||
        symlink("a.json", "link.json") != 0 || link("a.json", "hard.json") != 0 ||
        symlink("c.csv", "dangling.csv") != 0 || symlink("loop2", "loop1") != 0 ||
        symlink("loop1", "loop2") != 0)
        return -1;
    return 0;
}

static int teardown(void)
{
    const char *names[] = {"a.json", "link.json", "hard.json", "dangling.csv", "loop1",
                           "loop2",  "sublink",   "sub/x.png", "sub"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        remove(names[i]);
    return chdir("/") == 0 && rmdir(dir) == 0 ? 0 : -1;
}

/* Whether the pair clashes; on a clash the line names both options. */
static int clash(const char *a, const char *b)
{
    const char *paths[] = {a, b};
    const char *names[] = {"--json", "--csv"};
    swx_error_clear();
    int rc = swx_outputs_distinct(paths, names, 2);
    if (rc) {
        CU_ASSERT_EQUAL(rc, SWX_EINVAL);
        CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "--json and --csv name the same file"));
    }
    return rc != 0;
}

static void test_same_file(void)
{
    CU_ASSERT_TRUE(clash("a.json", "a.json"));
    CU_ASSERT_TRUE(clash("a.json", "./a.json"));
    CU_ASSERT_TRUE(clash("new.csv", "./new.csv")); /* neither exists yet */
    char abs[128];
    snprintf(abs, sizeof abs, "%s/new.csv", dir);
    CU_ASSERT_TRUE(clash("new.csv", abs));
    CU_ASSERT_TRUE(clash("a.json", "link.json"));        /* a link to it */
    CU_ASSERT_TRUE(clash("hard.json", "a.json"));        /* a hard link */
    CU_ASSERT_TRUE(clash("c.csv", "dangling.csv"));      /* the file a link would make */
    CU_ASSERT_TRUE(clash("sub/x.png", "sublink/x.png")); /* through a linked folder */
    CU_ASSERT_TRUE(clash("sub/../a.json", "a.json"));
}

static void test_distinct(void)
{
    CU_ASSERT_FALSE(clash("a.json", "a.csv"));
    CU_ASSERT_FALSE(clash("a.json", "sub/a.json"));
    CU_ASSERT_FALSE(clash("-", "-"));                 /* standard output */
    CU_ASSERT_FALSE(clash("/dev/null", "/dev/null")); /* a device, written through */
    CU_ASSERT_FALSE(clash(NULL, "a.json"));
    CU_ASSERT_FALSE(clash("loop1", "loop2")); /* no file at the end: told by name */
    CU_ASSERT_TRUE(clash("loop1", "loop1"));
    /* three outputs: the clash of the second and third names them */
    const char *paths[] = {"x.png", "a.json", "link.json"};
    const char *names[] = {"--chart", "--json", "--csv"};
    CU_ASSERT_EQUAL(swx_outputs_distinct(paths, names, 3), SWX_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "--json and --csv"));
    CU_ASSERT_EQUAL(swx_outputs_distinct(paths, names, 2), 0);
    CU_ASSERT_EQUAL(swx_outputs_distinct(NULL, NULL, 0), 0);
}

int main(void)
{
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("outputs", setup, teardown);
    CU_add_test(s, "one file under two names: links, hard links, folders", test_same_file);
    CU_add_test(s, "different files, streams, standard output", test_distinct);
    return cu_run();
}
