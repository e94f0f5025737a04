#!/usr/bin/env bash
# The constant-t~ ablation: strode with every frame's ODE interval fixed to
# [0, C] frames (strode train --fixed-t-tilde=C; C = 0 is the head without an ODE) against the
# learned t~, on the front ends and seeds of a finished recipes/fsdd/compare.sh run:
#
#   recipes/fsdd/ttilde_ablation.sh --compare-dir exp/fsdd_compare --constants "0 1 2 4" --seeds "1 2 3"
#
# For every speaker SPK of the comparison and constant C, the front end (data, features, graph,
# final alignments, priors) is copied to DIR/SPK/tC and recipes/fsdd/run.sh trains and decodes
# strode there once per seed (stages 4-7) with --fixed-t-tilde=C and the comparison's sizes.
# strode compare then pairs every run with the learned-t~ strode of the same speaker and seed
# (DIR/compare.md, .json, .png). t-tilde-stats gives, per speaker and seed, the learned model's
# t~ on the held-out takes (DIR/SPK/t_tilde_seedN.md). A finished (speaker, C, seed) is not redone.
# Options: --fsdd-dir DIR [../shared/data/fsdd] --compare-dir DIR [exp/fsdd_compare] --exp-dir DIR [COMPARE-DIR/ttilde]
#   --constants "C ..." [0 1 2 4] --seeds "N ..." [the comparison's seeds] --full BOOL [false]
#   --strode PATH [$STRODE, else bin/strode, built when stale] --config FILE
set -euo pipefail

fsdd_dir=../shared/data/fsdd
compare_dir=exp/fsdd_compare
exp_dir=
constants="0 1 2 4"
seeds=
full=false
strode=
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/recipes/local/parse_options.sh"
[ $# = 0 ] || { echo "$0: unexpected argument $1 (see $0 --help)" >&2; exit 1; }
[ -s $compare_dir/runs.txt ] || { echo "ttilde_ablation.sh: $compare_dir/runs.txt not found: run recipes/fsdd/compare.sh first" >&2; exit 1; }
[ -n "$exp_dir" ] || exp_dir=$compare_dir/ttilde
[ -n "$seeds" ] || seeds=$(awk '$1 == "strode" {print $3}' $compare_dir/runs.txt | sort -un | tr '\n' ' ')
speakers=$(awk '$1 == "strode" {print $2}' $compare_dir/runs.txt | awk '!s[$0]++' | tr '\n' ' ')
sizes=(--quick --test-takes 50); $full && sizes=()
. "$root/recipes/local/strode_bin.sh"
mkdir -p $exp_dir
runs=$exp_dir/runs.txt; : > $runs

for spk in $speakers; do
  src=$compare_dir/$spk
  for sd in $seeds; do
    echo "strode $spk $sd $src/strode_seed$sd/decode_test/best_wer" >> $runs
    # The learned t~ on the held-out takes of the training speakers, per phone.
    out=$exp_dir/$spk/t_tilde_seed$sd
    if [ ! -s $out.md ]; then
      mkdir -p $exp_dir/$spk
      ali=$(readlink -f $src/strode_seed$sd/ali)
      "$strode" t-tilde-stats --print-args=false --ali="ark:gunzip -c $ali/ali.*.gz |" --transition-model=$ali/final.mdl \
        --phones=$src/lang/phones.txt --cmvn=scp:$src/data-fbank/train/cmvn.scp --utt2spk=ark:$src/data-fbank/train/utt2spk \
        --json=$out.json --png=$out.png $src/strode_seed$sd/final.am scp:$src/data-fbank/train_cv/feats.scp > $out.md.tmp
      mv $out.md.tmp $out.md
    fi
  done
  for c in $constants; do
    dir=$exp_dir/$spk/t$c
    todo=; for sd in $seeds; do [ -s $dir/strode_seed$sd/decode_test/best_wer ] || todo="$todo $sd"; done
    if [ -n "$todo" ]; then
      echo "== $spk, t~ fixed to $c: strode x seeds$todo (log: $dir/run.log)"
      if [ ! -d $dir/data-fbank ]; then
        rm -rf $dir; mkdir -p $dir
        # The front end the pipeline made (its .done files make it skip all of it).
        for x in data data-fbank fbank lang lang_test strode_lm strode_mono strode_mono_ali* strode_targets; do
          cp -r $src/$x $dir/
        done
      fi
      start=$(date +%s)
      "$root/recipes/fsdd/run.sh" --fsdd-dir "$fsdd_dir" \
        --test-speakers $spk --exp-dir $dir --stage 4 --stop-stage 7 --models strode --seeds "${todo# }" --strode "$strode" \
        --train-opts "--fixed-t-tilde=$c" ${sizes[@]+"${sizes[@]}"} > $dir/run.log 2>&1 ||
        { echo "ttilde_ablation.sh: run.sh failed for $spk, C = $c; the end of $dir/run.log:" >&2; tail -n 20 $dir/run.log >&2; exit 1; }
      echo "   $(( $(date +%s) - start )) s"
    fi
    for sd in $seeds; do echo "strode-t$c $spk $sd $dir/strode_seed$sd/decode_test/best_wer" >> $runs; done
  done
done

echo "== constant t~ against the learned one (paired on speaker and seed)"
"$strode" compare --print-args=false --baseline=strode --json=$exp_dir/compare.json --png=$exp_dir/compare.png $runs |
  tee $exp_dir/compare.md
echo "== learned t~ on the held-out takes (all frames; per phone in $exp_dir/SPEAKER/t_tilde_seedN.md)"
for spk in $speakers; do for sd in $seeds; do
  awk -v s="$spk seed $sd" '/^\| all /{print "   " s ": " $0}' $exp_dir/$spk/t_tilde_seed$sd.md
done; done
