/* msg.c: every message for people goes through here, to stderr. */
#include "cli.h"

#include "seawx/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

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

/* The progress line: on a terminal it rewrites itself in place, cut to the
 * terminal's width so that it never wraps; elsewhere each update is a line. */
static int progress_open; /* a self-rewriting line is on the terminal */

void cli_progress(int final, const char *fmt, ...)
{
    if (!fmt) { /* only close an open line, before another message */
        if (progress_open) {
            fputc('\n', stderr);
            fflush(stderr);
            progress_open = 0;
        }
        return;
    }
    if (quiet)
        return;
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (!isatty(STDERR_FILENO)) {
        fprintf(stderr, "seawx: %s\n", line);
        return;
    }
    struct winsize ws;
    size_t width = ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 8 ? ws.ws_col : 80;
    size_t room = width - 1 - strlen("seawx: ");
    if (strlen(line) > room)
        line[room] = '\0';
    fprintf(stderr, "\rseawx: %s\033[K", line);
    progress_open = !final;
    if (final)
        fputc('\n', stderr);
    fflush(stderr);
}

int cli_exit_code(int code)
{
    switch (code) {
    case SWX_OK:
        return EXIT_OK;
    case SWX_EINVAL:
        return EXIT_USAGE;
    case SWX_ECONFIG:
        return EXIT_CONFIG;
    case SWX_EAUTH:
    case SWX_EFORBIDDEN:
        return EXIT_AUTH;
    case SWX_ENOTFOUND:
        return EXIT_NOTFOUND;
    case SWX_ENET:
    case SWX_EHTTP:
    case SWX_ERATE:
        return EXIT_NETWORK;
    case SWX_ESERVICE:
    case SWX_EPARSE:
    case SWX_ETOOBIG:
        return EXIT_SERVICE;
    case SWX_EIO:
        return EXIT_IO;
    case SWX_ECANCEL:
        return EXIT_INTERRUPTED;
    default:
        return EXIT_PARTIAL;
    }
}

int cli_fail(int code)
{
    const char *line = swx_error_last();
    cli_error("%s", line[0] ? line : swx_error_name(code));
    return cli_exit_code(code);
}
