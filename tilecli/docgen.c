/* docgen.c: manual pages and bash completion generated from the same command
 * and option tables as --help, so that none of them can drift from the
 * options the command really takes. The build runs `seawx --man-dir DIR` and
 * `seawx --completion bash` and installs what they write. */
#include "cli.h"

#include "seawx/atomicfile.h"
#include "seawx/error.h"

#include <stdio.h>
#include <string.h>

#ifndef SEAWX_VERSION
#define SEAWX_VERSION "0.1.0"
#endif

/* The exit codes every command shares (docs/design.md, "Exit codes"). */
static const struct {
    int code;
    const char *meaning;
} exit_codes[] = {
    {0, "everything asked for was done"},
    {1, "done, but some items failed (they are listed on stderr)"},
    {2, "bad option or argument; nothing was sent"},
    {3, "configuration missing or invalid (SEAWX_BASE_URL, the key)"},
    {4, "the key was rejected (HTTP 401) or lacks access (HTTP 403)"},
    {5, "unknown bundle, layer, variable, time, file or id"},
    {6, "the service could not be reached, timed out, failed (5xx) or kept rate-limiting"},
    {7, "the service answered with something unusable"},
    {8, "a local file could not be read or written"},
    {9, "seawx merge: shards missing, incomplete or of another seed (listed on stdout)"},
    {10, "seawx storms --route: the voyage enters a storm's danger area"},
    {11, "seawx storms --route: the voyage meets 34-kt winds of a storm"},
    {12, "seawx storms --route: the voyage meets 50-kt winds of a storm"},
    {13, "seawx storms --route: the voyage meets 64-kt winds of a storm"},
    {14,
     "seawx route: no route keeps the limits, land and storms (the line says where it stopped)"},
    {70, "a fault of seawx's own, not the service's or the input's: please report it, with the "
         "command"},
    {130, "interrupted"},
};

/* Text for roff: backslashes and hyphens escaped, a line starting with '.'
 * or '\'' protected. */
static void roff(FILE *f, const char *s)
{
    int bol = 1;
    for (; *s; s++) {
        if (bol && (*s == '.' || *s == '\''))
            fputs("\\&", f);
        if (*s == '\\')
            fputs("\\e", f);
        else if (*s == '-')
            fputs("\\-", f);
        else
            fputc(*s, f);
        bol = *s == '\n';
    }
}

static void man_opts(FILE *f, const cli_opt *t)
{
    for (; t->name; t++) {
        fputs(".TP\n", f);
        if (t->short_name)
            fprintf(f, "\\fB\\-%c\\fR, ", t->short_name);
        fputs("\\fB\\-\\-", f);
        roff(f, t->name);
        fputs("\\fR", f);
        if (t->arg) {
            fputs(" \\fI", f);
            roff(f, t->arg);
            fputs("\\fR", f);
        }
        fputc('\n', f);
        char help[1024];
        cli_opt_help(help, sizeof help, t);
        roff(f, help);
        if (t->repeat)
            fputs(" (repeatable)", f);
        fputc('\n', f);
    }
}

static void man_common(FILE *f)
{
    fputs(".SH ENVIRONMENT\n"
          ".TP\n\\fBSEAWX_BASE_URL\\fR\nthe service's base address (required)\n"
          ".TP\n\\fBSEAWX_API_KEY\\fR, \\fBSEAWX_API_KEY_FILE\\fR\nthe API key, or a file whose "
          "first line is the key; the key is never taken on the command line\n"
          ".TP\n\\fBSEAWX_WMS_AUTH\\fR, \\fBSEAWX_WMS_PASSWORD\\fR\nhow the key reaches the WMS "
          "endpoint: header, query or basic\n"
          ".TP\n\\fBSEAWX_VESSELS_URL\\fR\nthe Vessels API's base address\n"
          ".TP\n\\fBSEAWX_CA_BUNDLE\\fR\ncertificates to trust instead of the system's\n"
          ".SH EXIT STATUS\n",
          f);
    for (size_t i = 0; i < sizeof exit_codes / sizeof exit_codes[0]; i++)
        fprintf(f, ".TP\n%d\n%s\n", exit_codes[i].code, exit_codes[i].meaning);
}

static void man_head(FILE *f, const char *name, const char *summary)
{
    char upper[64];
    size_t i = 0;
    for (; name[i] && i + 1 < sizeof upper; i++)
        upper[i] = (char)(name[i] >= 'a' && name[i] <= 'z' ? name[i] - 32 : name[i]);
    upper[i] = '\0';
    fputs(".TH ", f);
    roff(f, upper);
    fprintf(f, " 1 \"\" \"seawx %s\" \"seawx manual\"\n.SH NAME\n", SEAWX_VERSION);
    roff(f, name);
    fputs(" \\- ", f);
    roff(f, summary);
    fputc('\n', f);
}

