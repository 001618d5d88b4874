/*
 * http_query_int.h: the request addresses of http_query.c, shared by the HTTP files of lib/net;
 * not public.
 */
#ifndef SEAWX_HTTP_QUERY_INT_H
#define SEAWX_HTTP_QUERY_INT_H

#include "buf.h"
#include "http_core.h"

#define KEY_PARAM "service-api-key"

/* "scheme://host:port" in lower case (malloc'd), or NULL. */
char *swx_http_url_origin(const char *url);
/* Appends s percent-encoded for a query component. */
int swx_http_put_encoded(swx_buf *b, const char *s);
/* The request's address (malloc'd into *out); with_key puts the key in the query. */
int swx_http_build_url(const swx_client *c, const swx_request *req, int with_key, char **out);
/* The address for a message: the key's value hidden, and the whole query and any credentials
 * left out unless same_origin. */
char *swx_http_redact_url(const char *url, int same_origin);
/* Removes every key parameter from url, in place. */
void swx_http_strip_key_param(char *url);

#endif
