#!/usr/bin/env python3
"""One signal to each long command, mid-fetch (test_signals.sh starts the
stand-in, slowed by its --latency and --storage-rate, and gives its access log).

For each command: start it, wait for its own progress in the access log (or
its file growing), never a fixed time, send ONE SIGINT or SIGTERM, and
expect exit 130 within STOP_LIMIT seconds of the signal, the documented
leftovers (nothing half-written), and, where the answer does not depend on
the moment, the same command again gives the bytes of an uninterrupted run.
Prints one "ok - " or "FAILED - " line per check and the seconds each stop
took, and exits 1 when any check failed.

usage: signals_check.py WORKDIR PHASE   (environment: SEAWX_CLI, SEAWX_FIXTURES, SIM_NOW)
  PHASE slow: seed, voyage and fleet, whose first signal lets the requests
              under way finish, against a stand-in whose answers take longer
              than the second allowed (they must be cancelled);
        fast: grib, plan, storms, soil download and merge.
"""
import glob
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time

STOP_LIMIT = 1.0  # seconds from the signal to the exit
PROGRESS_LIMIT = 300  # seconds a broken run may take to show progress

cli = os.environ["SEAWX_CLI"]
fix = os.environ["SEAWX_FIXTURES"]
now = os.environ["SIM_NOW"]
work, phase = sys.argv[1], sys.argv[2]
os.chdir(work)
log = os.path.join(work, "access.log")
route = os.path.join(fix, "voyage", "atlantic_1000nm.csv")
failed = 0


def check(name, ok, why=""):
    global failed
    print(("ok - " if ok else "FAILED - ") + name + ("" if ok or not why else ": " + why))
    if not ok:
        failed += 1


def log_count(pattern):
    try:
        with open(log, errors="replace") as f:
            return sum(1 for line in f if re.search(pattern, line))
    except FileNotFoundError:
        return 0


# What progress to wait for: each gives a test made when the command starts.
def grown(pattern, n):
    def make():
        base = log_count(pattern)
        return lambda: log_count(pattern) >= base + n
    return make


def file_over(path, size):
    return lambda: lambda: os.path.exists(path) and os.path.getsize(path) >= size


def any_file(pattern):
    return lambda: lambda: bool(glob.glob(pattern))


def settle():
    """Waits until the access log stops growing: the stand-in logs a request
    when its answer ends, after the command before may have stopped."""
    quiet = 1.8 if phase == "slow" else 0.3
    size, since = -1, time.monotonic()
    while time.monotonic() - since < quiet:
        now_size = os.path.getsize(log) if os.path.exists(log) else 0
        if now_size != size:
            size, since = now_size, time.monotonic()
        time.sleep(0.05)


def stopped(name, argv, progress, sig, left):
    """Runs argv, sends sig once progress() holds; checks the exit and left()."""
    settle()
    progress = progress()
    err = open(f"{name}.err", "w")
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=err)
    t0 = time.monotonic()
    while not progress():
        if p.poll() is not None or time.monotonic() - t0 > PROGRESS_LIMIT:
            check(f"{name}: progress seen before it ended", False, f"exit {p.poll()}")
            p.kill()
            p.wait()
            return
        time.sleep(0.005)
    ts = time.monotonic()
    p.send_signal(sig)
    try:
        rc = p.wait(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill()
        rc = p.wait()
    took = time.monotonic() - ts
    err.close()
    what = open(f"{name}.err").read().strip().splitlines()
    signame = signal.Signals(sig).name
    check(f"{name}: one {signame} mid-fetch, exit 130 in {took:.2f} s (at most {STOP_LIMIT} s)",
          rc == 130 and took <= STOP_LIMIT, f"exit {rc}; {what[-1:] if what else ''}")
    bad = left()
    check(f"{name}: {left.__doc__}", not bad, f"{bad} left" if bad else "")


def same_bytes(name, argv, out, ref):
    rc = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=open(f"{name}.again.err", "w")).returncode
    same = rc == 0 and open(out, "rb").read() == open(ref, "rb").read()
    check(f"{name}: the same command again gives the bytes of an uninterrupted run", same, f"exit {rc}")


def left_of(out):
    """out, or a temporary of it, left in the folder"""
    return [f for f in os.listdir(".") if f == out or f.startswith(out + ".") or f.startswith("." + out)]


# ---- seed: the file committed, valid and resumable ----
seed = [cli, "seed", "-b", "basic", "-v", "t2m:K", "--bbox", "-20,35,20,60", "-z", "0-9", "-q"]


def seed_left():
    """the file committed and valid (integrity_check), no side file"""
    if not os.path.exists("s.mbtiles"):
        return "no s.mbtiles"
    db = sqlite3.connect("file:s.mbtiles?mode=ro", uri=True)
    ok = db.execute("PRAGMA integrity_check").fetchone()[0]
    n = db.execute("SELECT count(*) FROM map").fetchone()[0]
    db.close()
    side = [f for f in os.listdir(".") if re.search(r"s\.mbtiles-(wal|shm|journal)$", f)]
    return None if ok == "ok" and 0 < n < 4349 and not side else f"{ok}, {n} tiles, {side}"