static void man_main(FILE *f, const cli_cmd *cmds, size_t n)
{
    man_head(f, "seawx", "tools for the Weather, Ocean and Vessel Data Service");
    fputs(".SH SYNOPSIS\n\\fBseawx\\fR \\fIcommand\\fR [\\fIoptions\\fR]\n"
          ".SH DESCRIPTION\nLists the service's map layers, pre-seeds them as MBTiles for "
          "offline use, converts storms to GeoJSON, and reads point data, files and "
          "vessels. Each command has its own page.\n.SH COMMANDS\n",
          f);
    for (size_t i = 0; i < n; i++) {
        fputs(".TP\n\\fB", f);
        roff(f, cmds[i].name);
        fputs("\\fR\n", f);
        roff(f, cmds[i].summary);
        fputc('\n', f);
    }
    man_common(f);
    fputs(".SH SEE ALSO\n", f);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "\\fBseawx\\-%s\\fR(1)%s\n", cmds[i].name, i + 1 < n ? "," : "");
}

static void man_cmd(FILE *f, const cli_cmd *c)
{
    char name[64];
    snprintf(name, sizeof name, "seawx-%s", c->name);
    man_head(f, name, c->summary);
    fputs(".SH SYNOPSIS\n.nf\n", f);
    roff(f, c->usage);
    fputs("\n.fi\n.SH DESCRIPTION\n", f);
    roff(f, c->description);
    fputs("\n.SH OPTIONS\n", f);
    man_opts(f, c->opts);
    fputs(".TP\n\\fB\\-h\\fR, \\fB\\-\\-help\\fR\nshow the help\n.SH SERVICE OPTIONS\n", f);
    man_opts(f, cli_service_opts);
    man_common(f);
    fputs(".SH SEE ALSO\n\\fBseawx\\fR(1)\n", f);
}

static int write_page(const char *dir, const char *file, const cli_cmd *cmds, size_t n,
                      const cli_cmd *one)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.1", dir, file);
    /* A page is a whole file put in place (never a device, a folder's name). */
    swx_atomicfile af = SWX_ATOMICFILE_INIT;
    int rc = swx_atomicfile_open(&af, path, 0666, SWX_ATOMICFILE_NOSYNC);
    if (rc)
        return cli_fail(rc);
    if (one)
        man_cmd(af.f, one);
    else
        man_main(af.f, cmds, n);
    return (rc = swx_atomicfile_commit(&af)) ? cli_fail(rc) : EXIT_OK;
}

int cli_man_dir(const char *dir, const cli_cmd *cmds, size_t n)
{
    int rc = write_page(dir, "seawx", cmds, n, NULL);
    for (size_t i = 0; i < n && rc == EXIT_OK; i++) {
        char file[64];
        snprintf(file, sizeof file, "seawx-%s", cmds[i].name);
        rc = write_page(dir, file, cmds, n, &cmds[i]);
    }
    return rc;
}

/* Whether an option's argument names a file or folder. */
static int takes_path(const cli_opt *o)
{
    return o->arg && (strcmp(o->arg, "FILE") == 0 || strcmp(o->arg, "PATH") == 0 ||
                      strcmp(o->arg, "DIR") == 0);
}

static void words(FILE *f, const cli_opt *t, int paths_only)
{
    for (; t->name; t++) {
        if (paths_only && !takes_path(t))
            continue;
        fprintf(f, " --%s", t->name);
        if (t->short_name)
            fprintf(f, " -%c", t->short_name);
    }
}

int cli_completion_bash(FILE *f, const cli_cmd *cmds, size_t n)
{
    fputs("# bash completion for seawx, generated from its option tables\n"
          "_seawx() {\n"
          "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} opts=\n"
          "    if [ \"$COMP_CWORD\" -eq 1 ]; then\n"
          "        COMPREPLY=($(compgen -W \"",
          f);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s ", cmds[i].name);
    fputs("--help --version\" -- \"$cur\"))\n        return\n    fi\n"
          "    case ${COMP_WORDS[1]} in\n",
          f);
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "    %s)\n        case $prev in\n           ", cmds[i].name);
        int any = 0;
        for (const cli_opt *t = cmds[i].opts; t->name; t++)
            if (takes_path(t)) {
                fprintf(f, "%s--%s", any ? "|" : " ", t->name);
                if (t->short_name)
                    fprintf(f, "|-%c", t->short_name);
                any = 1;
            }
        for (const cli_opt *t = cli_service_opts; t->name; t++)
            if (takes_path(t)) {
                fprintf(f, "%s--%s", any ? "|" : " ", t->name);
                any = 1;
            }
        fputs(") COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n        esac\n"
              "        opts=\"--help",
              f);
        words(f, cmds[i].opts, 0);
        words(f, cli_service_opts, 0);
        fputs("\" ;;\n", f);
    }
    fputs("    esac\n    COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n}\n"
          "complete -F _seawx seawx\n",
          f);
    return fflush(f) == 0 && !ferror(f) ? EXIT_OK : EXIT_IO;
}
