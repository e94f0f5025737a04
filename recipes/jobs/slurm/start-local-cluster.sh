#!/bin/bash
# Starts a one-node Slurm cluster on this machine, to try `strode slurm.pl`
# (and Kaldi's slurm.pl) for real: munged, slurmctld and slurmd, with the
# configuration, state, spool, logs and munge key all in one directory,
# ports of their own (so a real Slurm on the machine is not disturbed), and
# the daemons in the background under this directory's pid files.
#
#   recipes/jobs/slurm/start-local-cluster.sh [DIR]     # DIR: default a new /tmp/strode-slurm.XXXXXX
#   export SLURM_CONF=DIR/slurm.conf                     # what it prints last: clients use this cluster
#   strode slurm.pl JOB=1:3 exp/log/x.JOB.log echo JOB
#   recipes/jobs/slurm/stop-local-cluster.sh DIR         # stops the daemons (add --rm to delete DIR)
#
# Needs root (slurmd runs each job as its submitting user) and Debian's
# packages: apt-get install slurm-wlm munge. Ports: $STRODE_SLURM_PORT
# (slurmctld, default 16817) and the next one (slurmd).
set -euo pipefail

die() { echo "start-local-cluster.sh: $*" >&2; exit 1; }

for b in munged mungekey slurmctld slurmd sbatch sinfo; do
  command -v "$b" >/dev/null || die "$b not found; install Slurm and munge: apt-get install slurm-wlm munge"
done
[ "$(id -u)" = 0 ] || die "needs root (slurmd must be able to run jobs as their user)"

dir=${1:-$(mktemp -d /tmp/strode-slurm.XXXXXX)}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
[ -e "$dir/pids" ] && die "$dir already holds a cluster (pid file $dir/pids); stop it first: $(dirname "$0")/stop-local-cluster.sh $dir"
mkdir -p "$dir/state" "$dir/spool" "$dir/log" "$dir/munge"
chmod 700 "$dir/munge"

host=$(hostname -s)
cpus=$(nproc)
mem_mb=$(awk '/^MemTotal:/ { printf "%d", $2 / 1024 * 0.9 }' /proc/meminfo) # leave the OS a tenth
port=${STRODE_SLURM_PORT:-16817}

# munge: a fresh key and a daemon of our own, on a socket in $dir.
mungekey --create --keyfile="$dir/munge/munge.key" --force
chmod 400 "$dir/munge/munge.key"
munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
  --pid-file="$dir/munge/munged.pid" --log-file="$dir/log/munged.log" --seed-file="$dir/munge/munged.seed"
echo "munged $(cat "$dir/munge/munged.pid")" > "$dir/pids"

cat > "$dir/slurm.conf" <<CONF
# One-node Slurm for strode's tests, written by start-local-cluster.sh
ClusterName=strode-local
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
# No slurmdbd here, so sacct has nothing; finished jobs are kept in
# slurmctld for an hour (scontrol show job) and logged to this file:
JobCompType=jobcomp/filetxt
JobCompLoc=$dir/log/jobcomp.txt
MinJobAge=3600
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=$((mem_mb / cpus))
ReturnToService=2
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$dir/slurm.conf

# The daemons in the foreground (-D) of background processes that outlive this script.
setsid slurmctld -D -c -f "$SLURM_CONF" >>"$dir/log/slurmctld.out" 2>&1 < /dev/null &
echo "slurmctld $!" >> "$dir/pids"
setsid slurmd -D -f "$SLURM_CONF" -N "$host" >>"$dir/log/slurmd.out" 2>&1 < /dev/null &
echo "slurmd $!" >> "$dir/pids"

for i in $(seq 60); do
  state=$(sinfo -h -N -o %T 2>/dev/null | head -1 || true)
  [ "$state" = idle ] && break
  sleep 0.5
done
if [ "${state:-}" != idle ]; then
  echo "start-local-cluster.sh: the node is not idle after 30 s (state '${state:-none}'); logs in $dir/log:" >&2
  tail -n 5 "$dir"/log/*.log "$dir"/log/*.out >&2 || true
  "$(dirname "$0")/stop-local-cluster.sh" "$dir" >&2 || true
  exit 1
fi
echo "# one-node Slurm cluster up: node $host, $cpus CPUs, $mem_mb MB; daemons' pids in $dir/pids"
echo "# stop it with: $(cd "$(dirname "$0")" && pwd)/stop-local-cluster.sh $dir"
echo "export SLURM_CONF=$dir/slurm.conf"
