#!/usr/bin/env bash
# Decoding with fMLLR, as Kaldi's steps/decode_fmllr.sh, for a SAT system (train_sat.sh) in the
# directory above <decode-dir>:
#   1. a speaker-independent pass with the alignment model (final.alimdl, else final.mdl) on
#      the speaker-independent features into <decode-dir>.si, as steps/decode.sh decodes
#      (--first-beam, --first-max-active) and scored there (unless --si-dir names one done);
#   2. first-pass fMLLR transforms (pre_trans.JOB) per speaker from its lattices' posteriors
#      (lattice-to-post, silence weight --silence-weight, gmm-post-to-gpost with the alignment
#      model, gmm-est-fmllr-gpost with the adaptation model);
#   3. the main pass on the adapted features with the adaptation model (final.mdl), state-level
#      lattices (--determinize-lattice=false) in lat.tmp.JOB.gz;
#   4. second fMLLR transforms from those lattices (lattice-determinize-pruned --beam=4.0,
#      lattice-to-post, gmm-est-fmllr), composed with the first into trans.JOB;
#   5. the lattices rescored with the final model on the final features (gmm-rescore-lattice),
#      determinized at --lattice-beam into lat.JOB.gz, and scored (recipes/local/score.sh).
#
# Usage: recipes/steps/decode_fmllr.sh [options] <graph-dir> <data-dir> <decode-dir>
#  e.g.: recipes/steps/decode_fmllr.sh exp/tri3/graph data/test exp/tri3/decode_test
# Options (Kaldi's defaults):
#   --nj N                    (default 4)
#   --cmd CMD                 job runner (default run.pl: strode's, or utils/run.pl when present)
#   --stage N                 (default 0)
#   --acwt F                  acoustic scale of decoding and of the fMLLR posteriors (default 0.083333)
#   --first-beam F --first-max-active N   the speaker-independent pass (default 10.0, 2000)
#   --beam F --max-active N --lattice-beam F   (default 13.0, 7000, 6.0)
#   --silence-weight F        (default 0.01)
#   --fmllr-update-type T     (default full)
#   --alignment-model M --adapt-model M --final-model M   (defaults: final.alimdl, final.mdl, final.mdl)
#   --si-dir DIR              a speaker-independent decode already done (default: <decode-dir>.si)
#   --skip-scoring B          (default false)
#   --scoring-opts "O"        options for score.sh (e.g. "--min-lmwt 7 --max-lmwt 17")
#   --num-threads N --parallel-opts O --max-fmllr-jobs N   accepted for Kaldi's sake (one thread per job)
#   --strode PATH             strode binary (default: $STRODE, else bin/strode, built when stale)
set -euo pipefail

first_beam=10.0
first_max_active=2000
alignment_model=
adapt_model=
final_model=
stage=0
acwt=0.083333
max_active=7000
beam=13.0
lattice_beam=6.0
nj=4
silence_weight=0.01
cmd=run.pl
si_dir=
fmllr_update_type=full
num_threads=1
parallel_opts=
skip_scoring=false
scoring_opts=
max_fmllr_jobs=25
strode=

