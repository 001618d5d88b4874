/* private_header.c: a file of the tiles floor that reads a private header of
 * the wms floor (png_priv.h lives beside wms's sources). It must not compile:
 * build.private_headers builds it and expects the compiler to refuse. */
#include "png_priv.h"
