/*
 * seawx/error.h: error codes and the last-error line.
 *
 * Every function of the core that can fail returns an int: 0 on success, one of
 * the negative SWX_E* codes on failure. The failing function leaves one line of
 * text, in words a user can act on, that swx_error_last() returns until the next
 * failure on the same thread. The library never prints and never exits.
 */
#ifndef SEAWX_ERROR_H
#define SEAWX_ERROR_H

#include "seawx/visibility.h"

#ifdef __cplusplus
extern "C" {
#endif

enum swx_error_code {
    SWX_OK = 0,
    SWX_EINVAL = -1,     /* invalid argument or user input */
    SWX_ENOMEM = -2,     /* out of memory */
    SWX_EIO = -3,        /* local file input or output */
    SWX_ENET = -4,       /* could not reach the service: connect, DNS, timeout, dropped */
    SWX_EAUTH = -5,      /* HTTP 401: key missing or rejected */
    SWX_EFORBIDDEN = -6, /* HTTP 403: not in the subscription */
    SWX_ENOTFOUND = -7,  /* HTTP 404, or an unknown layer, bundle, file or id */
    SWX_EHTTP = -8,      /* any other HTTP error status */
    SWX_ESERVICE = -9,   /* the service answered with an exception or an unexpected body */
    SWX_EPARSE = -10,    /* a document could not be parsed */
    SWX_ETOOBIG = -11,   /* a size limit was exceeded */
    SWX_ERATE = -12,     /* still rate limited after the allowed retries */
    SWX_ECANCEL = -13,   /* stopped by the caller */
    SWX_ECONFIG = -14,   /* missing or invalid configuration (key, base address) */
    SWX_EINTERNAL = -15, /* a fault of seawx's own: a library refused what seawx asked of it */
};

/* The last error line of this thread, or "" when none was set. Never NULL.
 * It is printable ASCII whatever it quotes: tabs and line ends become spaces,
 * any other byte outside 0x20-0x7e (a binary file's, UTF-8) reads \xHH. */
SWX_API const char *swx_error_last(void);

/* The code that went with the last error line of this thread, or SWX_OK. */
SWX_API int swx_error_last_code(void);

/* Sets this thread's error line (printf format) and returns code, so that a
 * failure can be reported in one statement: return swx_error_set(SWX_EINVAL, ...). */
SWX_API int swx_error_set(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Prefixes the current error line with more context: "context: previous line". */
SWX_API int swx_error_prefix(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

SWX_API void swx_error_clear(void);

/* A short constant name for a code ("network", "auth", ...). */
SWX_API const char *swx_error_name(int code);

#ifdef __cplusplus
}
#endif
#endif
