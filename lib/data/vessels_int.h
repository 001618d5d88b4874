/*
 * vessels_int.h: the vessel categories and the page reader: the core's own and the tests'.
 */
#ifndef SEAWX_VESSELS_INT_H
#define SEAWX_VESSELS_INT_H

#include "seawx/vessels.h"
#include "seawx/table.h"

#include <stddef.h>

/* The seven categories, in the interface's order. */
size_t swx_vessels_category_count(void);
const char *swx_vessels_category(size_t i);
/* A table with the columns of the categories (NULL: all), no rows. */
int swx_vessels_table_new(swx_table **out, const char *categories);
/* Appends one page's vessels to t; *next is the cursor (caller frees) or
 * NULL on the last page; *total the announced total or -1. */
int swx_vessels_parse_page(char **next, long long *total, swx_table *t, const char *body,
                           size_t len);

#endif
