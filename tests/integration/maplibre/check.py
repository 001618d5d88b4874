#!/usr/bin/env python3
"""Checks a MapLibre screenshot against the screen rectangle of the seeded
bounds the page reported: inside (2 pixels in) at least 95 % of the pixels
show data (not the black background); outside (2 pixels out) none does
(--clipped), or some does (--unclipped: the control that shows the check can
see tiles painted beyond the bounds), or is not looked at (--any).

usage: check.py SHOT.png RESULT.json --clipped|--unclipped|--any
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from seed_check import png_rgba  # noqa: E402

shot, result, mode = sys.argv[1:4]
w, h, px = png_rgba(open(shot, "rb").read())
r = json.load(open(result))
if r["errors"]:
    sys.exit(f"MapLibre reported errors: {r['errors'][:3]}")
if r["tileSize"] != 256:
    sys.exit(f"the source's tileSize is {r['tileSize']}, not 256 from the TileJSON")
scale = w / r["width"]
left, right = r["left"] * scale, r["right"] * scale
top, bottom = r["top"] * scale, r["bottom"] * scale
inside = painted_in = painted_out = 0
for y in range(h):
    row = px[y * w * 4:(y + 1) * w * 4]
    for x in range(w):
        painted = max(row[4 * x], row[4 * x + 1], row[4 * x + 2]) > 8
        if left + 2 <= x <= right - 2 and top + 2 <= y <= bottom - 2:
            inside += 1
            painted_in += painted
        elif x < left - 2 or x > right + 2 or y < top - 2 or y > bottom + 2:
            painted_out += painted
share = painted_in / inside if inside else 0
print(f"bounds on screen x {left:.0f}-{right:.0f} y {top:.0f}-{bottom:.0f}; "
      f"{share:.1%} painted inside, {painted_out} pixels painted outside")
if inside < 1000 or share < 0.95:
    sys.exit("the seeded area is not shown")
if mode == "--clipped" and painted_out:
    sys.exit("pixels painted outside the bounds")
if mode == "--unclipped" and not painted_out:
    sys.exit("the control shows nothing outside the bounds")
