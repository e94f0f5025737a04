#!/usr/bin/env bash
# Alignment with fMLLR, as Kaldi's steps/align_fmllr.sh: the data is aligned with <src-dir>'s
# alignment model (final.alimdl, else final.mdl) on speaker-independent features (delta, or lda
# when <src-dir>/final.mat exists), one fMLLR transform per speaker is estimated from that
# alignment (silence weight 0; through Gaussian posteriors of the alignment model when there
# is one: gmm-post-to-gpost | gmm-est-fmllr-gpost), and the data is aligned again with
# final.mdl on the adapted features.
#
# Usage: recipes/steps/align_fmllr.sh [options] <data-dir> <lang-dir> <src-dir> <align-dir>
#  e.g.: recipes/steps/align_fmllr.sh data/train data/lang exp/tri3 exp/tri3_ali
# Writes in <align-dir>: ali.JOB.gz, trans.JOB (per speaker), fsts.JOB.gz (unless
# --use-graphs), final.mdl, tree, [final.alimdl, final.mat, final.occs, splice_opts,
# cmvn_opts, delta_opts], num_jobs, log/.
# Options (Kaldi's defaults):
#   --nj N                    (default 4)
#   --cmd CMD                 job runner (default run.pl: strode's, or utils/run.pl when present)
#   --stage N                 (default 0)
#   --use-graphs B            use <src-dir>/fsts.JOB.gz (same --nj) (default false)
#   --scale-opts "O"          (default "--transition-scale=1.0 --acoustic-scale=0.1 --self-loop-scale=0.1")
#   --beam N --retry-beam N   (default 10, 40)
#   --careful B               (default false; only false in strode)
#   --boost-silence F         (default 1.0: the silence phones' weights in alignment, gmm-boost-silence)
#   --fmllr-update-type T     (default full)
#   --strode PATH             strode binary (default: $STRODE, else bin/strode, built when stale)
set -euo pipefail

stage=0
nj=4
cmd=run.pl
use_graphs=false
scale_opts="--transition-scale=1.0 --acoustic-scale=0.1 --self-loop-scale=0.1"
beam=10
retry_beam=40
careful=false
boost_silence=1.0
fmllr_update_type=full
strode=

echo "$0 $*"
local_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/../local" && pwd)
. "$local_dir/parse_options.sh"
[ $# -eq 4 ] || { print_usage >&2; exit 1; }
data=$1 lang=$2 srcdir=$3 dir=$4
. "$local_dir/strode_bin.sh"
. "$local_dir/jobs.sh"
cmd=$(resolve_cmd "$cmd")

for f in $data/feats.scp $data/cmvn.scp $lang/oov.int $lang/phones/silence.csl $srcdir/final.mdl $srcdir/tree; do
  [ -f $f ] || { echo "$0: no such file $f" >&2; exit 1; }
done
$careful && { echo "$0: --careful true is not supported by strode's gmm-align-compiled" >&2; exit 1; }

oov=$(cat $lang/oov.int)
silphonelist=$(cat $lang/phones/silence.csl)
sdata=$data/split$nj

mkdir -p $dir/log
echo $nj > $dir/num_jobs
$strode split-data $data $nj > $dir/log/split_data.log 2>&1 || { cat $dir/log/split_data.log >&2; exit 1; }
if [ -f $srcdir/phones.txt ] && [ -f $lang/phones.txt ]; then
  cmp -s $srcdir/phones.txt $lang/phones.txt ||
    { echo "$0: phone sets of $lang and $srcdir differ" >&2; exit 1; }
fi
cp $lang/phones.txt $dir 2>/dev/null || true

cp $srcdir/tree $dir
cp -L $srcdir/final.mdl $dir
cp -L $srcdir/final.alimdl $dir 2>/dev/null || true
cp -L $srcdir/final.occs $dir 2>/dev/null || true
splice_opts=$(cat $srcdir/splice_opts 2>/dev/null || true)
cp $srcdir/splice_opts $dir 2>/dev/null || true
cmvn_opts=$(cat $srcdir/cmvn_opts 2>/dev/null || true)
cp $srcdir/cmvn_opts $dir 2>/dev/null || true
delta_opts=$(cat $srcdir/delta_opts 2>/dev/null || true)
cp $srcdir/delta_opts $dir 2>/dev/null || true

if [ -f $srcdir/final.mat ]; then feat_type=lda; else feat_type=delta; fi
echo "$0: feature type is $feat_type"

case $feat_type in
  delta) sifeats="ark,s,cs:$strode apply-cmvn $cmvn_opts --utt2spk=ark:$sdata/JOB/utt2spk scp:$sdata/JOB/cmvn.scp scp:$sdata/JOB/feats.scp ark:- | $strode add-deltas $delta_opts ark:- ark:- |";;
  lda) sifeats="ark,s,cs:$strode apply-cmvn $cmvn_opts --utt2spk=ark:$sdata/JOB/utt2spk scp:$sdata/JOB/cmvn.scp scp:$sdata/JOB/feats.scp ark:- | $strode splice-feats $splice_opts ark:- ark:- | $strode transform-feats $srcdir/final.mat ark:- ark:- |"
    cp $srcdir/final.mat $dir
    cp $srcdir/full.mat $dir 2>/dev/null || true
    ;;
