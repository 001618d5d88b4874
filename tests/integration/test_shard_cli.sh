#!/usr/bin/env bash
# `seawx seed --shard` and `seawx merge` from the command line: what is
# refused before any request, the dry run's counts (the shards' add up to the
# unsharded seed's), a shard's file refused to another shard, a rerun of a
# complete shard fetching nothing, and the merge's report for orchestrators
# (stdout lines, --json, exit codes). Cost: about 3 s.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
sim_start --now 2026-03-01T06:00:00Z
cd "$T" || exit 1
S=("$SEAWX_CLI" seed -b basic -v t2m:K --bbox -30,30,30,65 -z 0-6 -m 2 -q)

for bad in 0/4 5/4 4 a/b 1/0 1/10001 "3/4 "; do
  "${S[@]}" --shard "$bad" -o x.mbtiles 2>err.txt
  rc=$?
  check "--shard '$bad' refused with exit 2 and one line ($rc)" \
    sh -c "test $rc -eq 2 && test \$(wc -l <err.txt) -eq 1 && grep -q shard err.txt"
done
check "nothing was fetched for them" sh -c "! grep -q GetMap access.log"

sum=0
for k in 1 2 3; do
  n=$("${S[@]}" --shard "$k/3" -n | awk '$1 == "all" {print $2}')
  sum=$((sum + n))
done
whole=$("${S[@]}" -n | awk '$1 == "all" {print $2}')
check "the shards' dry-run tiles add up to the seed's ($sum = $whole)" test "$sum" -eq "$whole"
check "the dry run names the shard" sh -c "'${S[0]}' ${S[*]:1} --shard 2/3 -n | grep -q 'shard 2 of 3'"

"${S[@]}" --shard 1/3 -o 'p.{shard}.mbtiles'
check "shard 1 written under its {shard} name" test -s p.1-of-3.mbtiles
cp p.1-of-3.mbtiles p.2-of-3.mbtiles
"${S[@]}" --shard 2/3 -o 'p.{shard}.mbtiles' 2>err.txt
rc=$?
check "shard 1's file refused to shard 2 (exit $rc)" sh -c "test $rc -eq 2 && grep -q \"holds shard '1/3', not '2/3'\" err.txt"
rm -f p.2-of-3.mbtiles
: >access.log
"${S[@]}" --shard 1/3 -o 'p.{shard}.mbtiles'
check "a complete shard run again fetches nothing" sh -c "! grep -q GetMap access.log"
"${S[@]}" -o p.1-of-3.mbtiles 2>err.txt
check "an unsharded seed refuses a shard's file" grep -q "holds shard" err.txt

"$SEAWX_CLI" merge -o m.mbtiles p.1-of-3.mbtiles p.2-of-3.mbtiles p.3-of-3.mbtiles >out.txt 2>err.txt
rc=$?
check "merge with shards 2 and 3 missing exits 9 ($rc)" test "$rc" -eq 9
check "stdout lists 2 and 3, one a line" test "$(cat out.txt)" = "$(printf '2\n3')"
check "stderr is one line naming them" sh -c "test \$(wc -l <err.txt) -eq 1 && grep -q '2 (missing' err.txt"
check "nothing merged" test ! -e m.mbtiles
"$SEAWX_CLI" merge --json -o m.mbtiles p.1-of-3.mbtiles >out.json 2>/dev/null
check "--json lists the shards to run again" python3 -c "
import json; r = json.load(open('out.json'))
assert r['shards'] == 3 and r['merged'] is False and r['rerun'] == [2, 3], r
assert [s['state'] for s in r['states']] == ['complete', 'missing', 'missing'], r"
"${S[@]}" --shard 2/3 -o 'p.{shard}.mbtiles'
"${S[@]}" --shard 3/3 -o 'p.{shard}.mbtiles'
"$SEAWX_CLI" merge -q --json --shards 3 -o m.mbtiles 'p.{shard}.mbtiles' >out.json
check "merge of the 3 shards" test $? -eq 0
check "--json reports the merge" python3 -c "
import json; r = json.load(open('out.json')); assert r['merged'] and r['rerun'] == [] and r['tiles'] > 0, r"
"${S[@]}" -o whole.mbtiles
check "the merged file equals the unsharded one" python3 "$here/shard_check.py" same whole.mbtiles m.mbtiles
"$SEAWX_CLI" merge -o m.mbtiles whole.mbtiles 2>err.txt
rc=$?
check "a file that is not a shard's: exit 2 ($rc)" sh -c "test $rc -eq 2 && grep -q \"not a shard's file\" err.txt"
"$SEAWX_CLI" merge p.1-of-3.mbtiles 2>/dev/null
check "merge without --output: exit 2" test $? -eq 2
"$SEAWX_CLI" merge -o m2.mbtiles 'p.{shard}.mbtiles' 2>/dev/null
check "a {shard} name without --shards: exit 2" test $? -eq 2
"$SEAWX_CLI" merge --shards 4 -o m2.mbtiles p.1-of-3.mbtiles p.2-of-3.mbtiles 2>err.txt
rc=$?
check "shards of 3 merged as 4: exit 2 ($rc)" sh -c "test $rc -eq 2 && grep -q 'not of 4' err.txt"

