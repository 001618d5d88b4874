/*
 * point_answer.h: the point answers' reader and kind names: the core's own and the tests'.
 */
#ifndef SEAWX_POINT_ANSWER_H
#define SEAWX_POINT_ANSWER_H

#include "seawx/point.h"
#include "seawx/table.h"

#include <stddef.h>

/* "soil", "soil-history", "weather", "tides", "tide-extrema", "forecast",
 * "forecast-latest". */
const char *swx_point_kind_name(swx_point_kind k);
/* Parses an answer of the query's kind (for saved answers and tests). */
int swx_point_parse(swx_table **out, const swx_point_query *q, const char *body, size_t len);

#endif