esac

## Set up model and alignment model.
mdl=$srcdir/final.mdl
if [ -f $srcdir/final.alimdl ]; then
  alimdl=$srcdir/final.alimdl
else
  alimdl=$srcdir/final.mdl
fi

## Work out where we're getting the graphs from.
if $use_graphs; then
  [ "$nj" = "$(cat $srcdir/num_jobs)" ] ||
    { echo "$0: you specified --use-graphs true, but #jobs mismatch." >&2; exit 1; }
  [ -f $srcdir/fsts.1.gz ] || { echo "$0: No graphs in $srcdir" >&2; exit 1; }
  graphdir=$srcdir
else
  graphdir=$dir
  if [ $stage -le 0 ]; then
    echo "$0: compiling training graphs"
    $cmd JOB=1:$nj $dir/log/compile_graphs.JOB.log \
      $strode compile-train-graphs --read-disambig-syms=$lang/phones/disambig.int $dir/tree $dir/final.mdl $lang/L.fst \
        "ark:$strode sym2int --map-oov=$oov --field=2- $lang/words.txt $sdata/JOB/text |" \
        "ark:|gzip -c >$dir/fsts.JOB.gz"
  fi
fi

if [ $stage -le 1 ]; then
  echo "$0: aligning data in $data using $alimdl and speaker-independent features."
  $cmd JOB=1:$nj $dir/log/align_pass1.JOB.log \
    $strode gmm-align-compiled $scale_opts --beam=$beam --retry-beam=$retry_beam \
      "$strode gmm-boost-silence --boost=$boost_silence $(cat $lang/phones/optional_silence.csl) $alimdl - |" \
      "ark:gunzip -c $graphdir/fsts.JOB.gz|" "$sifeats" "ark:|gzip -c >$dir/pre_ali.JOB.gz"
fi

if [ $stage -le 2 ]; then
  echo "$0: computing fMLLR transforms"
  if [ "$alimdl" != "$mdl" ]; then
    $cmd JOB=1:$nj $dir/log/fmllr.JOB.log \
      $strode ali-to-post "ark:gunzip -c $dir/pre_ali.JOB.gz|" ark:- \| \
      $strode weight-silence-post 0.0 $silphonelist $alimdl ark:- ark:- \| \
      $strode gmm-post-to-gpost $alimdl "$sifeats" ark:- ark:- \| \
      $strode gmm-est-fmllr-gpost --fmllr-update-type=$fmllr_update_type \
        --spk2utt=ark:$sdata/JOB/spk2utt $mdl "$sifeats" \
        ark,s,cs:- ark:$dir/trans.JOB
  else
    $cmd JOB=1:$nj $dir/log/fmllr.JOB.log \
      $strode ali-to-post "ark:gunzip -c $dir/pre_ali.JOB.gz|" ark:- \| \
      $strode weight-silence-post 0.0 $silphonelist $alimdl ark:- ark:- \| \
      $strode gmm-est-fmllr --fmllr-update-type=$fmllr_update_type \
        --spk2utt=ark:$sdata/JOB/spk2utt $mdl "$sifeats" \
        ark,s,cs:- ark:$dir/trans.JOB
  fi
fi

feats="$sifeats $strode transform-feats --utt2spk=ark:$sdata/JOB/utt2spk ark:$dir/trans.JOB ark:- ark:- |"

if [ $stage -le 3 ]; then
  echo "$0: doing final alignment."
  $cmd JOB=1:$nj $dir/log/align_pass2.JOB.log \
    $strode gmm-align-compiled $scale_opts --beam=$beam --retry-beam=$retry_beam \
      "$strode gmm-boost-silence --boost=$boost_silence $(cat $lang/phones/optional_silence.csl) $mdl - |" \
      "ark:gunzip -c $graphdir/fsts.JOB.gz|" "$feats" "ark:|gzip -c >$dir/ali.JOB.gz"
fi

rm -f $dir/pre_ali.*.gz

echo "$0: done aligning data."
nwarn=$(cat $dir/log/*.log 2>/dev/null | grep -c '^WARNING' || true)
[ "$nwarn" -eq 0 ] || echo "$0: $nwarn warnings in $dir/log/*.log"
exit 0
