#!/usr/bin/env bash
# Irregularly sampled sine waves (STRODE paper §5.1): infer event timings with
# no timing labels, for Poisson and Hawkes observation times.
#
#   recipes/sine/run.sh [--exp-dir exp/sine] [--seeds 3] [--quick] [--stage N] [--stop-stage N]
#       [--strode BIN] [--config FILE]
#
# The strode binary is --strode BIN, else $STRODE, else bin/strode, built first when stale
# (recipes/local/strode_bin.sh). Stages:
#   1 strode sine --process poisson   -> EXP/poisson/{results.json,scatter.png,log/train.log}
#   2 strode sine --process hawkes    -> EXP/hawkes/...
#   3 print both tables
# Extra options after -- go to every `strode sine` call, e.g. -- --seed 101, or the model
# and training as published (see RESULTS.md):
#   -- --variant paper
set -euo pipefail
exp_dir=exp/sine
seeds=3
quick=false
strode=
stage=0
stop_stage=100
. "$(dirname "$0")/../local/parse_options.sh"
extra=()  # after --: options for every strode sine
if [ $# -gt 0 ]; then
  [ "$1" = -- ] || { echo "$0: unexpected argument $1 (see $0 --help)" >&2; exit 1; }
  shift; extra=("$@")
fi
cd "$(dirname "$0")/../.."
. recipes/local/strode_bin.sh
q=; $quick && q=--quick
run_stage() { [ "$stage" -le "$1" ] && [ "$stop_stage" -ge "$1" ]; }

n=1
for p in poisson hawkes; do  # stage 1: poisson, stage 2: hawkes
  if run_stage $n; then
    echo "== stage $n: $p"
    mkdir -p "$exp_dir/$p/log"
    "$strode" sine --process "$p" --seeds "$seeds" --out "$exp_dir/$p" $q ${extra[@]+"${extra[@]}"} \
      > "$exp_dir/$p/table.txt" 2> "$exp_dir/$p/log/train.log"
  fi
  n=$((n + 1))
done

if run_stage 3; then
  echo "== stage 3: both tables"
  cat "$exp_dir"/poisson/table.txt "$exp_dir"/hawkes/table.txt 2>/dev/null || true
fi
