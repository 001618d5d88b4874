/* chart_plan.c: the departure plan's chart, drawn (swx_chart_plan_draw in
 * plan_chart.h; swx_plan_chart_png in seawx/plan.h checks the arguments,
 * loads this library and writes the file). Built into libseawx_chart alone:
 * only this file needs cairo, and through it fontconfig.
 *
 * The page, top to bottom: the title (route length, speed band) and a line
 * naming the departures; the grid, one column per departure and one row per
 * sample point (0 nm at the top), each cell coloured by the fixed ramp of the
 * chosen variable, grey where there is no forecast, hatched and outlined in
 * black inside a storm; the row of verdicts, one box per departure, under its
 * column; the departure times (thinned so that labels never overlap); the
 * key. The colour scale with its unit stands right of the grid, the distance
 * axis left of it. Every length derives from the font size, which follows the
 * image's size, so a small chart and a large one look alike. */
#include "seawx/plan.h"

#include "plan_chart.h"
#include "plan_result.h"
#include "chart_draw.h"
#include "seawx/error.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* A ramp: colours at fixed values, linear in between, clamped at both ends.
 * Wind follows the Beaufort scale's feel (light blue calm, green breeze,
 * yellow and orange near gale, red gale, purple storm); waves the Douglas sea
 * state's (calm to slight blue, moderate green, rough orange, very rough red,
 * high purple). Both share the colours, so a cell reads the same in either. */
#define RAMP_N 10
typedef struct ramp {
    double v[RAMP_N];
    const char *unit;
    double tick; /* legend tick step */
} ramp;

static const unsigned ramp_rgb[RAMP_N] = {0xe3f2fd, 0x90caf9, 0x4fc3a1, 0xa6d96a, 0xfee08b,
                                          0xfdae61, 0xf46d43, 0xd73027, 0xa50026, 0x6a1b9a};
static const ramp wind_ramp = {{0, 5, 10, 15, 20, 25, 30, 35, 40, 50}, "kn", 10};
static const ramp wave_ramp = {{0, 0.5, 1, 1.5, 2, 2.5, 3, 4, 5.5, 8}, "m", 1};

#define NAN_RGB 0xbdbdbd
#define BG_RGB 0xffffff
#define INK_RGB 0x212121
#define SOFT_RGB 0x616161
static const unsigned verdict_rgb[3] = {0x2e9e44, 0xf0a400, 0xd7301f};
static const char *const verdict_label[3] = {"go", "marginal", "no-go"};

static void ramp_colour(cairo_t *cr, const ramp *r, double v)
{
    if (isnan(v)) {
        swx__chart_rgb(cr, NAN_RGB);
        return;
    }
    if (v <= r->v[0]) {
        swx__chart_rgb(cr, ramp_rgb[0]);
        return;
    }
    for (int k = 1; k < RAMP_N; k++)
        if (v < r->v[k]) {
            double t = (v - r->v[k - 1]) / (r->v[k] - r->v[k - 1]);
            unsigned a = ramp_rgb[k - 1], b = ramp_rgb[k];
            double c[3];
            for (int ch = 0; ch < 3; ch++) {
                int sh = 16 - 8 * ch;
                c[ch] = (((a >> sh) & 255) * (1 - t) + ((b >> sh) & 255) * t) / 255.0;
            }
            cairo_set_source_rgb(cr, c[0], c[1], c[2]);
            return;
        }
    swx__chart_rgb(cr, ramp_rgb[RAMP_N - 1]);
}

/* ---- text ---- */

/* "12", "12.5": a number as a navigator writes it. */
static void num(char *out, size_t n, double v)
{
    snprintf(out, n, "%.1f", v);
    size_t l = strlen(out);
    if (l > 2 && !strcmp(out + l - 2, ".0"))
        out[l - 2] = '\0';
}

