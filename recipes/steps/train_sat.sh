#!/usr/bin/env bash
# Speaker adapted training (SAT), as Kaldi's steps/train_sat.sh: a triphone system trained on
# fMLLR-adapted features, on top of LDA+MLLT (when <ali-dir>/final.mat exists: feature type
# lda) or delta features (feature type delta). Without transforms in <ali-dir> (trans.1, ...),
# it first estimates one fMLLR transform per speaker from <ali-dir>'s alignments; it then builds
# its own tree on the adapted features, converts the alignments to it and trains for --num-iters
# iterations, re-estimating fMLLR on top of the current transforms on --fmllr-iters (composed,
# compose-transforms --b-is-affine) and realigning on --realign-iters. Last, the alignment model
# final.alimdl: the final model's Gaussians re-estimated on the speaker-independent features
# with the adapted features' posteriors (gmm-acc-stats-twofeats, gmm-est).
#
# Usage: recipes/steps/train_sat.sh [options] <num-leaves> <tot-gauss> <data> <lang> <ali-dir> <exp-dir>
#  e.g.: recipes/steps/train_sat.sh 2500 15000 data/train data/lang exp/tri2b_ali exp/tri3b
#   <data>     Kaldi data dir: feats.scp, cmvn.scp, utt2spk, spk2utt, text (split as split-data splits)
#   <ali-dir>  final.mdl, ali.JOB.gz, num_jobs [, final.mat, splice_opts, cmvn_opts, delta_opts, trans.JOB]
# Writes in <exp-dir>: tree, final.mdl, final.alimdl, final.occs (links to N.mdl, N.alimdl,
# N.occs), trans.JOB (per speaker), ali.JOB.gz, fsts.JOB.gz, num_jobs, cmvn_opts, [final.mat,
# splice_opts, delta_opts], log/ (summary.log: the likelihood, with logdet, per iteration).
# Options (Kaldi's defaults):
#   --cmd CMD                 job runner (default run.pl: strode's, or utils/run.pl when present)
#   --stage N                 (default -5)
#   --exit-stage N            stop at the start of stage N: -3 (after the initial fMLLR) or 0 (default -100: no)
#   --fmllr-update-type T     full|diag|offset|none (default full)
#   --scale-opts "O"          (default "--transition-scale=1.0 --acoustic-scale=0.1 --self-loop-scale=0.1")
#   --beam N --retry-beam N   alignment beams (default 10, 40)
#   --boost-silence F         (default 1.0: the silence phones' weights in alignment, gmm-boost-silence)
#   --careful B               (default false; strode's gmm-align-compiled has no --careful, so only false)
#   --context-opts "O"        e.g. "--context-width=5 --central-position=2" (default empty)
#   --realign-iters "L"       (default "10 20 30")
#   --fmllr-iters "L"         (default "2 4 6 12")
#   --silence-weight F        weight of silence in fMLLR estimation (default 0.0)
#   --num-iters N             (default 35)
#   --max-iter-inc N          last iteration to increase #Gauss on (default 25)
#   --power F                 (default 0.2)
#   --cluster-thresh F        (default -1)
#   --train-tree B            (default true; false reuses <ali-dir>/tree)
#   --tree-stats-opts --cluster-phones-opts --compile-questions-opts "O"   (default empty)
#   --strode PATH             strode binary (default: $STRODE, else bin/strode, built when stale)
set -euo pipefail

stage=-5
exit_stage=-100
fmllr_update_type=full
cmd=run.pl
scale_opts="--transition-scale=1.0 --acoustic-scale=0.1 --self-loop-scale=0.1"
beam=10
retry_beam=40
careful=false
boost_silence=1.0
context_opts=
realign_iters="10 20 30"
fmllr_iters="2 4 6 12"
silence_weight=0.0
num_iters=35
max_iter_inc=25
power=0.2
cluster_thresh=-1
phone_map=
train_tree=true
tree_stats_opts=
cluster_phones_opts=
compile_questions_opts=
strode=

