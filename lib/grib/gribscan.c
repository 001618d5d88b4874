/* gribscan.c: the GRIB2 section walker (see gribscan.h). Written here rather
 * than asked of ecCodes because it must work on the first kilobyte of a
 * message that is not fetched yet (ecCodes decodes whole messages); it reads
 * header fields only and never encodes. */
#include "gribscan.h"

#include "seawx/error.h"

#include <math.h>
#include <string.h>

static uint32_t u32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static unsigned u16(const uint8_t *p)
{
    return (unsigned)p[0] << 8 | p[1];
}

/* GRIB2 signed integers: the top bit is the sign, the rest the magnitude. */
static int32_t s32(const uint8_t *p)
{
    uint32_t v = u32(p);
    return (v & 0x80000000u) ? -(int32_t)(v & 0x7fffffffu) : (int32_t)v;
}

static int s8(uint8_t v)
{
    return (v & 0x80) ? -(int)(v & 0x7f) : (int)v;
}

/* Days from 1970-01-01 to the civil date (proleptic Gregorian). */
static int64_t days_from_civil(int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    unsigned yoe = (unsigned)(y - era * 400);
    unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (int64_t)doe - 719468;
}

/* A date as GRIB2 writes it (year in 2 bytes, then month, day, hour,
 * minute, second); -1 when it is not a date. */
static int date_at(int64_t *t, const uint8_t *p)
{
    unsigned y = u16(p), mo = p[2], d = p[3], h = p[4], mi = p[5], s = p[6];
    if (y < 1900 || y > 2999 || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59)
        return -1;
    *t = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + s;
    return 0;
}

static int64_t unit_seconds(int unit)
{
    switch (unit) {
    case 0:
        return 60;
    case 1:
        return 3600;
    case 2:
        return 86400;
    case 10:
        return 3 * 3600;
    case 11:
        return 6 * 3600;
    case 12:
        return 12 * 3600;
    case 13:
        return 1;
    default:
        return 0;
    }
}

int swx_grib_message_whole(const uint8_t *p, size_t n)
{
    if (n < 20 || memcmp(p, "GRIB", 4) != 0 || p[7] != 2 || memcmp(p + n - 4, "7777", 4) != 0)
        return 0;
    return u32(p + 8) == 0 && u32(p + 12) == n;
}

static int bad(const char *what, const char *why)
{
    return swx_error_set(SWX_EPARSE, "%s: %s", what, why);
}

static int read_grid(swx_grib_head *h, const uint8_t *s, uint32_t len)
{
    h->grid_template = (int)u16(s + 12);
    if (h->grid_template != 0 || len < 72)
        return 0;
    h->ni = u32(s + 30);
    h->nj = u32(s + 34);
    uint32_t basic = u32(s + 38), sub = u32(s + 42);
    double unit = 1e-6;
    if (basic != 0 && basic != 0xffffffffu && sub != 0 && sub != 0xffffffffu)
        unit = (double)basic / (double)sub;
    h->lat1 = s32(s + 46) * unit;
    h->lon1 = s32(s + 50) * unit;
    h->lat2 = s32(s + 55) * unit;
    h->lon2 = s32(s + 59) * unit;
    h->di = u32(s + 63) == 0xffffffffu ? 0 : u32(s + 63) * unit;
    h->dj = u32(s + 67) == 0xffffffffu ? 0 : u32(s + 67) * unit;
    h->scan = s[71];
    return 0;
}

static int read_product(swx_grib_head *h, const uint8_t *s, uint32_t len, const char *what)
{
    h->pdt = (int)u16(s + 7);
    if ((h->pdt != 0 && h->pdt != 8) || len < 34)
        return 0;
    h->category = s[9];
    h->number = s[10];
    int64_t unit = unit_seconds(s[17]);
    h->forecast = (int64_t)u32(s + 18) * unit;
    h->surface = s[22];
    if (s[22] != 255 && u32(s + 24) != 0xffffffffu && s[23] != 0xff)
        h->level = u32(s + 24) * pow(10.0, -s8(s[23]));
    if (h->pdt == 8) {
        int64_t end;
        if (len < 41 || date_at(&end, s + 34) != 0)
            return bad(what, "the end of a statistical period is not a date");
        h->forecast = end - h->reftime;
    }
    return 0;
}