/* "Fri 27 Nov 06Z" (year 0) or "Fri 27 Nov 2026 06Z" (year 1), UTC. */
static void depart_label(char *out, size_t n, int64_t t, int year)
{
    time_t tt = (time_t)t;
    struct tm tm;
    if (!gmtime_r(&tt, &tm) || !strftime(out, n, year ? "%a %d %b %Y %HZ" : "%a %d %b %HZ", &tm))
        snprintf(out, n, "?");
}

/* The letter under a verdict that says which rule decided it, and the
 * words the key gives it (SWX_PLAN_RULE_*). */
static const struct {
    char letter;
    const char *words;
} rules[] = {
    [SWX_PLAN_RULE_STORM] = {'T', "a tropical storm (its 34 kt winds, danger area, or near)"},
    [SWX_PLAN_RULE_WIND] = {'W', "wind"},
    [SWX_PLAN_RULE_GUST] = {'G', "gusts"},
    [SWX_PLAN_RULE_WAVE] = {'S', "sea (waves)"},
    [SWX_PLAN_RULE_UPWIND] = {'U', "hours upwind"},
    [SWX_PLAN_RULE_BECALMED] = {'C', "becalmed"},
    [SWX_PLAN_RULE_PARTIAL] = {'F', "the forecast ends first"},
};
#define NRULES ((int)(sizeof rules / sizeof rules[0]))

static int rule_of(const swx_plan_departure *d)
{
    return d->verdict != SWX_PLAN_GO && d->rule > 0 && d->rule < NRULES ? d->rule : 0;
}

static void step_label(char *out, size_t n, int64_t s)
{
    if (s > 0 && s % 86400 == 0)
        snprintf(out, n, "%lld d", (long long)(s / 86400));
    else if (s > 0 && s % 3600 == 0)
        snprintf(out, n, "%lld h", (long long)(s / 3600));
    else
        snprintf(out, n, "%lld min", (long long)(s / 60));
}

/* ---- layout ---- */

typedef struct layout {
    int W, H;
    double fs, m;          /* body font size, margin */
    double gx, gy, gw, gh; /* the grid */
    double vy, vh;         /* the verdict row */
    double wy;             /* the centre line of the row of reasons' letters */
    double mark_y;         /* the best departure's mark: its tip */
    double lx;             /* the legend bar's left */
    double bar_w;
    double xl_y;     /* the departure labels' centre line */
    double xt_y;     /* the x axis title's centre line */
    double key_y;    /* the key's first line */
    double key_line; /* a key line's height */
} layout;

/* Column i's (or row j's) edges in whole pixels, so that cells abut exactly. */
static double edge(double origin, double len, size_t k, size_t n)
{
    return origin + round(len * (double)k / (double)n);
}

/* The key: swatches and their labels, in lines that fit the width. Draws
 * when draw is set; returns the number of lines. */
static int key(cairo_t *cr, const layout *L, int draw)
{
    static const char *const more[2] = {"no forecast", "storm (danger area, 34 kt)"};
    double sw = L->fs * 1.1, gap = L->fs * 0.45, sep = L->fs * 1.4;
    double x = L->gx, right = L->W - L->m;
    int line = 0;
    swx__chart_font(cr, L->fs, 0);
    for (int k = 0; k < 5; k++) {
        const char *label = k < 3 ? verdict_label[k] : more[k - 3];
        double w = sw + gap + swx__chart_text_w(cr, label);
        if (x > L->gx && x + w > right) {
            line++;
            x = L->gx;
        }
        if (draw) {
            double cy = L->key_y + line * L->key_line, y0 = round(cy - sw / 2);
            double x0 = round(x), s = round(sw);
            swx__chart_rgb(cr, k < 3 ? verdict_rgb[k] : k == 3 ? NAN_RGB : BG_RGB);
            cairo_rectangle(cr, x0, y0, s, s);
            cairo_fill(cr);
            if (k == 4) {
                cairo_save(cr);
                cairo_rectangle(cr, x0, y0, s, s);
                cairo_clip(cr);
                swx__chart_rgb(cr, 0);
                cairo_set_line_width(cr, 1);
                for (double d = -s; d < s; d += 4) {
                    cairo_move_to(cr, x0 + d, y0 + s);
                    cairo_line_to(cr, x0 + d + s, y0);
                }
                cairo_stroke(cr);
                cairo_restore(cr);
                swx__chart_rgb(cr, 0);
                cairo_set_line_width(cr, 2);
                cairo_rectangle(cr, x0 + 1, y0 + 1, s - 2, s - 2);
                cairo_stroke(cr);
            }
            swx__chart_rgb(cr, INK_RGB);
            swx__chart_text_at(cr, x + sw + gap, cy, 0, label);
        }
        x += w + sep;
    }
    return line + 1;
}