echo "$0 $*"
local_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/../local" && pwd)
. "$local_dir/parse_options.sh"
[ $# -eq 6 ] || { print_usage >&2; exit 1; }
numleaves=$1 totgauss=$2 data=$3 lang=$4 alidir=$5 dir=$6
. "$local_dir/strode_bin.sh"
. "$local_dir/jobs.sh"
cmd=$(resolve_cmd "$cmd")

for f in $data/feats.scp $lang/phones.txt $alidir/final.mdl $alidir/ali.1.gz $alidir/num_jobs; do
  [ -f $f ] || { echo "$0: no such file $f" >&2; exit 1; }
done
$careful && { echo "$0: --careful true is not supported by strode's gmm-align-compiled" >&2; exit 1; }
[ -z "$phone_map" ] || { echo "$0: --phone-map is not supported" >&2; exit 1; }

numgauss=$numleaves
incgauss=$(( (totgauss - numgauss) / max_iter_inc ))  # per-iter #gauss increment
oov=$(cat $lang/oov.int)
nj=$(cat $alidir/num_jobs)
silphonelist=$(cat $lang/phones/silence.csl)
ciphonelist=$(cat $lang/phones/context_indep.csl)
sdata=$data/split$nj

mkdir -p $dir/log
echo $nj > $dir/num_jobs
$strode split-data $data $nj > $dir/log/split_data.log 2>&1 || { cat $dir/log/split_data.log >&2; exit 1; }

splice_opts=$(cat $alidir/splice_opts 2>/dev/null || true)
cmvn_opts=$(cat $alidir/cmvn_opts 2>/dev/null || true)
delta_opts=$(cat $alidir/delta_opts 2>/dev/null || true)
cp $alidir/splice_opts $alidir/delta_opts $dir 2>/dev/null || true
echo "$cmvn_opts" > $dir/cmvn_opts
echo "$context_opts" > $dir/context_opts  # Kaldi keeps it for mkgraph; strode's mkgraph reads the tree

if [ -f $alidir/final.mat ]; then feat_type=lda; else feat_type=delta; fi
echo "$0: feature type is $feat_type"

## Set up speaker-independent features.
case $feat_type in
  delta) sifeats="ark,s,cs:$strode apply-cmvn $cmvn_opts --utt2spk=ark:$sdata/JOB/utt2spk scp:$sdata/JOB/cmvn.scp scp:$sdata/JOB/feats.scp ark:- | $strode add-deltas $delta_opts ark:- ark:- |";;
  lda) sifeats="ark,s,cs:$strode apply-cmvn $cmvn_opts --utt2spk=ark:$sdata/JOB/utt2spk scp:$sdata/JOB/cmvn.scp scp:$sdata/JOB/feats.scp ark:- | $strode splice-feats $splice_opts ark:- ark:- | $strode transform-feats $alidir/final.mat ark:- ark:- |"
    cp $alidir/final.mat $dir
    cp $alidir/full.mat $dir 2>/dev/null || true
    ;;
esac

## Get initial fMLLR transforms (possibly from alignment dir)
if [ -f $alidir/trans.1 ]; then
  echo "$0: Using transforms from $alidir"
  feats="$sifeats $strode transform-feats --utt2spk=ark:$sdata/JOB/utt2spk ark,s,cs:$alidir/trans.JOB ark:- ark:- |"
  cur_trans_dir=$alidir
else
  if [ $stage -le -4 ]; then
    echo "$0: obtaining initial fMLLR transforms since not present in $alidir"
    $cmd JOB=1:$nj $dir/log/fmllr.0.JOB.log \
      $strode ali-to-post "ark:gunzip -c $alidir/ali.JOB.gz|" ark:- \| \
      $strode weight-silence-post $silence_weight $silphonelist $alidir/final.mdl ark:- ark:- \| \
      $strode gmm-est-fmllr --fmllr-update-type=$fmllr_update_type \
        --spk2utt=ark:$sdata/JOB/spk2utt $alidir/final.mdl "$sifeats" \
        ark:- ark:$dir/trans.JOB
  fi
  feats="$sifeats $strode transform-feats --utt2spk=ark:$sdata/JOB/utt2spk ark,s,cs:$dir/trans.JOB ark:- ark:- |"
  cur_trans_dir=$dir
fi

[ "$exit_stage" -eq -3 ] && echo "$0: Exiting early: --exit-stage $exit_stage" && exit 0

