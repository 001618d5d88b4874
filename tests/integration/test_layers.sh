#!/usr/bin/env bash
# `seawx layers` end to end against seawx-sim, and against another WMS server
# serving the nested and flat forms.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
sim_start --basic-password "pw-$KEY" --deny-bundle agricultural
py=python3

# 1. Every leaf of a bundle's capabilities, with its times, as an independent
#    reading of the same document sees them.
caps_of() {
  curl -sf --compressed -H "service-api-key: $KEY" \
    "$SIM_URL/ows/wms?service=WMS&request=GetCapabilities&product=sof-d&bundle=$1" -o "$T/$1.xml"
}
for b in basic maritime upper-air; do
  check "capabilities of $b fetched" caps_of "$b"
  check "layers --json of $b runs" sh -c "'$SEAWX_CLI' layers --bundle $b --json >'$T/$b.json' 2>'$T/$b.err'"
  $py "$here/caps_leaves.py" caps "$T/$b.xml" >"$T/$b.want"
  $py "$here/caps_leaves.py" json "$T/$b.json" >"$T/$b.got"
  check "$b: every leaf layer with its times" cmp -s "$T/$b.want" "$T/$b.got"
  check "$b: leaves found" test "$(wc -l <"$T/$b.want")" -gt 20
  check "$b: nothing on stderr" test ! -s "$T/$b.err"
done

# 2. Fields of the JSON objects.
fields_ok() {
  $py - "$T/basic.json" <<'PY'
import json, sys
layers = json.load(open(sys.argv[1]))
keys = {"name", "product", "variable", "unit", "run", "times", "default_time", "styles", "bundle",
        "complete", "latest", "time_count", "crs", "bbox", "title"}
assert all(keys <= set(o) for o in layers)
assert all(o["bundle"] == "basic" and o["product"] == "sof-d" for o in layers)
assert any(o["unit"] is None and o["variable"] == "r" for o in layers), "unitless r"
t2m = [o for o in layers if o["variable"] == "t2m" and o["unit"] == "K"]
assert len([o for o in t2m if o["latest"]]) == 1, "one latest t2m:K"
assert any(not o["complete"] for o in t2m), "a run still in production"
latest = [o for o in t2m if o["latest"]][0]
assert latest["complete"]
assert max(o["run"] for o in t2m if o["complete"]) == latest["run"]
assert all(o["styles"] for o in t2m) and all(o["run"].endswith("Z") for o in t2m)
assert latest["default_time"] in latest["times"]
PY
}
check "JSON objects carry every field, latest = newest complete run" fields_ok
mar_ok() {
  $py -c "import json,sys; l=json.load(open(sys.argv[1])); assert l and all(o['product']=='sof-d.maritime' for o in l if o['time_count'])" "$T/maritime.json"
}
check "maritime layers keep the product suffix" mar_ok

# 3. All bundles at once; agricultural is outside this key's subscription, so
#    the other eleven are listed, its error is one line, and the exit code says so.
all_ok() {
  "$SEAWX_CLI" layers --latest --json >"$T/all.json" 2>"$T/all.err"
  [ $? -eq 4 ] || return 1
  [ "$(wc -l <"$T/all.err")" -eq 1 ] && grep -q 'HTTP 403.*bundle=agricultural' "$T/all.err" || return 1
  $py - "$T/all.json" <<'PY'
import json, sys
layers = json.load(open(sys.argv[1]))
bundles = {o["bundle"] for o in layers}
assert len(bundles) == 11 and "agricultural" not in bundles, bundles
assert all(o["latest"] or not o["time_count"] for o in layers)
PY
}
check "all bundles, latest runs only; a refused bundle is one line" all_ok

# 4. The table.
table_ok() {
  "$SEAWX_CLI" layers --bundle maritime --variable swh >"$T/table.txt" 2>"$T/table.err" || return 1
  grep -q "^Bundle maritime" "$T/table.txt" && grep -q "swh:m" "$T/table.txt" &&
    grep -q "latest" "$T/table.txt" && grep -q "in production" "$T/table.txt" &&
    [ "$(grep -c 'latest$' "$T/table.txt")" -eq 1 ] && [ ! -s "$T/table.err" ]
}
check "table groups runs, marks latest and in production" table_ok

# 5. The three WMS auth forms.
check "auth: query parameter" sh -c "SEAWX_WMS_AUTH=query '$SEAWX_CLI' layers -b clouds --json >/dev/null"
check "auth: HTTP Basic" sh -c "SEAWX_WMS_AUTH=basic SEAWX_WMS_PASSWORD='pw-$KEY' '$SEAWX_CLI' layers -b clouds --json >/dev/null"
check "auth: access log shows the basic and query forms" sh -c "grep -q 'auth=basic' '$T/access.log' && grep -q 'auth=query' '$T/access.log'"

# 6. Bad input: one line on stderr, a documented exit code, nothing on stdout.
expect_fail() { # NAME CODE PATTERN -- CMD...
  local name=$1 code=$2 pattern=$3
  shift 4
  "$@" >"$T/out" 2>"$T/err"
  local got=$?
  if [ "$got" -ne "$code" ]; then echo "  $name: exit $got, wanted $code"; cat "$T/err"; return 1; fi
  if [ -s "$T/out" ]; then echo "  $name: printed to stdout"; return 1; fi
  if [ "$(wc -l <"$T/err")" -ne 1 ]; then echo "  $name: not one line:"; cat "$T/err"; return 1; fi
  grep -q -E -- "$pattern" "$T/err" || { echo "  $name: '$(cat "$T/err")' lacks $pattern"; return 1; }
  no_key_in "$T/err"
}
check "wrong key: HTTP 401, the setting named, exit 4" \
  expect_fail wrongkey 4 'HTTP 401.*SEAWX_API_KEY' -- env SEAWX_API_KEY=wrong-key "$SEAWX_CLI" layers --bundle basic