static void make_layout(layout *L, cairo_t *cr, const swx_plan *p, const ramp *r)
{
    char b[64];
    L->fs = fmin(fmax(fmin(L->W / 75.0, L->H / 48.0), 9.0), 22.0);
    L->m = round(L->fs * 1.2);
    double fs = L->fs;
    /* top: the title, the departures' line, the best departure's line and
     * the room for its mark */
    double top = L->m + fs * 1.5 + fs * 1.6 + fs * 1.6 + fs * 1.5;
    /* left: the axis title (turned) and the distance labels */
    swx__chart_font(cr, fs, 0);
    num(b, sizeof b, p->sample_nm[p->ns - 1]);
    double ylab = fmax(swx__chart_text_w(cr, b), swx__chart_text_w(cr, "Verdict"));
    double left = L->m + fs * 1.3 + fs * 0.6 + ylab + fs * 0.5;
    /* right: the legend bar, its ticks and numbers */
    num(b, sizeof b, r->v[RAMP_N - 1]);
    L->bar_w = round(fs * 1.3);
    double right = fs * 1.2 + L->bar_w + fs * 0.4 +
                   fmax(swx__chart_text_w(cr, b), swx__chart_text_w(cr, r->unit)) + L->m;
    L->gx = round(left);
    L->gw = round(L->W - right - left);
    L->lx = L->gx + L->gw + round(fs * 1.2);
    /* bottom: the verdicts, the departure labels, the axis title, the key */
    L->vh = round(fs * 1.5);
    L->key_line = fs * 1.6;
    L->gy = round(top);
    int lines = key(cr, L, 0);
    double below = fs * 0.5 + L->vh + fs * 1.3 + fs * 0.5 + fs * 1.4 + fs * 1.5 + fs * 0.6 +
                   (lines + 1) * L->key_line + L->m;
    L->gh = round(L->H - below - L->gy);
    L->mark_y = L->gy - round(fs * 0.25);
    L->vy = L->gy + L->gh + round(fs * 0.5);
    L->wy = L->vy + L->vh + fs * 0.65;
    L->xl_y = L->vy + L->vh + fs * 1.3 + fs * 0.5 + fs * 0.7;
    L->xt_y = L->xl_y + fs * 1.45;
    L->key_y = L->xt_y + fs * 0.75 + fs * 0.6 + L->key_line / 2;
}

/* ---- drawing ---- */

/* The best departure in words, from the plan's own figures: "Best
 * departure: Fri 27 Nov 2026 12Z, go: wind up to 18 kn, waves up to 1.5 m";
 * or that none is go or marginal. */
