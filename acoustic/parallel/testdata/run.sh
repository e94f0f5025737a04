#!/usr/bin/env bash
# A minimal stand-in for Kaldi's utils/run.pl, for the driver's tests:
#   run.sh [--max-jobs-run N] [JOB=a:b] <log> <command words...>
# Each job runs the words (JOB replaced by its number, in the log name too)
# with bash, stdout and stderr to its log; all jobs of the range run at once
# (or N at a time). Exit 0 when every job succeeded, else 1, as run.pl.
set -u
max=0
if [ "${1:-}" = --max-jobs-run ]; then max=$2; shift 2; fi
first=1; last=1; var=
if [[ "${1:-}" =~ ^([A-Za-z_]+)=([0-9]+):([0-9]+)$ ]]; then
  var=${BASH_REMATCH[1]}; first=${BASH_REMATCH[2]}; last=${BASH_REMATCH[3]}; shift
fi
[ $# -ge 2 ] || { echo "usage: $0 [--max-jobs-run N] [JOB=a:b] <log> <command...>" >&2; exit 1; }
log=$1; shift
cmd="$*"
pids=(); jobs_of=()
failed=0
for ((j = first; j <= last; j++)); do
  if [ -n "$var" ]; then l=${log//$var/$j}; c=${cmd//$var/$j}; else l=$log; c=$cmd; fi
  mkdir -p "$(dirname "$l")"
  ( echo "# $c"; bash -c "$c"; rc=$?; echo "# Ended (code $rc)"; exit $rc ) > "$l" 2>&1 &
  pids+=($!); jobs_of+=($j)
  if [ "$max" -gt 0 ] && [ ${#pids[@]} -ge "$max" ]; then
    wait "${pids[0]}" || failed=$((failed + 1)); pids=("${pids[@]:1}")
  fi
done
for p in ${pids[@]+"${pids[@]}"}; do wait "$p" || failed=$((failed + 1)); done
if [ $failed -gt 0 ]; then echo "$0: $failed / $((last - first + 1)) failed, log is in $log" >&2; exit 1; fi
exit 0
