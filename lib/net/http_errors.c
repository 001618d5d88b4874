/* http_errors.c: reading the service's message out of error bodies. */
#include "http_errors.h"

#include "xml.h"

#include <ctype.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* Copies s into out as one printable line without leading or trailing blanks. */
static void put_line(char *out, size_t outsz, const char *s, size_t n)
{
    if (!outsz)
        return;
    while (n && isspace((unsigned char)*s)) {
        s++;
        n--;
    }
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    size_t j = 0;
    int space = 0;
    for (size_t i = 0; i < n && j + 1 < outsz; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7f) {
            space = 1;
            continue;
        }
        if (c == ' ') {
            space = 1;
            continue;
        }
        if (space && j && j + 2 < outsz)
            out[j++] = ' ';
        space = 0;
        out[j++] = (char)c;
    }
    out[j] = '\0';
    if (j + 1 >= outsz && outsz > 4 && n > j)
        memcpy(out + outsz - 4, "...", 4);
}

static const char *json_str(json_object *o, const char *key)
{
    json_object *v;
    if (!o || !json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, key, &v))
        return NULL;
    if (json_object_is_type(v, json_type_string))
        return json_object_get_string(v);
    return NULL;
}

/* One item of an "errors" member: a string, or an object with a message. */
static void json_error_item(json_object *item, char *msg, size_t msgsz, char *code, size_t codesz)
{
    const char *m = NULL, *c = NULL;
    if (json_object_is_type(item, json_type_string)) {
        m = json_object_get_string(item);
    } else if (json_object_is_type(item, json_type_object)) {
        m = json_str(item, "message");
        if (!m)
            m = json_str(item, "detail");
        if (!m)
            m = json_str(item, "title");
        c = json_str(item, "code");
        if (!m) {
            /* {"field": "what is wrong"}: take the first pair. */
            json_object_object_foreach(item, k, v)
            {
                if (json_object_is_type(v, json_type_string)) {
                    char tmp[512];
                    snprintf(tmp, sizeof tmp, "%s: %s", k, json_object_get_string(v));
                    put_line(msg, msgsz, tmp, strlen(tmp));
                    break;
                }
            }
        }
    }
    if (m)
        put_line(msg, msgsz, m, strlen(m));
    if (c)
        put_line(code, codesz, c, strlen(c));
}

static int from_json(const char *body, size_t len, char *msg, size_t msgsz, char *code,
                     size_t codesz)
{
    json_tokener *tok = json_tokener_new_ex(32);
    if (!tok)
        return 0;
    json_object *root = json_tokener_parse_ex(tok, body, (int)len);
    json_tokener_free(tok);
    if (!root)
        return 0;
    json_object *v;
    if (json_object_is_type(root, json_type_object)) {
        if (json_object_object_get_ex(root, "errors", &v) && v) {
            if (json_object_is_type(v, json_type_array) && json_object_array_length(v) > 0)
                json_error_item(json_object_array_get_idx(v, 0), msg, msgsz, code, codesz);
            else
                json_error_item(v, msg, msgsz, code, codesz);
        } else if (json_object_object_get_ex(root, "fault", &v) && v) {
            const char *m = json_str(v, "faultstring");
            json_object *detail;
            if (m)
                put_line(msg, msgsz, m, strlen(m));
            if (json_object_object_get_ex(v, "detail", &detail)) {
                const char *c = json_str(detail, "errorcode");
                if (c)
                    put_line(code, codesz, c, strlen(c));
            }
        } else if (json_object_object_get_ex(root, "error", &v) && v) {
            json_error_item(v, msg, msgsz, code, codesz);
        } else {
            const char *m = json_str(root, "message");
            if (!m)
                m = json_str(root, "detail");
            if (m)
                put_line(msg, msgsz, m, strlen(m));
        }
    }
    json_object_put(root);
    return msg[0] != '\0';
}

static void node_text(const xmlNode *n, char *out, size_t outsz)
{
    xmlChar *t = xmlNodeGetContent(n);
    if (t) {
        put_line(out, outsz, (const char *)t, strlen((const char *)t));
        xmlFree(t);
    }
}

static void node_attr(const xmlNode *n, const char *name, char *out, size_t outsz)
{
    xmlChar *a = xmlGetProp(n, (const xmlChar *)name);
    if (a) {
        put_line(out, outsz, (const char *)a, strlen((const char *)a));
        xmlFree(a);
    }
}

