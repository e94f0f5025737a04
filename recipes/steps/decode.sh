#!/usr/bin/env bash
# Kaldi's steps/decode.sh with strode's tools: lattices of a GMM system on CMN'd features + deltas
# or LDA+MLLT features (final.mat in the model's directory says which), then scoring with
# recipes/local/score.sh (Kaldi's local/score.sh).
#
# Usage: recipes/steps/decode.sh [options] <graph-dir> <data-dir> <decode-dir>
#  e.g.: recipes/steps/decode.sh exp/tri1/graph data/test exp/tri1/decode_test
# <decode-dir> is a subdirectory of the model's directory (final.mdl, and cmvn_opts, delta_opts,
# splice_opts, final.mat as the training script left them). Writes lat.JOB.gz, num_jobs, log/,
# and with scoring wer_*, best_wer, scoring_kaldi/.
# The decoder is strode gmm-latgen-faster when the binary has it, else gmm-compute-likes |
# latgen-faster-mapped (the same search on the same likelihoods).
# Options (Kaldi's defaults):
#   --nj N [4] --cmd CMD [run.pl] --iter N [final] --model FILE [<model-dir>/final.mdl]
#   --transform-dir DIR [none: with one, its trans.JOB (fMLLR per speaker) are applied]
#   --max-active N [7000] --beam F [13.0] --lattice-beam F [6.0] --acwt F [0.083333]
#   --skip-scoring B [false] --scoring-opts "..." [""; options of recipes/local/score.sh]
#   --stage N [0: decode; 1: score only]
#   --strode PATH (default: $STRODE, else the repository's bin/strode: recipes/local/strode_bin.sh)
set -euo pipefail

transform_dir=
iter=
model=
stage=0
nj=4
cmd=run.pl
max_active=7000
beam=13.0
lattice_beam=6.0
acwt=0.083333
scoring_opts=
skip_scoring=false
strode=

echo "$0 $*"
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
. "$root/recipes/local/parse_options.sh"
[ $# = 3 ] || { print_usage >&2; exit 1; }
graphdir=$1 data=$2 dir=$3
. "$root/recipes/local/strode_bin.sh"
. "$root/recipes/local/jobs.sh"
. "$root/recipes/steps/common.sh"
cmd=$(resolve_cmd "$cmd")
srcdir=$(dirname $dir)  # the model's directory is one level up from the decoding directory
sdata=$data/split$nj

mkdir -p $dir/log
[ -f $data/feats.scp ] || { echo "$0: no such file $data/feats.scp" >&2; exit 1; }
split_data $data $nj
echo $nj > $dir/num_jobs
if [ -z "$model" ]; then
  if [ -z "$iter" ]; then model=$srcdir/final.mdl; else model=$srcdir/$iter.mdl; fi
fi
for f in $sdata/1/feats.scp $sdata/1/cmvn.scp $model $graphdir/HCLG.fst $graphdir/words.txt; do
  [ -f $f ] || { echo "$0: no such file $f" >&2; exit 1; }
done

feats_of_dir $data $sdata $srcdir
echo "$0: feature type is $feat_type"
if [ -n "$transform_dir" ]; then
  echo "$0: using fMLLR transforms from $transform_dir"
  [ -f $transform_dir/trans.1 ] || { echo "$0: expected $transform_dir/trans.1 to exist" >&2; exit 1; }
  [ "$(cat $transform_dir/num_jobs)" -eq $nj ] || { echo "$0: mismatch in number of jobs with $transform_dir" >&2; exit 1; }
  feats="$feats $strode transform-feats --utt2spk=ark:$sdata/JOB/utt2spk ark:$transform_dir/trans.JOB ark:- ark:- |"
fi

if [ $stage -le 0 ]; then
  if $strode gmm-latgen-faster --help > /dev/null 2>&1; then
    $cmd JOB=1:$nj $dir/log/decode.JOB.log \
      $strode gmm-latgen-faster --max-active=$max_active --beam=$beam --lattice-beam=$lattice_beam \
        --acoustic-scale=$acwt --allow-partial=true --word-symbol-table=$graphdir/words.txt \
        $model $graphdir/HCLG.fst "$feats" "ark:|gzip -c > $dir/lat.JOB.gz"
  else
    $cmd JOB=1:$nj $dir/log/decode.JOB.log \
      $strode gmm-compute-likes $model "$feats" ark:- \| \
      $strode latgen-faster-mapped --max-active=$max_active --beam=$beam --lattice-beam=$lattice_beam \
        --acoustic-scale=$acwt --allow-partial=true --word-symbol-table=$graphdir/words.txt \
        $model $graphdir/HCLG.fst ark:- "ark:|gzip -c > $dir/lat.JOB.gz"
  fi
fi

if ! $skip_scoring; then
  $root/recipes/local/score.sh --cmd "$cmd" --strode $strode $scoring_opts $data $graphdir $dir
fi
