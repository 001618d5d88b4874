#!/usr/bin/env python3
"""Independent reading of WMS capabilities or of `seawx layers --json`, for the
end-to-end tests: prints one line per leaf layer, "NAME COUNT FIRST LAST", with
time dimensions expanded (comma lists and start/end/period intervals).

usage: caps_leaves.py caps FILE.xml   |   caps_leaves.py json FILE.json
"""
import datetime as dt
import json
import re
import sys
import xml.etree.ElementTree as ET


def parse_time(s):
    s = s.strip()
    if s.endswith("Z"):
        s = s[:-1] + "+00:00"
    t = dt.datetime.fromisoformat(s)
    if t.tzinfo is None:
        t = t.replace(tzinfo=dt.timezone.utc)
    return t.astimezone(dt.timezone.utc)


def parse_period(p):
    m = re.fullmatch(r"P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?", p.strip())
    d, h, mi, s = (int(x or 0) for x in m.groups())
    return dt.timedelta(days=d, hours=h, minutes=mi, seconds=s)


def expand(text):
    out = set()
    for item in text.split(","):
        item = item.strip()
        if not item:
            continue
        parts = item.split("/")
        if len(parts) == 3:
            t, end, step = parse_time(parts[0]), parse_time(parts[1]), parse_period(parts[2])
            while t <= end:
                out.add(t)
                t += step
        else:
            out.add(parse_time(item))
    return sorted(out)


def fmt(t):
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def local(tag):
    return tag.rsplit("}", 1)[-1]


def walk(layer, inherited_time, lines):
    time_text = inherited_time
    for child in layer:
        if local(child.tag) in ("Dimension", "Extent") and child.get("name") == "time" and (
            child.text or ""
        ).strip():
            time_text = child.text
    name = None
    for child in layer:
        if local(child.tag) == "Name":
            name = (child.text or "").strip()
    if name:
        times = expand(time_text) if time_text else []
        lines.append(
            f"{name} {len(times)} {fmt(times[0]) if times else '-'} {fmt(times[-1]) if times else '-'}"
        )
    for child in layer:
        if local(child.tag) == "Layer":
            walk(child, time_text, lines)


def from_caps(path):
    root = ET.parse(path).getroot()
    lines = []
    for cap in root:
        if local(cap.tag) == "Capability":
            for layer in cap:
                if local(layer.tag) == "Layer":
                    walk(layer, None, lines)
    return lines


def from_json(path):
    lines = []
    for o in json.load(open(path)):
        times = [parse_time(t) for t in o["times"]]
        assert o["time_count"] == len(times), o["name"]
        lines.append(
            f"{o['name']} {len(times)} {fmt(times[0]) if times else '-'} {fmt(times[-1]) if times else '-'}"
        )
    return lines


if __name__ == "__main__":
    kind, path = sys.argv[1], sys.argv[2]
    for line in sorted(from_caps(path) if kind == "caps" else from_json(path)):
        print(line)
