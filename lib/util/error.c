/* error.c: the per-thread last-error line. */
#include "seawx/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* One line, never longer: longer messages are cut with "...". */
#define ERROR_LINE_MAX 1024

static _Thread_local char error_line[ERROR_LINE_MAX];
static _Thread_local int error_code;

/* The length of the well-formed UTF-8 sequence of a printable character
 * (U+00A0 and up: no C1 control, no overlong form, no surrogate) at s, or 0. */
static int utf8_printable(const unsigned char *s)
{
    unsigned cp;
    int n;
    if (s[0] >= 0xc2 && s[0] <= 0xdf) {
        n = 2;
        cp = s[0] & 0x1fu;
    } else if (s[0] >= 0xe0 && s[0] <= 0xef) {
        n = 3;
        cp = s[0] & 0x0fu;
    } else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
        n = 4;
        cp = s[0] & 0x07u;
    } else {
        return 0;
    }
    for (int i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3fu);
    }
    if (cp < 0xa0 || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10ffff ||
        (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return n;
}

/* The line people see is one line of printable text, whatever the input it
 * quotes (a binary file, a service's body): tabs and line ends become
 * spaces, a well-formed UTF-8 character is kept (a place or ship name in
 * another script), every other byte outside 0x20-0x7e is written \xHH. raw
 * was cut at n bytes when n >= its size (ERROR_LINE_MAX): "..." ends the
 * line then. */
static void set_line(const char *raw, int n)
{
    static const char hex[] = "0123456789abcdef";
    size_t at = 0;
    int cut = n >= ERROR_LINE_MAX;
    for (const unsigned char *s = (const unsigned char *)raw; *s; s++) {
        if (at + 5 >= ERROR_LINE_MAX - 4) {
            cut = 1;
            break;
        }
        int u = *s > 0x7e ? utf8_printable(s) : 0;
        if (u) {
            memcpy(error_line + at, s, (size_t)u);
            at += (size_t)u;
            s += u - 1;
        } else if (*s == '\t' || *s == '\n' || *s == '\r') {
            error_line[at++] = ' ';
        } else if (*s < 0x20 || *s > 0x7e) {
            error_line[at++] = '\\';
            error_line[at++] = 'x';
            error_line[at++] = hex[*s >> 4];
            error_line[at++] = hex[*s & 15];
        } else {
            error_line[at++] = (char)*s;
        }
    }
    if (cut) {
        memcpy(error_line + at, "...", 3);
        at += 3;
    }
    error_line[at] = '\0';
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
    char raw[ERROR_LINE_MAX];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    set_line(raw, n);
    error_code = code;
    return code;
}

int swx_error_prefix(int code, const char *fmt, ...)
{
    char prev[ERROR_LINE_MAX];
    char head[ERROR_LINE_MAX];
    char raw[ERROR_LINE_MAX];
    memcpy(prev, error_line, sizeof prev);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(head, sizeof head, fmt, ap);
    va_end(ap);
    /* prev is escaped already; a backslash in it is kept as it is */
    int n = prev[0] ? snprintf(raw, sizeof raw, "%s: %s", head, prev)
                    : snprintf(raw, sizeof raw, "%s", head);
    set_line(raw, n);
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
    case SWX_EINTERNAL:
        return "internal error";
    default:
        return "error";
    }
}
