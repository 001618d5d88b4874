#!/bin/bash
# submit.sh: a sharded seed on Slurm in one command: the array of N shards,
# then the merge, which runs after every task has ended (afterany).
#
#   deploy/slurm/submit.sh N PUBLISH_DIR OUTPUT_DIR SEED_OPTION...
#   deploy/slurm/submit.sh --only 3,7 N PUBLISH_DIR OUTPUT_DIR SEED_OPTION...
#
# --only resubmits just those shards (as merge.sbatch lists them in
# PUBLISH_DIR/rerun.txt) and a new merge. Extra sbatch options (a partition,
# an account, a time limit) go in SBATCH_EXTRA. Prints the two job ids.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
only=
if [ "${1:-}" = --only ]; then
  only=$2
  shift 2
fi
if [ $# -lt 4 ]; then
  echo "usage: $0 [--only K,K...] N PUBLISH_DIR OUTPUT_DIR SEED_OPTION..." >&2
  exit 2
fi
n=$1
publish=$2
out=$3
shift 3
# shellcheck disable=SC2086
jid=$(sbatch --parsable ${SBATCH_EXTRA:-} --array="${only:-1-$n}" "$here/seed-shard.sbatch" \
  "$n" "$publish" "$@")
# shellcheck disable=SC2086
mid=$(sbatch --parsable ${SBATCH_EXTRA:-} --dependency="afterany:$jid" "$here/merge.sbatch" \
  "$n" "$publish" "$out")
echo "$jid $mid"
