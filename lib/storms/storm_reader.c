/* storm_reader.c: the streaming reader of a JSON array of storms, and files
 * read through it (see seawx/storm.h). */
#include "seawx/storm.h"

#include "buf.h"
#include "seawx/error.h"
#include "storm_json.h"
#include "storm_priv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the streaming reader ----
 *
 * The response is one JSON array of storm objects. The reader scans bytes as
 * they come, tracking strings (and their escapes) and nesting depth, to find
 * where each top-level element ends; an element that lies whole in the chunk
 * being fed is parsed in place, one that spans chunks is first copied into a
 * bounded buffer. Invariant: depth counts the open brackets of the current
 * element, 0 between elements. */
struct swx_storm_reader {
    swx_storm_fn fn;
    void *ud;
    swx_jsonscan js;
    swx_buf elem;
    enum { R_START, R_BEFORE, R_ELEM, R_AFTER, R_END } state;
    int depth, in_str, esc;
    const char *direct; /* the element's '{' in the chunk being fed, while none of
                           it is in elem: parsed in place, not copied */
    size_t count;
    size_t offset;     /* bytes seen, for messages */
    size_t elem_start; /* offset of the element's '{', counted from 1 */
    size_t held_max;   /* most JSON bytes held at once: elem plus the chunk fed */
};

int swx_storm_reader_new(swx_storm_reader **out, swx_storm_fn fn, void *ud)
{
    swx_storm_reader *r = calloc(1, sizeof *r);
    *out = NULL;
    if (!r)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    r->fn = fn;
    r->ud = ud;
    swx_buf_init(&r->elem, SWX_STORM_MAX_BYTES);
    *out = r;
    return 0;
}

void swx_storm_reader_free(swx_storm_reader *r)
{
    if (!r)
        return;
    swx_jsonscan_release(&r->js);
    swx_buf_free(&r->elem);
    free(r);
}

size_t swx_storm_reader_count(const swx_storm_reader *r)
{
    return r->count;
}

/* Hands a parsed storm to the callback. */
static int deliver(swx_storm_reader *r, swx_storm *s)
{
    r->count++;
    int rc = r->fn ? r->fn(r->ud, s) : 0;
    swx_storm_free(s);
    r->elem.len = 0;
    return rc;
}

/* Parses a complete element that the scanner delimited. */
static int element_done(swx_storm_reader *r, const char *text, size_t len)
{
    swx_storm *s = NULL;
    size_t at;
    if (len > SWX_STORM_MAX_BYTES)
        return swx_error_set(SWX_ETOOBIG, "a storm object is larger than %u MiB",
                             SWX_STORM_MAX_BYTES >> 20);
    int rc = swx_storm_json_parse(&s, NULL, &r->js, text, len);
    if (rc == SWX_STORM_SYNTAX && r->js.nomem)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    if (rc == SWX_STORM_SYNTAX) {
        const char *msg = swx_jsonscan_error(&r->js, &at);
        return swx_error_set(SWX_EPARSE, "malformed storm JSON in element %zu at byte %zu: %s",
                             r->count + 1, r->elem_start + at, msg);
    }
    if (rc)
        return rc;
    return deliver(r, s);
}

static int unexpected(swx_storm_reader *r, char ch, const char *want)
{
    if ((unsigned char)ch < 0x20 || (unsigned char)ch >= 0x7f)
        return swx_error_set(SWX_EPARSE,
                             "malformed storm JSON at byte %zu: byte 0x%02x where %s was expected",
                             r->offset, (unsigned char)ch, want);
    return swx_error_set(SWX_EPARSE, "malformed storm JSON at byte %zu: '%c' where %s was expected",
                         r->offset, ch, want);
}

/* Bytes the element scanner stops at outside strings. */
static const unsigned char scan_stop[256] = {['"'] = 1, ['{'] = 1, ['['] = 1, ['}'] = 1, [']'] = 1};

/* Scans data[i, len) of the current element. Returns where it stopped: just
 * after the element's last byte (depth 0), or len. */
static size_t scan_element(swx_storm_reader *r, const char *data, size_t i, size_t len, int *rc)
{
    int depth = r->depth, in_str = r->in_str, esc = r->esc;
    size_t j = i;
    *rc = 0;
    while (j < len) {
        if (esc) {
            esc = 0;
            j++;
            continue;
        }
        if (in_str) {
            while (j < len && data[j] != '"' && data[j] != '\\')
                j++;
            if (j == len)
                break;
            if (data[j] == '\\')
                esc = 1;
            else
                in_str = 0;
            j++;
            continue;
        }
        while (j < len && !scan_stop[(unsigned char)data[j]])
            j++;
        if (j == len)
            break;
        char d = data[j++];
        if (d == '"') {
            in_str = 1;
        } else if (d == '{' || d == '[') {
            if (++depth > 64) {
                *rc = swx_error_set(SWX_EPARSE, "storm JSON nested too deeply");
                break;
            }
        } else if (--depth == 0) {
            break;
        }
    }
    r->depth = depth;
    r->in_str = in_str;
    r->esc = esc;
    return j;
}

void swx_storm_reader_reset(swx_storm_reader *r)
{
    r->state = R_START;
    r->depth = r->in_str = r->esc = 0;
    r->direct = NULL;
    r->count = 0;
    r->offset = 0;
    r->elem_start = 0;
    r->elem.len = 0;
}

