/* opts.c: option parsing and the --help text generated from option tables. */
#include "cli.h"

#include "seawx/error.h"
#include "seawx/number.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const cli_opt cli_service_opts[] = {
    {"base-url", 0, "URL", "service address (default: $SEAWX_BASE_URL)", 0, NULL},
    {"key-file", 0, "FILE",
     "read the API key from the first line of FILE (default: $SEAWX_API_KEY, "
     "then $SEAWX_API_KEY_FILE); the key is never taken on the command line",
     0, NULL},
    {"wms-auth", 0, "MODE",
     "how the key reaches the WMS endpoint: header, query or basic (default: "
     "$SEAWX_WMS_AUTH or header)",
     0, NULL},
    {"timeout", 0, "SECONDS", "give up on one request after SECONDS", 0, "120"},
    {"retries", 0, "N", "retries of a failed request, 0 for none", 0, "5"},
    {"ca-bundle", 0, "FILE",
     "trust the certificates in FILE (PEM) instead of the system's (default: "
     "$SEAWX_CA_BUNDLE)",
     0, NULL},
    {"insecure", 0, NULL, "do not verify TLS certificates (unsafe)", 0, NULL},
    {0},
};

static void add_table(cli_args *a, const cli_opt *t)
{
    for (; t->name; t++) {
        /* A command with more options than the table holds is a mistake of
         * ours, caught by any run of that command (its --help in the
         * tests): stop loudly rather than drop the options past the end. */
        if (a->nopts == CLI_MAX_OPTS) {
            fprintf(stderr, "seawx: internal error: more than %d options; raise CLI_MAX_OPTS\n",
                    CLI_MAX_OPTS);
            abort();
        }
        a->flat[a->nopts++] = t;
    }
}

void cli_opt_help(char *out, size_t n, const cli_opt *t)
{
    int len = t->def ? snprintf(out, n, "%s (default %s)", t->help, t->def)
                     : snprintf(out, n, "%s", t->help);
    /* A help longer than the buffer is a mistake of ours, caught by any
     * --help of that command (the tests run them all): stop loudly rather
     * than print it cut, as add_table does for the options. */
    if (len < 0 || (size_t)len >= n) {
        fprintf(stderr, "seawx: internal error: the help of --%s is longer than %zu bytes\n",
                t->name, n - 1);
        abort();
    }
}

static void print_opts(const cli_opt *t)
{
    for (; t->name; t++) {
        char head[64];
        if (t->short_name)
            snprintf(head, sizeof head, "-%c, --%s%s%s", t->short_name, t->name, t->arg ? " " : "",
                     t->arg ? t->arg : "");
        else
            snprintf(head, sizeof head, "    --%s%s%s", t->name, t->arg ? " " : "",
                     t->arg ? t->arg : "");
        /* Wrap the help at about 78 columns, aligned after the option. */
        char help[1024];
        cli_opt_help(help, sizeof help, t);
        const char *h = help;
        /* The help starts at column 28, one blank at least after the option
         * (an option of 26 characters fills the column: the help goes below). */
        int col = printf("  %-26s", head);
        if (col >= 28) {
            printf("\n%28s", "");
        }
        col = 28;
        int first = 1;
        while (*h) {
            while (*h == ' ')
                h++;
            const char *sp = strchr(h, ' ');
            int wl = sp ? (int)(sp - h) : (int)strlen(h);
            if (!wl)
                break;
            if (!first && col + 1 + wl > 79) {
                printf("\n%28s", "");
                col = 28;
            } else if (!first) {
                putchar(' ');
                col++;
            }
            printf("%.*s", wl, h);
            col += wl;
            h += wl;
            first = 0;
        }
        if (t->repeat)
            printf(" (repeatable)");
        putchar('\n');
    }
}

static void print_help(const cli_cmd *cmd)
{
    printf("Usage: %s\n\n%s\n\nOptions:\n", cmd->usage, cmd->description);
    print_opts(cmd->opts);
    printf("  -h, --help                show this help\n\nService options:\n");
    print_opts(cli_service_opts);
    printf("\nExit codes: 0 ok, 1 some items failed, 2 usage, 3 configuration, 4 key "
           "rejected,\n5 not found, 6 network or service unavailable, 7 unusable answer, "
           "8 file error,\n9 shards to run again (merge), 10-13 a storm on the route (storms "
           "--route),\n"
           "130 interrupted.\n");
}