static void draw_best_line(cairo_t *cr, const layout *L, const swx_plan *p, double w)
{
    char line[512], when[48], wind[32] = "", wave[32] = "";
    if (!p->best || p->best > p->n) {
        snprintf(line, sizeof line,
                 "No departure is go or marginal: every one is no-go (why: the letter under "
                 "each verdict)");
    } else {
        const swx_plan_departure *d = &p->rows[p->best - 1];
        depart_label(when, sizeof when, d->depart, 1);
        /* the figures the reason does not give already */
        if (!isnan(d->max_wind_kn) && d->rule != SWX_PLAN_RULE_WIND)
            snprintf(wind, sizeof wind, ", wind up to %.0f kn", d->max_wind_kn);
        if (!isnan(d->max_wave_m) && d->rule != SWX_PLAN_RULE_WAVE)
            snprintf(wave, sizeof wave, ", waves up to %.1f m", d->max_wave_m);
        snprintf(line, sizeof line, "Best departure (\xe2\x96\xbc): %s, %s%s%s%s%s%s", when,
                 verdict_label[d->verdict >= 0 && d->verdict < 3 ? d->verdict : 0],
                 d->reason ? " (" : "", d->reason ? d->reason : "", d->reason ? ")" : "", wind,
                 wave);
    }
    double fs = swx__chart_fit_size(cr, line, L->fs, 6, w, 1);
    swx__chart_font(cr, fs, 1);
    swx__chart_rgb(cr, INK_RGB);
    swx__chart_text_at(cr, L->m, L->m + L->fs * 1.5 + L->fs * 1.6 + L->fs * 0.8, 0, line);
}

static void draw_title(cairo_t *cr, const layout *L, const swx_plan *p, int what)
{
    char title[400], sub[400], a[48], b[48], len[32], band[128];
    const swx_plan_opts *o = &p->opts;
    double length = p->length_nm > 0 ? p->length_nm : p->sample_nm[p->ns - 1];
    snprintf(len, sizeof len, "%.0f nm", length);
    num(a, sizeof a, o->min_kn);
    num(b, sizeof b, o->max_kn);
    if (!o->polar && o->max_kn <= 0)
        band[0] = '\0';
    else if (o->polar && o->min_kn > 0)
        snprintf(band, sizeof band, "polar, motoring %s kn", a);
    else if (o->polar)
        snprintf(band, sizeof band, "polar");
    else if (o->min_kn == o->max_kn)
        snprintf(band, sizeof band, "%s kn", a);
    else
        snprintf(band, sizeof band, "%s\xe2\x80\x93%s kn", a, b);
    snprintf(title, sizeof title, "Departure plan: %s%s%s \xc2\xb7 %s", len, *band ? " at " : "",
             band, what == 'w' ? "true wind" : "significant wave height");
    depart_label(a, sizeof a, p->rows[0].depart, 1);
    depart_label(b, sizeof b, p->rows[p->n - 1].depart, 1);
    if (p->n == 1) {
        snprintf(sub, sizeof sub,
                 "1 departure, %s (UTC); each cell: the worst %s the ship meets there", a,
                 what == 'w' ? "wind" : "sea");
    } else {
        char st[32];
        step_label(st, sizeof st, o->step > 0 ? o->step : p->rows[1].depart - p->rows[0].depart);
        snprintf(sub, sizeof sub,
                 "%zu departures, %s to %s (UTC), every %s; each cell: the worst %s the ship "
                 "meets there",
                 p->n, a, b, st, what == 'w' ? "wind" : "sea");
    }
    double w = L->W - 2 * L->m;
    double fs = swx__chart_fit_size(cr, title, L->fs * 1.45, 6, w, 1);
    swx__chart_font(cr, fs, 1);
    swx__chart_rgb(cr, INK_RGB);
    swx__chart_text_at(cr, L->m, L->m + L->fs * 0.75, 0, title);
    fs = swx__chart_fit_size(cr, sub, L->fs, 6, w, 0);
    char *cut = strstr(sub, "; each cell");
    if (fs < L->fs * 0.85 && cut) { /* a narrow chart: the departures alone, readable */
        *cut = '\0';
        fs = swx__chart_fit_size(cr, sub, L->fs, 6, w, 0);
    }
    swx__chart_font(cr, fs, 0);
    swx__chart_rgb(cr, SOFT_RGB);
    swx__chart_text_at(cr, L->m, L->m + L->fs * 1.5 + L->fs * 0.8, 0, sub);
    draw_best_line(cr, L, p, w);
}

