/*
 * csv.h: CSV fields as RFC 4180 writes them (internal): every CSV the core
 * writes (tables of points and files, departure plans) quotes a field the
 * same way.
 */
#ifndef SWX_CSV_H
#define SWX_CSV_H

#include <stdio.h>

/* Text s as one CSV field on f: as it is, unless it holds a comma, a double
 * quote, CR or LF, or starts or ends with a space (which readers may trim);
 * then between double quotes, each double quote in it doubled. NULL and ""
 * write nothing (an empty field). The caller writes the separators and line
 * ends. */
void swx_csv_field(FILE *f, const char *s);

#endif
