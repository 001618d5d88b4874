/* error.c: the per-thread last-error line. */
#include "seawx/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* One line, never longer: longer messages are cut with "...". */
#define ERROR_LINE_MAX 1024

static _Thread_local char error_line[ERROR_LINE_MAX];
static _Thread_local int error_code;

/* Keeps the line a single line: control characters become spaces. */
static void flatten(char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            *s = ' ';
}

static void mark_cut(int n)
{
    if (n >= ERROR_LINE_MAX)
        memcpy(error_line + ERROR_LINE_MAX - 4, "...", 4);
}

const char *swx_error_last(void)
{
    return error_line;
}

int swx_error_last_code(void)
{
    return error_code;
}

int swx_error_set(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(error_line, sizeof error_line, fmt, ap);
    va_end(ap);
    mark_cut(n);
    flatten(error_line);
    error_code = code;
    return code;
}

int swx_error_prefix(int code, const char *fmt, ...)
{
    char prev[ERROR_LINE_MAX];
    char head[ERROR_LINE_MAX];
    memcpy(prev, error_line, sizeof prev);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(head, sizeof head, fmt, ap);
    va_end(ap);
    int n = prev[0] ? snprintf(error_line, sizeof error_line, "%s: %s", head, prev)
                    : snprintf(error_line, sizeof error_line, "%s", head);
    mark_cut(n);
    flatten(error_line);
    error_code = code;
    return code;
}

void swx_error_clear(void)
{
    error_line[0] = '\0';
    error_code = SWX_OK;
}

const char *swx_error_name(int code)
{
    switch (code) {
    case SWX_OK:
        return "ok";
    case SWX_EINVAL:
        return "invalid input";
    case SWX_ENOMEM:
        return "out of memory";
    case SWX_EIO:
        return "file error";
    case SWX_ENET:
        return "network";
    case SWX_EAUTH:
        return "authentication";
    case SWX_EFORBIDDEN:
        return "forbidden";
    case SWX_ENOTFOUND:
        return "not found";
    case SWX_EHTTP:
        return "HTTP error";
    case SWX_ESERVICE:
        return "service error";
    case SWX_EPARSE:
        return "malformed document";
    case SWX_ETOOBIG:
        return "too large";
    case SWX_ERATE:
        return "rate limited";
    case SWX_ECANCEL:
        return "cancelled";
    case SWX_ECONFIG:
        return "configuration";
    default:
        return "error";
    }
}
