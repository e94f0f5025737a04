#!/usr/bin/env bash
# Rotating MNIST (STRODE paper §5.2, Table 1): NODE, ODE-RNN, STRODE and
# STRODE-RNN predict the next frame of rotating-digit videos whose frames
# were taken at Hawkes or exponential times; STRODE infers those times.
#
#   recipes/rotmnist/run.sh [--exp-dir exp/rotmnist] [--mnist-dir ../shared/data/mnist]
#       [--subsets "hawkes exp"] [--models "node odernn strode strode-rnn"] [--seeds "1 2 3"]
#       [--nj N] [--strode BIN] [--quick] [--overwrite] [--stage N] [--stop-stage N]
#       [-- extra strode rotmnist options]
#
# Stages:
#   0 build bin/strode (skipped with --strode BIN)
#   1 generate each subset's videos once (EXP/data, data seed 112; every model and seed uses them)
#   2 train and test every subset x model x seed -> EXP/SUBSET/MODEL/seedN/{results.json,strip.png,
#     model.safetensors,log/train.log}, --nj runs at a time (default 2), each with GOMAXPROCS =
#     cores / nj unless GOMAXPROCS is set (on 2 cores two one-thread runs train 1.8x faster in all
#     than one two-thread run); finished runs are skipped unless --overwrite
#   3 EXP/RESULTS.md: mean +- std over seeds beside the paper's Table 1 (strode rotmnist-table)
#
# --quick (CI): exp dir EXP/quick, one seed, 200/50/50 videos, --ndf 4, 3 epochs: every model on both
# subsets in under 3 minutes on 2 cores. recipes/rotmnist/quick_test.go runs it and checks its bar:
# every run's test MSE at most 1.05 x the blank-frame MSE, training MSE falling and CS at least 0.85 (too short to
# learn timings; the bar catches a broken pipeline, not a weak model).
set -euo pipefail
exp_dir=exp/rotmnist
mnist_dir=../shared/data/mnist
subsets="hawkes exp"
models="node odernn strode strode-rnn"
seeds="1 2 3"
quick=
overwrite=
nj=2
strode=
stage=0
stop_stage=100
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --exp-dir) exp_dir=$2; shift 2 ;;
    --mnist-dir) mnist_dir=$2; shift 2 ;;
    --subsets) subsets=$2; shift 2 ;;
    --models) models=$2; shift 2 ;;
    --seeds) seeds=$2; shift 2 ;;
    --quick) quick=--quick; shift ;;
    --overwrite) overwrite=1; shift ;;
    --nj) nj=$2; shift 2 ;;
    --strode) strode=$2; shift 2 ;;
    --stage) stage=$2; shift 2 ;;
    --stop-stage) stop_stage=$2; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    *) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 1 ;;
  esac
done
cd "$(dirname "$0")/../.."
if [ -n "$quick" ]; then
  [ "$exp_dir" = exp/rotmnist ] && exp_dir=exp/rotmnist/quick
  [ "$seeds" = "1 2 3" ] && seeds=1
fi
if [ -z "$strode" ]; then
  strode=bin/strode
  if [ "$stage" -le 0 ] && [ "$stop_stage" -ge 0 ]; then
    echo "== stage 0: build"
    mkdir -p bin && go build -o bin/strode ./cmd/strode
  fi
fi
threads=$(( $(nproc) / nj )); [ "$threads" -ge 1 ] || threads=1
export GOMAXPROCS=${GOMAXPROCS:-$threads}
common=(--mnist-dir "$mnist_dir" --data-dir "$exp_dir/data" $quick)
if [ "$stage" -le 1 ] && [ "$stop_stage" -ge 1 ]; then
  echo "== stage 1: data"
  for s in $subsets; do
    mkdir -p "$exp_dir/data/log"
    $strode rotmnist --subset "$s" --data-only "${common[@]}" "${extra[@]}" 2> "$exp_dir/data/log/$s.log"
  done
fi
# train SUBSET MODEL SEED: one run, its log in its folder.
train() {
  local dir=$exp_dir/$1/$2/seed$3
  mkdir -p "$dir/log"
  local summary
  if summary=$("$strode" rotmnist --subset "$1" --model "$2" --seed "$3" --out "$dir" "${common[@]}" "${extra[@]}" \
      2> "$dir/log/train.log"); then
    echo "$summary"
  else
    echo "$dir: FAILED, see $dir/log/train.log"; tail -3 "$dir/log/train.log"; return 1
  fi
}
if [ "$stage" -le 2 ] && [ "$stop_stage" -ge 2 ]; then
  echo "== stage 2: train ($nj at a time)"
  running=0
  failed=0
  for s in $subsets; do
    for m in $models; do
      for seed in $seeds; do
        if [ -f "$exp_dir/$s/$m/seed$seed/results.json" ] && [ -z "$overwrite" ]; then
          echo "$exp_dir/$s/$m/seed$seed: done, skipped"
          continue
        fi
        if [ "$running" -ge "$nj" ]; then
          wait -n || failed=1
          running=$((running - 1))
        fi
        train "$s" "$m" "$seed" &
        running=$((running + 1))
      done
    done
  done
  while [ "$running" -gt 0 ]; do
    wait -n || failed=1
    running=$((running - 1))
  done
  [ "$failed" = 0 ] || { echo "stage 2: some runs failed"; exit 1; }
fi
if [ "$stage" -le 3 ] && [ "$stop_stage" -ge 3 ]; then
  echo "== stage 3: table"
  "$strode" rotmnist-table --out "$exp_dir/RESULTS.md" "$exp_dir"
fi