if [ $stage -le -3 ] && $train_tree; then
  echo "$0: Accumulating tree stats"
  $cmd JOB=1:$nj $dir/log/acc_tree.JOB.log \
    $strode acc-tree-stats $context_opts $tree_stats_opts --ci-phones=$ciphonelist $alidir/final.mdl "$feats" \
      "ark:gunzip -c $alidir/ali.JOB.gz|" $dir/JOB.treeacc
  [ "$(ls $dir/*.treeacc | wc -w)" -eq "$nj" ] || { echo "$0: Wrong #tree-accs" >&2; exit 1; }
  $cmd $dir/log/sum_tree_acc.log $strode sum-tree-stats $dir/treeacc $dir/*.treeacc
  rm $dir/*.treeacc
fi

if [ $stage -le -2 ] && $train_tree; then
  echo "$0: Getting questions for tree clustering."
  $strode cluster-phones $cluster_phones_opts $context_opts $dir/treeacc $lang/phones/sets.int $dir/questions.int 2> $dir/log/questions.log
  cat $lang/phones/extra_questions.int >> $dir/questions.int
  $strode compile-questions $context_opts $compile_questions_opts $lang/topo $dir/questions.int $dir/questions.qst 2> $dir/log/compile_questions.log

  echo "$0: Building the tree"
  $cmd $dir/log/build_tree.log \
    $strode build-tree $context_opts --verbose=1 --max-leaves=$numleaves \
      --cluster-thresh=$cluster_thresh $dir/treeacc $lang/phones/roots.int \
      $dir/questions.qst $lang/topo $dir/tree
fi

if [ $stage -le -2 ]; then
  echo "$0: Initializing the model"
  if $train_tree; then
    $strode gmm-init-model --write-occs=$dir/1.occs $dir/tree $dir/treeacc $lang/topo $dir/1.mdl 2> $dir/log/init_model.log
    grep 'no stats' $dir/log/init_model.log && echo "$0: This is a bad warning."
    rm $dir/treeacc
  else
    echo "$0: --train-tree false: the tree and model of $alidir, re-estimated on the adapted features"
    cp $alidir/tree $dir/tree
    $cmd JOB=1:$nj $dir/log/acc0.JOB.log \
      $strode gmm-acc-stats-ali $alidir/final.mdl "$feats" "ark,s,cs:gunzip -c $alidir/ali.JOB.gz|" $dir/0.JOB.acc
    $cmd $dir/log/update0.log \
      $strode gmm-est --write-occs=$dir/1.occs $alidir/final.mdl "$strode gmm-sum-accs - $dir/0.*.acc |" $dir/1.mdl
    rm $dir/0.*.acc
  fi
fi

if [ $stage -le -1 ]; then
  # Convert the alignments.
  echo "$0: Converting alignments from $alidir to use current tree"
  $cmd JOB=1:$nj $dir/log/convert.JOB.log \
    $strode convert-ali $alidir/final.mdl $dir/1.mdl $dir/tree \
      "ark:gunzip -c $alidir/ali.JOB.gz|" "ark:|gzip -c >$dir/ali.JOB.gz"
fi

[ "$exit_stage" -eq 0 ] && echo "$0: Exiting early: --exit-stage $exit_stage" && exit 0

if [ $stage -le 0 ]; then
  echo "$0: Compiling graphs of transcripts"
  $cmd JOB=1:$nj $dir/log/compile_graphs.JOB.log \
    $strode compile-train-graphs --read-disambig-syms=$lang/phones/disambig.int $dir/tree $dir/1.mdl $lang/L.fst \
      "ark:$strode sym2int --map-oov=$oov --field=2- $lang/words.txt $sdata/JOB/text |" \
      "ark:|gzip -c >$dir/fsts.JOB.gz"
fi

x=1
while [ $x -lt $num_iters ]; do
  echo "Pass $x"
  if echo $realign_iters | grep -w $x >/dev/null && [ $stage -le $x ]; then
    echo "Aligning data"
    $cmd JOB=1:$nj $dir/log/align.$x.JOB.log \
      $strode gmm-align-compiled $scale_opts --beam=$beam --retry-beam=$retry_beam \
        "$strode gmm-boost-silence --boost=$boost_silence $(cat $lang/phones/optional_silence.csl) $dir/$x.mdl - |" \
        "ark:gunzip -c $dir/fsts.JOB.gz|" "$feats" "ark:|gzip -c >$dir/ali.JOB.gz"
  fi

  if echo $fmllr_iters | grep -w $x >/dev/null; then
    if [ $stage -le $x ]; then
      echo "Estimating fMLLR transforms"
      # We estimate a transform that's additional to the previous transform;
      # we'll compose them.
      $cmd JOB=1:$nj $dir/log/fmllr.$x.JOB.log \
        $strode ali-to-post "ark:gunzip -c $dir/ali.JOB.gz|" ark:- \| \
        $strode weight-silence-post $silence_weight $silphonelist $dir/$x.mdl ark:- ark:- \| \
        $strode gmm-est-fmllr --fmllr-update-type=$fmllr_update_type \
          --spk2utt=ark:$sdata/JOB/spk2utt $dir/$x.mdl \
          "$feats" ark:- ark:$dir/tmp_trans.JOB
      for n in $(seq $nj); do
        { $strode compose-transforms --b-is-affine=true \
            ark:$dir/tmp_trans.$n ark:$cur_trans_dir/trans.$n ark:$dir/composed_trans.$n &&
          mv $dir/composed_trans.$n $dir/trans.$n &&
          rm $dir/tmp_trans.$n; } 2> $dir/log/compose_transforms.$x.log ||
          { echo "$0: Error composing transforms" >&2; exit 1; }
      done
    fi
    feats="$sifeats $strode transform-feats --utt2spk=ark:$sdata/JOB/utt2spk ark:$dir/trans.JOB ark:- ark:- |"
    cur_trans_dir=$dir
  fi

  if [ $stage -le $x ]; then
    $cmd JOB=1:$nj $dir/log/acc.$x.JOB.log \
      $strode gmm-acc-stats-ali $dir/$x.mdl "$feats" \
        "ark,s,cs:gunzip -c $dir/ali.JOB.gz|" $dir/$x.JOB.acc
    [ "$(ls $dir/$x.*.acc | wc -w)" -eq "$nj" ] || { echo "$0: Wrong #accs" >&2; exit 1; }
    $cmd $dir/log/update.$x.log \
      $strode gmm-est --power=$power --write-occs=$dir/$((x+1)).occs --mix-up=$numgauss $dir/$x.mdl \
        "$strode gmm-sum-accs - $dir/$x.*.acc |" $dir/$((x+1)).mdl
    rm $dir/$x.mdl $dir/$x.*.acc $dir/$x.occs
  fi
  [ $x -le $max_iter_inc ] && numgauss=$((numgauss + incgauss))
  x=$((x+1))
done

if [ $stage -le $x ]; then
  # Accumulate stats for "alignment model"-- this model is computed with the
  # speaker-independent features, but matches Gaussian-for-Gaussian with the
  # final speaker-adapted model.
  $cmd JOB=1:$nj $dir/log/acc_alimdl.JOB.log \
    $strode ali-to-post "ark:gunzip -c $dir/ali.JOB.gz|" ark:- \| \
    $strode gmm-acc-stats-twofeats $dir/$x.mdl "$feats" "$sifeats" \
      ark,s,cs:- $dir/$x.JOB.acc
  [ "$(ls $dir/$x.*.acc | wc -w)" -eq "$nj" ] || { echo "$0: Wrong #accs" >&2; exit 1; }
  # Update model.
  $cmd $dir/log/est_alimdl.log \
    $strode gmm-est --power=$power --remove-low-count-gaussians=false $dir/$x.mdl \
      "$strode gmm-sum-accs - $dir/$x.*.acc|" $dir/$x.alimdl
  rm $dir/$x.*.acc
fi

rm -f $dir/final.{mdl,alimdl,occs}
ln -s $x.mdl $dir/final.mdl
ln -s $x.occs $dir/final.occs
ln -s $x.alimdl $dir/final.alimdl

nwarn=$(cat $dir/log/*.log 2>/dev/null | grep -c '^WARNING' || true)
[ "$nwarn" -eq 0 ] || echo "$0: $nwarn warnings in $dir/log/*.log"
(
  echo "$0: Likelihood evolution:"
  for x in $(seq $((num_iters - 1))); do
    tail -n 30 $dir/log/acc.$x.*.log | awk '/Overall avg like/{l += $(NF-3)*$(NF-1); t += $(NF-1); }
        /Overall average logdet/{d += $(NF-3)*$(NF-1); t2 += $(NF-1);}
        END{ if (t2 > 0) d /= t2; if (t > 0) l /= t; printf("%s ", d+l); } '
  done
  echo
) | tee $dir/log/summary.log

. "$local_dir/../steps/common.sh"
gmm_dir_info $dir
echo "$0: done training SAT system in $dir"
