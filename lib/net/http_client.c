/* http_client.c: the client: its settings, its curl handles, and the small helpers the HTTP
 * files share. */
#include "seawx/setting.h"
#include "seawx/http.h"

#include "http_client_int.h"
#include "http_core.h"
#include "http_query_int.h"
#include "seawx/error.h"

#include <curl/curl.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#ifndef SEAWX_VERSION
#define SEAWX_VERSION "0.1.0"
#endif

/* ---- small helpers ---- */

char *swx_http_strdup(const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p)
        memcpy(p, s, n);
    return p;
}

int64_t swx_http_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

uint64_t swx_http_rng_next(uint64_t *s)
{
    /* xorshift64*: jitter only, no need for more. */
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545F4914F6CDD1DULL;
}

static pthread_once_t curl_once = PTHREAD_ONCE_INIT;
static CURLcode curl_init_result = CURLE_OK;

static void curl_init(void)
{
    curl_init_result = curl_global_init(CURL_GLOBAL_DEFAULT);
}

/* Checks a configured base address and copies it without trailing '/'. */
static int take_base(const char *url, const char *setting, char **out, char **origin)
{
    *out = NULL;
    *origin = NULL;
    if (strncasecmp(url, "http://", 7) != 0 && strncasecmp(url, "https://", 8) != 0)
        return swx_error_set(SWX_ECONFIG, "%s must be an http:// or https:// address", setting);
    if (strchr(url, '?') || strchr(url, '#') || strchr(url, '@'))
        return swx_error_set(SWX_ECONFIG,
                             "%s must be a plain address without query, fragment or "
                             "credentials",
                             setting);
    char *o = swx_http_url_origin(url);
    if (!o)
        return swx_error_set(SWX_ECONFIG, "%s is not a valid address", setting);
    char *copy = swx_http_strdup(url);
    if (!copy) {
        free(o);
        return swx_error_set(SWX_ENOMEM, "out of memory");
    }
    size_t n = strlen(copy);
    while (n > 0 && copy[n - 1] == '/')
        copy[--n] = '\0';
    *out = copy;
    *origin = o;
    return 0;
}

static int read_key_file(const char *path, char **out)
{
    *out = NULL;
    FILE *f = fopen(path, "r");
    if (!f)
        return swx_error_set(SWX_ECONFIG, "cannot read the API key file %.200s: %s", path,
                             strerror(errno));
    char line[1024];
    int rc = 0;
    if (!fgets(line, sizeof line, f)) {
        rc = swx_error_set(SWX_ECONFIG, "the API key file %.200s is empty", path);
        goto done;
    }
    line[strcspn(line, "\r\n")] = '\0';
    if (!line[0]) {
        rc = swx_error_set(SWX_ECONFIG, "the API key file %.200s is empty", path);
        goto done;
    }
    *out = swx_http_strdup(line);
    if (!*out)
        rc = swx_error_set(SWX_ENOMEM, "out of memory");
done:
    memset(line, 0, sizeof line);
    fclose(f);
    return rc;
}

/* ---- client ---- */

void swx_client_opts_from_env(swx_client_opts *o)
{
    if (!o->base_url)
        o->base_url = getenv("SEAWX_BASE_URL");
    if (!o->vessels_url)
        o->vessels_url = getenv("SEAWX_VESSELS_URL");
    if (!o->api_key && !o->api_key_file) {
        const char *k = getenv("SEAWX_API_KEY");
        if (k && *k)
            o->api_key = k;
        else
            o->api_key_file = getenv("SEAWX_API_KEY_FILE");
    }
    if (!o->wms_auth)
        o->wms_auth = getenv("SEAWX_WMS_AUTH");
    if (!o->wms_password)
        o->wms_password = getenv("SEAWX_WMS_PASSWORD");
    if (!o->ca_file)
        o->ca_file = getenv("SEAWX_CA_BUNDLE");
}