static int storm_at(const swx_plan *p, size_t i, size_t j)
{
    return p->storm && i < p->n && j < p->ns && p->storm[i * p->ns + j];
}

static void draw_grid(cairo_t *cr, const layout *L, const swx_plan *p, const ramp *r, int what)
{
    const double *val = what == 'w' ? p->wind_kn : p->wave_m;
    cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE);
    for (size_t i = 0; i < p->n; i++) {
        double x0 = edge(L->gx, L->gw, i, p->n), x1 = edge(L->gx, L->gw, i + 1, p->n);
        for (size_t j = 0; j < p->ns; j++) {
            double y0 = edge(L->gy, L->gh, j, p->ns), y1 = edge(L->gy, L->gh, j + 1, p->ns);
            ramp_colour(cr, r, val ? val[i * p->ns + j] : NAN);
            cairo_rectangle(cr, x0, y0, x1 - x0, y1 - y0);
            cairo_fill(cr);
        }
    }
    /* thin separators between departures where columns are wide enough */
    if (L->gw / (double)p->n >= 10) {
        cairo_set_source_rgba(cr, 1, 1, 1, 0.55);
        for (size_t i = 1; i < p->n; i++) {
            double x = edge(L->gx, L->gw, i, p->n);
            cairo_rectangle(cr, x, L->gy, 1, L->gh);
        }
        cairo_fill(cr);
    }
    cairo_set_antialias(cr, CAIRO_ANTIALIAS_DEFAULT);
    /* storms: hatched, and outlined where a storm cell meets a cell outside */
    if (p->storm) {
        int any = 0;
        cairo_save(cr);
        for (size_t i = 0; i < p->n; i++)
            for (size_t j = 0; j < p->ns; j++)
                if (storm_at(p, i, j)) {
                    double x0 = edge(L->gx, L->gw, i, p->n), x1 = edge(L->gx, L->gw, i + 1, p->n);
                    double y0 = edge(L->gy, L->gh, j, p->ns), y1 = edge(L->gy, L->gh, j + 1, p->ns);
                    cairo_rectangle(cr, x0, y0, x1 - x0, y1 - y0);
                    any = 1;
                }
        if (any) {
            cairo_clip(cr);
            swx__chart_rgb(cr, 0);
            cairo_set_line_width(cr, fmax(1, L->fs / 12));
            double step = fmax(4, round(L->fs / 2.5));
            for (double d = -L->gh; d < L->gw; d += step) {
                cairo_move_to(cr, L->gx + d, L->gy + L->gh);
                cairo_line_to(cr, L->gx + d + L->gh, L->gy);
            }
            cairo_stroke(cr);
        }
        cairo_restore(cr);
        cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE);
        swx__chart_rgb(cr, 0);
        for (size_t i = 0; i < p->n; i++)
            for (size_t j = 0; j < p->ns; j++) {
                if (!storm_at(p, i, j))
                    continue;
                double x0 = edge(L->gx, L->gw, i, p->n), x1 = edge(L->gx, L->gw, i + 1, p->n);
                double y0 = edge(L->gy, L->gh, j, p->ns), y1 = edge(L->gy, L->gh, j + 1, p->ns);
                if (!j || !storm_at(p, i, j - 1))
                    cairo_rectangle(cr, x0, y0, x1 - x0, 2);
                if (j + 1 == p->ns || !storm_at(p, i, j + 1))
                    cairo_rectangle(cr, x0, y1 - 2, x1 - x0, 2);
                if (!i || !storm_at(p, i - 1, j))
                    cairo_rectangle(cr, x0, y0, 2, y1 - y0);
                if (i + 1 == p->n || !storm_at(p, i + 1, j))
                    cairo_rectangle(cr, x1 - 2, y0, 2, y1 - y0);
            }
        cairo_fill(cr);
        cairo_set_antialias(cr, CAIRO_ANTIALIAS_DEFAULT);
    }
    /* the frame */
    swx__chart_rgb(cr, SOFT_RGB);
    cairo_set_line_width(cr, 1);
    cairo_rectangle(cr, L->gx - 0.5, L->gy - 0.5, L->gw + 1, L->gh + 1);
    cairo_stroke(cr);
}

