"""opencpn_route_check.py: a route's GPX as OpenCPN draws it, read back from a
screenshot by the test (apart from seawx).

  opencpn_route_check.py SHOT.png ROUTE.gpx CLAT CLON PPM

OpenCPN's chart canvas (716x467 at the top left of a 1024x700 screen) is a
Mercator projection (OpenCPN's: the sphere of WGS 84's semi-major axis times
0.9996) centred on CLAT, CLON at PPM pixels a metre, as opencpn.conf set it.
Each route point OpenCPN draws is a small black square at its place. Every
point of the GPX in view must have one within a pixel of where the test
places it from the GPX's own coordinates (the first and the last among
them); the same points moved 25 pixels across the route's general direction
must mostly not (the check tells a route in its place from one beside it)."""
import math
import re
import subprocess
import sys

W, H = 716, 467
R = 6378137 * 0.9996


def fail(msg):
    print("opencpn_route_check: FAIL: " + msg)
    sys.exit(1)


def main():
    png, gpx = sys.argv[1], sys.argv[2]
    clat, clon, ppm = map(float, sys.argv[3:6])
    raw = subprocess.run(["convert", png, "-crop", "%dx%d+0+0" % (W, H), "+repage", "ppm:-"],
                         capture_output=True, check=True).stdout
    head = raw.split(b"\n", 3)
    w, h = map(int, head[1].split())
    data = head[3]

    def dark(x, y):
        if not (0 <= x < w and 0 <= y < h):
            return False
        i = 3 * (y * w + x)
        return data[i] < 40 and data[i + 1] < 40 and data[i + 2] < 40

    pts = [(float(a), float(b)) for a, b in
           re.findall(r'<rtept lat="([-0-9.]+)" lon="([-0-9.]+)"', open(gpx).read())]
    if len(pts) < 3:
        fail("%d route points in the GPX" % len(pts))

    def merc(lat, lon):
        return math.radians(lon) * R, R * math.log(math.tan(math.pi / 4 + math.radians(lat) / 2))

    cx, cy = merc(clat, clon)
    pix = [(w / 2 + (x - cx) * ppm, h / 2 - (y - cy) * ppm) for x, y in (merc(*p) for p in pts)]
    # across the route's general direction, 25 pixels, to the side above it
    # (the names OpenCPN writes go below each point)
    dx, dy = pix[-1][0] - pix[0][0], pix[-1][1] - pix[0][1]
    n = math.hypot(dx, dy)
    ax, ay = -dy / n * 25, dx / n * 25
    if ay > 0:
        ax, ay = -ax, -ay

    def marked(shift):
        got = []
        for px, py in pix:
            x, y = int(round(px + shift[0])), int(round(py + shift[1]))
            if not (60 <= x < w - 10 and 10 <= y < h - 40):  # clear of the tool bars
                got.append(None)
                continue
            got.append(any(dark(x + i, y + j) for i in (-1, 0, 1) for j in (-1, 0, 1)))
        return got

    here = marked((0, 0))
    seen = [g for g in here if g is not None]
    if len(seen) < 0.9 * len(pts):
        fail("only %d of %d points in view" % (len(seen), len(pts)))
    hits = sum(seen)
    if here[0] is not True or here[-1] is not True:
        fail("the first or the last point is not marked where the GPX puts it")
    if hits < 0.95 * len(seen):
        fail("%d of %d points marked where the GPX puts them" % (hits, len(seen)))
    aside = [g for g in marked((ax, ay)) if g is not None]
    if sum(aside) > 0.2 * len(aside):
        fail("the check does not tell: %d of %d marked 25 px aside" % (sum(aside), len(aside)))
    print("opencpn_route_check: %d of %d points marked where the GPX puts them "
          "(%d of %d 25 px aside)" % (hits, len(seen), sum(aside), len(aside)))


main()
