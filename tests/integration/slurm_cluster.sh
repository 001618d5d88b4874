# slurm_cluster.sh: a single-node Slurm cluster on loopback for the tests, its
# daemons started directly (no systemd) with everything under one folder:
# a private munged (own key and socket), slurmctld and slurmd on free ports,
# the node's CPU layout from `slurmd -C`, proctrack/linuxproc and task/none
# (no cgroups needed), no accounting. Source it after lib.sh.
#   slurm_start DIR    starts the cluster, exports SLURM_CONF, waits for the node
#   slurm_stop         cancels every job, stops the daemons by their PIDs
#   slurm_wait JOBID [SECONDS]
#                      waits until the job has ended; prints its JobState
#                      and ExitCode ("COMPLETED 0:0")
SLURM_DIR=
SLURM_PIDS=()

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

slurm_start() {
  SLURM_DIR=$1
  local d=$SLURM_DIR host
  host=$(hostname -s)
  mkdir -p "$d/state" "$d/spool" "$d/run"
  chmod 755 "$d" "$d/run"
  head -c 128 /dev/urandom >"$d/munge.key"
  chmod 400 "$d/munge.key"
  munged --force --foreground --socket="$d/run/munge.sock" --key-file="$d/munge.key" \
    --pid-file="$d/run/munged.pid" --log-file="$d/munged.log" --seed-file="$d/munged.seed" \
    >"$d/munged.out" 2>&1 &
  SLURM_PIDS+=($!)
  local cpus sockets cores threads
  eval "$(slurmd -C | head -1 | tr ' ' '\n' |
    sed -n -E 's/^CPUs=/cpus=/p; s/^SocketsPerBoard=/sockets=/p; s/^CoresPerSocket=/cores=/p; s/^ThreadsPerCore=/threads=/p')"
  cat >"$d/slurm.conf" <<CONF
ClusterName=seawxtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$d/run/munge.sock
CredType=cred/munge
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/run/slurmctld.pid
SlurmdPidFile=$d/run/slurmd.pid
SlurmctldLogFile=$d/slurmctld.log
SlurmdLogFile=$d/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
KillWait=10
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus SocketsPerBoard=$sockets CoresPerSocket=$cores ThreadsPerCore=$threads State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:8
CONF
  export SLURM_CONF=$d/slurm.conf
  for _ in $(seq 100); do [ -S "$d/run/munge.sock" ] && break; sleep 0.05; done
  slurmctld -D -f "$SLURM_CONF" >"$d/slurmctld.out" 2>&1 &
  SLURM_PIDS+=($!)
  slurmd -D -f "$SLURM_CONF" >"$d/slurmd.out" 2>&1 &
  SLURM_PIDS+=($!)
  # Should the test itself be killed (a timeout), a watchdog cancels the jobs
  # and stops the daemons and the test's seawx-sim.
  local me=$$ pids="${SLURM_PIDS[*]} ${SIM_PID:-}"
  setsid bash -c 'while kill -0 "$1" 2>/dev/null; do sleep 1; done
    scancel --quiet --full -u "$(id -un)"; sleep 2; kill $2' watchdog "$me" "$pids" \
    >/dev/null 2>&1 </dev/null &
  for _ in $(seq 150); do
    sinfo -h -o %t 2>/dev/null | grep -q -E '^(idle|mix|alloc)' && return 0
    sleep 0.1
  done
  echo "the Slurm node did not come up:"
  tail -5 "$d/slurmctld.log" "$d/slurmd.log" 2>/dev/null
  return 1
}

slurm_stop() {
  [ -n "$SLURM_DIR" ] || return 0
  # The jobs first (their steps would outlive slurmd), then the daemons in
  # reverse order, by their PIDs.
  scancel --quiet --full -u "$(id -un)" 2>/dev/null || true
  for _ in $(seq 50); do
    [ -z "$(squeue -h 2>/dev/null)" ] && break
    sleep 0.1
  done
  local i
  for ((i = ${#SLURM_PIDS[@]} - 1; i >= 0; i--)); do
    kill "${SLURM_PIDS[i]}" 2>/dev/null
  done
  for ((i = ${#SLURM_PIDS[@]} - 1; i >= 0; i--)); do
    for _ in $(seq 50); do kill -0 "${SLURM_PIDS[i]}" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "${SLURM_PIDS[i]}" 2>/dev/null
    wait "${SLURM_PIDS[i]}" 2>/dev/null
  done
  SLURM_PIDS=()
  SLURM_DIR=
}

slurm_wait() {
  local id=$1 limit=${2:-120} line state
  for _ in $(seq $((limit * 5))); do
    kill -0 $$ 2>/dev/null || return 1 # the test is gone
    line=$(scontrol show job "$id" -o 2>/dev/null | head -1)
    state=$(printf '%s' "$line" | grep -o 'JobState=[A-Z_]*' | cut -d= -f2)
    case $state in
    COMPLETED | FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY | PREEMPTED)
      echo "$state $(printf '%s' "$line" | grep -o ' ExitCode=[0-9:]*' | cut -d= -f2)"
      return 0
      ;;
    esac
    sleep 0.2
  done
  echo "TIMEOUT-WAITING"
  return 1
}