int swx_client_new(swx_client **out, const swx_client_opts *opts)
{
    swx_client *c = NULL;
    int rc = 0;
    *out = NULL;
    pthread_once(&curl_once, curl_init);
    if (curl_init_result != CURLE_OK)
        return swx_error_set(SWX_ENET, "libcurl could not be initialised: %s",
                             curl_easy_strerror(curl_init_result));
    swx_client_opts none = {0};
    if (!opts)
        opts = &none;
    if (!opts->base_url || !*opts->base_url)
        return swx_error_set(SWX_ECONFIG,
                             "no service address: set SEAWX_BASE_URL to the service's base "
                             "address");
    c = calloc(1, sizeof *c);
    if (!c)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    if ((rc = take_base(opts->base_url, "SEAWX_BASE_URL", &c->base_url, &c->origin_main)))
        goto done;
    if (opts->vessels_url && *opts->vessels_url &&
        (rc = take_base(opts->vessels_url, "SEAWX_VESSELS_URL", &c->vessels_url,
                        &c->origin_vessels)))
        goto done;
    if (opts->api_key && *opts->api_key) {
        if (strpbrk(opts->api_key, "\r\n")) {
            rc = swx_error_set(SWX_ECONFIG, "the API key contains a line break");
            goto done;
        }
        c->api_key = swx_http_strdup(opts->api_key);
    } else if (opts->api_key_file && *opts->api_key_file) {
        if ((rc = read_key_file(opts->api_key_file, &c->api_key)))
            goto done;
    }
    c->wms_auth = SWX_AUTH_HEADER;
    if (opts->wms_auth && *opts->wms_auth) {
        if (strcasecmp(opts->wms_auth, "header") == 0)
            c->wms_auth = SWX_AUTH_HEADER;
        else if (strcasecmp(opts->wms_auth, "query") == 0)
            c->wms_auth = SWX_AUTH_QUERY;
        else if (strcasecmp(opts->wms_auth, "basic") == 0)
            c->wms_auth = SWX_AUTH_BASIC;
        else {
            rc = swx_error_set(SWX_ECONFIG,
                               "unknown WMS auth mode '%.32s': use header, query or basic",
                               opts->wms_auth);
            goto done;
        }
    }
    if (c->wms_auth == SWX_AUTH_BASIC && (!opts->wms_password || !*opts->wms_password)) {
        rc = swx_error_set(SWX_ECONFIG,
                           "WMS auth mode basic needs a password: set SEAWX_WMS_PASSWORD");
        goto done;
    }
    c->wms_password = swx_http_strdup(opts->wms_password);
    c->connect_timeout_ms = opts->connect_timeout_ms > 0 ? opts->connect_timeout_ms : 10000;
    c->timeout_ms = opts->timeout_ms > 0 ? opts->timeout_ms : 120000;
    c->max_retries = opts->max_retries > 0 ? opts->max_retries : opts->max_retries < 0 ? 0 : 5;
    c->retry_base_ms = opts->retry_base_ms > 0 ? opts->retry_base_ms : 500;
    c->retry_max_ms = opts->retry_max_ms > 0 ? opts->retry_max_ms : 30000;
    c->max_retry_after_ms = opts->max_retry_after_ms > 0 ? opts->max_retry_after_ms : 120000;
    c->max_body = opts->max_body ? opts->max_body : (size_t)256 * 1024 * 1024;
    c->insecure = opts->insecure;
    c->cancel = opts->cancel;
    if (opts->ca_file && *opts->ca_file) {
        if (access(opts->ca_file, R_OK) != 0) {
            rc = swx_error_set(SWX_ECONFIG, "cannot read the CA bundle %.200s (%s): %s",
                               opts->ca_file, swx_setting_name(SWX_SET_CA_BUNDLE), strerror(errno));
            goto done;
        }
        if (!(c->ca_file = swx_http_strdup(opts->ca_file))) {
            rc = swx_error_set(SWX_ENOMEM, "out of memory");
            goto done;
        }
    }
    c->user_agent = swx_http_strdup(opts->user_agent ? opts->user_agent : "seawx/" SEAWX_VERSION);
    c->rng = (uint64_t)swx_http_now_ms() * 6364136223846793005ULL ^ (uint64_t)getpid() ^
             (uint64_t)(uintptr_t)c;
    if (!c->rng)
        c->rng = 1;
    c->multi = curl_multi_init();
    if (!c->user_agent || !c->multi || (opts->wms_password && !c->wms_password) ||
        ((opts->api_key && *opts->api_key) && !c->api_key)) {
        rc = swx_error_set(SWX_ENOMEM, "out of memory");
        goto done;
    }
done:
    if (rc) {
        swx_client_free(c);
        return rc;
    }
    *out = c;
    return 0;
}

static void wipe_free(char *s)
{
    if (s) {
        volatile char *p = s;
        while (*p)
            *p++ = '\0';
        free(s);
    }
}

void swx_client_free(swx_client *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->idle_n; i++)
        curl_easy_cleanup(c->idle[i]);
    free(c->idle);
    if (c->multi)
        curl_multi_cleanup(c->multi);
    free(c->base_url);
    free(c->vessels_url);
    free(c->origin_main);
    free(c->origin_vessels);
    wipe_free(c->api_key);
    wipe_free(c->wms_password);
    free(c->user_agent);
    free(c->ca_file);
    free(c);
}

const char *swx_client_base_url(const swx_client *c)
{
    return c->base_url;
}

swx_auth_mode swx_client_wms_auth(const swx_client *c)
{
    return c->wms_auth;
}

int swx_client_has_key(const swx_client *c)
{
    return c->api_key != NULL;
}
