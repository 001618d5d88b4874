"""route_exact.py: the route tests' exact answers, computed without seawx:
the time to cover a displacement with the convex hull of a polar (the
reachable set after t is t*K), in a current too, and Zermelo's closed form
for a constant current under motor."""
import math

from route_geo import R_NM
from route_polar import polar_speed


def hull_points(wind):
    """The polar curve as velocities (east, north) through water for the
    wind over water `wind` (toward east, north, knots), every 0.1 degree."""
    tws = math.hypot(*wind)
    from_dir = math.atan2(-wind[0], -wind[1])  # where the wind comes from, from north
    pts = []
    for k in range(3600):
        hdg = 2 * math.pi * k / 3600
        twa = math.degrees(abs((hdg - from_dir + math.pi) % (2 * math.pi) - math.pi))
        v = polar_speed(tws, twa)
        pts.append((v * math.sin(hdg), v * math.cos(hdg)))
    return pts


def gauge_time(d, pts, c=(0.0, 0.0)):
    """The least t with d in t*(K + c), K the convex hull of pts: the largest
    over unit normals n of (n.d) / (h_K(n) + n.c) (every normal where the
    support is positive); a bisection would give the same."""
    best = 0.0
    for k in range(7200):
        a = 2 * math.pi * k / 7200
        n = (math.sin(a), math.cos(a))
        h = max(n[0] * p[0] + n[1] * p[1] for p in pts) + n[0] * c[0] + n[1] * c[1]
        nd = n[0] * d[0] + n[1] * d[1]
        if nd > 0:
            if h <= 0:
                return math.inf
            best = max(best, nd / h)
    return best


def displacement(a, b):
    """(east, north) in nm on the local plane at the middle (the test's
    routes are within 1.5 degrees of the equator, where it is the sphere's
    to 1e-5)."""
    lat = math.radians((a[0] + b[0]) / 2)
    k = R_NM * math.pi / 180
    return ((b[1] - a[1]) * k * math.cos(lat), (b[0] - a[0]) * k)


def zermelo(d, V, w):
    """Constant current w, speed V through water: the closed form."""
    dw = d[0] * w[0] + d[1] * w[1]
    w2 = w[0] ** 2 + w[1] ** 2
    d2 = d[0] ** 2 + d[1] ** 2
    return (-dw + math.sqrt(dw * dw + (V * V - w2) * d2)) / (V * V - w2)
