/* fuzz_package_listing.c: a voyage package's manifest.json or the
 * resume.json of an interrupted build, as a refresh reads them back (files a
 * crash, a full disk or a hand edit may have damaged). Every name handed on
 * is one plain file name and every identity non-empty. */
#include "fuzz.h"

#include "package_int.h"

#include <stdlib.h>
#include <string.h>

static int check(void *ud, const char *name, const char *identity)
{
    (void)ud;
    if (!*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, "..") || !*identity)
        abort();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    swx_package_listing_read((const char *)data, size, "manifest", check, NULL);
    return 0;
}
