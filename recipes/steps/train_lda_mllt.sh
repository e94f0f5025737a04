#!/usr/bin/env bash
# Kaldi's steps/train_lda_mllt.sh with strode's tools: a triphone GMM system (tri2b) on LDA+MLLT
# features (spliced CMN'd features projected by LDA, then by the MLLT / global semi-tied
# covariance transform estimated during training), from the alignments of a delta system.
#
# Usage: recipes/steps/train_lda_mllt.sh [options] <num-leaves> <tot-gauss> <data-dir> <lang-dir> <alignment-dir> <exp-dir>
#  e.g.: recipes/steps/train_lda_mllt.sh --splice-opts "--left-context=3 --right-context=3" 2500 15000 \
#          data/train data/lang exp/tri1_ali exp/tri2b
# Writes in <exp-dir>, as Kaldi does: final.mat (-> the last MLLT iteration's LDA+MLLT matrix),
# full.mat (the full-dimension LDA), 0.mat (LDA), final.mdl (-> 35.mdl), final.occs, tree,
# ali.JOB.gz, fsts.JOB.gz, num_jobs, splice_opts, cmvn_opts, phones.txt, log/.
# The steps: LDA statistics of the spliced features against the input alignments with silence
# weighted 0 (ali-to-post | weight-silence-post 0.0 | acc-lda --rand-prune), est-lda --dim; the
# tree and one Gaussian per leaf on the LDA features (as train_deltas.sh); convert-ali;
# compile-train-graphs; then --num-iters - 1 passes of gmm-acc-stats-ali and gmm-est with mixing
# up to <tot-gauss>, realigning on --realign-iters, and on --mllt-iters an MLLT update
# (gmm-acc-mllt, est-mllt, gmm-transform-means, compose-transforms onto the current matrix).
# Options (Kaldi's defaults):
#   --cmd CMD [run.pl] --stage N [-5] --config FILE
#   --scale-opts "..." ["--transition-scale=1.0 --acoustic-scale=0.1 --self-loop-scale=0.1"]
#   --realign-iters "..." ["10 20 30"] --mllt-iters "..." ["2 4 6 12"] --num-iters N [35]
#   --max-iter-inc N [25] --dim N [40] --beam F [10] --retry-beam F [40] --careful B [false; must
#   be false] --boost-silence F [1.0] --power F [0.25] --randprune F [4.0] --cluster-thresh F [-1]
#   --splice-opts "..." [""; splice-feats' default is 4 frames each side, Kaldi's recipes pass
#   "--left-context=3 --right-context=3"] --cmvn-opts "..." [""] --context-opts "..." [""]
#   --norm-vars B [false; deprecated]
#   --strode PATH (default: $STRODE, else the repository's bin/strode: recipes/local/strode_bin.sh)
set -euo pipefail

cmd=run.pl
stage=-5
scale_opts="--transition-scale=1.0 --acoustic-scale=0.1 --self-loop-scale=0.1"
realign_iters="10 20 30"
mllt_iters="2 4 6 12"
num_iters=35
max_iter_inc=25
dim=40
beam=10
retry_beam=40
careful=false
boost_silence=1.0
power=0.25
randprune=4.0
splice_opts=
cluster_thresh=-1
norm_vars=false
cmvn_opts=
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
nj=$(cat $alidir/num_jobs)
silphonelist=$(cat $lang/phones/silence.csl)
ciphonelist=$(cat $lang/phones/context_indep.csl)
mkdir -p $dir/log
echo $nj > $dir/num_jobs
check_phones_compatible $lang/phones.txt $alidir/phones.txt
cp $lang/phones.txt $dir
sdata=$data/split$nj
split_data $data $nj

! $norm_vars || cmvn_opts="--norm-vars=true $cmvn_opts"
echo $splice_opts > $dir/splice_opts  # keep track of frame-splicing options
echo $cmvn_opts > $dir/cmvn_opts      # and of the CMVN options

splicedfeats="ark,s,cs:$strode apply-cmvn $cmvn_opts --utt2spk=ark:$sdata/JOB/utt2spk scp:$sdata/JOB/cmvn.scp scp:$sdata/JOB/feats.scp ark:- | $strode splice-feats $splice_opts ark:- ark:- |"
# $feats is the current transform's (LDA, then LDA+MLLT).
feats="$splicedfeats $strode transform-feats $dir/0.mat ark:- ark:- |"

if [ $stage -le -5 ]; then
  echo "$0: accumulating LDA statistics."
  rm -f $dir/lda.*.acc
  $cmd JOB=1:$nj $dir/log/lda_acc.JOB.log \
    $strode ali-to-post "ark:gunzip -c $alidir/ali.JOB.gz|" ark:- \| \
    $strode weight-silence-post 0.0 $silphonelist $alidir/final.mdl ark:- ark:- \| \
    $strode acc-lda --rand-prune=$randprune $alidir/final.mdl "$splicedfeats" ark,s,cs:- $dir/lda.JOB.acc
  $strode est-lda --write-full-matrix=$dir/full.mat --dim=$dim $dir/0.mat $dir/lda.*.acc 2> $dir/log/lda_est.log
  rm $dir/lda.*.acc
fi

cur_lda_iter=0

