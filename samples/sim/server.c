/* server.c: HTTP daemons and request routing (see server.h). */
#include "server.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "accesslog.h"
#include "app.h"
#include "auth.h"
#include "faults.h"
#include "data.h"
#include "http.h"
#include "stats.h"
#include "storage.h"
#include "storm.h"
#include "testing.h"
#include "wms.h"

#define MAX_TARGET 16384

/* Called by libmicrohttpd with the raw request target before anything else: the
 * request context starts here so that the log gets the target as sent. */
static void *on_uri(void *cls, const char *uri, struct MHD_Connection *conn)
{
    struct sim_endpoint *ep = cls;
    struct sim_request *rq = calloc(1, sizeof(*rq));

    (void)conn;
    if (rq == NULL)
        return NULL;
    rq->app = ep->app;
    rq->ep = ep;
    rq->target = strndup(uri != NULL ? uri : "", MAX_TARGET);
    return rq;
}

static void on_completed(void *cls, struct MHD_Connection *conn, void **req_cls,
                         enum MHD_RequestTerminationCode toe)
{
    struct sim_endpoint *ep = cls;
    struct sim_request *rq = *req_cls;

    (void)conn;
    (void)toe;
    if (rq == NULL)
        return;
    if (rq->method != NULL) {
        sim_accesslog_write(ep->app->log, ep->hostport, rq);
        if (rq->counted)
            sim_stats_count(ep->app->stats, rq->status, rq->op);
    }
    free(rq->target);
    free(rq);
    *req_cls = NULL;
}

static enum MHD_Result collect_arg(void *cls, enum MHD_ValueKind kind, const char *key,
                                   const char *value)
{
    struct sim_request *rq = cls;

    (void)kind;
    if (rq->nargs >= SIM_MAX_ARGS) {
        rq->too_many_args = 1;
        return MHD_NO;
    }
    rq->args[rq->nargs].name = key != NULL ? key : "";
    rq->args[rq->nargs].value = value != NULL ? value : "";
    rq->nargs++;
    return MHD_YES;
}

static const char fault_429[] = "{\"fault\":{\"faultstring\":\"Rate limit quota violation. "
                                "Quota limit exceeded.\",\"detail\":{\"errorcode\":"
                                "\"policies.ratelimit.QuotaViolation\"}}}";

/* Service paths: latency, then at most one fault, then the endpoint. */
static int handle_service(struct sim_request *rq)
{
    struct sim_app *app = rq->app;
    const char *op;

    rq->counted = 1;
    if (strcmp(rq->path, "/ows/wms") != 0 && !sim_storm_path(rq->path) &&
        !sim_data_path(rq->path)) {
        char msg[300];
        snprintf(msg, sizeof(msg), "No endpoint at %.200s", rq->path);
        return sim_http_reply_json_error(rq, 404, "not_found", msg);
    }
    op = sim_http_arg(rq, "request");
    if (op != NULL && strcmp(op, "GetMap") == 0)
        rq->op = SIM_OP_GETMAP;
    else if (op != NULL && strcmp(op, "GetCapabilities") == 0)
        rq->op = SIM_OP_GETCAPABILITIES;

    if (app->opt.latency_ms > 0 && sim_app_sleep_ms(app, app->opt.latency_ms) != 0) {
        sim_http_drop(rq); /* shutting down */
        return 0;
    }
    switch (sim_faults_draw_op(app->faults, rq->op)) {
    case SIM_FAULT_429: {
        char ra[16];
        struct sim_header h[1] = {{"Retry-After", ra}};
        snprintf(ra, sizeof(ra), "%u", app->opt.retry_after);
        return sim_http_reply(rq, 429, "application/json", fault_429, sizeof(fault_429) - 1, h, 1);
    }
    case SIM_FAULT_503:
        return sim_http_reply_json_error(rq, 503, "unavailable", "Service temporarily unavailable");
    case SIM_FAULT_DROP:
        sim_http_drop(rq);
        return 0;
    case SIM_FAULT_TRUNC:
        rq->trunc = 1; /* the real answer, cut short */
        break;
    case SIM_FAULT_EXCEPTION: {
        struct sim_buf b;
        char *body;
        size_t len = 0;
        sim_buf_init(&b, 4096);
        sim_wms_exception_xml(&b, NULL, "temporarily unable to render");
        body = sim_buf_steal(&b, &len);
        if (body == NULL)
            return -1;
        return sim_http_reply_take(rq, 200, SIM_XML_CTYPE, body, len, NULL, 0);
    }
    case SIM_FAULT_NONE:
        break;
    }
    if (sim_storm_path(rq->path))
        return sim_storm_handle(rq);
    if (sim_data_path(rq->path))
        return sim_data_handle(rq);
    return sim_wms_handle(rq);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
                                  const char *method, const char *version, const char *upload_data,
                                  size_t *upload_data_size, void **req_cls)
{
    struct sim_endpoint *ep = cls;
    struct sim_request *rq = *req_cls;

    (void)version;
    (void)upload_data;
    if (rq == NULL)
        return MHD_NO;
    /* libmicrohttpd calls once when the headers are in, then with each piece of
     * body, then once more with no data. Answering on the first call makes it
     * close the connection afterwards (it cannot know the request is complete),
     * so the answer waits for the last call and keep-alive works. Bodies are
     * read and ignored. */
    if (!rq->seen) {
        rq->seen = 1;
        return MHD_YES;
    }
    if (*upload_data_size != 0) {
        *upload_data_size = 0;
        return MHD_YES;
    }
    if (rq->method != NULL)
        return rq->drop ? MHD_NO : MHD_YES;
    rq->conn = conn;
    rq->method = method;
    rq->path = url;
    rq->is_head = strcmp(method, "HEAD") == 0;
    MHD_get_connection_values(conn, MHD_GET_ARGUMENT_KIND, collect_arg, rq);
    sim_auth_scan(rq);

    if (strcmp(method, "GET") != 0 && !rq->is_head) {
        struct sim_header h[1] = {{"Allow", "GET, HEAD"}};
        static const char body[] =
            "{\"errors\":[{\"code\":\"method_not_allowed\",\"message\":\"Use GET\"}]}";
        rq->counted = !ep->is_storage && strncmp(url, "/_sim/", 6) != 0;
        sim_http_reply(rq, 405, "application/json", body, sizeof(body) - 1, h, 1);
    } else if (ep->is_storage) {
        sim_storage_handle(rq);
    } else if (strncmp(url, "/_sim/", 6) == 0) {
        sim_testing_handle(rq);
    } else {
        handle_service(rq);
    }
    if (rq->drop)
        return MHD_NO;
    if (!rq->answered &&
        sim_http_reply_json_error(rq, 500, "internal_error",
                                  "The simulator could not answer (out of memory?)") != 0)
        return MHD_NO;
    return MHD_YES;
}

