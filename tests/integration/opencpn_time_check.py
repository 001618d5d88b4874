"""Checks of OpenCPN's screen at two valid times of a voyage GRIB: what
tests/integration/test_opencpn_time.sh runs in Debian's python3 (PIL). Each
command prints what it found and exits non-zero with one line on stderr when
something is wrong.

  opencpn_time_check.py differ A B X0,Y0,X1,Y1 MIN_PIXELS MAX_SHARE
      A and B differ in at least MIN_PIXELS pixels of the rectangle, and the
      pixels that differ lie in a box covering at most MAX_SHARE of it (what
      changes is drawn where the file has data, not the whole chart)

  opencpn_time_check.py same A B X0,Y0,X1,Y1
      A and B are the same, pixel for pixel, in the rectangle

  opencpn_time_check.py near A B X0,Y0,X1,Y1 MAX_PIXELS
      A and B differ in at most MAX_PIXELS pixels of the rectangle

  opencpn_time_check.py infobox SHOT OUT
      OUT is the chart bar's Chart Info window in SHOT (its light blue box in
      the day colours), cut out and scaled 3 times for OCR
"""
import sys

from PIL import Image, ImageChops


def fail(msg):
    print(f"opencpn_time_check.py: {msg}", file=sys.stderr)
    sys.exit(1)


def crop(path, box):
    try:
        im = Image.open(path).convert("RGB")
    except OSError as e:
        fail(f"cannot read {path}: {e}")
    return im.crop(box)


def rect(s):
    x0, y0, x1, y1 = (int(v) for v in s.split(","))
    return (x0, y0, x1, y1)


def cmd_differ(a, b, box, min_pixels, max_share):
    box = rect(box)
    d = ImageChops.difference(crop(a, box), crop(b, box)).convert("L").point(lambda v: 255 if v else 0)
    n = sum(1 for v in d.getdata() if v)
    bb = d.getbbox()
    w, h = box[2] - box[0], box[3] - box[1]
    share = 0.0 if bb is None else (bb[2] - bb[0]) * (bb[3] - bb[1]) / (w * h)
    where = "nowhere" if bb is None else f"in x {bb[0] + box[0]}-{bb[2] + box[0]}, y {bb[1] + box[1]}-{bb[3] + box[1]}"
    print(f"  {n} pixels differ, {where} ({share:.0%} of the area)")
    if n < int(min_pixels):
        fail(f"{n} pixels differ, fewer than {min_pixels}")
    if share > float(max_share):
        fail(f"the pixels that differ span {share:.0%} of the area, more than {float(max_share):.0%}")


def cmd_same(a, b, box):
    box = rect(box)
    bb = ImageChops.difference(crop(a, box), crop(b, box)).getbbox()
    if bb is not None:
        fail(f"{a} and {b} differ in {bb} of {box}")
    print("  the same, pixel for pixel")


def cmd_near(a, b, box, max_pixels):
    box = rect(box)
    d = ImageChops.difference(crop(a, box), crop(b, box)).convert("L")
    n = sum(1 for v in d.getdata() if v)
    print(f"  {n} pixels differ")
    if n > int(max_pixels):
        fail(f"{n} pixels differ, more than {max_pixels}")


def cmd_infobox(shot, out):
    im = Image.open(shot).convert("RGB")
    box = Image.new("RGB", im.size, (212, 234, 238))
    mask = ImageChops.difference(im, box).convert("L").point(lambda v: 255 if v == 0 else 0)
    bb = mask.getbbox()
    if bb is None:
        fail(f"no Chart Info window in {shot}")
    print(f"  the Chart Info window in x {bb[0]}-{bb[2]}, y {bb[1]}-{bb[3]}")
    c = im.crop(bb)
    c.resize((c.width * 3, c.height * 3)).save(out)


def main():
    if len(sys.argv) < 2:
        fail("usage: see the module's docstring")
    cmd, args = sys.argv[1], sys.argv[2:]
    {"differ": cmd_differ, "same": cmd_same, "infobox": cmd_infobox, "near": cmd_near}.get(cmd, lambda *a: fail(f"unknown command {cmd}"))(*args)


main()
