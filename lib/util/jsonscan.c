/* jsonscan.c: a pull parser for one JSON text held in memory (see jsonscan.h). */
#include "jsonscan.h"

#include "hex.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void swx_jsonscan_reset(swx_jsonscan *js, const char *text, size_t len)
{
    js->base = js->p = text;
    js->end = text + len;
    js->depth = 0;
    js->failed = 0;
    js->nomem = 0;
    js->err_at = 0;
    js->err[0] = '\0';
}

void swx_jsonscan_release(swx_jsonscan *js)
{
    free(js->scratch);
    js->scratch = NULL;
    js->scap = 0;
}

const char *swx_jsonscan_error(const swx_jsonscan *js, size_t *at)
{
    if (at)
        *at = js->err_at;
    return js->failed ? js->err : NULL;
}

/* Records the first syntax error, at p. */
static int fail_at(swx_jsonscan *js, const char *p, const char *msg)
{
    if (js->failed)
        return -1;
    js->failed = 1;
    js->err_at = (size_t)(p - js->base);
    snprintf(js->err, sizeof js->err, "%s", msg);
    return -1;
}

/* "<want> expected, found <the byte at p>". */
static int fail_want(swx_jsonscan *js, const char *p, const char *want)
{
    char msg[sizeof js->err];
    if (p >= js->end) {
        snprintf(msg, sizeof msg, "%s expected, found the end of the text", want);
    } else {
        unsigned char c = (unsigned char)*p;
        if (c < 0x20 || c >= 0x7f)
            snprintf(msg, sizeof msg, "%s expected, found byte 0x%02x", want, c);
        else
            snprintf(msg, sizeof msg, "%s expected, found '%c'", want, c);
    }
    return fail_at(js, p, msg);
}

static inline void skip_ws(swx_jsonscan *js)
{
    const char *p = js->p, *e = js->end;
    if (p < e && (unsigned char)*p > ' ')
        return; /* the usual case: compact JSON */
    while (p < e && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
        p++;
    js->p = p;
}

static inline int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

swx_jsonscan_type swx_jsonscan_peek(swx_jsonscan *js)
{
    if (js->failed)
        return SWX_JSONSCAN_ERROR;
    skip_ws(js);
    if (js->p < js->end) {
        switch (*js->p) {
        case '{':
            return SWX_JSONSCAN_OBJECT;
        case '[':
            return SWX_JSONSCAN_ARRAY;
        case '"':
            return SWX_JSONSCAN_STRING;
        case 't':
        case 'f':
            return SWX_JSONSCAN_BOOL;
        case 'n':
            return SWX_JSONSCAN_NULL;
        default:
            if (*js->p == '-' || is_digit(*js->p))
                return SWX_JSONSCAN_NUMBER;
        }
    }
    fail_want(js, js->p, "a value");
    return SWX_JSONSCAN_ERROR;
}

int swx_jsonscan_enter(swx_jsonscan *js)
{
    if (js->failed)
        return -1;
    skip_ws(js);
    if (js->p >= js->end || (*js->p != '{' && *js->p != '['))
        return fail_want(js, js->p, "'{' or '['");
    if (js->depth >= SWX_JSONSCAN_DEPTH)
        return fail_at(js, js->p, "nested more than 64 levels deep");
    js->depth++;
    js->kind[js->depth] = *js->p;
    js->started[js->depth] = 0;
    js->p++;
    return 0;
}

/* The first '"' or '\\' in [p, e), or e. Eight bytes at a time where the
 * byte order allows: a byte equal to c is a zero byte of x ^ c, and the
 * lowest flagged byte of (y - 0x01..) & ~y & 0x80.. is the first zero byte
 * of y (borrows only run upwards from a zero byte). */
static inline const char *find_quote_or_backslash(const char *p, const char *e)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    while (e - p >= 8) {
        uint64_t x, q, b;
        memcpy(&x, p, 8);
        q = x ^ (ones * '"');
        b = x ^ (ones * '\\');
        uint64_t hit = ((q - ones) & ~q & highs) | ((b - ones) & ~b & highs);
        if (hit)
            return p + (__builtin_ctzll(hit) >> 3);
        p += 8;
    }
#endif
    while (p < e && *p != '"' && *p != '\\')
        p++;
    return p;
}