/* The distance axis: round distances placed where they fall between the
 * sample points' rows. */
static void draw_y_axis(cairo_t *cr, const layout *L, const swx_plan *p)
{
    double rh = L->gh / (double)p->ns;
    double first = p->sample_nm[0], last = p->sample_nm[p->ns - 1];
    double span = last - first;
    double step = swx__chart_nice_step(span * L->fs * 2.6 / fmax(L->gh - rh, 1));
    char b[32];
    swx__chart_font(cr, L->fs, 0);
    cairo_set_line_width(cr, 1);
    size_t j = 0;
    for (double v = ceil(first / step) * step; v <= last + 1e-9; v += step) {
        double y;
        if (p->ns == 1) {
            y = L->gy + rh / 2;
        } else {
            while (j + 2 < p->ns && p->sample_nm[j + 1] < v)
                j++;
            double s0 = p->sample_nm[j], s1 = p->sample_nm[j + 1];
            double f = s1 > s0 ? (v - s0) / (s1 - s0) : 0;
            y = L->gy + (j + 0.5 + fmin(fmax(f, 0), 1)) * rh;
        }
        y = round(y) + 0.5;
        swx__chart_rgb(cr, SOFT_RGB);
        cairo_move_to(cr, L->gx - L->fs * 0.4, y);
        cairo_line_to(cr, L->gx, y);
        cairo_stroke(cr);
        num(b, sizeof b, v);
        swx__chart_rgb(cr, INK_RGB);
        swx__chart_text_at(cr, L->gx - L->fs * 0.55, y, 1, b);
        if (p->ns == 1)
            break;
    }
    /* the axis title, turned */
    const char *t = "Distance along the route (nm)";
    double fs = swx__chart_fit_size(cr, t, L->fs, 6, L->gh, 0);
    swx__chart_font(cr, fs, 0);
    cairo_save(cr);
    cairo_translate(cr, L->m + L->fs * 0.6, L->gy + L->gh / 2);
    cairo_rotate(cr, -M_PI / 2);
    swx__chart_rgb(cr, SOFT_RGB);
    swx__chart_text_at(cr, 0, 0, 0.5, t);
    cairo_restore(cr);
}

