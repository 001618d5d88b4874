/* test_storm_fetch.c: storms fetched from seawx-sim (storm_fetch.c): paging,
 * the archive read as it arrives, pages that break off. */
#include "cu_support.h"

#include "seawx/error.h"
#include "seawx/http.h"
#include "seawx/storm.h"
#include "storm_priv.h"
#include "http_core.h"

#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Paging against seawx-sim: pages of 7 until a short one, every storm once. */
static int count_ids(void *ud, const swx_storm *s)
{
    size_t *n = ud;
    (*n)++;
    return s->atcf_id ? 0 : -1;
}

static void test_fetch_paging(void)
{
    cu_sim sim;
    CU_ASSERT_EQUAL_FATAL(cu_sim_start(&sim, NULL), 0);
    swx_client_opts o = {0};
    swx_client *c = NULL;
    o.base_url = sim.base_url;
    o.api_key = "sim-key";
    CU_ASSERT_EQUAL_FATAL(swx_client_new(&c, &o), 0);
    swx_storm_query q;
    swx_storm_query_init(&q);
    q.status = "all";
    q.region = "NA";
    q.period = "1995-01-01T00:00:00Z/1996-12-31T23:59:59Z";
    size_t all = 0, paged = 0;
    int pages = 0;
    CU_ASSERT_EQUAL(swx_storm_fetch(&pages, c, &q, count_ids, &all), 0);
    CU_ASSERT_EQUAL(pages, 1);
    CU_ASSERT_TRUE(all > 20);
    q.limit = 7;
    CU_ASSERT_EQUAL(swx_storm_fetch(&pages, c, &q, count_ids, &paged), 0);
    CU_ASSERT_EQUAL(paged, all);
    CU_ASSERT_EQUAL(pages, (int)(all / 7 + 1));
    /* More than 100 storms: several pages of 100. */
    swx_storm_query_init(&q);
    q.status = "inactive";
    q.region = "WP";
    size_t wp = 0;
    CU_ASSERT_EQUAL(swx_storm_fetch(&pages, c, &q, count_ids, &wp), 0);
    CU_ASSERT_TRUE(wp > 1000);
    CU_ASSERT_EQUAL(pages, (int)(wp / 100 + 1));
    /* max_storms stops early. */
    q.max_storms = 150;
    wp = 0;
    CU_ASSERT_EQUAL(swx_storm_fetch(&pages, c, &q, count_ids, &wp), 0);
    CU_ASSERT_EQUAL(wp, 150);
    CU_ASSERT_EQUAL(pages, 2);
    swx_client_free(c);
    cu_sim_stop(&sim);
}

/* The largest top-level element of a JSON array (bytes from '{' to '}'). */
static size_t largest_element(const char *j, size_t n)
{
    size_t best = 0, start = 0;
    int depth = 0, in_str = 0;
    for (size_t i = 0; i < n; i++) {
        char ch = j[i];
        if (in_str) {
            if (ch == '\\')
                i++;
            else if (ch == '"')
                in_str = 0;
        } else if (ch == '"') {
            in_str = 1;
        } else if (ch == '{' || ch == '[') {
            if (depth++ == 1)
                start = i;
        } else if (ch == '}' || ch == ']') {
            if (--depth == 1 && i + 1 - start > best)
                best = i + 1 - start;
        }
    }
    return best;
}

struct ids {
    char **v;
    size_t n, cap;
};

static int keep_id(void *ud, const swx_storm *s)
{
    struct ids *l = ud;
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 256;
        char **v = realloc(l->v, cap * sizeof *v);
        if (!v)
            return SWX_ENOMEM;
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = strdup(s->atcf_id ? s->atcf_id : "(null)");
    return 0;
}

static void ids_free(struct ids *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
}

static swx_client *sim_client(const cu_sim *sim, int retries)
{
    swx_client_opts o = {0};
    swx_client *c = NULL;
    o.base_url = sim->base_url;
    o.api_key = "sim-key";
    o.max_retries = retries;
    o.retry_base_ms = 10;
    o.retry_max_ms = 50;
    CU_ASSERT_EQUAL_FATAL(swx_client_new(&c, &o), 0);
    return c;
}

/* The whole archive in pages of 100, read as it arrives: the storm JSON held
 * at once is bounded by the largest storm (plus one network chunk), not by a
 * page, which the same reader fed whole pages does hold. */