echo "$0 $*"
local_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/../local" && pwd)
. "$local_dir/parse_options.sh"
[ $# -eq 3 ] || { print_usage >&2; exit 1; }
graphdir=$1 data=$2
dir=${3%/}
. "$local_dir/strode_bin.sh"
. "$local_dir/jobs.sh"
cmd=$(resolve_cmd "$cmd")

srcdir=$(dirname $dir)  # the model directory, one level up from the decoding directory
sdata=$data/split$nj

mkdir -p $dir/log
$strode split-data $data $nj > $dir/log/split_data.log 2>&1 || { cat $dir/log/split_data.log >&2; exit 1; }
echo $nj > $dir/num_jobs
splice_opts=$(cat $srcdir/splice_opts 2>/dev/null || true)
cmvn_opts=$(cat $srcdir/cmvn_opts 2>/dev/null || true)
delta_opts=$(cat $srcdir/delta_opts 2>/dev/null || true)

silphonelist=$(cat $graphdir/phones/silence.csl)

for f in $graphdir/HCLG.fst $data/feats.scp $srcdir/tree; do
  [ -f $f ] || { echo "$0: no such file $f" >&2; exit 1; }
done

## Work out name of alignment model.
if [ -z "$alignment_model" ]; then
  if [ -f "$srcdir/final.alimdl" ]; then alignment_model=$srcdir/final.alimdl
  else alignment_model=$srcdir/final.mdl; fi
fi
[ -f "$alignment_model" ] || { echo "$0: no alignment model $alignment_model" >&2; exit 1; }

## Set up the unadapted features "$sifeats"
if [ -f $srcdir/final.mat ]; then feat_type=lda; else feat_type=delta; fi
echo "$0: feature type is $feat_type"
case $feat_type in
  delta) sifeats="ark,s,cs:$strode apply-cmvn $cmvn_opts --utt2spk=ark:$sdata/JOB/utt2spk scp:$sdata/JOB/cmvn.scp scp:$sdata/JOB/feats.scp ark:- | $strode add-deltas $delta_opts ark:- ark:- |";;
  lda) sifeats="ark,s,cs:$strode apply-cmvn $cmvn_opts --utt2spk=ark:$sdata/JOB/utt2spk scp:$sdata/JOB/cmvn.scp scp:$sdata/JOB/feats.scp ark:- | $strode splice-feats $splice_opts ark:- ark:- | $strode transform-feats $srcdir/final.mat ark:- ark:- |";;
esac

num_pdfs_of() { $strode hmm-info $1 2>/dev/null | awk '/number of pdfs/ {print $NF}'; }
check_pdfs() {
  if [ -f "$graphdir/num_pdfs" ]; then
    [ "$(cat $graphdir/num_pdfs)" -eq "$(num_pdfs_of $1)" ] ||
      { echo "$0: Mismatch in number of pdfs with $1" >&2; exit 1; }
  fi
}

## Do the speaker-independent decoding, if --si-dir option not present (steps/decode.sh with
## --model $alignment_model --beam $first_beam --max-active $first_max_active).
if [ -z "$si_dir" ]; then
  si_dir=${dir}.si
  if [ $stage -le 0 ]; then
    check_pdfs $alignment_model
    mkdir -p $si_dir/log
    echo $nj > $si_dir/num_jobs
    echo "$0: speaker-independent decoding with $alignment_model into $si_dir"
    $cmd JOB=1:$nj $si_dir/log/decode.JOB.log \
      $strode gmm-latgen-faster --max-active=$first_max_active --beam=$first_beam --lattice-beam=$lattice_beam \
        --acoustic-scale=$acwt --allow-partial=true --word-symbol-table=$graphdir/words.txt \
        $alignment_model $graphdir/HCLG.fst "$sifeats" "ark:|gzip -c > $si_dir/lat.JOB.gz"
    if ! $skip_scoring; then
      $local_dir/score.sh --strode $strode --cmd "$cmd" $scoring_opts $data $graphdir $si_dir ||
        { echo "$0: Scoring failed. (ignore by '--skip-scoring true')" >&2; exit 1; }
    fi
  fi
fi

## Some checks, and setting of defaults for variables.
[ "$nj" -eq "$(cat $si_dir/num_jobs)" ] || { echo "$0: Mismatch in #jobs with si-dir" >&2; exit 1; }
[ -f "$si_dir/lat.1.gz" ] || { echo "$0: No such file $si_dir/lat.1.gz" >&2; exit 1; }
[ -n "$adapt_model" ] || adapt_model=$srcdir/final.mdl
[ -n "$final_model" ] || final_model=$srcdir/final.mdl
for f in $sdata/1/feats.scp $sdata/1/cmvn.scp $adapt_model $final_model; do
  [ -f $f ] || { echo "$0: no such file $f" >&2; exit 1; }
done

