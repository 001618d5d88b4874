/* vessels.c: vessel pages with EVD (see vessels.h). */
#include "vessels.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "data.h"
#include "jout.h"

static const char *const cats[] = {"capacity",
                                   "design",
                                   "dimensions",
                                   "history",
                                   "propulsions",
                                   "registration",
                                   "vessel_and_trading_type"};
#define NCATS (sizeof(cats) / sizeof(cats[0]))
#define CURSOR_XOR 0x5EA5u

/* Bit per category of the embed parameter; 0 when it is malformed. */
static unsigned embed_mask(const char *s)
{
    unsigned mask = 0;
    const char *p = s;
    if (s == NULL || *s == '\0')
        return 0;
    if (strcmp(s, "enhanced_data") == 0)
        return (1u << NCATS) - 1;
    while (p != NULL) {
        const char *comma = strchr(p, ',');
        size_t n = comma != NULL ? (size_t)(comma - p) : strlen(p);
        size_t i;
        if (n <= 14 || strncmp(p, "enhanced_data.", 14) != 0)
            return 0;
        for (i = 0; i < NCATS; i++)
            if (strlen(cats[i]) == n - 14 && strncmp(p + 14, cats[i], n - 14) == 0)
                break;
        if (i == NCATS)
            return 0;
        mask |= 1u << i;
        p = comma != NULL ? comma + 1 : NULL;
    }
    return mask;
}

static void category(struct sim_jout *j, size_t c, unsigned i, int premium)
{
    int nulls = i % 3 == 2;
    static const char *const builders[] = {"Hyundai Heavy Industries", "Meyer Werft",
                                           "Damen Shipyards", "Fincantieri"};
    static const char *const types[] = {"Tanker", "Bulk Carrier", "Container Ship",
                                        "General Cargo"};
    sim_jout_begin(j, cats[c], '{');
    switch (c) {
    case 0: /* capacity */
        sim_jout_int(j, "dwt", 20000 + i * 7331);
        sim_jout_int(j, "gross_tonnage", 15000 + i * 5113);
        if (premium) {
            if (nulls)
                sim_jout_null(j, "displacement");
            else
                sim_jout_num(j, "displacement", 30000.5 + i * 9000, 1);
            sim_jout_num(j, "grain_cubic_capacity", 40000 + i * 1000, 1);
            sim_jout_null(j, "liquid_cubic_98_percent");
            sim_jout_int(j, "net_tonnage", 8000 + i * 2100);
            sim_jout_num(j, "teu", i % 4 == 2 ? 1800 + i * 10 : 0, 0);
            sim_jout_num(j, "tpcmi", 45.5 + i, 1);
        }
        break;
    case 1: /* design */
        if (premium)
            sim_jout_int(j, "coated", i % 2);
        break;
    case 2: /* dimensions */
        if (premium) {
            if (nulls)
                sim_jout_null(j, "air_draught");
            else
                sim_jout_num(j, "air_draught", 38.5 + i, 2);
            sim_jout_num(j, "draught", 9.5 + i * 0.5, 2);
            sim_jout_null(j, "ktm");
            sim_jout_num(j, "loa", 150 + i * 12.5, 2);
        }
        break;
    case 3: /* history */
        sim_jout_int(j, "built_year", 1995 + (i * 3) % 28);
        if (premium) {
            sim_jout_str(j, "commercial_owner", "Northwind Shipping AS");
            if (i == 0)
                sim_jout_int(j, "dead_year", 2023);
            else
                sim_jout_null(j, "dead_year");
            sim_jout_str(j, "hull_number", "H-2281");
            sim_jout_str(j, "ship_builder", builders[i % 4]);
            sim_jout_str(j, "name_date", "2015-06-01T00:00:00+00:00");
        }
        break;
    case 4: /* propulsions */
        if (premium) {
            sim_jout_str(j, "engine_designation", "6S60MC-C");
            sim_jout_str(j, "main_engine_designer", "MAN B&W");
            sim_jout_int(j, "main_engines", 1);
            sim_jout_num(j, "mco", 12000 + i * 500, 0);
            sim_jout_str(j, "mco_unit", "kW");
            if (nulls)
                sim_jout_null(j, "mcorpm");
            else
                sim_jout_num(j, "mcorpm", 105, 0);
            sim_jout_str(j, "propeller_type", nulls ? NULL : "FP");
            sim_jout_int(j, "propellers", 1);
            sim_jout_str(j, "propulsion_type", "OI");
        }
        break;
    case 5: /* registration */
        if (premium) {
            sim_jout_str(j, "class_1_code", "DNV");
            sim_jout_str(j, "ice_class", i % 2 ? "1A" : NULL);
            sim_jout_bool(j, "ice_classed", i % 2);
        }
        break;
    default: /* vessel_and_trading_type */
        sim_jout_str(j, "vessel_type", types[i % 4]);
        sim_jout_str(j, "subtype", i % 2 ? "Crude Oil Tanker" : "Handysize");
        if (premium) {
            sim_jout_str(j, "trading_category", "Tanker");
            sim_jout_str(j, "trading_status", i == 0 ? "Scrapped" : "Active");
        }
        break;
    }
    sim_jout_end(j, '}');
}