static void test_fetch_held_by_storm(void)
{
    cu_sim sim;
    CU_ASSERT_EQUAL_FATAL(cu_sim_start(&sim, NULL), 0);
    swx_client *c = sim_client(&sim, 0);
    swx_storm_query q;
    swx_storm_query_init(&q);
    q.status = "all";
    struct ids got = {0};
    int pages = 0;
    size_t held = 0;
    CU_ASSERT_EQUAL(swx_storm_fetch_held(&pages, &held, c, &q, keep_id, &got), 0);
    CU_ASSERT_TRUE(got.n > 1000);
    CU_ASSERT_EQUAL(pages, (int)(got.n / 100 + 1));

    /* The same pages fetched whole: their largest storm and largest page. */
    size_t largest = 0, largest_page = 0, whole_held = 0, n = 0;
    for (long off = 0;; off += 100) {
        swx_request req;
        swx_query *qs = NULL;
        swx_response *resp = NULL;
        swx_storm_reader *r = NULL;
        CU_ASSERT_EQUAL_FATAL(swx_storm_request(&req, &qs, &q, 0, off), 0);
        CU_ASSERT_EQUAL_FATAL(swx_http_get(&resp, c, &req), 0);
        size_t e = largest_element(resp->body, resp->len);
        largest = e > largest ? e : largest;
        largest_page = resp->len > largest_page ? resp->len : largest_page;
        CU_ASSERT_EQUAL_FATAL(swx_storm_reader_new(&r, NULL, NULL), 0);
        CU_ASSERT_EQUAL(swx_storm_reader_feed(r, resp->body, resp->len), 0);
        CU_ASSERT_EQUAL(swx_storm_reader_finish(r), 0);
        size_t k = swx_storm_reader_count(r);
        n += k;
        if (swx_storm_reader_held_max(r) > whole_held)
            whole_held = swx_storm_reader_held_max(r);
        swx_storm_reader_free(r);
        swx_response_free(resp);
        swx_query_free(qs);
        if (k < 100)
            break;
    }
    CU_ASSERT_EQUAL(n, got.n);
    CU_ASSERT_TRUE(largest > 0);
    CU_ASSERT_TRUE(held <= largest + 64 * 1024);
    CU_ASSERT_TRUE(whole_held == largest_page);
    CU_ASSERT_TRUE(held < largest_page / 4);
    if (!(held <= largest + 64 * 1024) || !(held < largest_page / 4))
        fprintf(stderr, "\n  held %zu, largest storm %zu, largest page %zu\n", held, largest,
                largest_page);
    ids_free(&got);
    swx_client_free(c);
    cu_sim_stop(&sim);
}

/* Pages that break off half way are asked for again; the storms the broken
 * answer already gave are not given twice, none is lost. */
static void test_fetch_broken_pages(void)
{
    cu_sim sim, faulty;
    const char *const args[] = {"--ptrunc",     "0.5", "--faults-on", "other",
                                "--fault-seed", "7",   NULL};
    CU_ASSERT_EQUAL_FATAL(cu_sim_start(&sim, NULL), 0);
    CU_ASSERT_EQUAL_FATAL(cu_sim_start(&faulty, args), 0);
    swx_client *c = sim_client(&sim, 0), *cf = sim_client(&faulty, 30);
    swx_storm_query q;
    swx_storm_query_init(&q);
    q.status = "inactive";
    q.region = "WP";
    q.limit = 50;
    struct ids a = {0}, b = {0};
    int pa = 0, pb = 0;
    CU_ASSERT_EQUAL(swx_storm_fetch(&pa, c, &q, keep_id, &a), 0);
    int rc = swx_storm_fetch(&pb, cf, &q, keep_id, &b);
    CU_ASSERT_EQUAL(rc, 0);
    if (rc)
        fprintf(stderr, "\n  %s\n", swx_error_last());
    CU_ASSERT_TRUE(a.n > 1000);
    CU_ASSERT_EQUAL(a.n, b.n);
    CU_ASSERT_EQUAL(pa, pb);
    int same = a.n == b.n;
    for (size_t i = 0; same && i < a.n; i++)
        same = strcmp(a.v[i], b.v[i]) == 0;
    CU_ASSERT_TRUE(same);
    ids_free(&a);
    ids_free(&b);
    swx_client_free(c);
    swx_client_free(cf);
    cu_sim_stop(&sim);
    cu_sim_stop(&faulty);
}

int main(void)
{
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("storm_fetch", NULL, NULL);
    CU_add_test(s, "paging against seawx-sim", test_fetch_paging);
    CU_add_test(s, "the archive read as it arrives: held JSON bounded by a storm",
                test_fetch_held_by_storm);
    CU_add_test(s, "broken pages asked again, no storm twice", test_fetch_broken_pages);
    return cu_run();
}
