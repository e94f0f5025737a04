#!/usr/bin/env bash
# Monophone against context-dependent targets on speechocean762's dev set: the same network
# (--models, default sru) trained once per seed on the monophone alignments and once per seed on
# each tree of --leaves, paired over the seeds (strode compare: the mean WER difference with its
# standard error and 95% interval).
#
#   recipes/speechocean762/compare_targets.sh [--leaves "300"] [--seeds "1 2 3"] [--models sru]
#       [--exp-dir exp/speechocean762_targets] [--run-opts "..."]
#
# Every experiment is recipes/speechocean762/run.sh with --run-opts (default: --quick at 40
# training and all 13 dev speakers) in EXP/mono and EXP/treeN; the table is EXP/compare.md.
set -euo pipefail

leaves=300
seeds="1 2 3"
models=sru
exp_dir=exp/speechocean762_targets
run_opts="--quick --quick-train-speakers 40 --quick-dev-speakers 13"
strode=

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
. "$root/recipes/local/parse_options.sh"
[ $# = 0 ] || { echo "$0: unexpected argument $1 (see the header)" >&2; exit 1; }
mkdir -p $exp_dir
runs=$exp_dir/compare.runs; : > $runs
for n in 0 $leaves; do
  name=mono; [ $n = 0 ] || name=tree$n
  conf=$exp_dir/$name.conf
  # Options with spaces reach recipes/kaldi/run.sh through its --config file.
  printf 'seeds="%s"\nnum_leaves=%s\n' "$seeds" "$n" > $conf
  conf=$(cd $(dirname $conf) && pwd)/$(basename $conf)
  echo "== $name: recipes/speechocean762/run.sh $run_opts --models $models --exp-dir $exp_dir/$name --pipeline-opts \"--config $conf\""
  bash $root/recipes/speechocean762/run.sh $run_opts --models "$models" ${strode:+--strode $strode} --exp-dir $exp_dir/$name \
    --pipeline-opts "--config $conf" > $exp_dir/$name.log 2>&1 || { echo "$0: $name failed (see $exp_dir/$name.log)" >&2; exit 1; }
  grep -h '%WER' $exp_dir/$name.log | sed 's/^/   /'
  # The runs of this experiment, the model named by its targets.
  sed "s#^\([^ ]*\) #\1-$name #; s# \([^ ]*best_wer\)\$# $exp_dir/$name/\1#" $exp_dir/$name/exp/strode_compare.runs >> $runs
done
${strode:-$root/bin/strode} compare --print-args=false --baseline=${models%% *}-mono $runs | tee $exp_dir/compare.md