int swx_grib_head_read(swx_grib_head *h, uint64_t *need, const uint8_t *p, size_t n,
                       const char *what)
{
    memset(h, 0, sizeof *h);
    h->surface = 255;
    *need = 16;
    if (n < 16)
        return n >= 4 && memcmp(p, "GRIB", 4) != 0 ? bad(what, "not a GRIB file") : 1;
    if (memcmp(p, "GRIB", 4) != 0)
        return bad(what, "not a GRIB file");
    if (p[7] == 1)
        return bad(what, "a GRIB edition 1 message (forecast files are GRIB2)");
    if (p[7] != 2)
        return bad(what, "not a GRIB file (unknown edition)");
    h->discipline = p[6];
    if (u32(p + 8) != 0)
        return bad(what, "a GRIB2 message longer than 4 GiB");
    h->length = u32(p + 12);
    if (h->length < 16 + 21 + 4)
        return bad(what, "a GRIB2 message shorter than its sections");
    if (h->length > SWX_GRIB_MAX_MESSAGE)
        return swx_error_set(SWX_ETOOBIG, "%s: a GRIB2 message of %llu bytes (at most %u read)",
                             what, (unsigned long long)h->length, SWX_GRIB_MAX_MESSAGE);
    uint64_t off = 16;
    int last = 0; /* the last section number read */
    while (last < 5) {
        if (off + 5 > h->length - 4)
            return bad(what, "a GRIB2 message ends before its data");
        if (off + 5 > n) {
            *need = off + 5;
            return 1;
        }
        uint32_t len = u32(p + off);
        int num = p[off + 4];
        if (len < 5 || off + len > h->length - 4)
            return bad(what, "a GRIB2 section overruns its message");
        if (num <= last || num > 7 || (last == 0 && num != 1) ||
            (num >= 3 && num != last + 1 && !(last == 1 && num == 3)))
            return bad(what, "GRIB2 sections out of order");
        if (num != 2 && off + len > n) {
            *need = off + len;
            return 1;
        }
        const uint8_t *s = p + off;
        int rc = 0;
        switch (num) {
        case 1:
            if (len < 21 || date_at(&h->reftime, s + 12) != 0)
                return bad(what, "the reference time is not a date");
            break;
        case 3:
            if (len < 14)
                return bad(what, "a grid section too short");
            rc = read_grid(h, s, len);
            break;
        case 4:
            if (len < 9)
                return bad(what, "a product section too short");
            rc = read_product(h, s, len, what);
            break;
        case 5:
            if (len < 11)
                return bad(what, "a data representation section too short");
            h->npacked = u32(s + 5);
            h->drt = (int)u16(s + 9);
            if ((h->drt == 0 || h->drt == 2 || h->drt == 3) && len >= 20) {
                h->bits = s[19];
                /* sign and magnitude (GRIB2 regulation 92.1.5) */
                h->escale = (s[15] & 0x80 ? -1 : 1) * (int)(u16(s + 15) & 0x7fff);
                h->dscale = (s[17] & 0x80 ? -1 : 1) * (int)(u16(s + 17) & 0x7fff);
            }
            break;
        default:
            break;
        }
        if (rc)
            return rc;
        last = num;
        off += len;
    }
    /* Sections 6 and 7, when already read: no bitmap, then the values. */
    if (off + 6 <= n && off + 6 <= h->length - 4 && p[off + 4] == 6 && p[off + 5] == 255) {
        uint64_t s7 = off + u32(p + off);
        if (u32(p + off) >= 6 && s7 + 5 <= n && s7 + 5 <= h->length - 4 && p[s7 + 4] == 7 &&
            s7 + u32(p + s7) == h->length - 4)
            h->data_at = s7 + 5;
    }
    return 0;
}