if [ $stage -le -4 ]; then
  echo "$0: accumulating tree stats"
  $cmd JOB=1:$nj $dir/log/acc_tree.JOB.log \
    $strode acc-tree-stats $context_opts --ci-phones=$ciphonelist $alidir/final.mdl "$feats" \
      "ark:gunzip -c $alidir/ali.JOB.gz|" $dir/JOB.treeacc
  [ $(ls $dir/*.treeacc | wc -w) -eq "$nj" ] || { echo "$0: wrong number of tree accumulators" >&2; exit 1; }
  $cmd $dir/log/sum_tree_acc.log $strode sum-tree-stats $dir/treeacc $dir/*.treeacc
  rm $dir/*.treeacc
fi

if [ $stage -le -3 ]; then
  echo "$0: getting questions for tree clustering."
  $strode cluster-phones $context_opts $dir/treeacc $lang/phones/sets.int $dir/questions.int 2> $dir/log/questions.log
  cat $lang/phones/extra_questions.int >> $dir/questions.int
  $strode compile-questions $context_opts $lang/topo $dir/questions.int $dir/questions.qst 2> $dir/log/compile_questions.log
  echo "$0: building the tree"
  $cmd $dir/log/build_tree.log \
    $strode build-tree $context_opts --verbose=1 --max-leaves=$numleaves --cluster-thresh=$cluster_thresh \
      $dir/treeacc $lang/phones/roots.int $dir/questions.qst $lang/topo $dir/tree
  $strode gmm-init-model --write-occs=$dir/1.occs $dir/tree $dir/treeacc $lang/topo $dir/1.mdl 2> $dir/log/init_model.log
  ! grep 'no stats' $dir/log/init_model.log || echo "This is a bad warning."
  rm $dir/treeacc
fi

if [ $stage -le -2 ]; then
  echo "$0: converting alignments from $alidir to use current tree"
  $cmd JOB=1:$nj $dir/log/convert.JOB.log \
    $strode convert-ali $alidir/final.mdl $dir/1.mdl $dir/tree \
      "ark:gunzip -c $alidir/ali.JOB.gz|" "ark:|gzip -c >$dir/ali.JOB.gz"
fi

if [ $stage -le -1 ]; then
  echo "$0: compiling graphs of transcripts"
  $cmd JOB=1:$nj $dir/log/compile_graphs.JOB.log \
    $strode compile-train-graphs --read-disambig-syms=$lang/phones/disambig.int $dir/tree $dir/1.mdl $lang/L.fst \
      "ark:$strode sym2int --map-oov=$oov --field=2- $lang/words.txt $sdata/JOB/text |" \
      "ark:|gzip -c >$dir/fsts.JOB.gz"
fi

x=1
while [ $x -lt $num_iters ]; do
  echo "$0: training pass $x"
  if echo $realign_iters | grep -w $x >/dev/null && [ $stage -le $x ]; then
    echo "$0: aligning data"
    mdl="$strode gmm-boost-silence --boost=$boost_silence $(cat $lang/phones/optional_silence.csl) $dir/$x.mdl - |"
    $cmd JOB=1:$nj $dir/log/align.$x.JOB.log \
      $strode gmm-align-compiled $scale_opts --beam=$beam --retry-beam=$retry_beam "$mdl" \
        "ark:gunzip -c $dir/fsts.JOB.gz|" "$feats" "ark:|gzip -c >$dir/ali.JOB.gz"
  fi
  if echo $mllt_iters | grep -w $x >/dev/null; then
    if [ $stage -le $x ]; then
      echo "$0: estimating MLLT"
      $cmd JOB=1:$nj $dir/log/macc.$x.JOB.log \
        $strode ali-to-post "ark:gunzip -c $dir/ali.JOB.gz|" ark:- \| \
        $strode weight-silence-post 0.0 $silphonelist $dir/$x.mdl ark:- ark:- \| \
        $strode gmm-acc-mllt --rand-prune=$randprune $dir/$x.mdl "$feats" ark:- $dir/$x.JOB.macc
      $strode est-mllt $dir/$x.mat.new $dir/$x.*.macc 2> $dir/log/mupdate.$x.log
      $strode gmm-transform-means $dir/$x.mat.new $dir/$x.mdl $dir/$x.mdl 2> $dir/log/transform_means.$x.log
      $strode compose-transforms --print-args=false $dir/$x.mat.new $dir/$cur_lda_iter.mat $dir/$x.mat
      rm $dir/$x.*.macc
    fi
    feats="$splicedfeats $strode transform-feats $dir/$x.mat ark:- ark:- |"
    cur_lda_iter=$x
  fi
  if [ $stage -le $x ]; then
    $cmd JOB=1:$nj $dir/log/acc.$x.JOB.log \
      $strode gmm-acc-stats-ali $dir/$x.mdl "$feats" "ark,s,cs:gunzip -c $dir/ali.JOB.gz|" $dir/$x.JOB.acc
    $cmd $dir/log/update.$x.log \
      $strode gmm-est --write-occs=$dir/$((x + 1)).occs --mix-up=$numgauss --power=$power \
        $dir/$x.mdl "$strode gmm-sum-accs - $dir/$x.*.acc |" $dir/$((x + 1)).mdl
    rm $dir/$x.mdl $dir/$x.*.acc $dir/$x.occs
  fi
  [ $x -le $max_iter_inc ] && numgauss=$((numgauss + incgauss))
  x=$((x + 1))
done

rm -f $dir/final.mdl $dir/final.mat $dir/final.occs
ln -s $x.mdl $dir/final.mdl
ln -s $x.occs $dir/final.occs
ln -s $cur_lda_iter.mat $dir/final.mat
gmm_dir_info $dir
echo "$0: Done training system with LDA+MLLT features in $dir"