check "wrong key, all bundles: still one line" \
  expect_fail wrongkey-all 4 'HTTP 401' -- env SEAWX_API_KEY=wrong-key "$SEAWX_CLI" layers
check "no key: exit 3" \
  expect_fail nokey 3 'SEAWX_API_KEY' -- env -u SEAWX_API_KEY "$SEAWX_CLI" layers --bundle basic
check "no address: exit 3" \
  expect_fail nourl 3 'SEAWX_BASE_URL' -- env -u SEAWX_BASE_URL "$SEAWX_CLI" layers --bundle basic
lines_before=$(wc -l <"$T/access.log")
check "unknown bundle: exit 2, valid ones listed" \
  expect_fail badbundle 2 "unknown bundle 'nope'.*basic.*solar-energy" -- "$SEAWX_CLI" layers --bundle nope
check "unknown bundle: nothing was sent" test "$(wc -l <"$T/access.log")" -eq "$lines_before"
check "unknown variable: exit 5" \
  expect_fail badvar 5 "no variable 'nope'" -- "$SEAWX_CLI" layers --bundle basic --variable nope
check "unreachable service: exit 6" \
  expect_fail unreachable 6 'cannot reach' -- env SEAWX_BASE_URL=http://127.0.0.1:1 "$SEAWX_CLI" layers --bundle basic
check "unknown option: exit 2" \
  expect_fail badopt 2 "unknown option '--frobnicate'" -- "$SEAWX_CLI" layers --frobnicate
check "bundle outside the subscription: HTTP 403, exit 4" \
  expect_fail denied 4 'HTTP 403.*subscription' -- "$SEAWX_CLI" layers --bundle agricultural

# 7. The key from a file.
printf '%s\n' "$KEY" >"$T/keyfile"
check "key from SEAWX_API_KEY_FILE" sh -c "env -u SEAWX_API_KEY SEAWX_API_KEY_FILE='$T/keyfile' '$SEAWX_CLI' layers -b clouds --json >/dev/null"
check "key from --key-file" sh -c "env -u SEAWX_API_KEY '$SEAWX_CLI' layers -b clouds --key-file '$T/keyfile' --json >/dev/null"

# 8. Another WMS server, serving the nested and the flat forms.
other_server() { # FIXTURE
  rm -f "$T/other.port"
  python3 "$here/static_server.py" "$SEAWX_FIXTURES/caps/$1" "$T/other.port" &
  OTHER_PID=$!
  for _ in $(seq 200); do [ -s "$T/other.port" ] && break; sleep 0.025; done
  OTHER_URL=http://127.0.0.1:$(cat "$T/other.port")
}
for fx in nested.xml flat.xml; do
  other_server "$fx"
  other_ok() {
    SEAWX_BASE_URL=$OTHER_URL "$SEAWX_CLI" layers --bundle basic --json >"$T/other.json" 2>"$T/other.err" || return 1
    $py "$here/caps_leaves.py" caps "$SEAWX_FIXTURES/caps/$fx" >"$T/other.want"
    $py "$here/caps_leaves.py" json "$T/other.json" >"$T/other.got"
    cmp -s "$T/other.want" "$T/other.got" && [ -s "$T/other.want" ]
  }
  check "another server, $fx: every leaf with its times" other_ok
  kill $OTHER_PID; wait $OTHER_PID 2>/dev/null
done
other_server malformed.xml
check "malformed capabilities: exit 7" \
  expect_fail malformed 7 'malformed capabilities' -- env SEAWX_BASE_URL=$OTHER_URL "$SEAWX_CLI" layers --bundle basic
kill $OTHER_PID; wait $OTHER_PID 2>/dev/null

# 9. Help.
check "seawx --help lists layers" sh -c "'$SEAWX_CLI' --help | grep -q '^  layers'"
check "seawx layers --help lists options and exit codes" sh -c \
  "'$SEAWX_CLI' layers --help | grep -q -- '--bundle NAME' && '$SEAWX_CLI' layers --help | grep -q 'Exit codes'"
check "every command's --help exits 0 (its options fit the parser's table)" sh -c "
  cmds=\$('$SEAWX_CLI' --help | awk '/^Commands:/ {c = 1; next} c && /^  [a-z]/ {print \$1}')
  [ \$(echo \"\$cmds\" | wc -w) -ge 12 ] || exit 1
  for c in \$cmds; do '$SEAWX_CLI' \$c --help >/dev/null 2>&1 || { echo \"\$c --help failed\"; exit 1; }; done"
check "no command: usage, exit 2" sh -c "'$SEAWX_CLI' >/dev/null 2>&1; test \$? -eq 2"

# 10. The key appears nowhere.
check "the key is in no output nor log" no_key_in "$T"/*.json "$T"/*.err "$T"/*.txt "$T/access.log" "$T/sim.log"
finish
