# steps_feats.sh — the networks' input features (--nnet-feats), sourced by recipes/kaldi/run.sh
# beside steps.sh; its functions read run.sh's settings as steps.sh's do.
#
# --nnet-feats fbank (the default): the networks read the fbank of stage 2 (data-fbank/NAME) with
# per-speaker CMVN.
# --nnet-feats fmllr (from scratch, --gmm-ladder tri3): from stage 4 on they read the tri3 (SAT)
# system's speaker-adapted features, as Kaldi's steps/nnet/make_fmllr_feats.sh makes them for
# nnet1 (and pytorch-kaldi takes them): the MFCC of the ladder with tri3's per-speaker CMN
# (cmvn_opts), spliced (splice_opts), through LDA+MLLT (final.mat) and each speaker's fMLLR
# transform (transform-feats --utt2spk). The training set's transforms are align_fmllr.sh's
# (exp/strode_tri3_ali/trans.*); a dev/test set's are decode_fmllr.sh's of tri3 on it
# (exp/strode_tri3/decode_SET/trans.*: the GMM's decode before the networks', as nnet1's recipes
# take them). With --speed-perturb true the networks' training set is the perturbed copy, whose
# transforms are its own speakers' (sp0.9-SPK, sp1.1-SPK and SPK each estimated on its own
# audio) from align_fmllr.sh of the copy with tri3 (exp/strode_tri3_ali_sp: steps_sp.sh's
# align_sp), as Kaldi's recipes give the perturbed copies their own fMLLR transforms. The features are written once, to --fmllr-dir/NAME (ark,scp in its data/), so
# training does not run the pipes every epoch.
# Their CMVN is global (means and variances of the whole training set, one stats entry
# "global" that every utterance maps to, utt2global): fMLLR features are speaker-normalised
# already, and per-speaker CMVN on top would undo part of the adaptation and be estimated on a
# few seconds for a speaker with little audio; Kaldi's nnet1 normalises them the same way (the
# global mean and variance in its feature_transform).

# nnet_input: what the networks read now: fbank until use_fmllr_feats switches it (stage 3's
# alignment rounds train on fbank whatever --nnet-feats says: there is no tri3 system yet).
nnet_input=fbank

# check_nnet_feats: --nnet-feats is fbank or fmllr (auto: fmllr where it can be, else fbank), and
# fmllr has what it needs: a from-scratch run (--dict) up to --gmm-ladder tri3, offline decoding
# (online decoding computes fbank from the audio).
check_nnet_feats() {
  if [ "$nnet_feats" = auto ]; then
    nnet_feats=fbank
    ! $from_scratch || [ "$gmm_ladder" != tri3 ] || $causal || nnet_feats=fmllr
  fi
  case "$nnet_feats" in
    fbank) return 0 ;;
    fmllr) ;;
    *) echo "$0: --nnet-feats must be fbank, fmllr or auto, not '$nnet_feats'" >&2; exit 1 ;;
  esac
  if ! $from_scratch || [ "$gmm_ladder" != tri3 ]; then
    echo "$0: --nnet-feats fmllr needs the tri3 (SAT) system's transforms: run from scratch (--dict) with --gmm-ladder tri3" \
      "(here: $($from_scratch && echo "--gmm-ladder $gmm_ladder" || echo "no --dict"))" >&2
    exit 1
  fi
  ! $causal || { echo "$0: --nnet-feats fmllr and --causal exclude each other: online decoding computes fbank from the audio" >&2; exit 1; }
}

# train_trans_dir: the alignment dir whose trans.* are the networks' training set's transforms:
# align_fmllr.sh's of --train, or of its perturbed copy (--speed-perturb true).
train_trans_dir() { if $speed_perturb; then echo $sp_fmllr_ali; else rung_ali tri3; fi; }

# nnet_dir SRC: the data dir whose features the networks read for data dir SRC: its fbank copy,
# or after use_fmllr_feats its fMLLR features in --fmllr-dir.
nnet_dir() { if [ "$nnet_input" = fmllr ]; then echo "$fmllr_dir/$(basename "$1")"; else fbank_of "$1"; fi; }

