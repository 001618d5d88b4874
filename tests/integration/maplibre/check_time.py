#!/usr/bin/env python3
"""Checks the forecast page's screenshots (shot_time.js) against the files:

- the page lists the files' valid times (their `time` rows) in time order;
- state 0 (first time), 1 (after "next") and 2 (the slider back to the
  first): the time label's datetime is that file's `time`, its text that
  time in words ("Tuesday 1 October 2024, 13:00 UTC");
- the map in each screenshot, outside the page's own boxes (time panel,
  legend, MapLibre's controls), is that time's tiles drawn 1:1 over the
  page's background: the tiles the file holds at the zoom shown are decoded
  and composited as the screen should show them, and at most 0.1 % of the
  pixels differ by more than TOL in a channel; the other time's tiles do not
  match (the two times differ on at least 2 % of the pixels, so the check
  tells them apart);
- the legend is shown at its own size, and the pixels of its box are the
  legend PNG's over the white of the box;
- the screenshots: "next" changed the pixels where the two times' tiles
  differ; the slider back to the first time restored every map pixel.

usage: check_time.py SHOT FIRST.mbtiles SECOND.mbtiles LEGEND.png
(SHOT.json and SHOT-0.png, SHOT-1.png, SHOT-2.png from shot_time.js)
"""
import calendar
import json
import math
import os
import sqlite3
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from seed_check import png_rgba  # noqa: E402

TOL = 1
BACKGROUND = (0xDF, 0xE6, 0xEA)  # the page's background colour
shot, first, second, legend_png = sys.argv[1:5]
errors = []


def fail(msg):
    errors.append(msg)
    print("FAIL:", msg)


def meta(path, key):
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    row = db.execute("SELECT value FROM metadata WHERE name=?", (key,)).fetchone()
    db.close()
    return row[0] if row else None


def in_words(iso):
    t = calendar.timegm(time.strptime(iso, "%Y-%m-%dT%H:%M:%SZ"))
    g = time.gmtime(t)
    return time.strftime("%A ", g) + str(g.tm_mday) + time.strftime(" %B %Y, %H:%M UTC", g)


def mosaic(path, z, x0, y0, w, h):
    """The screen (w x h, its top left pixel at world pixel x0, y0 of zoom z's
    256-pixel tiles) as the file's tiles composited over the background:
    list of rows of (r, g, b), None where the file has no tile."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    tiles = {}
    out = []
    for y in range(h):
        wy = y0 + y
        row = []
        for x in range(w):
            wx = x0 + x
            key = (wx // 256, wy // 256)
            if key not in tiles:
                r = db.execute("SELECT tile_data FROM tiles WHERE zoom_level=? AND tile_column=? "
                               "AND tile_row=?", (z, key[0], (1 << z) - 1 - key[1])).fetchone()
                tiles[key] = png_rgba(bytes(r[0])) if r else None
            t = tiles[key]
            if t is None:
                row.append(None)
                continue
            tw, _, px = t
            i = 4 * ((wy % 256) * tw + wx % 256)
            a = px[i + 3] / 255
            row.append(tuple(round(px[i + c] * a + BACKGROUND[c] * (1 - a)) for c in range(3)))
        out.append(row)
    db.close()
    return out


d = json.load(open(shot + ".json"))
states = d["states"]
if len(states) != 3:
    sys.exit(f"the page did not reach every state ({len(states)} of 3): {d['console'][-5:]}")
t1, t2 = meta(first, "time"), meta(second, "time")
assert t1 < t2, (t1, t2)
if states[0]["times"] != [t1, t2]:
    fail(f"the page's times {states[0]['times']} are not the files' in time order {[t1, t2]}")
for i, s in enumerate(states):
    if s["error"] or s["errors"]:
        fail(f"state {i}: the page reported errors: {s['error']} {s['errors'][:3]}")

s0 = states[0]
w, h = s0["width"], s0["height"]
if s0["dpr"] != 1:
    sys.exit(f"device pixel ratio {s0['dpr']}, the check wants 1")
# The zoom of the tiles drawn 1:1: 256-pixel tiles at map zoom Z are zoom Z+1.
z = round(s0["zoom"]) + 1
size = 256 * (1 << z)
lon, lat = s0["center"]
cx = (lon + 180) / 360 * size
cy = (1 - math.log(math.tan(math.pi / 4 + math.radians(lat) / 2)) / math.pi) / 2 * size
x0, y0 = cx - w / 2, cy - h / 2
if abs(s0["zoom"] - round(s0["zoom"])) > 1e-9 or abs(x0 - round(x0)) > 0.01 or abs(y0 - round(y0)) > 0.01:
    sys.exit(f"the view (zoom {s0['zoom']}, corner {x0}, {y0}) does not draw the tiles 1:1")
x0, y0 = round(x0), round(y0)
want = [mosaic(first, z, x0, y0, w, h), mosaic(second, z, x0, y0, w, h)]


def covered(x, y, boxes):
    """Whether (x, y) is in one of the page's boxes or their shadows (6 pixels)."""
    return any(b["left"] - 6 <= x <= b["left"] + b["width"] + 6 and
               b["top"] - 6 <= y <= b["top"] + b["height"] + 6 for b in boxes)