int sim_vessels_handle(struct sim_request *rq)
{
    unsigned mask = embed_mask(sim_http_arg(rq, "embed"));
    const char *ls = sim_http_arg(rq, "limit");
    const char *next = sim_http_arg(rq, "next");
    const char *tier = getenv("SEAWX_SIM_VESSELS_TIER");
    int premium = tier == NULL || strcmp(tier, "standard") != 0;
    unsigned long total = (unsigned long)sim_data_env("SEAWX_SIM_VESSELS", 7, 0, 100000);
    unsigned long limit = 3, offset = 0;
    struct sim_buf b;
    struct sim_jout j;
    char name[64], id[32], cursor[32];

    if (sim_http_arg(rq, "embed") != NULL && mask == 0)
        return sim_data_bad(rq, "embed must be enhanced_data, enhanced_data.CATEGORY or a comma "
                                "list of those; categories are capacity, design, dimensions, "
                                "history, propulsions, registration, vessel_and_trading_type");
    if (ls != NULL) {
        char *end;
        limit = strtoul(ls, &end, 10);
        if (*ls < '0' || *ls > '9' || *end != '\0' || limit < 1 || limit > 1000)
            return sim_data_bad(rq, "limit must be 1 to 1000");
    }
    if (next != NULL) {
        char *end;
        if (next[0] != 'c' || next[1] == '\0')
            return sim_data_bad(rq, "next is not a cursor this API gave");
        offset = strtoul(next + 1, &end, 16);
        if (*end != '\0')
            return sim_data_bad(rq, "next is not a cursor this API gave");
        offset ^= CURSOR_XOR;
        if (offset > total)
            return sim_data_bad(rq, "next is not a cursor this API gave");
    }
    sim_buf_init(&b, 16u << 20);
    sim_jout_init(&j, &b, NULL);
    sim_jout_begin(&j, NULL, '{');
    sim_jout_begin(&j, "paging", '{');
    sim_jout_int(&j, "limit", (long long)limit);
    sim_jout_int(&j, "total", (long long)total);
    if (offset + limit < total) {
        snprintf(cursor, sizeof(cursor), "c%lx", (offset + limit) ^ CURSOR_XOR);
        sim_jout_str(&j, "next", cursor);
    }
    sim_jout_end(&j, '}');
    sim_jout_begin(&j, "data", '[');
    for (unsigned long k = offset; k < offset + limit && k < total; k++) {
        unsigned i = (unsigned)k;
        snprintf(id, sizeof(id), "v-%lu", 1001 + k);
        snprintf(name, sizeof(name), "NORTHWIND %lu", k + 1);
        sim_jout_begin(&j, NULL, '{');
        sim_jout_str(&j, "id", id);
        sim_jout_int(&j, "imo", 9100000 + (long long)k * 7);
        sim_jout_int(&j, "mmsi", 257000000 + (long long)k);
        sim_jout_str(&j, "name", name);
        if (mask != 0 && i % 5 == 4) {
            sim_jout_null(&j, "_embedded");
        } else if (mask != 0) {
            sim_jout_begin(&j, "_embedded", '{');
            sim_jout_begin(&j, "enhanced_data", '{');
            sim_jout_begin(&j, "_embedded", '{');
            for (size_t c = 0; c < NCATS; c++)
                if (mask & (1u << c))
                    category(&j, c, i, premium);
            sim_jout_end(&j, '}');
            sim_jout_end(&j, '}');
            sim_jout_end(&j, '}');
        }
        sim_jout_end(&j, '}');
    }
    sim_jout_end(&j, ']');
    sim_jout_end(&j, '}');
    return sim_data_json(rq, &b);
}