int cli_parse(cli_args *a, const cli_cmd *cmd, int argc, char **argv)
{
    memset(a, 0, sizeof *a);
    add_table(a, cmd->opts);
    add_table(a, cli_service_opts);
    const cli_opt *const *flat = a->flat;
    int only_positional = 0;
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        if (only_positional || s[0] != '-' || s[1] == '\0') {
            if (a->npositional >= CLI_MAX_VALUES) {
                cli_error("too many arguments");
                return -1;
            }
            a->positional[a->npositional++] = s;
            continue;
        }
        if (strcmp(s, "--") == 0) {
            only_positional = 1;
            continue;
        }
        if (strcmp(s, "-h") == 0 || strcmp(s, "--help") == 0) {
            print_help(cmd);
            return 1;
        }
        const char *inline_val = NULL;
        size_t k;
        size_t namelen;
        if (s[1] == '-') {
            const char *eq = strchr(s + 2, '=');
            namelen = eq ? (size_t)(eq - (s + 2)) : strlen(s + 2);
            inline_val = eq ? eq + 1 : NULL;
            for (k = 0; k < a->nopts; k++)
                if (strlen(flat[k]->name) == namelen && strncmp(flat[k]->name, s + 2, namelen) == 0)
                    break;
        } else {
            for (k = 0; k < a->nopts; k++)
                if (flat[k]->short_name && flat[k]->short_name == s[1])
                    break;
            if (s[2])
                inline_val = s + 2;
        }
        if (k == a->nopts) {
            cli_error("unknown option '%s' (see 'seawx %s --help')", s, cmd->name);
            return -1;
        }
        const cli_opt *o = flat[k];
        const char *val = NULL;
        if (o->arg) {
            if (inline_val)
                val = inline_val;
            else if (i + 1 < argc)
                val = argv[++i];
            else {
                cli_error("option --%s needs a value (%s)", o->name, o->arg);
                return -1;
            }
        } else if (inline_val) {
            cli_error("option --%s takes no value", o->name);
            return -1;
        }
        if (a->set[k] && !o->repeat && o->arg) {
            cli_error("option --%s given twice", o->name);
            return -1;
        }
        a->set[k] = 1;
        if (val) {
            if (a->nvalues[k] >= CLI_MAX_VALUES) {
                cli_error("option --%s given too many times", o->name);
                return -1;
            }
            a->value[k][a->nvalues[k]++] = val;
        }
    }
    return 0;
}

static int find(const cli_args *a, const char *name)
{
    for (size_t k = 0; k < a->nopts; k++)
        if (strcmp(a->flat[k]->name, name) == 0)
            return (int)k;
    return -1;
}

int cli_has(const cli_args *a, const char *name)
{
    int k = find(a, name);
    return k >= 0 && a->set[k];
}

const char *cli_get(const cli_args *a, const char *name)
{
    int k = find(a, name);
    return k >= 0 && a->nvalues[k] ? a->value[k][a->nvalues[k] - 1] : NULL;
}

size_t cli_count(const cli_args *a, const char *name)
{
    int k = find(a, name);
    return k >= 0 ? a->nvalues[k] : 0;
}

const char *cli_get_at(const cli_args *a, const char *name, size_t i)
{
    int k = find(a, name);
    return k >= 0 && i < a->nvalues[k] ? a->value[k][i] : NULL;
}

const char *cli_value(const cli_args *a, const char *name)
{
    int k = find(a, name);
    const char *v = cli_get(a, name);
    return v ? v : k >= 0 ? a->flat[k]->def : NULL;
}

int cli_get_int(long *out, const cli_args *a, const char *name, long min, long max)
{
    const char *v = cli_value(a, name);
    if (!v)
        return 0;
    char *end;
    errno = 0;
    long n = strtol(v, &end, 10);
    if (errno || end == v || *end || n < min || n > max) {
        cli_error("--%s must be a whole number from %ld to %ld, not '%s'", name, min, max, v);
        return -1;
    }
    *out = n;
    return 0;
}

int cli_get_double(double *out, const cli_args *a, const char *name, double min, double max)
{
    const char *v = cli_value(a, name);
    if (!v)
        return 0;
    double d = 0;
    if (swx_number_parse(&d, v) || !(d >= min && d <= max)) {
        cli_error("--%s must be a number from %g to %g, not '%s'", name, min, max, v);
        return -1;
    }
    *out = d;
    return 0;
}

int cli_decimal_unit(const char *name, const char *v)
{
    const char *end;
    double d;
    if (!v || !(*v >= '0' && *v <= '9') || swx_number_scan(&d, v, &end) != 0)
        return 0; /* not a number at all: the parser's own line says so */
    while (*end == ' ')
        end++;
    for (const char *u = end; *u; u++)
        if (!((*u >= 'a' && *u <= 'z') || (*u >= 'A' && *u <= 'Z') || *u == '/')) {
            cli_error("--%s '%.40s' is not a decimal number with its unit (25kn, 3.5m, 6h)", name,
                      v);
            return EXIT_USAGE;
        }
    return 0;
}

int cli_client(swx_client **out, const cli_args *a)
{
    swx_client_opts o = {0};
    long timeout, retries;
    *out = NULL;
    if (cli_get_int(&timeout, a, "timeout", 1, 86400) ||
        cli_get_int(&retries, a, "retries", 0, 100))
        return EXIT_USAGE;
    o.base_url = cli_get(a, "base-url");
    o.api_key_file = cli_get(a, "key-file");
    o.wms_auth = cli_get(a, "wms-auth");
    o.insecure = cli_has(a, "insecure");
    o.ca_file = cli_get(a, "ca-bundle");
    o.timeout_ms = timeout * 1000;
    o.max_retries = retries == 0 ? -1 : (int)retries;
    o.cancel = &cli_stop_hard; /* Ctrl-C stops every request (cli_signals_catch) */
    swx_client_opts_from_env(&o);
    int rc = swx_client_new(out, &o);
    return rc ? cli_fail(rc) : 0;
}

int cli_chart_size(int *w, int *h, const cli_args *a, int defw, int defh)
{
    const char *v = cli_get(a, "chart-size");
    *w = defw;
    *h = defh;
    if (!v)
        return 0;
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (end != v && (*end == 'x' || *end == 'X')) {
        const char *q = end + 1;
        long y = strtol(q, &end, 10);
        if (!errno && end != q && !*end && x >= 320 && x <= 8000 && y >= 320 && y <= 8000) {
            *w = (int)x;
            *h = (int)y;
            return 0;
        }
    }
    cli_error("--chart-size '%s': WIDTHxHEIGHT in pixels, each 320 to 8000 (%dx%d)", v, defw, defh);
    return EXIT_USAGE;
}