# A shard whose bytes changed inside a tile image (the database still passes
# integrity_check) or that was cut short is damaged: named, exit 9, nothing
# merged; the merge never copies an image whose bytes differ from its key.
cp p.2-of-3.mbtiles p2.good
python3 - <<'PY'
b = bytearray(open("p.2-of-3.mbtiles", "rb").read())
i = b.find(b"IDAT")
assert i > 0
b[i + 24] ^= 0xFF
open("p.2-of-3.mbtiles", "wb").write(b)
PY
check "the changed shard still passes integrity_check" sh -c "[ \"\$(sqlite3 p.2-of-3.mbtiles 'pragma integrity_check')\" = ok ]"
rm -f m3.mbtiles
"$SEAWX_CLI" merge --shards 3 -o m3.mbtiles 'p.{shard}.mbtiles' >out.txt 2>err.txt
rc=$?
check "a shard with a changed image: exit 9 ($rc), shard 2 named damaged" sh -c "test $rc -eq 9 && test \"\$(cat out.txt)\" = 2 && test \$(wc -l <err.txt) -eq 1 && grep -q '2 (damaged: p.2-of-3.mbtiles)' err.txt"
check "  nothing merged" test ! -e m3.mbtiles
"$SEAWX_CLI" merge --json --shards 3 -o m3.mbtiles 'p.{shard}.mbtiles' >out.json 2>/dev/null
check "  --json says damaged" python3 -c "
import json; r = json.load(open('out.json'))
assert r['rerun'] == [2] and r['states'][1]['state'] == 'damaged', r"
for cut in half 3000; do
  cp p2.good p.2-of-3.mbtiles
  size=$(stat -c %s p.2-of-3.mbtiles)
  [ "$cut" = half ] && cut=$((size / 2))
  truncate -s "$cut" p.2-of-3.mbtiles
  "$SEAWX_CLI" merge -o m3.mbtiles p.1-of-3.mbtiles p.2-of-3.mbtiles p.3-of-3.mbtiles >out.txt 2>err.txt
  rc=$?
  check "a shard cut to $cut bytes: exit 9 ($rc), called damaged, not another file" sh -c "test $rc -eq 9 && test \"\$(cat out.txt)\" = 2 && grep -q 'damaged: p.2-of-3.mbtiles' err.txt && ! grep -q \"not a shard's file\" err.txt"
  check "  nothing merged" test ! -e m3.mbtiles
done
cp p2.good p.2-of-3.mbtiles

# -o naming one of the shards (by its name, or by a link to it) is refused
# before anything is written; the shard is unchanged.
cp p.3-of-3.mbtiles p3.keep
"$SEAWX_CLI" merge --shards 3 -o p.3-of-3.mbtiles 'p.{shard}.mbtiles' 2>err.txt
rc=$?
check "merge -o a shard: exit 2 ($rc), one line" sh -c "test $rc -eq 2 && test \$(wc -l <err.txt) -eq 1 && grep -q 'an input of the same run' err.txt"
ln -s "$T/p.3-of-3.mbtiles" sub.mbtiles
"$SEAWX_CLI" merge -o sub.mbtiles p.1-of-3.mbtiles p.2-of-3.mbtiles ./p.3-of-3.mbtiles 2>err.txt
rc=$?
check "merge -o a link to a shard: exit 2 ($rc)" sh -c "test $rc -eq 2 && grep -q 'same file as ./p.3-of-3.mbtiles' err.txt"
check "  the shard unchanged, still a link to it" sh -c "cmp -s p.3-of-3.mbtiles p3.keep && test -L sub.mbtiles"
"$SEAWX_CLI" merge -q --shards 3 -o m3.mbtiles 'p.{shard}.mbtiles'
check "the shards merge again afterwards" python3 "$here/shard_check.py" same whole.mbtiles m3.mbtiles
check "no key in what was printed" no_key_in err.txt out.txt out.json
finish
