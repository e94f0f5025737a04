# steps_sp.sh — speed perturbation of the training set in recipes/kaldi/run.sh (--speed-perturb
# true, from scratch), sourced by it beside steps.sh, as Kaldi's recipes do it
# (egs/mini_librispeech/s5/local/nnet3/run_ivector_common.sh): the GMMs (mono and the ladder)
# stay trained on the unperturbed training set; its 3-way copy (speeds 0.9, 1.0, 1.1,
# recipes/local/perturb_data_dir_speed_3way.sh) gets fbank + CMVN for the networks and MFCC for
# the GMM that aligns it (the --nnet-ali rung's: align_si.sh, align_fmllr.sh for tri3); the
# networks train on that copy and those alignments, held out by utt2uniq groups so that no copy
# of a held-out utterance is trained on. Decoding is unchanged (dev and test unperturbed).
#
# The names: the copy is $sp_train (--sp-dir/TRAIN_sp, e.g. data-sp/train_sp; its fbank in
# --fbank-dir/TRAIN_sp, its MFCC in --mfcc-dir/TRAIN_sp), its alignments $sp_gmm_ali
# (exp/strode_RUNG_ali_sp), converted to --num-leaves' tree in exp/strode_tri_ali_sp when the
# networks train on that (--nnet-ali mono).
#
# With --nnet-ali mono the perturbed copies are aligned by the flat start's GMM even when
# --flat-start-rounds N > 0 realigned the unperturbed set with a network (exp/strode_mono_aliN):
# the copies' targets are then the GMM's, not the last round's.

# sp_settings (run.sh, after the options): the names above, and the options that cannot go with
# --speed-perturb stop the recipe before any work.
sp_settings() {
  case "$speed_perturb" in true|false) ;; *) echo "$0: --speed-perturb must be true or false, not '$speed_perturb'" >&2; exit 1 ;; esac
  $speed_perturb || return 0
  $from_scratch || { echo "$0: --speed-perturb true needs --dict: the perturbed copies are aligned with the recipe's own GMM" >&2; exit 1; }
  [ "$flat_start" = gmm ] || [ "$nnet_ali" != mono ] ||
    { echo "$0: --speed-perturb true aligns the perturbed copies with a GMM: --flat-start gmm (or --nnet-ali a rung of --gmm-ladder)" >&2; exit 1; }
  sp_train=$sp_dir/$(basename $train)_sp
  sp_gmm_ali=$exp/strode_${nnet_ali}_ali_sp
  sp_ali=$sp_gmm_ali
  [ "$nnet_ali" != mono ] || [ "$num_leaves" = 0 ] || sp_ali=${tri}_ali_sp
  # --nnet-feats fmllr: the copies' own per-speaker transforms (sp0.9-SPK is a speaker of its
  # own), align_fmllr.sh's with tri3 (exp/strode_tri3_ali_sp: the targets' run when --nnet-ali
  # is tri3, a run of its own otherwise).
  sp_fmllr_ali=$exp/strode_tri3_ali_sp
}

# make_sp_data (stage 2): the 3-way speed-perturbed copy of --train in $sp_train, made from a copy
# of its Kaldi files in exp/strode_sp (the perturbation writes utt2dur into its source: your data
# dir stays as it is), then its fbank and CMVN (make_fbank, utt2uniq kept).
make_sp_data() {
  local src=$exp/strode_sp/$(basename $train) d=$sp_train f n
  if unit_done $d; then
    echo "   $d: done before ($d/.done)"
  else
    rm -rf $src $d; mkdir -p $src $(dirname $d)
    for f in wav.scp segments reco2file_and_channel text utt2spk spk2utt spk2gender utt2lang utt2dur reco2dur; do
      if [ -f $train/$f ]; then cp $train/$f $src/; fi
    done
    quietly $exp/strode_sp/log/perturb_data_dir_speed_3way.log \
      $root/recipes/local/perturb_data_dir_speed_3way.sh --strode $strode $src $d
    rm -rf $src
    n=$(wc -l < $train/utt2spk)
    echo "   $d: $(wc -l < $d/utt2spk) utterances ($n at speeds 0.9, 1.0 and 1.1), $(wc -l < $d/spk2utt) speakers, utt2uniq"
    mark_done $d
  fi
  make_fbank $d
}

