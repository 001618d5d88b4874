#!/usr/bin/env python3
"""fleet.py DIR SHIPS: the benchmark fleet, generated deterministically.

Writes DIR/fleet.json (the fleet file seawx fleet reads), DIR/shipNNN.csv (each
ship's route) and DIR/solo.txt (one line a ship: name, departure, speed, layers,
tab-separated, for its own seawx voyage run). 5 lanes of about 200 nm (one
across 180), ships taken from them in turn, departing over 12 hours at 9-14 kn
(some with a band of 2 kn), waypoints off the lane by up to 0.1 degrees, swh at
zooms 3-5 and, for every fifth ship, sst at zoom 3 too. Used by
bench/fleet/run.sh and bench/refactor/perf.sh.
"""
import json, random, sys
t, n = sys.argv[1], int(sys.argv[2])
rnd = random.Random(15)
lanes = [  # (lat, lon) waypoints, about 200 nm each
    [(38.5, -9.5), (37.2, -12.0), (36.0, -14.0)],
    [(49.8, -5.5), (48.9, -8.5), (48.0, -10.5)],
    [(36.0, 14.5), (35.0, 17.5), (34.2, 19.8)],
    [(30.0, 178.0), (30.6, 179.9), (31.0, -178.0)],
    [(1.2, 104.0), (2.5, 102.0), (3.8, 100.2)],
]
ships, solo = [], []
for i in range(n):
    lane = lanes[i % len(lanes)]
    pts = [(la + rnd.uniform(-0.1, 0.1), lo + rnd.uniform(-0.1, 0.1)) for la, lo in lane]
    pts = [(la, lo - 360 if lo > 180 else lo + 360 if lo < -180 else lo) for la, lo in pts]
    if rnd.random() < 0.5:
        pts.reverse()
    csv = "lat,lon\n" + "".join("%.4f,%.4f\n" % p for p in pts)
    dep = "2026-03-02T%02d:00:00Z" % (11 + rnd.randrange(0, 13))
    v = rnd.choice([9, 10, 11, 12, 13, 14])
    speed = "%d-%d" % (v - 1, v + 1) if rnd.random() < 0.4 else str(v)
    layers = ["swh", "sst:zoom=3"] if i % 5 == 0 else ["swh"]
    name = "ship%03d" % i
    ships.append({"name": name, "route_csv": csv, "depart": dep, "speed": speed, "layers": layers})
    open("%s/%s.csv" % (t, name), "w").write(csv)
    solo.append("\t".join([name, dep, speed, " ".join(layers)]))
json.dump({"bundle": "maritime", "zoom": "3-5", "format": "png8", "ships": ships},
          open(t + "/fleet.json", "w"), indent=1)
open(t + "/solo.txt", "w").write("\n".join(solo) + "\n")
