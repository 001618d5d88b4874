/*
 * storm_json.h: the parser of one storm object (internal), shared by
 * swx_storm_parse_json() and the streaming reader.
 */
#ifndef SWX_STORM_JSON_H
#define SWX_STORM_JSON_H

#include "jsonscan.h"
#include "seawx/storm.h"

#include <stddef.h>

/* A syntax error, held by the scanner: the caller words it (with the
 * element and byte it knows). Never a SWX_E* code (those are negative). */
#define SWX_STORM_SYNTAX 1

/* Parses the JSON text of one storm with js: the whole text, or when used is
 * not NULL the object at its start (*used receives its length). Returns 0,
 * SWX_STORM_SYNTAX (the error is in js), or a negative code with its line set. */
int swx_storm_json_parse(swx_storm **out, size_t *used, swx_jsonscan *js, const char *text,
                         size_t len);

#endif
