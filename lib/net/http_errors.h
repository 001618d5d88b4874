/*
 * http_errors.h: the service's own words out of an error answer (internal).
 *
 * Shapes read: JSON {"errors":[{"code","message"}...]} (request errors), JSON
 * {"errors":{...}} and {"errors":"..."}, JSON {"fault":{"faultstring",
 * "detail":{"errorcode"}}} (rate limits), JSON {"message"|"error"|"detail"},
 * WMS ServiceExceptionReport/ServiceException[@code] (1.1.1 and 1.3.0), OWS
 * ExceptionReport/Exception[@exceptionCode]/ExceptionText, and the first line
 * of a text/plain body. Only the first SWX_ERRBODY_MAX bytes are looked at.
 */
#ifndef SWX_HTTP_ERRORS_H
#define SWX_HTTP_ERRORS_H

#include <stddef.h>

#define SWX_ERRBODY_MAX (256u * 1024u)

/* Writes the message (one line, cut to fit) into msg and the error code, if
 * the body names one, into code ("" otherwise). Returns 1 when a message was
 * found, 0 when the body says nothing usable. */
int swx_service_message(const char *body, size_t len, const char *content_type, char *msg,
                        size_t msgsz, char *code, size_t codesz);

/* Whether the body is a WMS or OWS exception document (looks at its root). */
int swx_is_exception_doc(const char *body, size_t len);

/* Whether an exception code means the request itself is wrong, so that sending
 * it again cannot help (LayerNotDefined, InvalidDimensionValue, ...). */
int swx_exception_code_is_permanent(const char *code);

#endif