# nnet_cmvn DIR: the CMVN options of the networks' features in data dir DIR (cmvn_of's): fbank
# per speaker, fMLLR global.
nnet_cmvn() {
  if [ "$nnet_input" = fmllr ]; then echo "--cmvn=ark:$fmllr_dir/global_cmvn.ark --utt2spk=ark:$1/utt2global"
  else echo "--cmvn=scp:$1/cmvn.scp --utt2spk=ark:$1/utt2spk"; fi
}

# feat_description: how the networks' features are made, recorded in the models (strode
# model-info shows it beside the input dimension).
feat_description() {
  if [ "$nnet_input" = fmllr ]; then
    local g; g=$(rung_dir tri3)
    local o; o=$(cat $g/cmvn_opts 2>/dev/null || true)
    echo "compute-mfcc-feats $mfcc_all | apply-cmvn${o:+ $o} (per speaker) |" \
      "splice-feats $(cat $g/splice_opts 2>/dev/null) | transform-feats $g/final.mat |" \
      "transform-feats --utt2spk fMLLR of $g (training: $(train_trans_dir)/trans.*, a test set: $g/decode_SET/trans.*);" \
      "global CMVN $fmllr_dir/global_cmvn.ark"
  else
    echo "compute-fbank-feats $fbank_all"
  fi
}

# make_fmllr_feats SRC TRANSDIR: data dir SRC's fMLLR features through tri3 with the per-speaker
# transforms TRANSDIR/trans.* into --fmllr-dir/NAME (feats.scp, the arks in its data/), split as
# the networks' data dirs are (jobs_of), with utt2global (every utterance to the global CMVN
# stats); for the networks' training set ($nnet_train) also those stats, $fmllr_dir/global_cmvn.ark.
make_fmllr_feats() {
  local src=$1 tdir=$2 name d g j sdata k f abs opts
  name=$(basename $src); d=$fmllr_dir/$name; g=$(rung_dir tri3)
  if unit_done $d; then echo "   $name: fMLLR features done before ($d/.done)"; return 0; fi
  mfcc_data_dir $src
  for f in $g/final.mat $g/splice_opts $mfcc_data/feats.scp $mfcc_data/cmvn.scp $tdir/trans.1; do
    [ -f $f ] || { echo "$0: the fMLLR features of $name need $f" >&2; exit 1; }
  done
  j=$(jobs_of $mfcc_data); sdata=$mfcc_data/split$j
  rm -rf $d; mkdir -p $d/data $d/log; abs=$(cd $d && pwd)
  quietly $d/log/split_mfcc.log $strode split-data $mfcc_data $j
  opts="$(cat $g/cmvn_opts 2>/dev/null || true)"
  # A final.mat of other features (MFCC of other options, other splicing) would fail every job:
  # its first utterance first, stopping with transform-feats' error (the file, both dimensions).
  head -n 1 $mfcc_data/feats.scp > $d/first.scp
  if ! $strode apply-cmvn $opts --utt2spk=ark:$mfcc_data/utt2spk scp:$mfcc_data/cmvn.scp scp:$d/first.scp ark:- 2> $d/log/check_final_mat.log |
      $strode splice-feats $(cat $g/splice_opts) ark:- ark:- 2>> $d/log/check_final_mat.log |
      $strode transform-feats $g/final.mat ark:- ark:- 2>> $d/log/check_final_mat.log > /dev/null; then
    echo "$0: the fMLLR features of $name: $(grep -h -m 1 '^ERROR' $d/log/check_final_mat.log | sed 's/^ERROR ([^)]*) //')" \
      "(see $d/log/check_final_mat.log)" >&2
    exit 1
  fi
  # Every speaker's transform in one archive: the jobs of TRANSDIR need not be these.
  cat $tdir/trans.* > $d/trans.ark
  $cmd JOB=1:$j $d/log/make_fmllr_feats.JOB.log \
    $strode apply-cmvn $opts --utt2spk=ark:$sdata/JOB/utt2spk scp:$sdata/JOB/cmvn.scp scp:$sdata/JOB/feats.scp ark:- \| \
    $strode splice-feats $(cat $g/splice_opts) ark:- ark:- \| \
    $strode transform-feats $g/final.mat ark:- ark:- \| \
    $strode transform-feats --utt2spk=ark:$sdata/JOB/utt2spk ark:$d/trans.ark ark:- ark:- \| \
    $strode copy-feats ark:- ark,scp:$abs/data/feats_fmllr_$name.JOB.ark,$abs/data/feats_fmllr_$name.JOB.scp
  for f in wav.scp segments text utt2spk spk2utt utt2dur; do
    if [ -f $mfcc_data/$f ]; then cp $mfcc_data/$f $d/; fi
  done
  for k in $(seq $j); do cat $d/data/feats_fmllr_$name.$k.scp; done | LC_ALL=C sort > $d/feats.scp
  # An utterance without features (its speaker without a transform) is dropped, as Kaldi's
  # transform-feats skips it.
  quietly $d/log/fix_data_dir.log $strode fix-data-dir $d; grep -h "dropped" $d/log/fix_data_dir.log | sed 's/^/   /' || true
  awk '{print $1, "global"}' $d/utt2spk > $d/utt2global
  if [ "$src" = "$nnet_train" ]; then
    { printf 'global'; awk '{printf " %s", $1}' $d/feats.scp; echo; } > $d/global.spk2utt
    quietly $d/log/global_cmvn.log $strode compute-cmvn-stats --spk2utt=ark:$d/global.spk2utt scp:$d/feats.scp \
      ark:$fmllr_dir/global_cmvn.ark
  fi
  quietly $d/log/split.log $strode split-data $d $(jobs_of $d)
  echo "   $name: fMLLR features of $(wc -l < $d/feats.scp) of $(wc -l < $mfcc_data/feats.scp) utterances," \
    "dim $($strode feat-to-dim scp:$d/feats.scp - 2>/dev/null), in $d (transforms $tdir/trans.*)"
  mark_done $d
}

