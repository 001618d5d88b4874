#!/usr/bin/env python3
"""stage_check.py TESTING_MD CTEST_JSON: docs/testing.md's "Which stage runs
what" against the labels ctest gives the tests (`ctest --show-only=json-v1`).

Every test that a row of the table names (`test_x`, `it.test_x`, `test_x*` for
a family) must carry that row's stage as a label, and every test must carry
exactly one of the stages asan, tsan, main, valgrind, or asan and tsan (a
threaded unit test). Prints one line per finding; exits 1 when there is any.
"""
import fnmatch
import json
import re
import sys

STAGES = ("asan", "tsan", "main", "valgrind")


def main():
    page = open(sys.argv[1]).read()
    tests = json.load(open(sys.argv[2]))["tests"]
    labels = {}
    for t in tests:
        props = {p["name"]: p["value"] for p in t.get("properties", [])}
        labels[t["name"]] = set(props.get("LABELS", []))
    bad = []

    for name, ls in sorted(labels.items()):
        stages = sorted(ls & set(STAGES))
        if not stages:
            bad.append("%s: no stage label" % name)
        elif len(stages) > 1 and stages != ["asan", "tsan"]:
            bad.append("%s: in stages %s" % (name, ", ".join(stages)))

    section = page.split("## Which stage runs what", 1)
    if len(section) < 2:
        bad.append("docs/testing.md: no section 'Which stage runs what'")
    else:
        rows = 0
        for line in section[1].splitlines():
            m = re.match(r"^\| `(\w+)` \|[^|]*\|([^|]*)\|", line)
            if not m or m.group(1) not in STAGES:
                continue
            rows += 1
            stage = m.group(1)
            for word in re.findall(r"`([\w.*]+)`", m.group(2)):
                if not word.startswith(("test_", "it.", "unit.", "build.")):
                    continue
                matched = [n for n in labels
                           if fnmatch.fnmatch(n, word) or fnmatch.fnmatch(n, "*." + word)]
                if not matched:
                    bad.append("docs/testing.md: the %s row names %s, which is no test" % (stage, word))
                for n in matched:
                    if stage not in labels[n]:
                        bad.append("docs/testing.md: the %s row names %s, which ctest runs in %s"
                                   % (stage, n, ", ".join(sorted(labels[n] & set(STAGES)))))
        if rows != len(STAGES):
            bad.append("docs/testing.md: the stage table has %d of the %d stages" % (rows, len(STAGES)))

    for line in bad:
        print(line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