/* Reads a string at js->p (its opening quote). Without escapes the result
 * points into the text; with escapes it is decoded into the scratch buffer,
 * which is never longer than the string's source: every escape decodes to
 * fewer bytes than it takes (\uXXXX: at most 3, a surrogate pair: 4). */
static int read_escaped(swx_jsonscan *js, const char *start, const char *p, swx_jsonscan_str *out);

static inline int read_string(swx_jsonscan *js, swx_jsonscan_str *out)
{
    const char *start = js->p + 1, *e = js->end;
    const char *p = find_quote_or_backslash(start, e);
    if (p < e && *p == '"') {
        out->s = start;
        out->n = (size_t)(p - start);
        js->p = p + 1;
        return 0;
    }
    return read_escaped(js, start, p, out);
}

/* The rest of a string from p, its first backslash (or the end of the text). */
static int read_escaped(swx_jsonscan *js, const char *start, const char *p, swx_jsonscan_str *out)
{
    const char *e = js->end;
    /* Find the end first, so that the scratch buffer fits this string. */
    const char *q = p;
    while (q < e && *q != '"') {
        if (*q == '\\' && e - q < 2)
            q = e; /* a backslash ends the text */
        else
            q += *q == '\\' ? 2 : 1;
    }
    if (q >= e)
        return fail_want(js, e, "'\"' (the end of a string)");
    size_t need = (size_t)(q - start) + 1;
    if (need > js->scap) {
        size_t cap = js->scap ? js->scap : 256;
        while (cap < need)
            cap *= 2;
        if (cap > (size_t)(js->end - js->base) + 1)
            cap = need;
        char *b = realloc(js->scratch, cap);
        if (!b) {
            fail_at(js, js->p, "out of memory decoding a string");
            js->nomem = 1;
            return -1;
        }
        js->scratch = b;
        js->scap = cap;
    }
    char *d = js->scratch;
    for (const char *s = start; s < q;) {
        if (*s != '\\') {
            *d++ = *s++;
            continue;
        }
        const char *esc = s;
        s++;
        switch (*s++) {
        case '"':
            *d++ = '"';
            break;
        case '\\':
            *d++ = '\\';
            break;
        case '/':
            *d++ = '/';
            break;
        case 'b':
            *d++ = '\b';
            break;
        case 'f':
            *d++ = '\f';
            break;
        case 'n':
            *d++ = '\n';
            break;
        case 'r':
            *d++ = '\r';
            break;
        case 't':
            *d++ = '\t';
            break;
        case 'u': {
            unsigned cp = 0, lo = 0;
            for (int k = 0; k < 4; k++, s++) {
                char c = s < q ? *s : '\0';
                int v = swx_hex_value(c);
                if (v < 0)
                    return fail_at(js, esc, "four hex digits expected after \\u in a string");
                cp = cp * 16 + (unsigned)v;
            }
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                /* A high surrogate pairs with a following \uDC00-\uDFFF. */
                int ok = q - s >= 6 && s[0] == '\\' && s[1] == 'u';
                for (int k = 2; ok && k < 6; k++) {
                    char c = s[k];
                    int v = swx_hex_value(c);
                    ok = v >= 0;
                    lo = lo * 16 + (unsigned)v;
                }
                if (ok && lo >= 0xDC00 && lo <= 0xDFFF) {
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                    s += 6;
                } else {
                    cp = 0xFFFD;
                }
            } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                cp = 0xFFFD;
            }
            if (cp < 0x80) {
                *d++ = (char)cp;
            } else if (cp < 0x800) {
                *d++ = (char)(0xC0 | (cp >> 6));
                *d++ = (char)(0x80 | (cp & 0x3F));
            } else if (cp < 0x10000) {
                *d++ = (char)(0xE0 | (cp >> 12));
                *d++ = (char)(0x80 | ((cp >> 6) & 0x3F));
                *d++ = (char)(0x80 | (cp & 0x3F));
            } else {
                *d++ = (char)(0xF0 | (cp >> 18));
                *d++ = (char)(0x80 | ((cp >> 12) & 0x3F));
                *d++ = (char)(0x80 | ((cp >> 6) & 0x3F));
                *d++ = (char)(0x80 | (cp & 0x3F));
            }
            break;
        }
        default:
            return fail_at(js, esc,
                           "a bad escape in a string (\\\" \\\\ \\/ \\b \\f \\n \\r \\t "
                           "\\uXXXX are allowed)");
        }
    }
    out->s = js->scratch;
    out->n = (size_t)(d - js->scratch);
    js->p = q + 1;
    return 0;
}

