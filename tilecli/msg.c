/* msg.c: every message for people goes through here, to stderr. */
#include "cli.h"

#include "seawx/error.h"

#include <stdarg.h>
#include <stdio.h>

static int quiet;

void cli_set_quiet(int q)
{
    quiet = q;
}

static void say(const char *kind, const char *fmt, va_list ap)
{
    fputs("seawx: ", stderr);
    if (kind)
        fputs(kind, stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

void cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say("error: ", fmt, ap);
    va_end(ap);
}

void cli_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say("warning: ", fmt, ap);
    va_end(ap);
}

void cli_info(const char *fmt, ...)
{
    if (quiet)
        return;
    va_list ap;
    va_start(ap, fmt);
    say(NULL, fmt, ap);
    va_end(ap);
}

int cli_exit_code(int code)
{
    switch (code) {
    case SWX_OK: return EXIT_OK;
    case SWX_EINVAL: return EXIT_USAGE;
    case SWX_ECONFIG: return EXIT_CONFIG;
    case SWX_EAUTH:
    case SWX_EFORBIDDEN: return EXIT_AUTH;
    case SWX_ENOTFOUND: return EXIT_NOTFOUND;
    case SWX_ENET:
    case SWX_EHTTP:
    case SWX_ERATE: return EXIT_NETWORK;
    case SWX_ESERVICE:
    case SWX_EPARSE:
    case SWX_ETOOBIG: return EXIT_SERVICE;
    case SWX_EIO: return EXIT_IO;
    case SWX_ECANCEL: return EXIT_INTERRUPTED;
    default: return EXIT_PARTIAL;
    }
}

int cli_fail(int code)
{
    const char *line = swx_error_last();
    cli_error("%s", line[0] ? line : swx_error_name(code));
    return cli_exit_code(code);
}
