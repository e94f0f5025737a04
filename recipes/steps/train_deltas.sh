#!/usr/bin/env bash
# Kaldi's steps/train_deltas.sh with strode's tools: a triphone GMM system (tri1) on CMN'd
# features + deltas, from the alignments of a monophone (or any) system.
#
# Usage: recipes/steps/train_deltas.sh [options] <num-leaves> <tot-gauss> <data-dir> <lang-dir> <alignment-dir> <exp-dir>
#  e.g.: recipes/steps/train_deltas.sh 2000 10000 data/train data/lang exp/mono_ali exp/tri1
# <data-dir> holds feats.scp and cmvn.scp (MFCC and their per-speaker stats, as Kaldi's
# make_mfcc.sh and compute_cmvn_stats.sh write them); <alignment-dir> holds final.mdl, ali.*.gz and
# num_jobs (the number of jobs of this script too). Writes, as Kaldi does, in <exp-dir>: tree,
# final.mdl (-> 35.mdl), final.occs, ali.JOB.gz (the last realignment), fsts.JOB.gz, num_jobs,
# cmvn_opts, [delta_opts], phones.txt, log/.
# The steps: tree statistics (acc-tree-stats) on the input alignments, questions (cluster-phones,
# compile-questions), the tree (build-tree --max-leaves), one Gaussian per leaf (gmm-init-model),
# the alignments converted to the tree (convert-ali), the training graphs (compile-train-graphs),
# then --num-iters - 1 passes of gmm-acc-stats-ali and gmm-est, mixing up from <num-leaves> to
# <tot-gauss> Gaussians until --max-iter-inc (gmm-est --mix-up --power), realigning
# (gmm-align-compiled, the model's silence boosted by gmm-boost-silence) on --realign-iters.
# Kaldi's gmm-mixup after gmm-init-model is left out: with one Gaussian per leaf and
# <num-leaves> Gaussians its target is reached already.
# Options (Kaldi's defaults):
#   --cmd CMD [run.pl] --stage N [-4] --config FILE
#   --scale-opts "..." ["--transition-scale=1.0 --acoustic-scale=0.1 --self-loop-scale=0.1"]
#   --realign-iters "..." ["10 20 30"] --num-iters N [35] --max-iter-inc N [25]
#   --beam F [10] --retry-beam F [40] --careful B [false; strode's aligner has no --careful: must be false]
#   --boost-silence F [1.0] --power F [0.25] --cluster-thresh F [-1]
#   --cmvn-opts "..." [""] --delta-opts "..." [""] --context-opts "..." [""]
#   --norm-vars B [false; deprecated: --cmvn-opts "--norm-vars=true"]
#   --strode PATH (default: $STRODE, else the repository's bin/strode: recipes/local/strode_bin.sh)
set -euo pipefail

stage=-4
cmd=run.pl
scale_opts="--transition-scale=1.0 --acoustic-scale=0.1 --self-loop-scale=0.1"
realign_iters="10 20 30"
num_iters=35
max_iter_inc=25
beam=10
careful=false
retry_beam=40
boost_silence=1.0
power=0.25
cluster_thresh=-1
norm_vars=false
cmvn_opts=
delta_opts=
context_opts=
strode=