size_t swx_storm_reader_held_max(const swx_storm_reader *r)
{
    return r->held_max;
}

int swx_storm_reader_feed(swx_storm_reader *r, const char *data, size_t len)
{
    size_t i = 0;
    int rc;
    if (r->elem.len + len > r->held_max)
        r->held_max = r->elem.len + len;
    while (i < len) {
        char ch = data[i];
        if (r->state == R_ELEM) {
            size_t j = scan_element(r, data, i, len, &rc);
            if (rc)
                return rc;
            r->offset += j - i;
            if (r->depth == 0 && r->direct) {
                rc = element_done(r, r->direct, (size_t)(data + j - r->direct));
                r->direct = NULL;
            } else {
                /* Keep what the chunk holds of the element for the next feed. */
                const char *from = r->direct ? r->direct : data + i;
                r->direct = NULL;
                if ((rc = swx_buf_append(&r->elem, from, (size_t)(data + j - from))))
                    return swx_error_set(rc, "a storm object is larger than %u MiB",
                                         SWX_STORM_MAX_BYTES >> 20);
                if (r->depth == 0)
                    rc = element_done(r, r->elem.data, r->elem.len);
            }
            if (rc)
                return rc;
            if (r->depth == 0)
                r->state = R_AFTER;
            i = j;
            continue;
        }
        r->offset++;
        i++;
        if (ch == ' ' || ch == '\n' || ch == '\r' || ch == '\t')
            continue;
        switch (r->state) {
        case R_START:
            if (ch != '[') {
                if (ch == '{')
                    return swx_error_set(SWX_ESERVICE,
                                         "the storm answer is a JSON object, not an array of "
                                         "storms");
                return unexpected(r, ch, "'[' (an array of storms)");
            }
            r->state = R_BEFORE;
            break;
        case R_BEFORE:
            if (ch == ']' && r->count == 0) {
                r->state = R_END;
                break;
            }
            if (ch != '{')
                return unexpected(r, ch, "'{' (a storm object)");
            r->elem_start = r->offset;
            /* Most elements lie whole in the chunk: parse them in place, the
             * parser finding where they end. One that does not parse (it runs
             * past the chunk, or is malformed) goes through the scanner, so
             * that it is parsed (and its errors reported) once complete. */
            {
                swx_storm *s = NULL;
                size_t left = len - (i - 1), used = 0;
                rc = swx_storm_json_parse(&s, &used, &r->js, data + i - 1,
                                          left < SWX_STORM_MAX_BYTES ? left : SWX_STORM_MAX_BYTES);
                if (rc == 0) {
                    r->offset += used - 1;
                    i += used - 1;
                    r->state = R_AFTER;
                    if ((rc = deliver(r, s)))
                        return rc;
                    break;
                }
                if (rc != SWX_STORM_SYNTAX)
                    return rc;
            }
            r->state = R_ELEM;
            r->depth = 1;
            r->in_str = r->esc = 0;
            r->elem.len = 0;
            r->direct = data + i - 1;
            break;
        case R_AFTER:
            if (ch == ',')
                r->state = R_BEFORE;
            else if (ch == ']')
                r->state = R_END;
            else
                return unexpected(r, ch, "',' or ']'");
            break;
        case R_END:
            return unexpected(r, ch, "the end of the document");
        case R_ELEM:
            break;
        }
    }
    /* An element whose '{' was the chunk's last byte: keep it, the chunk
     * is gone after this call. */
    if (r->direct) {
        rc = swx_buf_append(&r->elem, r->direct, (size_t)(data + len - r->direct));
        r->direct = NULL;
        if (rc)
            return swx_error_set(rc, "a storm object is larger than %u MiB",
                                 SWX_STORM_MAX_BYTES >> 20);
    }
    return 0;
}

int swx_storm_reader_finish(swx_storm_reader *r)
{
    if (r->state != R_END)
        return swx_error_set(SWX_EPARSE,
                             "storm JSON ends early after %zu bytes (truncated?): the array of "
                             "storms is not closed",
                             r->offset);
    return 0;
}

int swx_storm_read_file(const char *path, swx_storm_fn fn, void *ud)
{
    swx_storm_reader *r = NULL;
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    char *chunk = NULL;
    int rc;
    if (!f)
        return swx_error_set(SWX_EIO, "cannot open %s: %s", path, strerror(errno));
    if ((rc = swx_storm_reader_new(&r, fn, ud)))
        goto done;
    if (!(chunk = malloc(1 << 20))) {
        rc = swx_error_set(SWX_ENOMEM, "out of memory");
        goto done;
    }
    for (;;) {
        size_t n = fread(chunk, 1, 1 << 20, f);
        if (n && (rc = swx_storm_reader_feed(r, chunk, n))) {
            swx_error_prefix(rc, "%s", path);
            goto done;
        }
        if (n < (1 << 20))
            break;
    }
    if (ferror(f)) {
        rc = swx_error_set(SWX_EIO, "reading %s failed", path);
        goto done;
    }
    if ((rc = swx_storm_reader_finish(r)))
        swx_error_prefix(rc, "%s", path);
done:
    free(chunk);
    swx_storm_reader_free(r);
    if (f && f != stdin)
        fclose(f);
    return rc;
}
