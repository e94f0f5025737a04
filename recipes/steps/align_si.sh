#!/usr/bin/env bash
# Kaldi's steps/align_si.sh with strode's tools: the training data aligned with a model trained
# on CMN'd features + deltas or on LDA+MLLT features (as <src-dir> says: final.mat there means
# splicing with its splice_opts and final.mat), for the next system of the ladder.
#
# Usage: recipes/steps/align_si.sh [options] <data-dir> <lang-dir> <src-dir> <align-dir>
#  e.g.: recipes/steps/align_si.sh data/train data/lang exp/tri1 exp/tri1_ali
# Writes in <align-dir>: ali.JOB.gz, num_jobs, final.mdl, tree, final.occs, phones.txt, and what
# <src-dir> has of cmvn_opts, delta_opts, splice_opts, final.mat, full.mat; log/align.JOB.log.
# Options (Kaldi's defaults):
#   --nj N [4] --cmd CMD [run.pl] --use-graphs B [false: compile the training graphs here; true:
#   <src-dir>/fsts.JOB.gz, with --nj its num_jobs]
#   --scale-opts "..." ["--transition-scale=1.0 --acoustic-scale=0.1 --self-loop-scale=0.1"]
#   --beam F [10] --retry-beam F [40] --careful B [false; must be false] --boost-silence F [1.0]
#   --strode PATH (default: $STRODE, else the repository's bin/strode: recipes/local/strode_bin.sh)
set -euo pipefail

nj=4
cmd=run.pl
use_graphs=false
scale_opts="--transition-scale=1.0 --acoustic-scale=0.1 --self-loop-scale=0.1"
beam=10
retry_beam=40
careful=false
boost_silence=1.0
strode=

echo "$0 $*"
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
. "$root/recipes/local/parse_options.sh"
[ $# = 4 ] || { print_usage >&2; exit 1; }
data=$1 lang=$2 srcdir=$3 dir=$4
. "$root/recipes/local/strode_bin.sh"
. "$root/recipes/local/jobs.sh"
. "$root/recipes/steps/common.sh"
cmd=$(resolve_cmd "$cmd")

for f in $data/text $data/feats.scp $data/cmvn.scp $lang/oov.int $srcdir/tree $srcdir/final.mdl; do
  [ -f $f ] || { echo "$0: expected file $f to exist" >&2; exit 1; }
done
$careful && { echo "$0: --careful true: strode's gmm-align-compiled has no --careful" >&2; exit 1; }

oov=$(cat $lang/oov.int)
mkdir -p $dir/log
echo $nj > $dir/num_jobs
sdata=$data/split$nj
for f in splice_opts cmvn_opts delta_opts; do [ ! -f $srcdir/$f ] || cp $srcdir/$f $dir; done
split_data $data $nj
check_phones_compatible $lang/phones.txt $srcdir/phones.txt
cp $lang/phones.txt $dir
cp $srcdir/tree $dir
# The model itself (not a link into <src-dir>), as Kaldi's cp makes it.
cp -L $srcdir/final.mdl $dir/final.mdl
[ ! -f $srcdir/final.occs ] || cp -L $srcdir/final.occs $dir/final.occs

feats_of_dir $data $sdata $srcdir
echo "$0: feature type is $feat_type"
if [ $feat_type = lda ]; then
  cp -L $srcdir/final.mat $dir/final.mat
  [ ! -f $srcdir/full.mat ] || cp -L $srcdir/full.mat $dir/full.mat
fi

echo "$0: aligning data in $data using model from $srcdir, putting alignments in $dir"
mdl="$strode gmm-boost-silence --boost=$boost_silence $(cat $lang/phones/optional_silence.csl) $dir/final.mdl - |"
if $use_graphs; then
  [ $nj = "$(cat $srcdir/num_jobs)" ] || { echo "$0: mismatch in num-jobs" >&2; exit 1; }
  [ -f $srcdir/fsts.1.gz ] || { echo "$0: no such file $srcdir/fsts.1.gz" >&2; exit 1; }
  $cmd JOB=1:$nj $dir/log/align.JOB.log \
    $strode gmm-align-compiled $scale_opts --beam=$beam --retry-beam=$retry_beam "$mdl" \
      "ark:gunzip -c $srcdir/fsts.JOB.gz|" "$feats" "ark:|gzip -c >$dir/ali.JOB.gz"
else
  tra="ark:$strode sym2int --map-oov=$oov --field=2- $lang/words.txt $sdata/JOB/text |"
  $cmd JOB=1:$nj $dir/log/align.JOB.log \
    $strode compile-train-graphs --read-disambig-syms=$lang/phones/disambig.int $dir/tree $dir/final.mdl $lang/L.fst "$tra" ark:- \| \
    $strode gmm-align-compiled $scale_opts --beam=$beam --retry-beam=$retry_beam "$mdl" ark:- \
      "$feats" "ark,t:|gzip -c >$dir/ali.JOB.gz"
fi
grep -h -o 'Overall log-likelihood per frame is [^ ]*.*' $dir/log/align.1.log | sed "s|^|$0: job 1: |" || true
echo "$0: done aligning data."