## Now get the first-pass fMLLR transforms.
if [ $stage -le 1 ]; then
  echo "$0: getting first-pass fMLLR transforms."
  $cmd --max-jobs-run $max_fmllr_jobs JOB=1:$nj $dir/log/fmllr_pass1.JOB.log \
    gunzip -c $si_dir/lat.JOB.gz \| \
    $strode lattice-to-post --acoustic-scale=$acwt ark:- ark:- \| \
    $strode weight-silence-post $silence_weight $silphonelist $alignment_model ark:- ark:- \| \
    $strode gmm-post-to-gpost $alignment_model "$sifeats" ark:- ark:- \| \
    $strode gmm-est-fmllr-gpost --fmllr-update-type=$fmllr_update_type \
      --spk2utt=ark:$sdata/JOB/spk2utt $adapt_model "$sifeats" ark,s,cs:- \
      ark:$dir/pre_trans.JOB
fi

pass1feats="$sifeats $strode transform-feats --utt2spk=ark:$sdata/JOB/utt2spk ark:$dir/pre_trans.JOB ark:- ark:- |"

## Do the main lattice generation pass. The lattices are not determinized here: they are
## rescored with the final model, for which the full state-level lattice is the right input.
if [ $stage -le 2 ]; then
  echo "$0: doing main lattice generation phase"
  check_pdfs $adapt_model
  $cmd JOB=1:$nj $dir/log/decode.JOB.log \
    $strode gmm-latgen-faster --max-active=$max_active --beam=$beam --lattice-beam=$lattice_beam \
      --acoustic-scale=$acwt --determinize-lattice=false \
      --allow-partial=true --word-symbol-table=$graphdir/words.txt \
      $adapt_model $graphdir/HCLG.fst "$pass1feats" "ark:|gzip -c > $dir/lat.tmp.JOB.gz"
fi

## A second pass of estimating the transform, from the adapted decode's lattices; composed
## with the first into $dir/trans.JOB.
if [ $stage -le 3 ]; then
  echo "$0: estimating fMLLR transforms a second time."
  $cmd --max-jobs-run $max_fmllr_jobs JOB=1:$nj $dir/log/fmllr_pass2.JOB.log \
    $strode lattice-determinize-pruned --acoustic-scale=$acwt --beam=4.0 \
      "ark:gunzip -c $dir/lat.tmp.JOB.gz|" ark:- \| \
    $strode lattice-to-post --acoustic-scale=$acwt ark:- ark:- \| \
    $strode weight-silence-post $silence_weight $silphonelist $adapt_model ark:- ark:- \| \
    $strode gmm-est-fmllr --fmllr-update-type=$fmllr_update_type \
      --spk2utt=ark:$sdata/JOB/spk2utt $adapt_model "$pass1feats" \
      ark,s,cs:- ark:$dir/trans_tmp.JOB '&&' \
    $strode compose-transforms --b-is-affine=true ark:$dir/trans_tmp.JOB ark:$dir/pre_trans.JOB \
      ark:$dir/trans.JOB
fi

feats="$sifeats $strode transform-feats --utt2spk=ark:$sdata/JOB/utt2spk ark:$dir/trans.JOB ark:- ark:- |"

## Rescore the state-level lattices with the final adapted features and the final model, then
## prune and determinize them for scoring and LM rescoring.
if [ $stage -le 4 ]; then
  echo "$0: doing a final pass of acoustic rescoring."
  $cmd JOB=1:$nj $dir/log/acoustic_rescore.JOB.log \
    $strode gmm-rescore-lattice $final_model "ark:gunzip -c $dir/lat.tmp.JOB.gz|" "$feats" ark:- \| \
    $strode lattice-determinize-pruned --acoustic-scale=$acwt --beam=$lattice_beam ark:- \
      "ark:|gzip -c > $dir/lat.JOB.gz" '&&' rm $dir/lat.tmp.JOB.gz
fi

if ! $skip_scoring; then
  $local_dir/score.sh --strode $strode --cmd "$cmd" $scoring_opts $data $graphdir $dir ||
    { echo "$0: Scoring failed. (ignore by '--skip-scoring true')" >&2; exit 1; }
fi

rm -f $dir/trans_tmp.* $dir/pre_trans.*
exit 0
