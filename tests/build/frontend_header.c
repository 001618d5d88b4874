/* frontend_header.c: a front end (compiled as the GDAL plugin and the seawx
 * command are, against libseawx) that reads the HTTP engine's internal
 * interface (net/internal/http_core.h). It must not compile: front ends see
 * the installed API alone. */
#include "http_core.h"
