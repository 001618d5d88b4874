"""Checks of a voyage package (seawx voyage), independent of the code that
wrote it; what tests/integration/test_package.sh runs. Each command prints
what it found and exits non-zero with one line on stderr when something is
wrong.

  package_check.py manifest PKG            every file of the manifest is there
                                           with its bytes, SHA-256 and tile
                                           count (rows of the MBTiles); no
                                           other file; the route is RFC 7946
  package_check.py quote DRY_OUT PKG PCT   the dry run's estimate of each
                                           layer within PCT % of its files
  package_check.py budget PKG BUDGET FULL  the package holds at most BUDGET
                                           bytes, and is complete for a prefix
                                           of the valid times: each file before
                                           the cut as complete (same tiles) as
                                           in the uncut package FULL, none after
  package_check.py reader PKG STOP         reads the package again and again
                                           until the file STOP exists: each
                                           time, through the link once, the
                                           manifest and every file it lists
                                           must match (old or new, whole)
  package_check.py route PKG CSV           the route holds the CSV's waypoints,
                                           split at 180 where a leg crosses it
"""
import hashlib
import json
import os
import sqlite3
import sys
import time


def fail(msg):
    print(f"package_check.py: {msg}", file=sys.stderr)
    sys.exit(1)


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 16), b""):
            h.update(chunk)
    return h.hexdigest()


def rows(path):
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return db.execute("select count(*) from tiles").fetchone()[0]
    finally:
        db.close()


def load(pkg):
    with open(os.path.join(pkg, "manifest.json")) as f:
        m = json.load(f)
    if m.get("format") != "seawx-package":
        fail(f"{pkg}: manifest format {m.get('format')!r}")
    return m


def verify(folder, m):
    """Every listed file matches; returns the bytes per variable."""
    per = {}
    for f in m["files"]:
        p = os.path.join(folder, f["path"])
        if os.path.getsize(p) != f["bytes"]:
            fail(f"{f['path']}: {os.path.getsize(p)} bytes, the manifest says {f['bytes']}")
        if sha256(p) != f["sha256"]:
            fail(f"{f['path']}: SHA-256 differs from the manifest")
        n = rows(p)
        if n != f["tiles"]:
            fail(f"{f['path']}: {n} tiles, the manifest says {f['tiles']}")
        per[f["variable"]] = per.get(f["variable"], 0) + f["bytes"]
    return per


def cmd_manifest(pkg):
    m = load(pkg)
    per = verify(pkg, m)
    storms = (m.get("storms") or {}).get("files", [])
    for f in storms:  # storm files: bytes and SHA-256 (no tiles)
        p = os.path.join(pkg, f["path"])
        if os.path.getsize(p) != f["bytes"] or sha256(p) != f["sha256"]:
            fail(f"{f['path']}: bytes or SHA-256 differ from the manifest")
    coast = m.get("coastline")  # the project's land: its size as listed
    if coast and os.path.getsize(os.path.join(pkg, coast["file"])) != coast["bytes"]:
        fail(f"{coast['file']}: not the {coast['bytes']} bytes the manifest gives")
    listed = {f["path"] for f in m["files"] + storms} | {"manifest.json", "project.qgs",
                                                         "route.geojson"}
    listed |= {coast["file"]} if coast else set()
    extra = set(os.listdir(pkg)) - listed
    if extra:
        fail(f"files the manifest does not list: {sorted(extra)}")
    g = json.load(open(os.path.join(pkg, "route.geojson")))
    geom = g["features"][0]["geometry"]
    if g["type"] != "FeatureCollection" or geom["type"] not in ("LineString", "MultiLineString"):
        fail("route.geojson is not a FeatureCollection of a line")
    lines = geom["coordinates"] if geom["type"] == "MultiLineString" else [geom["coordinates"]]
    for line in lines:
        for lon, lat in line:
            if not (-180 <= lon <= 180 and -90 <= lat <= 90):
                fail(f"route position {lon},{lat} out of range")
    print(f"{len(m['files'])} files match the manifest; bytes per layer: {per}")