boxes = s0["covers"]
mask = [(x, y) for y in range(h) for x in range(w)
        if not covered(x, y, boxes) and want[0][y][x] is not None and want[1][y][x] is not None]
if len(mask) < w * h // 2:
    fail(f"only {len(mask)} pixels of the screen are the files' tiles outside the page's boxes")
differ = [(x, y) for x, y in mask if max(abs(a - b) for a, b in zip(want[0][y][x], want[1][y][x])) > TOL]
print(f"{len(mask)} map pixels compared; the two times' tiles differ on {len(differ)} "
      f"({len(differ) / max(1, len(mask)):.1%})")
if len(differ) < 0.02 * len(mask):
    fail("the two valid times' tiles hardly differ: the check could not tell them apart")


def off(img, ref, pts):
    n = 0
    for x, y in pts:
        i = 4 * (y * img[0] + x)
        if max(abs(img[2][i + c] - ref[y][x][c]) for c in range(3)) > TOL:
            n += 1
    return n


legend = png_rgba(open(legend_png, "rb").read())
for i, s in enumerate(states):
    k = s["index"]
    iso = [t1, t2][k]
    if s["datetime"] != iso:
        fail(f"state {i}: the time label's datetime is {s['datetime']!r}, the file's time {iso!r}")
    if s["label"] != in_words(iso):
        fail(f"state {i}: the time label reads {s['label']!r}, not {in_words(iso)!r}")
    img = png_rgba(open(f"{shot}-{i}.png", "rb").read())
    if (img[0], img[1]) != (w, h):
        sys.exit(f"screenshot {i} is {img[0]} x {img[1]}, the map {w} x {h}")
    own, other = off(img, want[k], mask), off(img, want[1 - k], differ)
    print(f"state {i} ({iso}): {own} of {len(mask)} map pixels off its tiles; "
          f"{other} of the {len(differ)} where the times differ off the other time's")
    if own > 0.001 * len(mask):
        fail(f"state {i}: the map is not the tiles of {iso}")
    if other < 0.9 * len(differ):
        fail(f"state {i}: the map looks like the other time's tiles")
    # The legend: at its own size, the PNG over the white of its box.
    b = s["legend"]
    lw, lh, lpx = legend
    if not s["legendShown"] or (b["width"], b["height"]) != (lw, lh) or \
            b["left"] != int(b["left"]) or b["top"] != int(b["top"]):
        fail(f"state {i}: the legend is not shown 1:1 at whole pixels: {b}, PNG {lw} x {lh}")
        continue
    bad = 0
    for y in range(lh):
        for x in range(lw):
            j = 4 * (y * lw + x)
            a = lpx[j + 3] / 255
            exp = [round(lpx[j + c] * a + 255 * (1 - a)) for c in range(3)]
            k2 = 4 * ((int(b["top"]) + y) * w + int(b["left"]) + x)
            if max(abs(img[2][k2 + c] - exp[c]) for c in range(3)) > 1:
                bad += 1
    print(f"state {i}: legend at {b['left']:.0f},{b['top']:.0f}: {bad} of {lw * lh} pixels off the PNG")
    if bad:
        fail(f"state {i}: the legend box is not the legend PNG")
# The screenshots themselves: the first and second times differ where their
# tiles do; back at the first time, the map is as it was.
shots = [png_rgba(open(f"{shot}-{i}.png", "rb").read())[2] for i in range(3)]


def changed(a, b, pts):
    return sum(1 for x, y in pts
               if max(abs(a[4 * (y * w + x) + c] - b[4 * (y * w + x) + c]) for c in range(3)) > TOL)


step, back = changed(shots[0], shots[1], differ), changed(shots[0], shots[2], mask)
print(f"screenshots: {step} of the {len(differ)} pixels where the tiles differ changed on 'next'; "
      f"{back} map pixels changed back at the first time")
if step < 0.9 * len(differ):
    fail("the screenshot after 'next' is not different where the two times' tiles are")
if back:
    fail("back at the first time, the map is not as it was")
if errors:
    sys.exit(f"{len(errors)} check(s) failed")
