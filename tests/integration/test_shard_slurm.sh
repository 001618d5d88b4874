#!/usr/bin/env bash
# Sharded seeding on a real scheduler: a single-node Slurm cluster on loopback
# (slurm_cluster.sh) runs deploy/slurm's scripts against seawx-sim.
#   1. 4 shards as an array job and the merge as a job after it (afterany):
#      the merged file equals an unsharded run's (metadata, tiles, images).
#   2. Shard 2 of a new seed cancelled part-way: the merge refuses, exits 9
#      and names shard 2 (stdout, rerun.txt); shard 2 alone is submitted
#      again and resumes its file on the node's disk: the stand-in's access
#      log shows exactly its missing tiles fetched; the merge then succeeds
#      and equals the unsharded file.
# Cost: about 50 s (the daemons start in 2 s; shards run 4 at once).
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
. "$here/slurm_cluster.sh"
for p in munged slurmctld slurmd sbatch; do
  command -v "$p" >/dev/null || {
    echo "$p is missing: run scripts/install-deps.sh (Debian's slurmctld slurmd munge slurm-client)"
    exit 1
  }
done
if [ "$(id -u)" -ne 0 ]; then
  echo "slurmd runs jobs as their users and must be root: run the tests as root"
  exit 1
fi
trap 'slurm_stop; cleanup' EXIT
trap 'exit 1' INT TERM
deploy=$SEAWX_SOURCE_DIR/deploy/slurm
chk="python3 $here/shard_check.py"

sim_start --latency 60 --now 2026-03-01T06:00:00Z
check "the Slurm node comes up" slurm_start "$T/slurm"
cd "$T" || exit 1
export SEAWX=$SEAWX_CLI SEAWX_LOCAL_DIR=$T/node
args=(-b basic -v t2m:K --bbox -30,30,30,65 -z 0-7 -m 1 -q)

# The unsharded file to compare with.
"$SEAWX_CLI" seed "${args[@]}" -j 16 -o "$T/full.mbtiles"
check "unsharded run" test -s "$T/full.mbtiles"

# 1. Four shards and the merge, in one submission.
read -r jid mid < <(bash "$deploy/submit.sh" 4 "$T/pub1" "$T/out1" "${args[@]}" -j 2)
check "array and merge submitted ($jid, $mid)" test -n "$mid"
st=$(slurm_wait "$mid" 300)
check "the merge job completed after the array ($st)" test "$st" = "COMPLETED 0:0"
check "4 shard files published" test "$(ls "$T"/pub1/*.shard-*-of-4.mbtiles | wc -l)" -eq 4
merged=$(ls "$T"/out1/*.mbtiles 2>/dev/null | head -1)
check "merged file written" test -n "$merged"
check "merged file equals the unsharded run" $chk same "$T/full.mbtiles" "$merged"
check "no shard's file is left on the node" test -z "$(find "$T/node" -name '*.mbtiles')"

# 2. Shard 2 cancelled part-way, refused, rerun alone. The stand-in now answers
# after 300 ms, so that a shard (157 tiles, 2 in flight) runs for about 24 s:
# the cancel, sent once 20 of shard 2's tiles are in its file (observed, not
# timed), lands mid-shard however busy the machine is.
sim_slow() { sim_restart --latency "$1" --now 2026-03-01T06:00:00Z; }
sim_slow 300
: >"$T/access.log"
read -r jid mid < <(bash "$deploy/submit.sh" 4 "$T/pub2" "$T/out2" "${args[@]}" -j 2)
part=
shard2_tiles() {
  part=$(find "$T/node" -name '*.shard-2-of-4.mbtiles' | head -1)
  [ -n "$part" ] && [ "$(sqlite3 "$part" 'SELECT count(*) FROM map' 2>/dev/null || echo 0)" -ge 20 ]
}
check "shard 2 has 20 tiles in its file" wait_until 300 shard2_tiles
scancel "${jid}_2"
st=$(slurm_wait "$mid" 300)
check "the merge ran after the cancelled shard and failed ($st)" test "$st" = "FAILED 9:0"
check "the merge names shard 2 to run again" test "$(cat "$T/pub2/rerun.txt" 2>/dev/null)" = 2
check "nothing merged" test -z "$(ls "$T"/out2/ 2>/dev/null)"
check "the merge job's log says how to resubmit" grep -q -- "--array=2 " "$T"/seawx-merge-"$mid".out
check "shard 2's partial file stays on the node" test -s "$part"
cp "$part" "$T/partial.mbtiles"
n_partial=$($chk count "$T/partial.mbtiles")
check "the partial file holds some of the shard's tiles, not all ($n_partial)" test "$n_partial" -ge 20 -a "$n_partial" -lt 157
sim_slow 60
: >"$T/access.log"
read -r jid mid < <(bash "$deploy/submit.sh" --only 2 4 "$T/pub2" "$T/out2" "${args[@]}" -j 2)
st=$(slurm_wait "$mid" 300)
check "after the rerun of shard 2 alone, the merge completed ($st)" test "$st" = "COMPLETED 0:0"
check "only shard 2 ran again" test "$(grep -c 'request=GetMap' "$T/access.log")" -lt 150
check "the rerun fetched only the tiles missing from shard 2's file" \
  $chk fetched "$T/access.log" "$T/partial.mbtiles" "$T/pub2/$(basename "$part")"
merged=$(ls "$T"/out2/*.mbtiles 2>/dev/null | head -1)
check "merged file equals the unsharded run" $chk same "$T/full.mbtiles" "$merged"
check "no key in the job logs" no_key_in "$T"/seawx-*.out
finish