def cmd_quote(dry_out, pkg, pct):
    m = load(pkg)
    real = {}
    for f in m["files"]:
        real[f["variable"]] = real.get(f["variable"], 0) + f["bytes"]
    est = {}
    for line in open(dry_out):
        parts = line.split()
        if len(parts) == 6 and parts[0] in real:
            est[parts[0]] = float(parts[5]) * 1048576
    for var, r in real.items():
        if var not in est:
            fail(f"the dry run quotes no {var}")
        err = 100.0 * (est[var] - r) / r
        print(f"# {var}: quoted {est[var]:.0f} bytes, real {r} ({err:+.1f} %)")
        if abs(err) > float(pct):
            fail(f"{var}: the quote is {err:+.1f} % off the real size")


def cmd_budget(pkg, budget, full):
    m, fm = load(pkg), load(full)
    total = sum(os.path.getsize(os.path.join(pkg, n)) for n in os.listdir(pkg))
    if total > int(budget):
        fail(f"the package holds {total} bytes, over the budget of {budget}")
    if not m["cut"]:
        fail("the budget did not cut the package")
    verify(pkg, m)
    whole = {f["path"]: f for f in fm["files"]}
    times = sorted({f["time"] for f in fm["files"]})
    have = {f["path"]: f for f in m["files"]}
    complete = 0
    for t in times:
        want = [p for p, f in whole.items() if f["time"] == t]
        if all(p in have and have[p]["complete"] for p in want):
            for p in want:
                if have[p]["tiles"] != whole[p]["tiles"]:
                    fail(f"{p}: complete with {have[p]['tiles']} tiles, the uncut has "
                         f"{whole[p]['tiles']}")
            complete += 1
            continue
        break
    later = [f["path"] for f in m["files"] if f["time"] > times[min(complete, len(times) - 1)]]
    if later:
        fail(f"files after the cut: {later[:3]}")
    if complete != m["complete_times"] or complete == 0:
        fail(f"{complete} complete valid times from the first, the manifest says "
             f"{m['complete_times']}")
    print(f"{total} bytes <= {budget}; complete for the first {complete} of {len(times)} valid "
          f"times; cut at {m['cut']['layer']} {m['cut']['time']} zoom {m['cut']['zoom']}")


def cmd_reader(pkg, stop):
    reads, versions = 0, set()
    deadline = time.time() + 300
    while not os.path.exists(stop) and time.time() < deadline:
        try:
            folder = os.path.join(os.path.dirname(pkg), os.readlink(pkg))
        except FileNotFoundError:
            time.sleep(0.01)
            continue
        m = load(folder)
        verify(folder, m)
        for f in m["files"]:
            open(os.path.join(folder, f["path"]), "rb").close()
        versions.add(m["version"])
        reads += 1
    print(f"{reads} whole reads, versions {sorted(versions)}")
    if reads == 0:
        fail("no read")


def cmd_route(pkg, csv):
    rows_ = [line.strip().split(",") for line in open(csv) if line.strip()][1:]
    pts = [(float(r[1]), float(r[0])) for r in rows_]
    g = json.load(open(os.path.join(pkg, "route.geojson")))
    geom = g["features"][0]["geometry"]
    lines = geom["coordinates"] if geom["type"] == "MultiLineString" else [geom["coordinates"]]
    flat = [tuple(p) for line in lines for p in line]
    for lon, lat in pts:
        if not any(abs(lon - a) < 1e-5 and abs(lat - b) < 1e-5 for a, b in flat):
            fail(f"waypoint {lat},{lon} is not on the route")
    crosses = any(abs(a[0] - b[0]) > 180 for a, b in zip(pts, pts[1:]))
    if crosses != (geom["type"] == "MultiLineString"):
        fail(f"a route that {'crosses' if crosses else 'does not cross'} 180 as {geom['type']}")
    for line in lines:
        for a, b in zip(line, line[1:]):
            if abs(a[0] - b[0]) > 180:
                fail("a line of the route jumps across 180")
    print(f"{len(pts)} waypoints in a {geom['type']} of {len(lines)} line(s)")


def main():
    cmds = {"manifest": (cmd_manifest, 1), "quote": (cmd_quote, 3), "budget": (cmd_budget, 3),
            "reader": (cmd_reader, 2), "route": (cmd_route, 2)}
    if len(sys.argv) < 2 or sys.argv[1] not in cmds or len(sys.argv) != 2 + cmds[sys.argv[1]][1]:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    cmds[sys.argv[1]][0](*sys.argv[2:])


if __name__ == "__main__":
    main()