if phase == "slow":
    stopped("seed", seed + ["-o", "s.mbtiles"], grown(r"request=GetMap", 3), signal.SIGINT, seed_left)

# ---- voyage and fleet: the package as it was, what was fetched kept ----
voyage = [cli, "voyage", "-b", "maritime", "--route", route, "--depart", now, "--speed", "6-8",
          "--layer", "swh", "-z", "3-5", "--now", now, "-q", "--in-flight", "2"]


def voyage_left():
    """no package put in place (its .part folder kept for the next build)"""
    return "pkg exists" if os.path.exists("pkg") else None


if phase == "slow":
    stopped("voyage", voyage + ["-o", "pkg"], grown(r"request=GetMap", 3), signal.SIGTERM, voyage_left)


def fleet_left():
    """no ship's package made"""
    ships = [d for d in os.listdir("fleet") if not d.startswith(".")] if os.path.isdir("fleet") else []
    return f"packages {ships}" if ships else None


if phase == "slow":
    stopped("fleet", [cli, "fleet", os.path.join(fix, "fleet", "six.json"), "--now", now, "-q", "-j", "2",
                      "-o", "fleet"], grown(r"request=GetMap", 3), signal.SIGINT, fleet_left)

if phase == "slow":
    sys.exit(1 if failed else 0)

# ---- grib: nothing written; again, the bytes of an uninterrupted run ----
grib = [cli, "grib", "--route", route, "--depart", now, "--speed", "6-8", "--buffer", "50", "--days", "1",
        "--vars", "wind,prmsl", "--grid", "0.5", "--step", "6", "--in-flight", "1", "--no-cache", "-q"]
subprocess.run(grib + ["-o", "ref.grb2"], check=True)


def grib_left():
    """no file, no temporary"""
    return left_of("g.grb2") or None


stopped("grib", grib + ["-o", "g.grb2"], grown(r"^\S+ 127\.0\.0\.2:", 3), signal.SIGTERM, grib_left)
same_bytes("grib", grib + ["-o", "g.grb2"], "g.grb2", "ref.grb2")

# ---- route: the forecast's fetch stopped; nothing written ----
route_cmd = [cli, "route", "--from", "38.6,-9.6", "--to", "32.6,-17.0", "--speed", "6", "--no-cache",
             "-q"]


def route_left():
    """nothing written"""
    return left_of("r.gpx") or None


stopped("route", route_cmd + ["--gpx", "r.gpx"], grown(r"^\S+ 127\.0\.0\.2:", 3), signal.SIGTERM,
        route_left)

# ---- plan: nothing written ----
plan = [cli, "plan", "--route", route, "--speed", "6-7", "--departures", f"{now}/2026-03-03T11:00:00Z/6h",
        "--in-flight", "1", "--no-storms"]


def plan_left():
    """nothing written"""
    return "plan.json left" if os.path.exists("plan.json") else None


stopped("plan", plan + ["--json", "plan.json"], grown(r" /forecast/point\?", 2), signal.SIGINT, plan_left)

# ---- storms: page after page; nothing written ----
storms = [cli, "storms", "--status", "all", "--limit", "5", "--max-storms", "60", "-q"]
subprocess.run(storms + ["-o", "ref.geojson"], check=True)


def storms_left():
    """no file, no temporary"""
    return left_of("st.geojson") or None


stopped("storms", storms + ["-o", "st.geojson"], grown(r" /storm/json", 2), signal.SIGTERM, storms_left)
same_bytes("storms", storms + ["-o", "st.geojson"], "st.geojson", "ref.geojson")

# ---- soil download: the .part kept, resumed to the same bytes ----
soil = [cli, "soil", "download", "soil-moisture.20240115.global.nc", "-q"]


def soil_left():
    """no file; its .part kept for the next run"""
    return None if not os.path.exists("dl.nc") and os.path.exists("dl.nc.part") else "dl.nc or no .part"


stopped("soil", soil + ["-o", "dl.nc"], file_over("dl.nc.part", 64 << 10), signal.SIGINT, soil_left)
same_bytes("soil", soil + ["-o", "dl.nc"], "dl.nc", os.path.join(work, "files", "soil-moisture.nc"))

# ---- merge: shards of a seed merged; nothing put in place ----
for k in (1, 2):
    subprocess.run(seed + ["-j", "64", "--shard", f"{k}/2", "-o", "p.{shard}.mbtiles"], check=True)
merge = [cli, "merge", "p.1-of-2.mbtiles", "p.2-of-2.mbtiles", "-q"]


def merge_left():
    """no file, no temporary"""
    return left_of("m.mbtiles") or None


stopped("merge", merge + ["-o", "m.mbtiles"], any_file("m.mbtiles.*.merge.tmp"), signal.SIGINT, merge_left)
subprocess.run(merge + ["-o", "ref-m.mbtiles"], check=True)
same_bytes("merge", merge + ["-o", "m.mbtiles"], "m.mbtiles", "ref-m.mbtiles")
sys.exit(1 if failed else 0)
