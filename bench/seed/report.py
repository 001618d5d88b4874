"""report.py: the arithmetic of bench/seed/run.sh.

  pixels URLS                       pixels asked for by the GetMap paths in URLS
  table RESULTS.tsv WRK.tsv NEED    the comparison table and the ratios (Markdown)

RESULTS.tsv rows: tool, round, exit, wall s, CPU s, peak KiB, tiles stored,
GetMaps, pixels, seawx-sim CPU s. WRK.tsv rows: round, requests/s, non-2xx.
"""
import statistics
import sys
import urllib.parse


def pixels(path):
    total = 0
    for line in open(path):
        line = line.strip()
        if "?" not in line:
            continue
        q = {k.lower(): v for k, v in urllib.parse.parse_qsl(line.split("?", 1)[1])}
        total += int(q["width"]) * int(q["height"])
    print(total)
    return True


def table(results, wrk_path, need):
    need = int(need)
    runs = {}
    for line in open(results):
        if not line.strip():
            continue
        t, rnd, rc, wall, cpu, peak, stored, reqs, pix, simcpu = line.rstrip("\n").split("\t")
        wall = float(wall)
        runs.setdefault(t, []).append(dict(
            round=int(rnd), rc=int(rc), wall=wall, tps=need / wall if wall else 0.0,
            cpu=float(cpu) / need * 1000, mem=int(peak) / 1024, stored=int(stored),
            reqs=int(reqs), rps=int(reqs) / wall if wall else 0.0,
            over=int(pix) / (need * 65536), sim=float(simcpu) / need * 1000))
    wrk = {}
    for line in open(wrk_path):
        if line.strip():
            rnd, rps, non2xx = line.split("\t")
            wrk[int(rnd)] = (float(rps), int(non2xx))
    med = {}
    print("| tool | exit | wall s | useful tiles/s | CPU s / 1000 tiles | peak memory MiB | "
          "tiles stored | GetMaps | pixels rendered / needed | seawx-sim CPU s / 1000 tiles |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    failed = {}
    for t, rs in runs.items():
        good = sorted((r for r in rs if r["rc"] == 0 and r["stored"] >= need * 0.99),
                      key=lambda r: r["wall"])
        failed[t] = len(rs) - len(good)
        if not good:
            print(f"| {t} | {rs[0]['rc']} | every run failed | | | | {rs[0]['stored']} | | | |")
            continue
        m = good[(len(good) - 1) // 2]  # the median (the faster of the middle two)
        med[t] = m
        spread = (f" ({good[-1]['tps']:.0f}-{good[0]['tps']:.0f})" if len(good) > 1 else "")
        note = f" ({failed[t]} of {len(rs)} runs failed)" if failed[t] else ""
        print(f"| {t}{note} | {m['rc']} | {m['wall']:.1f} | {m['tps']:.0f}{spread} | {m['cpu']:.2f} | "
              f"{m['mem']:.1f} | {m['stored']} | {m['reqs']} | {m['over']:.2f} | {m['sim']:.2f} |")
    print()
    print("useful tiles/s: the median of the runs that completed, their range in brackets.")
    print()
    s = med.get("seawx")
    peers = {t: m for t, m in med.items() if not t.startswith("seawx")}
    left = [t for t in runs if not t.startswith("seawx") and t not in med]
    if left:
        print("Left out of the ratios (every run failed, timed out or stored fewer tiles than "
              "needed): " + ", ".join(left) + ".")
        print()
    shaky = [f"{t} ({failed[t]} of {len(runs[t])})" for t in runs if failed[t]]
    if shaky:
        print("Runs that failed or stored fewer tiles than needed: " + ", ".join(shaky) + ".")
        print()
    if s and peers:
        fast = max(peers, key=lambda t: peers[t]["tps"])
        lean = min(peers, key=lambda t: peers[t]["cpu"])
        print(f"- useful tiles/s: seawx seed {s['tps']:.0f}, the fastest peer ({fast}) "
              f"{peers[fast]['tps']:.0f}: **{s['tps'] / peers[fast]['tps']:.2f}x** (target 2x)")
        print(f"- CPU per tile: the leanest peer ({lean}) {peers[lean]['cpu']:.2f} s / 1000 tiles, "
              f"seawx seed {s['cpu']:.2f}: **{s['cpu'] / peers[lean]['cpu']:.2f}** of it "
              f"(target at most 0.33)")
    if s and wrk:
        pairs = []
        for r in runs["seawx"]:
            if r["round"] in wrk and wrk[r["round"]][0] > 0:
                pairs.append((r["rps"] / wrk[r["round"]][0], r["rps"], wrk[r["round"]][0]))
        pairs.sort()
        ratio, rps, ceil = pairs[len(pairs) // 2]
        every = ", ".join(f"{p[0]:.0%}" for p in pairs)
        non2xx = sum(v[1] for v in wrk.values())
        print(f"- requests/s against wrk's ceiling on the same GetMap paths, wrk run right after "
              f"each seawx seed: median pair {rps:.0f} / {ceil:.0f} = **{ratio:.0%}** "
              f"(every round: {every}; target 70 %)" +
              (f"; wrk saw {non2xx} non-2xx answers" if non2xx else ""))
    if s:
        print(f"- seawx seed's peak memory on this seed: {s['mem']:.1f} MiB")
    return True


if __name__ == "__main__":
    fn = {"pixels": pixels, "table": table}[sys.argv[1]]
    sys.exit(0 if fn(*sys.argv[2:]) else 1)