# fmllr_subset FROM TO: the utterances of the fbank data dir FROM (split_tr_cv's training or
# held-out set) from the fMLLR training features, in TO.
fmllr_subset() {
  local from=$1 to=$2
  if unit_done $to; then return 0; fi
  rm -rf $to; mkdir -p $(dirname $to)
  cut -d' ' -f1 $from/feats.scp > $to.utts
  quietly $fmllr_dir/log/subset_$(basename $to).log $strode subset-data-dir --utt-list $to.utts $(nnet_dir $nnet_train) $to
  rm -f $to.utts
  awk '{print $1, "global"}' $to/utt2spk > $to/utt2global
  mark_done $to
}

# use_fmllr_feats (before stage 4, --nnet-feats fmllr): the fMLLR features of the networks'
# training set (--train or its perturbed copy, with the transforms of train_trans_dir), the
# networks' training and held-out sets from them (the utterances of split_tr_cv's), and from
# now on the networks read them (nnet_dir, nnet_cmvn, feat_description; $tr and $cv).
use_fmllr_feats() {
  [ "$nnet_feats" = fmllr ] || return 0
  echo "   in $fmllr_dir, global CMVN ($fmllr_dir/global_cmvn.ark)"
  split_tr_cv > /dev/null
  nnet_input=fmllr
  make_fmllr_feats $nnet_train $(train_trans_dir)
  fmllr_subset $tr $(nnet_dir $nnet_train)_tr; fmllr_subset $cv $(nnet_dir $nnet_train)_cv
  tr=$(nnet_dir $nnet_train)_tr; cv=$(nnet_dir $nnet_train)_cv
  echo "   $tr: $(wc -l < $tr/feats.scp) utterances, $cv: $(wc -l < $cv/feats.scp) (split_tr_cv's)"
}

# make_set_fmllr_feats SRC (stage 6, --nnet-feats fmllr): data dir SRC decoded by tri3
# (decode_rung: decode_fmllr.sh, the GMM's pass whose transforms the networks' features take),
# then its fMLLR features with those transforms.
make_set_fmllr_feats() {
  [ "$nnet_feats" = fmllr ] || return 0
  decode_rung tri3 $1
  make_fmllr_feats $1 $(rung_dir tri3)/decode_$(basename $1)
}