static void draw_verdicts(cairo_t *cr, const layout *L, const swx_plan *p)
{
    double cw = L->gw / (double)p->n;
    int gap = cw >= 6 ? 1 : 0;
    cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE);
    for (size_t i = 0; i < p->n; i++) {
        double x0 = edge(L->gx, L->gw, i, p->n), x1 = edge(L->gx, L->gw, i + 1, p->n);
        int v = p->rows[i].verdict;
        swx__chart_rgb(cr, v >= 0 && v < 3 ? verdict_rgb[v] : NAN_RGB);
        cairo_rectangle(cr, x0 + gap, L->vy, x1 - x0 - 2 * gap, L->vh);
        cairo_fill(cr);
    }
    cairo_set_antialias(cr, CAIRO_ANTIALIAS_DEFAULT);
    swx__chart_font(cr, L->fs, 0);
    swx__chart_rgb(cr, INK_RGB);
    swx__chart_text_at(cr, L->gx - L->fs * 0.55, L->vy + L->vh / 2, 1, "Verdict");
    /* under each marginal and no-go, the letter of the rule that decided it */
    double lfs = fmin(L->fs, cw * 0.8);
    if (lfs >= 6) {
        swx__chart_font(cr, lfs, 1);
        for (size_t i = 0; i < p->n; i++) {
            int r = rule_of(&p->rows[i]);
            if (!r)
                continue;
            char s[2] = {rules[r].letter, 0};
            double xc = (edge(L->gx, L->gw, i, p->n) + edge(L->gx, L->gw, i + 1, p->n)) / 2;
            swx__chart_text_at(cr, xc, L->wy, 0.5, s);
        }
    }
    /* the best departure: outlined, and a mark over its column */
    if (p->best && p->best <= p->n) {
        size_t i = p->best - 1;
        double x0 = edge(L->gx, L->gw, i, p->n), x1 = edge(L->gx, L->gw, i + 1, p->n);
        double xc = (x0 + x1) / 2, s = fmax(L->fs * 0.6, 4);
        swx__chart_rgb(cr, INK_RGB);
        cairo_set_line_width(cr, 2);
        cairo_rectangle(cr, x0 + gap + 1, L->vy + 1, x1 - x0 - 2 * gap - 2, L->vh - 2);
        cairo_stroke(cr);
        cairo_move_to(cr, xc, L->mark_y);
        cairo_line_to(cr, xc - s, L->mark_y - s * 1.3);
        cairo_line_to(cr, xc + s, L->mark_y - s * 1.3);
        cairo_close_path(cr);
        cairo_fill(cr);
    }
}

/* The letters' key, a line under the swatches: only the rules met. */
static void draw_why_key(cairo_t *cr, const layout *L, const swx_plan *p, int lines)
{
    char line[512] = "";
    size_t n = 0;
    int seen[NRULES] = {0};
    for (size_t i = 0; i < p->n; i++)
        seen[rule_of(&p->rows[i])] = 1;
    for (int r = 1; r < NRULES; r++)
        if (seen[r] && rules[r].words)
            n += (size_t)snprintf(line + n, n < sizeof line ? sizeof line - n : 0, "%s%c %s",
                                  n ? " \xc2\xb7 " : "Under a verdict, what decided it: ",
                                  rules[r].letter, rules[r].words);
    if (!n || n >= sizeof line)
        return;
    double fs = swx__chart_fit_size(cr, line, L->fs, 6, L->W - L->m - L->gx, 0);
    swx__chart_font(cr, fs, 0);
    swx__chart_rgb(cr, INK_RGB);
    swx__chart_text_at(cr, L->gx, L->key_y + lines * L->key_line, 0, line);
}

/* Departure labels, every k-th column so that they never touch. */
static void draw_x_axis(cairo_t *cr, const layout *L, const swx_plan *p)
{
    char b[32];
    swx__chart_font(cr, L->fs, 0);
    double lw = 0;
    for (size_t i = 0; i < p->n; i++) {
        depart_label(b, sizeof b, p->rows[i].depart, 0);
        lw = fmax(lw, swx__chart_text_w(cr, b));
    }
    double cw = L->gw / (double)p->n;
    size_t k = (size_t)ceil((lw + L->fs * 1.2) / cw);
    if (k < 1)
        k = 1;
    /* labels a whole number of hours or days apart that fit a day */
    int64_t step = p->opts.step > 0 ? p->opts.step
                   : p->n > 1       ? p->rows[1].depart - p->rows[0].depart
                                    : 0;
    if (step > 0 && 86400 % step == 0) {
        size_t per_day = (size_t)(86400 / step);
        if (k < per_day)
            while (per_day % k)
                k++;
        else
            k = (k + per_day - 1) / per_day * per_day;
    }
    cairo_set_line_width(cr, 1);
    double lo = L->m + lw / 2, hi = L->W - L->m - lw / 2;
    for (size_t i = 0; i < p->n; i += k) {
        double xc = round((edge(L->gx, L->gw, i, p->n) + edge(L->gx, L->gw, i + 1, p->n)) / 2);
        swx__chart_rgb(cr, SOFT_RGB);
        cairo_move_to(cr, xc + 0.5, L->vy + L->vh);
        cairo_line_to(cr, xc + 0.5, L->vy + L->vh + L->fs * 0.4);
        cairo_stroke(cr);
        depart_label(b, sizeof b, p->rows[i].depart, 0);
        swx__chart_rgb(cr, INK_RGB);
        swx__chart_text_at(cr, fmin(fmax(xc, lo), hi), L->xl_y, 0.5, b);
    }
    swx__chart_rgb(cr, SOFT_RGB);
    swx__chart_text_at(cr, L->gx + L->gw / 2, L->xt_y, 0.5, "Departure (UTC)");
}

