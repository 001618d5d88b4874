/* cmd_vessels.c: `seawx vessels`, vessel records with their enhanced data,
 * every page, flattened into typed columns. */
#include "cli.h"
#include "dataout.h"

#include "seawx/error.h"
#include "seawx/vessels.h"

#include <stdio.h>

const cli_opt cmd_vessels_opts[] = {
    {"categories", 'c', "LIST",
     "comma list of EVD categories: capacity, design, dimensions, history, propulsions, "
     "registration, vessel_and_trading_type (default: all)",
     0, NULL},
    {"limit", 0, "N", "vessels per page, 1 to 1000 (default: the service's)", 0, NULL},
    {"pages", 0, "N", "stop after N pages (default: all)", 0, NULL},
    {"filter", 0, "NAME=VALUE", "a further query parameter of the Vessels API", 1, NULL},
    DATA_OUTPUT_OPTS,
    {0},
};

static int on_page(void *ud, int pages, size_t rows, long long total)
{
    (void)ud;
    if (total >= 0)
        cli_progress(0, "vessels: page %d, %zu of %lld vessels", pages, rows, total);
    else
        cli_progress(0, "vessels: page %d, %zu vessels", pages, rows);
    return data_cancel ? 1 : 0;
}

int cmd_vessels(const cli_cmd *cmd, int argc, char **argv)
{
    cli_args a;
    swx_vessels_query q = {0};
    const char *filters[CLI_MAX_VALUES + 1] = {0};
    swx_table_format fmt;
    swx_client *c = NULL;
    swx_table *t = NULL;
    int rc, exit_code;
    int pr = cli_parse(&a, cmd, argc, argv);
    if (pr)
        return pr > 0 ? EXIT_OK : EXIT_USAGE;
    if (a.npositional) {
        cli_error("unexpected argument '%s'", a.positional[0]);
        return EXIT_USAGE;
    }
    q.categories = cli_get(&a, "categories");
    q.limit = cli_get(&a, "limit");
    q.max_pages = cli_get(&a, "pages");
    for (size_t i = 0; i < cli_count(&a, "filter"); i++)
        filters[i] = cli_get_at(&a, "filter", i);
    q.filters = filters;
    if (swx_vessels_check(&q) != 0)
        return cli_fail(SWX_EINVAL);
    if (data_format(&fmt, &a))
        return EXIT_USAGE;
    if ((exit_code = data_check_dest(cli_get(&a, "output"), SWX_ATOMICFILE_STREAM)))
        return exit_code;
    if (cli_has(&a, "quiet"))
        cli_set_quiet(1);
    if ((exit_code = cli_client(&c, &a)))
        return exit_code;
    data_signals();
    rc = swx_vessels_get(&t, c, &q, on_page, NULL);
    cli_progress(0, NULL);
    if (rc)
        exit_code = cli_fail(rc);
    else
        exit_code = data_write(&a, fmt, t);
    swx_table_free(t);
    swx_client_free(c);
    return exit_code;
}
