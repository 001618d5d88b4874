/* wms.h: the /ows/wms endpoint: authentication, the parameters every request
 * needs (service, request, product, bundle), dispatch to the operations, and
 * WMS 1.3.0 ServiceExceptionReports. */
#ifndef SIM_WMS_H
#define SIM_WMS_H

#include <stdint.h>

#include "buf.h"
#include "catalog.h"
#include "http.h"

enum sim_exc_mode { SIM_EXC_XML, SIM_EXC_BLANK, SIM_EXC_INIMAGE };

/* One WMS request being answered. */
struct sim_wms_req {
    struct sim_request *rq;
    const struct sim_bundle *bundle;
    enum sim_exc_mode exc;
    unsigned img_w, img_h; /* validated size, for image exceptions; 0 until known */
    int transparent;
    uint8_t bg[3];
};

/* Answers a request for /ows/wms. */
int sim_wms_handle(struct sim_request *rq);

/* Answers with an exception: HTTP 400 and an XML report, or for GetMap with
 * EXCEPTIONS=BLANK / INIMAGE and a known size, a 200 blank (INIMAGE: framed in
 * red) PNG. The message is formatted with printf rules and XML-escaped. */
int sim_wms_error(struct sim_wms_req *w, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Writes a ServiceExceptionReport; code NULL writes no code attribute. */
int sim_wms_exception_xml(struct sim_buf *out, const char *code, const char *message);

#define SIM_XML_CTYPE "text/xml; charset=UTF-8"

#endif