int swx_jsonscan_member(swx_jsonscan *js, swx_jsonscan_str *key)
{
    if (js->failed)
        return -1;
    if (js->depth == 0 || js->kind[js->depth] != '{')
        return fail_at(js, js->p, "a member read outside an object");
    skip_ws(js);
    if (js->p < js->end && *js->p == '}') {
        js->p++;
        js->depth--;
        return 0;
    }
    if (js->started[js->depth]) {
        if (js->p >= js->end || *js->p != ',')
            return fail_want(js, js->p, "',' or '}'");
        js->p++;
        skip_ws(js);
    }
    if (js->p >= js->end || *js->p != '"')
        return fail_want(js, js->p,
                         js->started[js->depth] ? "a member name" : "a member name or '}'");
    js->started[js->depth] = 1;
    if (read_string(js, key))
        return -1;
    skip_ws(js);
    if (js->p >= js->end || *js->p != ':')
        return fail_want(js, js->p, "':'");
    js->p++;
    return 1;
}

int swx_jsonscan_element(swx_jsonscan *js)
{
    if (js->failed)
        return -1;
    if (js->depth == 0 || js->kind[js->depth] != '[')
        return fail_at(js, js->p, "an element read outside an array");
    skip_ws(js);
    if (js->p < js->end && *js->p == ']') {
        js->p++;
        js->depth--;
        return 0;
    }
    if (js->started[js->depth]) {
        if (js->p >= js->end || *js->p != ',')
            return fail_want(js, js->p, "',' or ']'");
        js->p++;
    }
    js->started[js->depth] = 1;
    return 1;
}

int swx_jsonscan_string(swx_jsonscan *js, swx_jsonscan_str *out)
{
    if (js->failed)
        return -1;
    skip_ws(js);
    if (js->p >= js->end || *js->p != '"')
        return fail_want(js, js->p, "a string");
    return read_string(js, out);
}

/* 10^0 .. 10^22: the powers of ten a double holds exactly. */
static const double exact_pow10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                       1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                       1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* Reads [start, end) (a checked number) with strtod or strtoll/strtoull,
 * from a NUL-terminated copy in the scratch buffer. */
static int number_slow(swx_jsonscan *js, const char *start, const char *end, int is_int,
                       swx_jsonscan_num *out)
{
    size_t n = (size_t)(end - start);
    if (n + 1 > js->scap) {
        char *b = realloc(js->scratch, n + 1);
        if (!b) {
            fail_at(js, start, "out of memory reading a number");
            js->nomem = 1;
            return -1;
        }
        js->scratch = b;
        js->scap = n + 1;
    }
    memcpy(js->scratch, start, n);
    js->scratch[n] = '\0';
    char *stop;
    if (is_int && *start == '-') {
        long long v = strtoll(js->scratch, &stop, 10); /* saturates */
        out->i = v;
        out->d = (double)v;
    } else if (is_int) {
        unsigned long long v = strtoull(js->scratch, &stop, 10); /* saturates */
        out->i = v > (unsigned long long)INT64_MAX ? INT64_MAX : (int64_t)v;
        out->d = (double)v;
    } else {
        out->d = strtod(js->scratch, &stop);
        out->i = 0;
    }
    if (stop != js->scratch + n)
        return fail_at(js, start, "a number the C library cannot read (locale?)");
    return 0;
}

