/* auth.c: API key checks (see auth.h). */
#include "auth.h"

#include <string.h>
#include <strings.h>

#include "app.h"

#define KEY_HEADER "service-api-key"

void sim_auth_scan(struct sim_request *rq)
{
    const char *authz = sim_http_header(rq, MHD_HTTP_HEADER_AUTHORIZATION);

    rq->forms = 0;
    if (sim_http_header(rq, KEY_HEADER) != NULL)
        rq->forms |= SIM_AUTH_HEADER;
    if (sim_http_arg(rq, KEY_HEADER) != NULL)
        rq->forms |= SIM_AUTH_QUERY;
    if (authz != NULL)
        rq->forms |= SIM_AUTH_BASIC;
    rq->used_form = rq->forms & SIM_AUTH_HEADER  ? SIM_AUTH_HEADER
                    : rq->forms & SIM_AUTH_QUERY ? SIM_AUTH_QUERY
                    : rq->forms & SIM_AUTH_BASIC ? SIM_AUTH_BASIC
                                                 : 0;
}

static int b64_value(char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '+')
        return 62;
    if (c == '/')
        return 63;
    return -1;
}

/* Decodes standard base64 (padding optional) into out (NUL-terminated);
 * -1 on bad input or if it does not fit. */
static int b64_decode(const char *in, char *out, size_t cap)
{
    unsigned acc = 0;
    int bits = 0;
    size_t n = 0;

    for (; *in != '\0' && *in != '='; in++) {
        int v = b64_value(*in);
        if (v < 0)
            return -1;
        acc = (acc << 6) | (unsigned)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            if (n + 1 >= cap)
                return -1;
            out[n++] = (char)((acc >> bits) & 0xFF);
        }
    }
    out[n] = '\0';
    return memchr(out, '\0', n) == NULL ? 0 : -1;
}

static int basic_ok(const struct sim_request *rq)
{
    const char *h = sim_http_header(rq, MHD_HTTP_HEADER_AUTHORIZATION);
    const struct sim_options *o = &rq->app->opt;
    char creds[1024];
    char *colon;

    if (h == NULL || strncasecmp(h, "Basic ", 6) != 0)
        return 0;
    h += 6;
    while (*h == ' ')
        h++;
    if (b64_decode(h, creds, sizeof(creds)) != 0)
        return 0;
    colon = strchr(creds, ':');
    if (colon == NULL)
        return 0;
    *colon = '\0';
    return strcmp(creds, o->key) == 0 && strcmp(colon + 1, o->basic_password) == 0;
}

int sim_auth_require(struct sim_request *rq, int wms_forms)
{
    const char *key = rq->app->opt.key;
    int ok = 0;

    if (rq->forms & SIM_AUTH_HEADER) {
        ok = strcmp(sim_http_header(rq, KEY_HEADER), key) == 0;
    } else if (wms_forms && (rq->forms & SIM_AUTH_QUERY)) {
        ok = strcmp(sim_http_arg(rq, KEY_HEADER), key) == 0;
    } else if (wms_forms && (rq->forms & SIM_AUTH_BASIC)) {
        ok = basic_ok(rq);
    }
    if (ok)
        return 0;
    if (sim_http_reply_json_error(rq, 401, "unauthorized", "Invalid or missing API key") != 0)
        return -1;
    return 1;
}
