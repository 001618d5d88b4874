/* csv.c: CSV fields as RFC 4180 writes them (csv.h). */
#include "csv.h"

#include <string.h>

void swx_csv_field(FILE *f, const char *s)
{
    if (!s || !*s)
        return;
    size_t n = strlen(s);
    if (!strpbrk(s, ",\"\r\n") && s[0] != ' ' && s[n - 1] != ' ') {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}