int sim_server_bind(struct sim_endpoint *ep, struct sim_app *app, const char *host, unsigned port,
                    int is_storage)
{
    struct addrinfo hints, *ai = NULL;
    struct sockaddr_storage addr;
    socklen_t alen = sizeof(addr);
    char numeric[INET6_ADDRSTRLEN];
    int one = 1, rc = -1;

    memset(ep, 0, sizeof(*ep));
    ep->app = app;
    ep->is_storage = is_storage;
    ep->fd = -1;
    memset(&hints, 0, sizeof(hints));
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    if (getaddrinfo(host, NULL, &hints, &ai) != 0 || ai == NULL) {
        fprintf(stderr, "seawx-sim: cannot resolve address '%s'\n", host);
        goto done;
    }
    memset(&addr, 0, sizeof(addr));
    memcpy(&addr, ai->ai_addr, ai->ai_addrlen);
    ep->ipv6 = addr.ss_family == AF_INET6;
    if (ep->ipv6)
        ((struct sockaddr_in6 *)&addr)->sin6_port = htons((uint16_t)port);
    else
        ((struct sockaddr_in *)&addr)->sin_port = htons((uint16_t)port);
    ep->fd = socket(addr.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (ep->fd < 0 || setsockopt(ep->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) != 0 ||
        bind(ep->fd, (struct sockaddr *)&addr, (socklen_t)ai->ai_addrlen) != 0 ||
        listen(ep->fd, 1024) != 0 || getsockname(ep->fd, (struct sockaddr *)&addr, &alen) != 0) {
        fprintf(stderr, "seawx-sim: cannot listen on %s port %u: %s\n", host, port,
                strerror(errno));
        goto done;
    }
    if (ep->ipv6) {
        struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)&addr;
        ep->port = ntohs(a6->sin6_port);
        inet_ntop(AF_INET6, &a6->sin6_addr, numeric, sizeof(numeric));
        snprintf(ep->url_host, sizeof(ep->url_host), "[%s]",
                 IN6_IS_ADDR_UNSPECIFIED(&a6->sin6_addr) ? "::1" : numeric);
    } else {
        struct sockaddr_in *a4 = (struct sockaddr_in *)&addr;
        ep->port = ntohs(a4->sin_port);
        inet_ntop(AF_INET, &a4->sin_addr, numeric, sizeof(numeric));
        /* a wildcard address is reached through loopback in the URLs we write */
        snprintf(ep->url_host, sizeof(ep->url_host), "%s",
                 a4->sin_addr.s_addr == htonl(INADDR_ANY) ? "127.0.0.1" : numeric);
    }
    snprintf(ep->hostport, sizeof(ep->hostport), "%s:%u", ep->url_host, ep->port);
    rc = 0;
done:
    if (rc != 0 && ep->fd >= 0) {
        close(ep->fd);
        ep->fd = -1;
    }
    if (ai != NULL)
        freeaddrinfo(ai);
    return rc;
}

int sim_server_start(struct sim_endpoint *ep)
{
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION |
                     MHD_USE_POLL | (ep->ipv6 ? MHD_USE_IPv6 : 0);

    ep->daemon = MHD_start_daemon(
        flags, 0, NULL, NULL, on_request, ep, MHD_OPTION_LISTEN_SOCKET, ep->fd,
        MHD_OPTION_URI_LOG_CALLBACK, on_uri, ep, MHD_OPTION_NOTIFY_COMPLETED, on_completed, ep,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)120, MHD_OPTION_CONNECTION_LIMIT, (unsigned)4096,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(128 * 1024), MHD_OPTION_THREAD_STACK_SIZE,
        (size_t)(1024 * 1024), MHD_OPTION_END);
    if (ep->daemon == NULL) {
        fprintf(stderr, "seawx-sim: cannot start the HTTP server on %s\n", ep->hostport);
        return -1;
    }
    return 0;
}

void sim_server_stop(struct sim_endpoint *ep)
{
    if (ep->daemon != NULL)
        MHD_stop_daemon(ep->daemon); /* closes the listening socket too */
    else if (ep->fd >= 0)
        close(ep->fd);
    ep->daemon = NULL;
    ep->fd = -1;
}