/* The colour scale: a bar as tall as the grid, its maximum at the top, ticks
 * and numbers right of it, the unit above. */
static void draw_legend(cairo_t *cr, const layout *L, const ramp *r)
{
    double top = r->v[RAMP_N - 1];
    cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE);
    for (int y = 0; y < (int)L->gh; y++) {
        double v = top * (1 - (y + 0.5) / L->gh);
        ramp_colour(cr, r, v);
        cairo_rectangle(cr, L->lx, L->gy + y, L->bar_w, 1);
        cairo_fill(cr);
    }
    cairo_set_antialias(cr, CAIRO_ANTIALIAS_DEFAULT);
    swx__chart_rgb(cr, SOFT_RGB);
    cairo_set_line_width(cr, 1);
    cairo_rectangle(cr, L->lx - 0.5, L->gy - 0.5, L->bar_w + 1, L->gh + 1);
    cairo_stroke(cr);
    char b[32];
    swx__chart_font(cr, L->fs, 0);
    double step = r->tick;
    while (L->gh * step / top < L->fs * 1.6)
        step *= 2;
    for (double v = 0; v <= top + 1e-9; v += step) {
        double y = round(L->gy + L->gh * (1 - v / top)) + 0.5;
        swx__chart_rgb(cr, SOFT_RGB);
        cairo_move_to(cr, L->lx + L->bar_w, y);
        cairo_line_to(cr, L->lx + L->bar_w + L->fs * 0.3, y);
        cairo_stroke(cr);
        num(b, sizeof b, v);
        swx__chart_rgb(cr, INK_RGB);
        swx__chart_text_at(cr, L->lx + L->bar_w + L->fs * 0.45, y, 0, b);
    }
    swx__chart_font(cr, L->fs, 1);
    swx__chart_rgb(cr, INK_RGB);
    swx__chart_text_at(cr, L->lx, L->gy - L->fs * 0.9, 0, r->unit);
}

/* ---- writing ---- */

typedef struct sink {
    swx_chart_write_fn write;
    void *closure;
} sink;

static cairo_status_t sink_write(void *closure, const unsigned char *data, unsigned int len)
{
    sink *s = closure;
    return s->write(s->closure, data, len) ? CAIRO_STATUS_WRITE_ERROR : CAIRO_STATUS_SUCCESS;
}

int swx_chart_plan_draw(const swx_plan *p, const char *version, int what, int width, int height,
                        swx_chart_write_fn write, void *closure, const char **why)
{
    cairo_surface_t *sf;
    cairo_t *cr;
    int rc = swx__chart_page_begin(&sf, &cr, version, width, height, why);
    if (rc)
        return rc;
    const ramp *r = what == 'w' ? &wind_ramp : &wave_ramp;
    layout L = {.W = width, .H = height};
    make_layout(&L, cr, p, r);
    draw_title(cr, &L, p, what);
    draw_grid(cr, &L, p, r, what);
    draw_y_axis(cr, &L, p);
    draw_verdicts(cr, &L, p);
    draw_x_axis(cr, &L, p);
    draw_legend(cr, &L, r);
    draw_why_key(cr, &L, p, key(cr, &L, 1));
    sink s = {write, closure};
    return swx__chart_page_end(sf, cr, sink_write, &s, why);
}
