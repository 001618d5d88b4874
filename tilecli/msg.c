/* msg.c: every message for people goes through here, to stderr. */
#include "cli.h"

#include "seawx/error.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
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

void cli_summary(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say(NULL, fmt, ap);
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
    case SWX_EINTERNAL:
        return EXIT_SOFTWARE;
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

volatile sig_atomic_t cli_stop_soft, cli_stop_hard;

int cli_stopped(int rc)
{
    return rc == SWX_ECANCEL || cli_stop_soft;
}

int cli_interrupted(const char *fmt, ...)
{
    char what[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    cli_error("interrupted: %s", what);
    return EXIT_INTERRUPTED;
}

int cli_stop_or_fail(int rc, const char *what)
{
    if (cli_stopped(rc))
        return cli_interrupted("%s", what);
    return rc ? cli_fail(rc) : 0;
}

/* What the first signal leaves under way may finish for this long (0.3 s); then it
 * is cancelled, so that every command stops within a second of the first
 * signal (a request under way may take minutes). */
#define STOP_GRACE_NS 300000000L

static timer_t stop_timer;
static volatile sig_atomic_t stop_timer_set;

static void on_grace_over(union sigval v)
{
    (void)v;
    cli_stop_hard = 1;
}

static void on_stop_signal(int sig)
{
    (void)sig;
    if (cli_stop_soft)
        cli_stop_hard = 1;
    else if (stop_timer_set) {
        /* timer_settime may be called from a signal handler (POSIX) */
        struct itimerspec its = {.it_value = {.tv_sec = 0, .tv_nsec = STOP_GRACE_NS}};
        if (timer_settime(stop_timer, 0, &its, NULL) != 0)
            cli_stop_hard = 1;
    } else
        cli_stop_hard = 1;
    cli_stop_soft = 1;
}

void cli_signals_catch(cli_signals *s)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    cli_stop_soft = cli_stop_hard = 0;
    if (!stop_timer_set) {
        struct sigevent ev;
        memset(&ev, 0, sizeof ev);
        ev.sigev_notify = SIGEV_THREAD;
        ev.sigev_notify_function = on_grace_over;
        stop_timer_set = timer_create(CLOCK_MONOTONIC, &ev, &stop_timer) == 0;
    }
    sigaction(SIGINT, &sa, &s->old_int);
    sigaction(SIGTERM, &sa, &s->old_term);
    s->set = 1;
}

void cli_signals_release(cli_signals *s)
{
    if (!s->set)
        return;
    sigaction(SIGINT, &s->old_int, NULL);
    sigaction(SIGTERM, &s->old_term, NULL);
    if (stop_timer_set) {
        stop_timer_set = 0;
        timer_delete(stop_timer);
    }
    s->set = 0;
}

double cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int cli_stop_asked(void *ud)
{
    (void)ud;
    return cli_stop_soft != 0;
}

int cli_progress_due(double *last)
{
    double t = cli_now();
    if (t - *last < (isatty(STDERR_FILENO) ? 0.25 : 2.0))
        return 0;
    *last = t;
    return 1;
}
