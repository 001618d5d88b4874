/* server.h: one listening HTTP daemon (libmicrohttpd, a thread per connection,
 * keep-alive) and the routing of its requests.
 *
 * The service daemon routes /ows/wms (after latency and fault injection), the
 * /_sim/ test endpoints, and answers 404 elsewhere. The storage daemon answers
 * every path through storage.c. Both write the access log. */
#ifndef SIM_SERVER_H
#define SIM_SERVER_H

#include <microhttpd.h>

struct sim_app;

struct sim_endpoint {
    struct sim_app *app;
    int is_storage;
    int fd; /* listening socket; owned by the daemon once it runs */
    int ipv6;
    struct MHD_Daemon *daemon;
    unsigned port;
    char url_host[80];  /* host as written in URLs: 127.0.0.1, [::1] */
    char hostport[100]; /* url_host:port, for the access log */
};

/* Binds and listens on host:port (0 = a free port) and fills in the port and
 * names. Connections queue until sim_server_start: the URLs the handlers write
 * can be set up in between. Both return 0, or -1 after one line on stderr. */
int sim_server_bind(struct sim_endpoint *ep, struct sim_app *app, const char *host, unsigned port,
                    int is_storage);
int sim_server_start(struct sim_endpoint *ep);
void sim_server_stop(struct sim_endpoint *ep);

#endif
