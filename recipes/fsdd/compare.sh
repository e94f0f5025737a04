#!/usr/bin/env bash
# Leave-one-speaker-out comparison of acoustic models on FSDD, paired over speakers and seeds
# (the paper's CHiME-5 table in shape: Kaldi DNN, ODE-RNN, STRODE, with our SRU):
#
#   recipes/fsdd/compare.sh --seeds "1 2 3" --models "dnn sru odernn strode" --exp-dir exp/fsdd_compare
#
# For every speaker of the corpus (or --speakers "..."), run.sh holds that speaker out, builds the
# front end once (stages 0-3: data, lang, LM and graph, features, flat start and realignment,
# with --seed) and trains and decodes every model once per seed of --seeds (stages 4-7,
# DIR/SPEAKER/MODEL_seedN; with --mmi-epochs in the options for run.sh, MODEL_mmi_seedN too).
# Then strode compare pairs the runs on (speaker, seed): mean WER +- s.e. per model, and for every
# pair of models the mean paired difference with its s.e., a 95% interval and the win/loss count
# (DIR/compare.md, compare.json, compare.png). A speaker whose results.json exists is not run
# again (delete it to redo one).
# Options: --fsdd-dir DIR [../shared/data/fsdd] --speakers "..." [every speaker in DIR/recordings]
#   --seeds "N ..." [1 2 3] --models "..." [dnn sru odernn strode] --exp-dir DIR [exp/fsdd_compare]
#   --baseline MODEL [none: every pair] --full BOOL [false: run.sh --quick sizes, with
#   --test-takes 50: every test take decoded] --strode PATH [$STRODE, else bin/strode, built when
#   stale] --config FILE; anything after -- goes to run.sh as it is.
set -euo pipefail

fsdd_dir=../shared/data/fsdd
speakers=
seeds="1 2 3"
models="dnn sru odernn strode"
exp_dir=exp/fsdd_compare
baseline=
full=false
strode=
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/recipes/local/parse_options.sh"
extra=()  # after --: options for run.sh
if [ $# -gt 0 ]; then
  [ "$1" = -- ] || { echo "$0: unexpected argument $1 (see $0 --help)" >&2; exit 1; }
  shift; extra=("$@")
fi
[ -d "$fsdd_dir/recordings" ] || { echo "compare.sh: $fsdd_dir/recordings not found (recipes/fsdd/run.sh downloads FSDD; or --fsdd-dir)" >&2; exit 1; }
# Every speaker of the corpus: the middle field of DIGIT_SPEAKER_TAKE.wav.
[ -n "$speakers" ] || speakers=$(ls "$fsdd_dir/recordings" | sed -n 's/^[0-9]_\(.*\)_[0-9]*\.wav$/\1/p' | sort -u | tr '\n' ' ')
sizes=(--quick --test-takes 50); $full && sizes=()
. "$root/recipes/local/strode_bin.sh"
mkdir -p "$exp_dir"
runs=$exp_dir/runs.txt; : > $runs

for spk in $speakers; do
  dir=$exp_dir/$spk
  if [ -s $dir/results.json ]; then
    echo "== $spk: done before ($dir/results.json)"
  else
    echo "== $spk held out: $models x seeds $seeds (log: $dir/run.log)"
    mkdir -p $dir
    start=$(date +%s)
    "$root/recipes/fsdd/run.sh" --fsdd-dir "$fsdd_dir" --test-speakers $spk --exp-dir $dir \
      --models "$models" --seeds "$seeds" --strode "$strode" ${sizes[@]+"${sizes[@]}"} ${extra[@]+"${extra[@]}"} > $dir/run.log 2>&1 ||
      { echo "compare.sh: run.sh failed for $spk; the end of $dir/run.log:" >&2; tail -n 20 $dir/run.log >&2; exit 1; }
    echo "   $(( $(date +%s) - start )) s"
  fi
  # One run per model and seed: "MODEL SPEAKER SEED WER-FILE", from run.sh's own list of what it
  # decoded when it wrote one (the sequence-trained MODEL_mmi or MODEL_smbr runs of --mmi-epochs
  # too), else every model of --models and seed of --seeds.
  if [ -s $dir/strode_compare.runs ]; then
    awk -v spk=$spk -v dir=$dir '{ p = $4; sub(/^\.\//, "", p); print $1, spk, $3, dir "/" p }' $dir/strode_compare.runs >> $runs
  else
    for m in $models; do for sd in $seeds; do
      echo "$m $spk $sd $dir/${m}_seed$sd/decode_test/best_wer" >> $runs
    done; done
  fi
  sed 's/^/   /' $dir/results.md
done

echo "== paired comparison over speakers ($speakers) and seeds ($seeds)"
"$strode" compare --print-args=false ${baseline:+--baseline=$baseline} --json=$exp_dir/compare.json \
  --png=$exp_dir/compare.png $runs | tee $exp_dir/compare.md
