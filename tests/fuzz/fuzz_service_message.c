/* fuzz_service_message.c: error bodies (JSON, WMS/OWS exceptions, text). */
#include "fuzz.h"

#include "http_errors.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char msg[300], code[64];
    swx_service_message((const char *)data, size, "text/plain", msg, sizeof msg, code, sizeof code);
    swx_service_message((const char *)data, size, "application/json", msg, sizeof msg, code,
                        sizeof code);
    swx_is_exception_doc((const char *)data, size);
    return 0;
}
