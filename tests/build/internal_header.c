/* internal_header.c: a file of the tiles floor that reads the wms floor's
 * internal interface (wms/internal/wms_request.h) and its installed API. It
 * must compile: build.private_headers builds it as the control of its two
 * refusals. */
#include "seawx/wms.h"
#include "wms_request.h"

int swx__probe_internal_header(void);
int swx__probe_internal_header(void)
{
    return swx__wms_bundles[0] != 0;
}
