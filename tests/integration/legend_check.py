"""legend_check.py PNG UNIT STRIP_PNG: a legend image read as a navigator reads
it (Debian's python3: PyQt5 for the pixels, tesseract for the words). Run by
tests/integration/test_legend.sh.

  - the top of PNG is a colour strip whose colours are STRIP_PNG's (the same
    layer's legend asked 16 pixels high: the ramp alone, as GetMap colours);
  - under it, tick marks; tesseract reads at least three values and the unit
    UNIT ("-" for none) in the band under the strip;
  - the values are round and evenly spaced (one step between each), increase
    left to right, and each tick sits where its value falls on a linear scale
    through the others (within 1.5 pixels).
Prints what it read; exits 1 with one line on stderr on a failure.
"""
import re
import subprocess
import sys

from PyQt5.QtGui import QColor, QImage


def fail(msg):
    print(f"legend_check.py: {msg}", file=sys.stderr)
    sys.exit(1)


def main():
    png, unit, strip_png = sys.argv[1:4]
    im, ref = QImage(png), QImage(strip_png)
    if im.isNull() or ref.isNull():
        fail(f"cannot read {png} or {strip_png}")
    w, h = im.width(), im.height()
    if ref.width() != w:
        fail(f"{strip_png} is {ref.width()} wide, {png} {w}")
    rgb = lambda q, x, y: QColor(q.pixel(x, y)).getRgb()[:3]
    # the strip: rows whose every pixel is the reference's (its middle row)
    strip = [rgb(ref, x, ref.height() // 2) for x in range(w)]
    sh = 0
    while sh < h and all(rgb(im, x, sh) == strip[x] for x in range(w)):
        sh += 1
    if sh < 4:
        fail(f"the top of {png} is not the ramp's colour strip ({sh} rows)")
    # ticks: dark pixels in the rows just under the strip
    dark = lambda c: max(c) < 100
    xs = [x for x in range(w) if any(dark(rgb(im, x, y)) for y in range(sh, min(h, sh + 3)))]
    ticks = []
    for x in xs:
        if ticks and x - ticks[-1][-1] <= 1:
            ticks[-1].append(x)
        else:
            ticks.append([x])
    ticks = [sum(t) / len(t) for t in ticks]
    # the words under the strip: the band cut into words at gaps of five
    # blank columns or more (a label's characters are closer), each read
    # apart by tesseract; a number belongs to the tick inside its extent
    def ocr(x0, x1, chars):
        out = f"{png}.ocr.png"
        subprocess.run(["convert", png, "-crop", f"{x1 - x0}x{h - sh}+{x0}+{sh}", "+repage",
                        "-bordercolor", "white", "-border", "8", "-filter", "Lanczos", "-resize",
                        "400%", "-colorspace", "Gray", out], check=True)
        return subprocess.run(["tesseract", out, "-", "--psm", "7", "-c",
                               f"tessedit_char_whitelist={chars}"], capture_output=True,
                              text=True).stdout.strip()
    inked = [any(max(rgb(im, x, y)) < 160 for y in range(sh + 4, h)) for x in range(w)]
    words, x = [], 0
    while x < w:
        if not inked[x]:
            x += 1
            continue
        x0 = x
        while x < w and (inked[x] or any(inked[x:x + 5])):
            x += 1
        words.append((x0, x))
    values, at, text = [], [], ""
    for x0, x1 in words:
        word = ocr(max(0, x0 - 1), min(w, x1 + 1), "0123456789-." + ("" if unit == "-" else unit))
        m = re.fullmatch(r"-?\d+(?:\.\d+)?", word)
        inside = [t for t in ticks if x0 - 1 <= t <= x1 + 1]
        if m and inside:
            values.append(float(m.group(0)))
            at.append(min(inside, key=lambda t: abs(t - (x0 + x1) / 2)))
        elif not m:
            text = word
    print(f"{png}: {w}x{h}, strip {sh} rows of the ramp, ticks at {[round(t) for t in ticks]}, "
          f"words {words}, read {values}, unit '{text}'")
    if len(values) < 3:
        fail(f"fewer than three values read under their ticks: {values}")
    if unit != "-" and unit not in text.replace(" ", ""):
        fail(f"the unit {unit} is not read at the right end: '{text}'")
    steps = {round(b - a, 6) for a, b in zip(values, values[1:])}
    if len(steps) != 1 or min(steps) <= 0:
        fail(f"the values {values} are not evenly spaced, increasing")
    step = steps.pop()
    mant = step / 10 ** int(f"{step:e}".split("e")[1])
    if round(mant, 6) not in (1, 2, 5):
        fail(f"the step {step} is not round (1, 2 or 5 times a power of ten)")
    # each value's tick on one linear scale: x = a + b * v (least squares)
    n = len(values)
    mv, mx = sum(values) / n, sum(at) / n
    b = sum((v - mv) * (x - mx) for v, x in zip(values, at)) / sum((v - mv) ** 2 for v in values)
    a = mx - b * mv
    err = max(abs(a + b * v - x) for v, x in zip(values, at))
    if b <= 0 or err > 1.5:
        fail(f"the ticks {at} do not sit on one linear scale of the values {values}")
    best = (err, a, b)
    print(f"values {values} every {step:g} {unit}, each on its tick (within {best[0]:.1f} px)")


if __name__ == "__main__":
    main()
