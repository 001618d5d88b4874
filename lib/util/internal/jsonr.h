/*
 * jsonr.h: reading the service's JSON answers with json-c (internal).
 * Parsing is depth-limited and takes a length, so a body never needs to be a
 * C string and never nests deeper than SWX_JSONR_DEPTH.
 */
#ifndef SWX_JSONR_H
#define SWX_JSONR_H

#include <json-c/json.h>
#include <stddef.h>
#include <stdint.h>

#define SWX_JSONR_DEPTH 32

/* Parses body; on failure SWX_EPARSE with a line naming what (`what`) failed.
 * A UTF-8 byte order mark before the document is skipped; an object that
 * names a key twice is refused (the line names the key). */
int swx_jsonr_parse(json_object **out, const char *body, size_t len, const char *what);
/* The member at a path of keys (NULL-terminated), or NULL. */
json_object *swx_jsonr_path(json_object *o, ...);
/* The string at o, or NULL when o is not a string. */
const char *swx_jsonr_str(json_object *o);
/* 1 and *out when o is a number. */
int swx_jsonr_num(double *out, json_object *o);
/* 1 and *out when o is an integer (or a double holding a whole number). */
int swx_jsonr_int(int64_t *out, json_object *o);
/* 1 and *out when o is a string holding an ISO 8601 instant. */
int swx_jsonr_time(int64_t *out, json_object *o);

#endif
