# common.sh — helpers of recipes/steps/*.sh (sourced after strode_bin.sh, never run), the
# parts of Kaldi's utils/ those scripts call.
#
# split_data DATA N        DATA/splitN, as utils/split_data.sh (strode split-data; a split newer
#                          than its sources is kept)
# check_phones_compatible A B
#                          utils/lang/check_phones_compatible.sh: B (when it exists) is A
# warn_no_stats LOG        train_deltas.sh's note when gmm-init-model found phones without data
# gmm_dir_info DIR         a line as steps/info/gmm_dir_info.pl: pdfs, Gaussians, and the
#                          log-likelihood per frame of the last alignment (its job 1)
# feats_of_dir DATA SDATA SRCDIR
#                          sets $feats, the features of SRCDIR's model on SDATA/JOB, as
#                          align_si.sh and decode.sh work them out: CMN (SRCDIR/cmvn_opts) and
#                          deltas, or splicing (SRCDIR/splice_opts) and SRCDIR/final.mat when
#                          that exists; $feat_type is delta or lda

split_data() {
  local out
  out=$($strode split-data $1 $2 2>&1) || { echo "$0: strode split-data $1 $2 failed:" >&2; echo "$out" | tail -n 5 >&2; exit 1; }
}

check_phones_compatible() {
  [ -f "$2" ] || return 0
  cmp -s "$1" "$2" || { echo "$0: phone symbol tables $1 and $2 are not compatible." >&2; exit 1; }
}

warn_no_stats() {
  if grep -q 'no stats' $1; then
    grep 'no stats' $1 | head -n 5
    echo "** The warnings above about 'no stats' generally mean you have phones **"
    echo "** (or groups of phones) in your phone set that had no corresponding data. **"
  fi
}

gmm_dir_info() {
  local d=$1 info ll
  info=$($strode gmm-info $d/final.mdl 2>/dev/null | awk '/number of pdfs/ {p = $NF} /number of gaussians/ {g = $NF} END {printf "%d pdfs, %d Gaussians", p, g}')
  # No align.*.1.log when the model was never realigned (--realign-iters ""): no such part.
  ll=$(ls -v $d/log/align.*.1.log 2>/dev/null | tail -n 1 || true)
  [ -z "$ll" ] || ll="; $(grep -h -o 'Overall log-likelihood per frame is [^ ]*' $ll | sed 's/Overall //') ($(basename $ll .1.log), job 1)"
  echo "$0: $d: $info$ll"
}

feats_of_dir() {
  local data=$1 sdata=$2 srcdir=$3 splice_opts cmvn_opts delta_opts
  splice_opts=$(cat $srcdir/splice_opts 2>/dev/null || true)
  cmvn_opts=$(cat $srcdir/cmvn_opts 2>/dev/null || true)
  delta_opts=$(cat $srcdir/delta_opts 2>/dev/null || true)
  if [ -f $srcdir/final.mat ]; then feat_type=lda; else feat_type=delta; fi
  case $feat_type in
    delta) feats="ark,s,cs:$strode apply-cmvn $cmvn_opts --utt2spk=ark:$sdata/JOB/utt2spk scp:$sdata/JOB/cmvn.scp scp:$sdata/JOB/feats.scp ark:- | $strode add-deltas $delta_opts ark:- ark:- |" ;;
    lda) feats="ark,s,cs:$strode apply-cmvn $cmvn_opts --utt2spk=ark:$sdata/JOB/utt2spk scp:$sdata/JOB/cmvn.scp scp:$sdata/JOB/feats.scp ark:- | $strode splice-feats $splice_opts ark:- ark:- | $strode transform-feats $srcdir/final.mat ark:- ark:- |" ;;
  esac
}