# align_sp_with RUNG OUT: $sp_train aligned with the rung's GMM into OUT, from its MFCC
# (mfcc_data_dir), with the ladder's silence boost: recipes/steps/align_fmllr.sh for tri3 (which
# also estimates the copies' per-speaker transforms, OUT/trans.*), align_si.sh below (mono: the
# flat start's GMM, exp/strode_mono_gmm).
align_sp_with() {
  local r=$1 out=$2 dir script=align_si.sh log=$exp/strode_sp/log
  dir=$(rung_dir $r)
  if unit_done $out; then echo "   $out: done before ($out/.done)"; return 0; fi
  mfcc_data_dir $sp_train
  [ $r != tri3 ] || script=align_fmllr.sh
  rm -rf $out
  quietly $log/align_$r.log $root/recipes/steps/$script --nj $(jobs_of $mfcc_data) --cmd "$cmd" --strode "$strode" \
    --boost-silence $boost_silence $mfcc_data $lang $dir $out
  echo "   $out: $sp_train aligned with $dir ($script): $(grep -h -o 'Overall log-likelihood per frame is [^ ]*' \
    $out/log/align.1.log $out/log/align_pass2.1.log 2>/dev/null | sed 's/Overall //' | head -n 1) (job 1)"
  mark_done $out
}

# align_sp (stage 3): $sp_train aligned with the --nnet-ali rung's GMM into $sp_gmm_ali
# (align_sp_with); with --num-leaves' tree (--nnet-ali mono) converted to it (convert-ali) in
# $sp_ali, as build_tree converts the unperturbed alignments; with --nnet-feats fmllr below tri3,
# also aligned by tri3 for the copies' transforms ($sp_fmllr_ali).
align_sp() {
  local n j
  align_sp_with $nnet_ali $sp_gmm_ali
  [ "$nnet_feats" != fmllr ] || [ $sp_fmllr_ali = $sp_gmm_ali ] || align_sp_with tri3 $sp_fmllr_ali
  if [ $sp_ali != $sp_gmm_ali ]; then
    if unit_done $sp_ali; then
      echo "   $sp_ali: done before ($sp_ali/.done)"
    else
      j=$(cat $sp_gmm_ali/num_jobs)
      rm -rf $sp_ali; mkdir -p $sp_ali/log; echo $j > $sp_ali/num_jobs
      cp $tri/final.mdl $tri/tree $sp_ali/
      $cmd JOB=1:$j $sp_ali/log/convert.JOB.log \
        $strode convert-ali $sp_gmm_ali/final.mdl $tri/final.mdl $tri/tree "ark:gunzip -c $sp_gmm_ali/ali.JOB.gz |" \
          "ark:| gzip -c > $sp_ali/ali.JOB.gz"
      echo "   $sp_ali: converted to the tree of $tri"
      mark_done $sp_ali
    fi
  fi
  n=$(gunzip -c $sp_ali/ali.*.gz | $strode copy-int-vector ark:- ark,t:- 2>/dev/null | wc -l)
  echo "   $sp_ali: $n alignments of $(wc -l < $(fbank_of $sp_train)/feats.scp) perturbed utterances"
}

# use_sp (run.sh, before stage 3's targets, whatever the stages): from here on the networks'
# training set is the perturbed copy and their targets its alignments: $nnet_train, $ali (their
# priors), $tr and $cv; --cv-utts and --exclude-utts lists of original utterances grow by their
# copies (utt2uniq), so that no copy of a held-out utterance is trained on.
use_sp() {
  local d f list
  $speed_perturb || return 0
  nnet_train=$sp_train; ali=$sp_ali
  [ "$realign_iters" != 0 ] || final_ali=$ali
  d=$(fbank_of $sp_train); tr=${d}_tr; cv=${d}_cv
  for list in cv_utts exclude_utts; do
    f=${!list}
    [ -n "$f" ] && [ -f $d/utt2uniq ] || continue
    mkdir -p $exp/strode_sp
    awk 'NR == FNR { keep[$1]; next } ($1 in keep) || ($2 in keep) { print $1 }' $f $d/utt2uniq > $exp/strode_sp/$list
    printf -v $list %s $exp/strode_sp/$list
  done
}

# report_sp (stage 4): what the networks train on, and that the held-out set shares no utt2uniq
# group with the training set.
report_sp() {
  $speed_perturb || return 0
  local d; d=$(fbank_of $sp_train)
  echo "   speed-perturbed: training on $tr ($(wc -l < $tr/feats.scp) of $(wc -l < $d/feats.scp) utterances of $sp_train)," \
    "targets $ali; held out $(awk 'NR == FNR { cv[$1]; next } ($1 in cv) && !($2 in g) { g[$2]; n++ } END { print n + 0 }' $cv/utt2spk $d/utt2uniq) utt2uniq groups," \
    "$(awk 'NR == FNR { u[$1] = $2; next } FILENAME == ARGV[2] { if ($1 in u) g[u[$1]]; next } ($1 in u) && (u[$1] in g) { n++ } END { print n + 0 }' \
      $d/utt2uniq $cv/utt2spk $tr/utt2spk) training utterances in them"
}
