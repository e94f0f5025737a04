#!/bin/bash
# Stops the cluster start-local-cluster.sh started in DIR: the daemons named
# in DIR/pids (by their pids, TERM then KILL after 10 s). With --rm, also
# deletes DIR.
#   recipes/jobs/slurm/stop-local-cluster.sh [--rm] DIR
set -uo pipefail
rm_dir=false
[ "${1:-}" = --rm ] && { rm_dir=true; shift; }
dir=${1:?usage: stop-local-cluster.sh [--rm] DIR}
[ -f "$dir/pids" ] || { echo "stop-local-cluster.sh: no $dir/pids: nothing to stop" >&2; exit 1; }
# Jobs still queued or running would be lost anyway; cancel them first.
SLURM_CONF=$dir/slurm.conf scancel --quiet --user="$(id -un)" 2>/dev/null || true
pids=()
while read -r name pid; do
  [ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null && pids+=("$pid")
done < <(tac "$dir/pids")
for i in $(seq 40); do
  alive=0
  for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
  [ $alive = 0 ] && break
  sleep 0.25
done
for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && kill -KILL "$p" 2>/dev/null; done
rm -f "$dir/pids"
echo "stopped the Slurm daemons of $dir"
if $rm_dir; then rm -rf "$dir"; echo "removed $dir"; fi
