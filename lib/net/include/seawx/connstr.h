/*
 * seawx/connstr.h: GDAL connection strings, "SEAWX:key=value,key=value".
 *
 * Grammar: "SEAWX:" then items separated by ','. An item is key=value, or,
 * first only, a bare word naming the kind of dataset ("storms"). Keys are
 * letters, digits, '_' and '-', compared without case and kept in lower case.
 * Values are everything after the first '=', with %XX escapes decoded; '/' and
 * ':' need no escape, so layer names read as they are. Writing escapes '%', ','
 * '"', spaces and control characters, so every value round-trips. The API key
 * is never part of a connection string: items named key, api_key, apikey or
 * service-api-key are refused.
 */
#ifndef SEAWX_CONNSTR_H
#define SEAWX_CONNSTR_H

#include "seawx/visibility.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SWX_CONNSTR_PREFIX "SEAWX:"
#define SWX_CONNSTR_MAX_ITEMS 64
#define SWX_CONNSTR_MAX_LEN 8192

typedef struct swx_connstr swx_connstr;

/* Parses s, with or without the prefix. */
SWX_API int swx_connstr_parse(swx_connstr **out, const char *s);
SWX_API int swx_connstr_new(swx_connstr **out);
SWX_API void swx_connstr_free(swx_connstr *cs);

/* The bare word that opens the string, or NULL. */
SWX_API const char *swx_connstr_kind(const swx_connstr *cs);
SWX_API int swx_connstr_set_kind(swx_connstr *cs, const char *kind);
SWX_API size_t swx_connstr_count(const swx_connstr *cs);
SWX_API const char *swx_connstr_key(const swx_connstr *cs, size_t i);
SWX_API const char *swx_connstr_value(const swx_connstr *cs, size_t i);
/* The value of key (any case), or NULL. */
SWX_API const char *swx_connstr_get(const swx_connstr *cs, const char *key);
/* Sets or replaces key; a NULL value removes it. */
SWX_API int swx_connstr_set(swx_connstr *cs, const char *key, const char *value);
/* "SEAWX:..." with every value escaped as needed; caller frees. NULL (with
 * SWX_ETOOBIG) when that would be longer than SWX_CONNSTR_MAX_LEN, so that
 * what is formatted always parses again. */
SWX_API char *swx_connstr_format(const swx_connstr *cs);

/* ---- option descriptions ----
 * One description per option: how its value is read (once, by the core, with
 * one message for a bad value that names the option and what it takes), its
 * default, and one line for people. Front ends make their lists of options
 * and their unknown-option messages from these tables. */
typedef enum swx_opt_type {
    SWX_OPT_STRING, /* any text */
    SWX_OPT_CHOICE, /* one of choices; the option's owner checks it (it knows the synonyms) */
    SWX_OPT_INT,    /* a whole number from min to max */
    SWX_OPT_REAL,   /* a finite number over 0 */
    SWX_OPT_BOOL    /* yes/no, true/false, on/off, 1/0, any case */
} swx_opt_type;

typedef struct swx_opt {
    const char *key; /* lower case, as in connection strings */
    swx_opt_type type;
    long min, max;              /* SWX_OPT_INT */
    const char *def;            /* the default as a user would write it; NULL: none to show */
    const char *const *choices; /* SWX_OPT_CHOICE: NULL-terminated */
    const char *config;         /* the configuration option that stands in for it, or NULL */
    const char *help;           /* one line for people, or NULL */
    const char *form;           /* SWX_OPT_REAL: what a valid value is, for messages */
} swx_opt;

/* Reads value as o says: *num receives an INT's value or a BOOL's 1 / 0,
 * *real a REAL's (either may be NULL). 0, or SWX_EINVAL with "KEY must be
 * ..., not 'VALUE'". STRING and CHOICE values are taken as they are. */
SWX_API int swx_opt_read(long *num, double *real, const swx_opt *o, const char *value);
/* The option named key (any case) among opts[0..n), or NULL. */
SWX_API const swx_opt *swx_opt_find(const swx_opt *opts, size_t n, const char *key);

/* The options every kind of dataset takes: url, timeout, retries. */
SWX_API const swx_opt *swx_service_opt_list(size_t *n);

typedef struct swx_service_opts {
    const char *url; /* NULL: the front end's default; borrowed from the connection string */
    int timeout_s;   /* 0: not given */
    int retries;     /* -1: not given */
} swx_service_opts;

/* Reads the service options of cs into o; other items are left to their
 * owners. Strings point into cs. */
SWX_API int swx_service_opts_parse(swx_service_opts *o, const swx_connstr *cs);

#ifdef __cplusplus
}
#endif
#endif