static int from_xml(const char *body, size_t len, char *msg, size_t msgsz, char *code,
                    size_t codesz)
{
    xmlDoc *doc = NULL;
    /* An error body is as untrusted as any document: the hardened reader. Its
     * failure only means there is no message to quote. */
    if (swx_xml_read(&doc, body, len, "error body") != 0)
        return 0;
    const xmlNode *root = xmlDocGetRootElement(doc);
    if (swx_xml_is(root, "ServiceExceptionReport")) {
        const xmlNode *e = swx_xml_child(root, "ServiceException");
        if (e) {
            node_text(e, msg, msgsz);
            node_attr(e, "code", code, codesz);
        }
    } else if (swx_xml_is(root, "ExceptionReport")) {
        const xmlNode *e = swx_xml_child(root, "Exception");
        if (e) {
            const xmlNode *t = swx_xml_child(e, "ExceptionText");
            node_text(t ? t : e, msg, msgsz);
            node_attr(e, "exceptionCode", code, codesz);
        }
    }
    xmlFreeDoc(doc);
    return msg[0] != '\0';
}

/* Skips an XML declaration, comments and blanks; returns the root's name. */
static int root_name_is(const char *body, size_t len, const char *name)
{
    size_t i = 0;
    for (;;) {
        while (i < len && isspace((unsigned char)body[i]))
            i++;
        if (i + 1 >= len || body[i] != '<')
            return 0;
        if (body[i + 1] == '?' || body[i + 1] == '!') {
            const char *end = memchr(body + i, '>', len - i);
            if (!end)
                return 0;
            i = (size_t)(end - body) + 1;
            continue;
        }
        i++;
        /* The local name: skip a namespace prefix. */
        size_t start = i;
        while (i < len && !isspace((unsigned char)body[i]) && body[i] != '>' && body[i] != '/')
            i++;
        const char *colon = memchr(body + start, ':', i - start);
        if (colon)
            start = (size_t)(colon - body) + 1;
        size_t n = strlen(name);
        return i - start == n && memcmp(body + start, name, n) == 0;
    }
}

int swx_is_exception_doc(const char *body, size_t len)
{
    if (len > 4096)
        len = 4096;
    return root_name_is(body, len, "ServiceExceptionReport") ||
           root_name_is(body, len, "ExceptionReport");
}

int swx_service_message(const char *body, size_t len, const char *content_type, char *msg,
                        size_t msgsz, char *code, size_t codesz)
{
    if (msgsz)
        msg[0] = '\0';
    if (codesz)
        code[0] = '\0';
    if (!body || !len)
        return 0;
    if (len > SWX_ERRBODY_MAX)
        len = SWX_ERRBODY_MAX;
    size_t i = 0;
    while (i < len && isspace((unsigned char)body[i]))
        i++;
    if (i < len && (body[i] == '{' || body[i] == '['))
        return from_json(body + i, len - i, msg, msgsz, code, codesz);
    if (i < len && body[i] == '<') {
        if (swx_is_exception_doc(body + i, len - i))
            return from_xml(body + i, len - i, msg, msgsz, code, codesz);
        return 0; /* an HTML page or another document: nothing to quote */
    }
    if (content_type && strncasecmp(content_type, "text/plain", 10) == 0) {
        const char *nl = memchr(body + i, '\n', len - i);
        size_t n = nl ? (size_t)(nl - (body + i)) : len - i;
        if (n > 300)
            n = 300;
        put_line(msg, msgsz, body + i, n);
        return msg[0] != '\0';
    }
    return 0;
}

int swx_exception_code_is_permanent(const char *code)
{
    static const char *const permanent[] = {"InvalidFormat",
                                            "InvalidCRS",
                                            "InvalidSRS",
                                            "LayerNotDefined",
                                            "StyleNotDefined",
                                            "LayerNotQueryable",
                                            "InvalidPoint",
                                            "CurrentUpdateSequence",
                                            "InvalidUpdateSequence",
                                            "MissingDimensionValue",
                                            "InvalidDimensionValue",
                                            "OperationNotSupported",
                                            "MissingParameterValue",
                                            "InvalidParameterValue",
                                            "VersionNegotiationFailed",
                                            "OptionNotSupported",
                                            NULL};
    if (!code || !*code)
        return 0;
    for (int i = 0; permanent[i]; i++)
        if (strcasecmp(code, permanent[i]) == 0)
            return 1;
    return 0;
}