int swx_jsonscan_number(swx_jsonscan *js, swx_jsonscan_num *out)
{
    if (js->failed)
        return -1;
    skip_ws(js);
    const char *p = js->p, *e = js->end, *start = p;
    int neg = 0, is_int = 1, inexact = 0, exp10 = 0;
    uint64_t m = 0;
    if (p < e && *p == '-') {
        neg = 1;
        p++;
    }
    if (p >= e || !is_digit(*p))
        return fail_want(js, p, "a digit");
    if (*p == '0') {
        p++;
        if (p < e && is_digit(*p))
            return fail_at(js, p, "a number with a leading zero");
    } else {
        for (; p < e && is_digit(*p); p++) {
            if (m < 100000000000000000ULL) /* 1e17: m * 10 + 9 still fits */
                m = m * 10 + (uint64_t)(*p - '0');
            else
                inexact = 1, exp10++;
        }
    }
    if (p < e && *p == '.') {
        is_int = 0;
        p++;
        if (p >= e || !is_digit(*p))
            return fail_want(js, p, "a digit after '.'");
        for (; p < e && is_digit(*p); p++) {
            if (m < 100000000000000000ULL) {
                m = m * 10 + (uint64_t)(*p - '0');
                exp10--;
            } else if (*p != '0') {
                inexact = 1;
            }
        }
    }
    if (p < e && (*p == 'e' || *p == 'E')) {
        int eneg = 0, ev = 0;
        is_int = 0;
        p++;
        if (p < e && (*p == '+' || *p == '-'))
            eneg = *p++ == '-';
        if (p >= e || !is_digit(*p))
            return fail_want(js, p, "a digit in the exponent");
        for (; p < e && is_digit(*p); p++)
            if (ev < 100000)
                ev = ev * 10 + (*p - '0');
        exp10 += eneg ? -ev : ev;
    }
    js->p = p;
    out->is_int = is_int;
    if (is_int) {
        if (inexact) /* 19 digits or more: the C library saturates as json-c does */
            return number_slow(js, start, p, 1, out);
        out->i = neg ? -(int64_t)m : (int64_t)m;
        out->d = (double)out->i;
        return 0;
    }
    out->i = 0;
    /* Both m and 10^|exp10| are exact doubles, so one correctly rounded
     * multiplication or division gives the correctly rounded value, the one
     * strtod gives (Clinger's fast path). */
    if (!inexact && m <= (1ULL << 53) && exp10 >= -22 && exp10 <= 22) {
        double d = (double)m;
        d = exp10 < 0 ? d / exact_pow10[-exp10] : d * exact_pow10[exp10];
        out->d = neg ? -d : d;
        return 0;
    }
    if (m == 0 && !inexact) {
        out->d = neg ? -0.0 : 0.0;
        return 0;
    }
    return number_slow(js, start, p, 0, out);
}

int swx_jsonscan_bool(swx_jsonscan *js, int *out)
{
    if (js->failed)
        return -1;
    skip_ws(js);
    size_t left = (size_t)(js->end - js->p);
    if (left >= 4 && memcmp(js->p, "true", 4) == 0) {
        *out = 1;
        js->p += 4;
        return 0;
    }
    if (left >= 5 && memcmp(js->p, "false", 5) == 0) {
        *out = 0;
        js->p += 5;
        return 0;
    }
    return fail_want(js, js->p, "true or false");
}

int swx_jsonscan_null(swx_jsonscan *js)
{
    if (js->failed)
        return -1;
    skip_ws(js);
    if ((size_t)(js->end - js->p) >= 4 && memcmp(js->p, "null", 4) == 0) {
        js->p += 4;
        return 0;
    }
    return fail_want(js, js->p, "null");
}

int swx_jsonscan_skip(swx_jsonscan *js)
{
    int base = js->depth;
    swx_jsonscan_str str;
    swx_jsonscan_num num;
    int b;
    for (;;) {
        /* One value... */
        switch (swx_jsonscan_peek(js)) {
        case SWX_JSONSCAN_OBJECT:
        case SWX_JSONSCAN_ARRAY:
            if (swx_jsonscan_enter(js))
                return -1;
            break;
        case SWX_JSONSCAN_STRING:
            if (read_string(js, &str))
                return -1;
            break;
        case SWX_JSONSCAN_NUMBER:
            if (swx_jsonscan_number(js, &num))
                return -1;
            break;
        case SWX_JSONSCAN_BOOL:
            if (swx_jsonscan_bool(js, &b))
                return -1;
            break;
        case SWX_JSONSCAN_NULL:
            if (swx_jsonscan_null(js))
                return -1;
            break;
        default:
            return -1;
        }
        /* ... then up through every container it completes, to the next
         * value or back to where the skip started. */
        for (;;) {
            if (js->depth == base)
                return 0;
            int more = js->kind[js->depth] == '{' ? swx_jsonscan_member(js, &str)
                                                  : swx_jsonscan_element(js);
            if (more < 0)
                return -1;
            if (more)
                break;
        }
    }
}

int swx_jsonscan_end(swx_jsonscan *js)
{
    if (js->failed)
        return -1;
    skip_ws(js);
    if (js->p != js->end)
        return fail_want(js, js->p, "the end of the text");
    return 0;
}
