#!/usr/bin/env bash
# deploy/kubernetes/: the manifests validate as YAML with the fields the
# Kubernetes API requires (k8s_check.py; no API server here), and the shell
# scripts they carry work: the seed Job's run once per index
# (JOB_COMPLETION_INDEX 0 to N-1) against seawx-sim, the merge Job's then
# writes the file an unsharded seed writes; with one shard's files gone, it
# exits 9 and lists that shard. Cost: about 3 s.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
dir=$SEAWX_SOURCE_DIR/deploy/kubernetes
kc="python3 $here/k8s_check.py"
check "manifests valid" $kc check "$dir"
# The checker catches what the API server would refuse.
mkdir -p "$T/bad"
cp "$dir"/*.yaml "$T/bad/"
sed -i 's/restartPolicy: Never/restartPolicy: Always/' "$T/bad/seed-job.yaml"
check "a Job with restartPolicy Always is refused" sh -c "! $kc check '$T/bad' >/dev/null"
cp "$dir/seed-job.yaml" "$T/bad/"
sed -i 's/claimName: seawx-shards/claimName: nowhere/' "$T/bad/seed-job.yaml"
check "a claim that is not defined is refused" sh -c "! $kc check '$T/bad' >/dev/null"
check "seed Job script extracted" $kc script "$dir" seawx-seed "$T/seed.sh"
check "merge Job script extracted" $kc script "$dir" seawx-merge "$T/merge.sh"
check "seed Job script parses" bash -n "$T/seed.sh"
check "merge Job script parses" bash -n "$T/merge.sh"

# The scripts, with the pod's folders moved under $T and seawx on the PATH.
sed -i "s#/shared/#$T/shared/#g; s#work=/work#work=$T/work#" "$T/seed.sh" "$T/merge.sh"
mkdir -p "$T/bin" "$T/work" "$T/shared"
ln -s "$SEAWX_CLI" "$T/bin/seawx"
export PATH=$T/bin:$PATH
sim_start --now 2026-03-01T06:00:00Z
args="-b basic -v t2m:K --bbox -30,30,30,65 -z 0-5 -m 2 -q"
"$SEAWX_CLI" seed $args -o "$T/full.mbtiles"
ok=0
for i in 0 1 2; do
  SEAWX_SHARDS=3 SEAWX_SEED_ARGS=$args JOB_COMPLETION_INDEX=$i bash "$T/seed.sh" >/dev/null && ok=$((ok + 1))
done
check "the 3 indexes ran" test "$ok" -eq 3
check "an index already published exits at once" \
  sh -c "SEAWX_SHARDS=3 SEAWX_SEED_ARGS='--no-such-option' JOB_COMPLETION_INDEX=1 bash '$T/seed.sh' | grep -q 'already published'"
check "the merge Job's script succeeds" sh -c "SEAWX_SHARDS=3 bash '$T/merge.sh'"
check "merged file equals the unsharded run" \
  python3 "$here/shard_check.py" same "$T/full.mbtiles" "$T"/shared/merged/*.mbtiles
rm -f "$T"/shared/parts/*.shard-2-of-3.mbtiles
SEAWX_SHARDS=3 bash "$T/merge.sh" >"$T/merge.out" 2>&1
rc=$?
check "without shard 2, the merge Job fails with 9 ($rc)" test "$rc" -eq 9
check "and lists shard 2 to run again" test "$(cat "$T/shared/parts/rerun.txt")" = 2
check "and clears shard 2's marker, so that the seed Job runs it again" \
  test ! -e "$T/shared/parts/.shard-2-of-3.done" -a -e "$T/shared/parts/.shard-1-of-3.done"
finish