echo "$0 $*"
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
. "$root/recipes/local/parse_options.sh"
[ $# = 6 ] || { print_usage >&2; exit 1; }
numleaves=$1 totgauss=$2 data=$3 lang=$4 alidir=$5 dir=$6
. "$root/recipes/local/strode_bin.sh"
. "$root/recipes/local/jobs.sh"
. "$root/recipes/steps/common.sh"
cmd=$(resolve_cmd "$cmd")

for f in $alidir/final.mdl $alidir/ali.1.gz $alidir/num_jobs $data/feats.scp $data/cmvn.scp $lang/phones.txt; do
  [ -f $f ] || { echo "$0: no such file $f" >&2; exit 1; }
done
$careful && { echo "$0: --careful true: strode's gmm-align-compiled has no --careful" >&2; exit 1; }

numgauss=$numleaves
incgauss=$(( (totgauss - numgauss) / max_iter_inc ))  # per-iteration increment of the Gaussians
oov=$(cat $lang/oov.int)
ciphonelist=$(cat $lang/phones/context_indep.csl)
nj=$(cat $alidir/num_jobs)
mkdir -p $dir/log
echo $nj > $dir/num_jobs
check_phones_compatible $lang/phones.txt $alidir/phones.txt
cp $lang/phones.txt $dir

sdata=$data/split$nj
split_data $data $nj

[ $(cat $alidir/cmvn_opts 2>/dev/null | wc -c) -gt 1 ] && [ -z "$cmvn_opts" ] &&
  echo "$0: warning: ignoring CMVN options from source directory $alidir"
! $norm_vars || cmvn_opts="--norm-vars=true $cmvn_opts"
echo $cmvn_opts > $dir/cmvn_opts
[ -z "$delta_opts" ] || echo $delta_opts > $dir/delta_opts

feats="ark,s,cs:$strode apply-cmvn $cmvn_opts --utt2spk=ark:$sdata/JOB/utt2spk scp:$sdata/JOB/cmvn.scp scp:$sdata/JOB/feats.scp ark:- | $strode add-deltas $delta_opts ark:- ark:- |"

if [ $stage -le -3 ]; then
  echo "$0: accumulating tree stats"
  $cmd JOB=1:$nj $dir/log/acc_tree.JOB.log \
    $strode acc-tree-stats $context_opts --ci-phones=$ciphonelist $alidir/final.mdl "$feats" \
      "ark:gunzip -c $alidir/ali.JOB.gz|" $dir/JOB.treeacc
  $strode sum-tree-stats $dir/treeacc $dir/*.treeacc 2> $dir/log/sum_tree_acc.log
  rm $dir/*.treeacc
fi

if [ $stage -le -2 ]; then
  echo "$0: getting questions for tree-building, via clustering"
  $strode cluster-phones $context_opts $dir/treeacc $lang/phones/sets.int $dir/questions.int 2> $dir/log/questions.log
  cat $lang/phones/extra_questions.int >> $dir/questions.int
  $strode compile-questions $context_opts $lang/topo $dir/questions.int $dir/questions.qst 2> $dir/log/compile_questions.log
  echo "$0: building the tree"
  $cmd $dir/log/build_tree.log \
    $strode build-tree $context_opts --verbose=1 --max-leaves=$numleaves --cluster-thresh=$cluster_thresh \
      $dir/treeacc $lang/phones/roots.int $dir/questions.qst $lang/topo $dir/tree
  $cmd $dir/log/init_model.log \
    $strode gmm-init-model --write-occs=$dir/1.occs $dir/tree $dir/treeacc $lang/topo $dir/1.mdl
  warn_no_stats $dir/log/init_model.log
  rm $dir/treeacc
fi

if [ $stage -le -1 ]; then
  echo "$0: converting alignments from $alidir to use current tree"
  $cmd JOB=1:$nj $dir/log/convert.JOB.log \
    $strode convert-ali $alidir/final.mdl $dir/1.mdl $dir/tree \
      "ark:gunzip -c $alidir/ali.JOB.gz|" "ark:|gzip -c >$dir/ali.JOB.gz"
fi

if [ $stage -le 0 ]; then
  echo "$0: compiling graphs of transcripts"
  $cmd JOB=1:$nj $dir/log/compile_graphs.JOB.log \
    $strode compile-train-graphs --read-disambig-syms=$lang/phones/disambig.int $dir/tree $dir/1.mdl $lang/L.fst \
      "ark:$strode sym2int --map-oov=$oov --field=2- $lang/words.txt $sdata/JOB/text |" \
      "ark:|gzip -c >$dir/fsts.JOB.gz"
fi

x=1
while [ $x -lt $num_iters ]; do
  echo "$0: training pass $x"
  if [ $stage -le $x ]; then
    if echo $realign_iters | grep -w $x >/dev/null; then
      echo "$0: aligning data"
      mdl="$strode gmm-boost-silence --boost=$boost_silence $(cat $lang/phones/optional_silence.csl) $dir/$x.mdl - |"
      $cmd JOB=1:$nj $dir/log/align.$x.JOB.log \
        $strode gmm-align-compiled $scale_opts --beam=$beam --retry-beam=$retry_beam "$mdl" \
          "ark:gunzip -c $dir/fsts.JOB.gz|" "$feats" "ark:|gzip -c >$dir/ali.JOB.gz"
    fi
    $cmd JOB=1:$nj $dir/log/acc.$x.JOB.log \
      $strode gmm-acc-stats-ali $dir/$x.mdl "$feats" "ark,s,cs:gunzip -c $dir/ali.JOB.gz|" $dir/$x.JOB.acc
    $cmd $dir/log/update.$x.log \
      $strode gmm-est --mix-up=$numgauss --power=$power --write-occs=$dir/$((x + 1)).occs $dir/$x.mdl \
        "$strode gmm-sum-accs - $dir/$x.*.acc |" $dir/$((x + 1)).mdl
    rm $dir/$x.mdl $dir/$x.*.acc $dir/$x.occs
  fi
  [ $x -le $max_iter_inc ] && numgauss=$((numgauss + incgauss))
  x=$((x + 1))
done

rm -f $dir/final.mdl $dir/final.occs
ln -s $x.mdl $dir/final.mdl
ln -s $x.occs $dir/final.occs
gmm_dir_info $dir
echo "$0: Done training system with delta+delta-delta features in $dir"
