# steps.sh — the work of recipes/kaldi/run.sh's stages, sourced by it once its options and
# settings are known (as Kaldi's run.sh calls steps/*.sh): every function reads run.sh's
# variables ($strode, $cmd, $exp, $train, $sets, $ali, ...). A unit of work (a data dir, a model,
# a decode dir) is skipped when its .done file exists (recipes/local/jobs.sh).

# chime5_data_dir SET DIR (stage 0): DIR from CHiME-5's SET (train, dev) with strode
# chime5-data-prep; nothing for an empty DIR.
chime5_data_dir() {
  local set_name=$1 d=${2-}
  [ -n "$d" ] || return 0
  if unit_done $d; then echo "   $d: done before ($d/.done)"; return 0; fi
  quietly $exp/strode_check/log/chime5_data_prep_$set_name.log \
    $strode chime5-data-prep "$chime5_dir" $set_name $d
  echo "   $d: $(wc -l < $d/utt2spk) utterances, $(wc -l < $d/spk2utt) speakers"
  mark_done $d
}

# needs A B: a stage in A..B is checked: those about to run, or all of them when stage 1 runs
# alone (--stop-stage 1 checks the layout for the whole recipe).
needs() {
  local check_to=$stop_stage
  [ "$stop_stage" -le 1 ] && check_to=7
  [ "$1" -le "$check_to" ] && [ "$2" -ge "$stage" ]
}

# need FILE STAGE WHAT: adds FILE to the list of what is missing (check_files, check_dict_inputs).
need() {
  [ -e "$1" ] || missing+=("$1 (stage $2: $3)")
}

# report_missing: stops the recipe listing what need found missing, if anything.
report_missing() {
  if [ ${#missing[@]} -gt 0 ]; then
    echo "$0: the experiment in $PWD lacks:" >&2
    printf '  %s\n' "${missing[@]}" >&2
    exit 1
  fi
}

# check_dict_inputs (before stage 0, --dict): the dict dir and the transcripts the lang, LM and
# perplexities are made from are there, or the recipe stops listing what is missing.
check_dict_inputs() {
  local missing=() d
  need $dict 0 "the dict dir (--dict)"
  need $train/text 0 "the training transcripts: the training graphs of stage 3, and the LM's text without --lm-text or --lm"
  [ -z "$lm_text" ] || [ -n "$lm" ] || need $lm_text 0 "the LM's text (--lm-text)"
  for d in $sets; do need $d/text 0 "the transcripts of $d (the LM's perplexity on it)"; done
  report_missing
}

# check_files (before stage 1): every file the chosen stages need is there, or the recipe stops
# listing what is missing.
check_files() {
  local missing=() d f
  if needs 2 7; then
    for d in $train $sets; do
      for f in wav.scp utt2spk spk2utt; do need $d/$f 2 "features of $d"; done
    done
  fi
  if needs 4 5; then need $train/text 5 "transcripts for realignment"; fi
  if needs 7 7; then for d in $sets; do need $d/text 7 "reference transcripts for scoring"; done; fi
  if [ -n "$rescore_lm" ] && needs 6 6; then
    case "$rescore_lm" in *[!0-9]*) need $rescore_lm 6 "the rescoring LM (--rescore-lm)" ;; esac
    $from_scratch || need $rescore_old_lang/G.fst 6 "the graph's G.fst, taken off before rescoring (--rescore-old-lang)"
  fi
  if $from_scratch && needs 3 7; then
    for f in L.fst words.txt phones/disambig.int oov.int; do need $lang/$f 3 "the lang dir of stage 0 (--dict)"; done
    need $mono/final.mdl 3 "the monophone model of stage 0 (--dict)"
  fi
  if needs 3 5 && ! $from_scratch; then
    need $ali/final.mdl 3 "the alignments' model (pdf-ids of the targets)"
    ls $ali/ali.*.gz >/dev/null 2>&1 || missing+=("$ali/ali.*.gz (stage 3: the training alignments, from steps/align_si.sh or a training dir)")
  fi
  # --teacher DIR: stage 4 trains it when DIR has no model; a later stage needs the model.
  if [ -n "$teacher" ] && needs 4 5 && [ "$stage" -gt 4 ]; then need $teacher/final.am 4 "the teacher (--teacher)"; fi
  if [ "$realign_iters" != 0 ] && needs 5 5; then
    need $ali/tree 5 "training graphs for realignment"
    need $lang/L.fst 5 "training graphs for realignment"
    need $lang/words.txt 5 "training graphs for realignment"
    need $lang/phones/disambig.int 5 "training graphs for realignment"
    need $lang/oov.txt 5 "transcript words missing from the lexicon"
  fi
  # From scratch, stages 0 and 3 make the graph (the monophone's, the --num-leaves tree's, or the
  # ladder rung's whose alignments the networks train on).
  if needs 6 7 && ! { $from_scratch && $own_graph && [ "$stage" -le 3 ]; }; then
    need $graph/HCLG.fst 6 "decoding graph"
    need $graph/words.txt 6 "word symbol table"
    need $decode_mdl 6 "the graph's transition model (--decode-mdl)"
  fi
  report_missing
}

# check_layout (stage 1): the data dirs are valid, and the alignments' model is the graph's.
check_layout() {
  local d p
  echo "   strode: $strode; jobs: --nj $nj through '$cmd'"
  for d in $train $sets; do
    quietly $exp/strode_check/log/validate_$(basename $d).log $strode validate-data-dir --no-feats $d ||
      { echo "$0: stage 1: $d is not a valid data dir (fix it, e.g. utils/fix_data_dir.sh $d)" >&2; exit 1; }
  done
  needs 3 6 || return 0
  # From scratch the alignments' model is the graph's by construction (stages 0 and 3).
  ! $from_scratch || return 0
  # The targets' pdf-ids must be the graph's: the same transition model (tree and topology).
  quietly $exp/strode_check/log/compare_models.log $strode compare-transition-models $ali/final.mdl $decode_mdl || {
    echo "$0: stage 1: the alignments' model $ali/final.mdl and the graph's $decode_mdl have different transition models;" >&2
    echo "  align the training data with the graph's model (steps/align_si.sh ... $(dirname $graph) ${ali}) or pass the matching --graph" >&2
    exit 1
  }
  if [ -f $graph/num_pdfs ]; then
    p=$($strode hmm-info $ali/final.mdl 2>/dev/null | awk '/number of pdfs/ {print $4}')
    [ "$p" = "$(cat $graph/num_pdfs)" ] || { echo "$0: stage 1: $graph/num_pdfs says $(cat $graph/num_pdfs) pdfs, $ali/final.mdl has $p" >&2; exit 1; }
  fi
  echo "   alignments $ali ($(ls $ali/ali.*.gz | wc -l) archives) match the graph $graph: $($strode hmm-info $ali/final.mdl 2>/dev/null | tr '\n' ',' | sed 's/,$//')"
}

# make_fbank SRC (stage 2): fbank features and CMVN stats of data dir SRC in our copy of it,
# $(fbank_of SRC), in $(jobs_of) jobs through --cmd; archives in --feat-store.
make_fbank() {
  local src=$1 name d logdir j warp= store k
  name=$(basename $src); d=$(fbank_of $src); logdir=$exp/make_fbank/$name/log
  if unit_done $d; then echo "   $name: done before ($d/.done)"; return 0; fi
  mkdir -p $feat_store; store=$(cd $feat_store && pwd)
  rm -rf $d $logdir; mkdir -p $d $logdir
  for f in wav.scp segments reco2file_and_channel text utt2spk spk2utt spk2gender utt2dur utt2uniq; do
    [ -f $src/$f ] && cp $src/$f $d/
  done
  j=$(jobs_of $d); quietly $logdir/split.log $strode split-data $d $j
  # VTLN warps per utterance (utt2warp), as steps/make_mfcc.sh takes them
  [ -f $src/utt2warp ] && cp $src/utt2warp $d/ && warp=--vtln-map=ark:$d/utt2warp
  if [ -f $d/segments ]; then
    $cmd JOB=1:$j $logdir/make_fbank.JOB.log \
      $strode extract-segments scp,p:$d/wav.scp $d/split$j/JOB/segments ark:- \| \
      $strode compute-fbank-feats $fbank_all $warp ark:- ark,scp:$store/raw_fbank_$name.JOB.ark,$store/raw_fbank_$name.JOB.scp
  else
    $cmd JOB=1:$j $logdir/make_fbank.JOB.log \
      $strode compute-fbank-feats $fbank_all $warp scp,p:$d/split$j/JOB/wav.scp \
      ark,scp:$store/raw_fbank_$name.JOB.ark,$store/raw_fbank_$name.JOB.scp
  fi
  for k in $(seq $j); do cat $store/raw_fbank_$name.$k.scp; done | LC_ALL=C sort > $d/feats.scp
  $cmd $logdir/cmvn.log $strode compute-cmvn-stats --spk2utt=ark:$d/spk2utt scp:$d/feats.scp \
    ark,scp:$store/cmvn_$name.ark,$d/cmvn.scp
  # Utterances whose features failed are dropped (and counted), then the split is made again
  # with feats.scp and cmvn.scp.
  quietly $logdir/fix_data_dir.log $strode fix-data-dir $d; grep -h "dropped" $logdir/fix_data_dir.log | sed 's/^/   /' || true
  quietly $logdir/split.log $strode split-data $d $j
  echo "   $name: $(wc -l < $d/feats.scp) of $(wc -l < $src/utt2spk) utterances, dim $($strode feat-to-dim scp:$d/feats.scp - 2>/dev/null)"
  mark_done $d
}

# make_global_cmvn (stage 2, --causal): the global CMVN stats of the training set's fbank, the
# prior of online CMVN (Kaldi's global_cmvn.stats), and the fbank options as a config file for
# online2-wav-latgen-faster (the options of --fbank-config first, so that --fbank-opts win).
make_global_cmvn() {
  local o=$exp/strode_online
  mkdir -p $o/log
  quietly $o/log/global_cmvn.log $strode compute-cmvn-stats scp:$(fbank_of $train)/feats.scp $global_cmvn
  { [ -z "$fbank_config" ] || grep -v -E '^[[:space:]]*(#|$)' $fbank_config; for x in $fbank_opts; do echo $x; done; } > $o/fbank.conf
  echo "   online CMVN: $global_cmvn (global stats of $(basename $train)), fbank options $o/fbank.conf"
}

# make_counts ALI (stages 3 and 5): the priors (pdf counts) of an alignment dir, into $(counts_of ALI).
# Every pdf of the model gets a count (--counts-dim), also the ones no frame is aligned to (a
# small training set, a flat start): the priors must have the network's output dimension.
make_counts() {
  local a=$1 out pdfs; out=$(counts_of $1); mkdir -p $(dirname $out)/log
  pdfs=$($strode hmm-info $a/final.mdl 2>/dev/null | awk '/number of pdfs/ {print $4}')
  $strode analyze-counts --binary=false --counts-dim=${pdfs:-0} "ark:gunzip -c $a/ali.*.gz | $strode ali-to-pdf $a/final.mdl ark:- ark:- |" \
    $out.tmp 2> $(dirname $out)/log/analyze_counts.log && mv $out.tmp $out
}

# count_targets (stage 3): how many training utterances have no alignment (training skips them).
count_targets() {
  local t=$exp/strode_targets d n
  mkdir -p $t/log
  gunzip -c $ali/ali.*.gz | $strode copy-int-vector ark:- ark,t:- 2> $t/log/copy_ali.log | cut -d' ' -f1 | LC_ALL=C sort > $t/ali.keys
  d=$(fbank_of $nnet_train)
  n=$($strode filter-scp --print-args=false --exclude $t/ali.keys $d/feats.scp | wc -l)
  echo "   $(wc -l < $t/ali.keys) alignments; $n of $(wc -l < $d/feats.scp) training utterances have none and are skipped in training (as Kaldi does)"
  echo "   priors: $(counts_of $ali) ($(awk '{print NF-2}' $(counts_of $ali)) pdfs)"
}

# split_tr_cv (stage 4): the training and held-out sets $tr and $cv: --cv-utts (and
# --exclude-utts), else --cv-spk-percent of the speakers.
split_tr_cv() {
  local d; d=$(fbank_of $nnet_train)
  if ! unit_done $tr || ! unit_done $cv; then
    rm -rf $tr $cv; mkdir -p $exp/strode_targets
    if [ -n "$cv_utts" ]; then
      quietly $exp/strode_targets/log/subset_cv.log $strode subset-data-dir --utt-list $cv_utts $d $cv
      $strode filter-scp --print-args=false --exclude ${exclude_utts:-$cv_utts} $d/utt2spk | cut -d' ' -f1 > $exp/strode_targets/tr.utts
      quietly $exp/strode_targets/log/subset_tr.log $strode subset-data-dir --utt-list $exp/strode_targets/tr.utts $d $tr
    else
      quietly $exp/strode_targets/log/subset_tr_cv.log $strode subset-data-dir-tr-cv --cv-spk-percent $cv_spk_percent --seed $seed $d $tr $cv
    fi
    mark_done $tr; mark_done $cv
  fi
  echo "   training set $(wc -l < $tr/feats.scp) utterances ($(wc -l < $tr/spk2utt) speakers), held-out $(wc -l < $cv/feats.scp) ($(wc -l < $cv/spk2utt) speakers)"
}

# train_models ALI SUFFIX: train every model on the alignments in ALI into exp/MODEL$SUFFIX.
# One process per model through --cmd (--num-jobs-final 1), or data-parallel (see --help).
model_flags() {  # the model options common to strode train and strode train-parallel
  echo --preset=$preset $model_opts --sru-hidden=$hidden --sru-layers=$layers --bidirectional=$bidirectional \
    --model=$1 --phi-z=free --minibatch-utts=$minibatch_utts --minibatch-frames=4000
}
schedule_flags() {  # --newbob: nnet1's halving schedule; else early stopping after 3 bad epochs
  if $newbob; then echo --newbob=true; else echo --patience=3; fi
}
own_opts() {  # --MODEL-opts: the options of one model, given last so that they win
  case "$1" in sru|strode|odernn|dnn) local v=${1}_opts; echo "${!v}" ;; esac
}
pipeline_flags() {  # the features as the models see them in training
  if $causal; then echo --left-context=$context --right-context=0
  else echo $(cmvn_of $(nnet_dir $nnet_train)) --norm-vars=true --left-context=$context --right-context=$context; fi
}
# feats_of DIR: the features of data dir DIR (or a split of one) as the networks read them: its
# fbank (with cmvn_of's per-speaker CMVN), or with --causal after online CMVN (apply-cmvn-online
# with the training set's global stats, each speaker's stats carried from one utterance to the
# next as online decoding carries them); cmvn_of DIR: the per-speaker CMVN options (none then).
feats_of() {
  if $causal; then echo "ark:$strode apply-cmvn-online --spk2utt=ark:$1/spk2utt $global_cmvn scp:$1/feats.scp ark:- |"
  else echo "scp:$1/feats.scp"; fi
}
cmvn_of() { $causal || nnet_cmvn $1; }  # nnet_cmvn: steps_feats.sh
train_one() {  # train_one MODEL ALI DIR SEED
  local m=$1 a=$2 dir=$3 sd=$4
  if [ "$num_jobs_final" -le 1 ]; then
    # A re-run resumes from the checkpoint of the last finished epoch (bit for bit).
    $cmd $dir/log/train.log $strode train $(model_flags $m) --max-iters=$epochs --seed=$sd \
      --learning-rate=$learning_rate $(schedule_flags) $train_opts $(pipeline_flags) $causal_flag --transition-model=$a/final.mdl \
      "--feature-description=$(feat_description)" --checkpoint=$dir/checkpoint.am --resume=true \
      --curves-png=$dir/curves.png "--cv-feats=$(feats_of $cv)" $(teacher_flags $m) $(own_opts $m) \
      "$(feats_of $tr)" "ark:gunzip -c $a/ali.*.gz |" $dir/final.am
  else
    # The driver runs here and sends each iteration's jobs through --cmd; a re-run continues
    # after the last averaged model.
    $strode train-parallel --cmd "$cmd" --num-jobs-initial=$num_jobs_initial --num-jobs-final=$num_jobs_final \
      --num-epochs=$epochs --initial-effective-lrate=$initial_effective_lrate \
      --final-effective-lrate=$final_effective_lrate --final-model=best --srand=$sd $(model_flags $m) $train_opts \
      $(own_opts $m | sed -E 's/--(left|right)-context=[0-9]+//g') $egs $dir > $dir/log/train_parallel.log 2>&1 && cp $dir/final.mdl $dir/final.am
  fi
}
# --teacher DIR: the strode train options that read DIR/final.am for model $1 (strode's prior
# with --teacher-prior, every model's soft targets with --distill-weight > 0).
teacher_flags() {
  [ -n "$teacher" ] || return 0
  if [ "$1" = strode ] && $teacher_prior; then echo --prior-teacher=$teacher/final.am; fi
  [ "$distill_weight" = 0 ] || echo --distill-teacher=$teacher/final.am --distill-weight=$distill_weight
}
# train_teacher ALI (stage 4, --teacher DIR without DIR/final.am, which is written only at the end
# of a training and never replaced here): the teacher, a bidirectional
# sru of the networks' sizes on exactly their features (with --causal the online-CMVN'd ones,
# left context only: strode train refuses a teacher whose feature pipeline is not the student's),
# --train-opts and --teacher-opts last.
train_teacher() {
  local a=$1
  [ -n "$teacher" ] && [ ! -f $teacher/final.am ] || return 0
  mkdir -p $teacher/log
  echo "   training the teacher $teacher on $a: a bidirectional sru on the networks' features (log: $teacher/log/train.log)"
  $cmd $teacher/log/train.log $strode train $(model_flags sru) --bidirectional=true --max-iters=$epochs --seed=$seed \
    --learning-rate=$learning_rate $(schedule_flags) $train_opts $(pipeline_flags) --transition-model=$a/final.mdl \
    "--feature-description=$(feat_description)" --checkpoint=$teacher/checkpoint.am --resume=true \
    --curves-png=$teacher/curves.png "--cv-feats=$(feats_of $cv)" $teacher_opts \
    "$(feats_of $tr)" "ark:gunzip -c $a/ali.*.gz |" $teacher/final.am ||
    { echo "$0: training the teacher failed, see $teacher/log/train.log" >&2; exit 1; }
  grep -h -E "epoch [0-9]+:" $teacher/log/train.log | tail -n 1 | sed "s/^LOG ([a-z -]*) /   teacher: /" | cut -c1-150 || true
}
train_models() {
  local a=$1 suffix=$2 r m dir pids=()
  egs=$exp/strode_egs$suffix
  if [ "$num_jobs_final" -gt 1 ] && ! unit_done $egs; then
    echo "   training archives: $egs (log: $egs/log/get_egs.log)"
    rm -rf $egs; mkdir -p $egs/log
    $cmd $egs/log/get_egs.log $strode get-egs --num-archives=${num_archives:-$num_jobs_final} --srand=$seed \
      --transition-model=$a/final.mdl $(pipeline_flags) "--feature-description=$(feat_description)" \
      --cv-feats=scp:$cv/feats.scp scp:$tr/feats.scp "ark:gunzip -c $a/ali.*.gz |" $egs
    mark_done $egs
  fi
  for r in "${runs[@]}"; do
    m=$(run_name $r)
    dir=$exp/$m$suffix; mkdir -p $dir/log
    if unit_done $dir; then echo "   $m$suffix: done before ($dir/.done)"; continue; fi
    echo "   training $m$suffix on $a (log: $dir/log/train$([ "$num_jobs_final" -le 1 ] || echo _parallel).log)"
    if [ "$num_jobs_final" -gt 1 ] && own_opts ${r%%:*} | grep -q -- '-context='; then
      echo "   note: --${r%%:*}-opts splicing is not used in data-parallel training: the archives' --context $context is"
    fi
    (
      train_one ${r%%:*} $a $dir ${r#*:} && cp $(counts_of $a) $dir/pdf.counts && ln -sfn "$(cd $a && pwd)" $dir/ali && mark_done $dir
    ) &
    pids+=($!)
    $parallel_models || wait ${pids[-1]} || { echo "$0: training $m$suffix failed, see $dir/log/" >&2; exit 1; }
  done
  for p in ${pids[@]+"${pids[@]}"}; do wait $p || { echo "$0: a training failed, see $exp/*$suffix/log/" >&2; exit 1; }; done
  for r in "${runs[@]}"; do
    m=$(run_name $r)
    grep -h -E "epoch [0-9]+:|iter [0-9]+:" $exp/$m$suffix/log/train*.log | tail -n 1 | sed "s/^LOG ([a-z -]*) /   $m$suffix: /" | cut -c1-150 || true
  done
}


# realign_src R: the network that realigns in round R of stage 5 (the first seed's).
realign_src() {
  local rm0; rm0=$(run_name "$realign_model:${seeds%% *}")
  if [ $1 = 1 ]; then echo $exp/$rm0; else echo $exp/${rm0}_realign$(($1-1)); fi
}

# align_with AM COUNTS FROM OUT: the training data aligned by the network AM (its priors COUNTS)
# through the training graphs of FROM's model and tree, into OUT/ali.JOB.gz in jobs through
# --cmd, and OUT's priors. The OOV word goes to sym2int as the lang's oov.int, as Kaldi's
# scripts pass it (a symbol such as <UNK> would be a redirection inside the pipe).
align_with() {
  local am=$1 counts=$2 from=$3 out=$4 d j
  d=$(nnet_dir $nnet_train); j=$(jobs_of $d)
  rm -rf $out; mkdir -p $out/log
  cp $from/final.mdl $from/tree $out/; echo $j > $out/num_jobs
  $cmd JOB=1:$j $out/log/align.JOB.log \
    $strode compile-train-graphs --read-disambig-syms=$lang/phones/disambig.int $out/tree $out/final.mdl $lang/L.fst \
      "ark:$strode sym2int --map-oov=$(cat $lang/oov.int) --field=2- $lang/words.txt $d/split$j/JOB/text |" ark:- \| \
    $strode align-compiled-mapped --beam=10 --retry-beam=40 --acoustic-scale=0.1 --self-loop-scale=0.1 $out/final.mdl ark:- \
      "ark:$strode forward --no-softmax=true --class-frame-counts=$counts $(cmvn_of $d) $am '$(feats_of $d/split$j/JOB)' ark:- |" \
      "ark:| gzip -c > $out/ali.JOB.gz"
  make_counts $out
  grep -h -E "^LOG \(strode align-compiled-mapped\) (Overall|Done)" $out/log/align.*.log | sed 's/^LOG (strode align-compiled-mapped) /   /' || true
}

# realign R (stage 5): the training data aligned by $(realign_src R) into exp/MODEL_aliR.
realign() {
  local src out
  src=$(realign_src $1); out=$exp/${realign_model}_ali$1
  if unit_done $out; then return 0; fi
  align_with $src/final.am $src/pdf.counts $ali $out
  mark_done $out
}

# make_lang (stage 0, --dict): the lang dir from the dict dir (checked as validate_dict_dir.pl)
# with the monophone tree and model of its topology in $mono. A lang dir this recipe did not
# make is never overwritten.
make_lang() {
  mkdir -p $mono/log
  quietly $mono/log/validate_dict_dir.log $strode validate-dict-dir $dict ||
    { echo "$0: stage 0: $dict is not a valid dict dir (see $mono/log/validate_dict_dir.log)" >&2; exit 1; }
  if unit_done $lang; then echo "   $lang: done before ($lang/.done)"; return 0; fi
  if [ -e $lang/L.fst ]; then
    echo "$0: stage 0: $lang exists and was not made by this recipe; pass --lang with a new directory for the lang that --dict makes" >&2
    exit 1
  fi
  quietly $mono/log/prepare_lang.log $strode prepare-lang --position-dependent-phones=$position_dependent_phones --mono-dir=$mono $dict "$oov" $exp/strode_lm/lang_tmp $lang
  mark_done $lang
  echo "   $lang: $(grep -c -v -E '^(<eps>|#)' $lang/phones.txt) phones, $(grep -c -v -E '^(<eps>|#0|<s>|</s>) ' $lang/words.txt) words;" \
    "$mono: $($strode hmm-info $mono/final.mdl 2>/dev/null | tr '\n' ',' | sed 's/,$//')"
  count_oovs
}

# count_oovs (stage 0, --dict): how many words of the training and scored transcripts the
# lexicon lacks; they become the OOV word (--oov) as sym2int.pl --map-oov makes them in Kaldi.
count_oovs() {
  local d n
  for d in $train $sets; do
    n=$($strode sym2int --map-oov=$(cat $lang/oov.int) --field=2- $lang/words.txt $d/text 2>&1 >/dev/null |
      sed -n 's/.*Replaced \([0-9]*\) instances of OOVs.*/\1/p')
    echo "   $d/text: ${n:-0} of $(cut -d' ' -f2- $d/text | wc -w) words not in the lexicon (mapped to $oov)"
  done
}

# make_lm (stage 0, --dict): unless --lm names one, the --lm-order interpolated modified
# Kneser-Ney (or, where that cannot be estimated, Witten-Bell) LM of --lm-text (default: the training set's text) on the lexicon's words, with
# transcript words outside it counted as the OOV word, in exp/strode_lm/lm.arpa.gz.
make_lm() {
  local dir=$exp/strode_lm
  [ -z "$lm" ] || return 0
  lm=$dir/lm.arpa.gz
  if [ -s $lm ]; then echo "   $lm: done before"; return 0; fi
  mkdir -p $dir/log
  grep -v -E '^(<eps>|#0|<s>|</s>) ' $lang/words.txt | cut -d' ' -f1 > $dir/vocab
  cut -d' ' -f2- ${lm_text:-$train/text} > $dir/lm_text
  # Modified Kneser-Ney, unless its discounts cannot be estimated (SRILM stops there too): a
  # small vocabulary such as digits, where every word follows more than four others, or a text
  # too small for the order. Witten-Bell needs no count-of-counts.
  estimate_lm $lm_order $lm ngram_count
}

# estimate_lm ORDER OUT LOGNAME (stages 0 and 6, --dict): the ORDER-gram modified Kneser-Ney LM of
# exp/strode_lm/lm_text on exp/strode_lm/vocab in OUT, or Witten-Bell where Kneser-Ney cannot be
# estimated; the log in exp/strode_lm/log/LOGNAME.log.
estimate_lm() {
  local dir=$exp/strode_lm order=$1 out=$2 log=$exp/strode_lm/log/$3.log
  local counts="$strode ngram-count -order $order -interpolate -vocab $dir/vocab -unk -map-unk $oov -text $dir/lm_text -lm $out"
  if ! $counts -kndiscount > $log 2>&1; then
    grep -q 'modified KneserNey' $log ||
      { echo "$0: failed: $counts -kndiscount" >&2; tail -n 20 $log | sed 's/^/  /' >&2; return 1; }
    echo "   $(grep -o 'order [0-9]*: one of [^(]*' $log | head -n 1)($log): Witten-Bell discounting instead"
    quietly $log $counts -wbdiscount
  fi
  echo "   $out: $(gunzip -c $out | grep -E '^ngram [0-9]+=' | tr '\n' ' ')"
}

# lm_ppl SRC (stage 0, --dict): the LM's perplexity and OOVs on SRC's text, as SRILM's ngram
# -ppl prints them, in exp/strode_lm/ppl_SET.txt.
lm_ppl() {
  local dir=$exp/strode_lm name; name=$(basename $1)
  cut -d' ' -f2- $1/text > $dir/text_$name
  $strode ngram -lm $lm -order $lm_order -ppl $dir/text_$name > $dir/ppl_$name.txt 2> $dir/log/ppl_$name.log
  echo "   LM on $name: $(tr '\n' ' ' < $dir/ppl_$name.txt | sed 's/^file [^:]*: //')"
}

# make_graph (stage 0, --dict): G.fst of the LM in LANG_test, and HCLG of the monophone model in
# $mono/graph (the monophone targets' graph, and the monophone GMM's), unless --graph names a
# graph of your own.
make_graph() {
  if ! unit_done ${lang}_test; then
    rm -rf ${lang}_test; cp -r $lang ${lang}_test; rm -f ${lang}_test/.done
    quietly $exp/strode_lm/log/arpa2fst.log $strode arpa2fst --disambig-symbol=#0 --read-symbol-table=$lang/words.txt \
      "gunzip -c $lm |" ${lang}_test/G.fst
    mark_done ${lang}_test
  fi
  $own_graph || return 0
  local g=$mono/graph
  if unit_done $g; then echo "   $g: done before ($g/.done)"; return 0; fi
  quietly $mono/log/mkgraph.log $strode mkgraph ${lang}_test $mono $g
  mark_done $g
  echo "   $g/HCLG.fst: $(grep -h -o 'HCLG[^;]*' $mono/log/mkgraph.log | tail -n 1)"
}

# flat_start (stage 3, --dict): equal alignments of the training graphs (align-equal-compiled,
# as steps/train_mono.sh begins) in ${mono}_ali0, and their priors.
flat_start() {
  local d j a=${mono}_ali0
  if unit_done $a; then echo "   $a: done before ($a/.done)"; return 0; fi
  d=$(fbank_of $train); j=$(jobs_of $d)
  rm -rf $a; mkdir -p $a/log; cp $mono/final.mdl $mono/tree $a/; echo $j > $a/num_jobs
  $cmd JOB=1:$j $a/log/align_equal.JOB.log \
    $strode compile-train-graphs --read-disambig-syms=$lang/phones/disambig.int $a/tree $a/final.mdl $lang/L.fst \
      "ark:$strode sym2int --map-oov=$(cat $lang/oov.int) --field=2- $lang/words.txt $d/split$j/JOB/text |" ark:- \| \
    $strode align-equal-compiled ark:- scp:$d/split$j/JOB/feats.scp "ark:| gzip -c > $a/ali.JOB.gz"
  make_counts $a
  mark_done $a
  echo "   $a: equal alignments"
}

# make_mfcc SRC (stages 3 and 6, --dict): MFCC (--mfcc-config/--mfcc-opts) and CMVN stats per
# speaker of data dir SRC, per job of its split, in exp/strode_mfcc/NAME; sets $mfcc_feats, the
# features as steps/train_mono.sh, train_deltas.sh and decode.sh read them (per-speaker CMN,
# deltas), JOB standing for the job. The GMM flat start, the tree's statistics and the GMM's
# decodes use them.
make_mfcc() {
  local d j store name m
  name=$(basename $1); m=$exp/strode_mfcc/$name; d=$(fbank_of $1); j=$(jobs_of $d)
  mfcc_feats="ark,s,cs:$strode apply-cmvn --utt2spk=ark:$d/split$j/JOB/utt2spk ark:$m/cmvn.JOB.ark scp:$m/mfcc.JOB.scp ark:- | $strode add-deltas ark:- ark:- |"
  if unit_done $m; then return 0; fi
  rm -rf $m; mkdir -p $m/log $feat_store; store=$(cd $feat_store && pwd)
  # Stored compressed, as steps/make_mfcc.sh stores them (copy-feats
  # --compress=true): Kaldi's GMMs train and decode on the compressed
  # values, and the flat start is sensitive to them (kaldi-mini: 94.6% of
  # training frames on the phone of Kaldi's alignment from uncompressed
  # MFCC, 98.0% from compressed).
  if [ -f $d/segments ]; then
    $cmd JOB=1:$j $m/log/make_mfcc.JOB.log \
      $strode extract-segments scp,p:$d/wav.scp $d/split$j/JOB/segments ark:- \| \
      $strode compute-mfcc-feats $mfcc_all ark:- ark:- \| \
      $strode copy-feats --compress=true ark:- ark,scp:$store/raw_mfcc_$name.JOB.ark,$m/mfcc.JOB.scp
  else
    $cmd JOB=1:$j $m/log/make_mfcc.JOB.log \
      $strode compute-mfcc-feats $mfcc_all scp,p:$d/split$j/JOB/wav.scp ark:- \| \
      $strode copy-feats --compress=true ark:- ark,scp:$store/raw_mfcc_$name.JOB.ark,$m/mfcc.JOB.scp
  fi
  $cmd JOB=1:$j $m/log/cmvn.JOB.log \
    $strode compute-cmvn-stats --spk2utt=ark:$d/split$j/JOB/spk2utt scp:$m/mfcc.JOB.scp ark:$m/cmvn.JOB.ark
  mark_done $m
}

# decode_gmm SRC (stage 6, --dict --flat-start gmm): the flat start's GMM decoded with $mono/graph
# as steps/decode.sh decodes it (MFCC + deltas, acoustic scale 0.083333), into
# exp/strode_mono_gmm/decode_NAME, scored over the GMMs' LM weights (--gmm-min-lmwt..
# --gmm-max-lmwt) as Kaldi scores a GMM decode: the baseline a Kaldi user knows
# (exp/mono/decode_*), and a check of the lang, LM and graph apart from the networks.
decode_gmm() {
  local src=$1 g=${mono}_gmm name dir j graph=$mono/graph t0 t1
  name=$(basename $src); dir=$g/decode_$name; j=$(jobs_of $(fbank_of $src))
  if unit_done $dir; then echo "   GMM $name: done before ($dir/.done)"; return 0; fi
  make_mfcc $src
  rm -rf $dir; mkdir -p $dir/log; echo $j > $dir/num_jobs
  t0=$(date +%s.%N)
  $cmd JOB=1:$j $dir/log/decode.JOB.log \
    $strode gmm-compute-likes $g/final.mdl "$mfcc_feats" ark:- \| \
    $strode latgen-faster-mapped --acoustic-scale=0.083333 --beam=$beam --lattice-beam=$lattice_beam --max-active=$max_active \
      --allow-partial=true --word-symbol-table=$graph/words.txt $g/final.mdl $graph/HCLG.fst ark:- "ark:| gzip -c > $dir/lat.JOB.gz"
  t1=$(date +%s.%N)
  $strode feat-to-len scp:$(fbank_of $src)/feats.scp ark,t:- 2>/dev/null |
    awk -v t0=$t0 -v t1=$t1 -v j=$j '{n += $2} END {printf "%.3f %.2f %d\n", t1 - t0, n / 100, j}' > $dir/decode_time
  $cmd $dir/scoring/log/score.log $root/recipes/local/score.sh --strode $strode --min-lmwt $gmm_min_lmwt \
    --max-lmwt $gmm_max_lmwt --word-ins-penalty "$word_ins_penalty" $src $graph $dir
  echo "   GMM $name: $(cat $dir/best_wer)"
  mark_done $dir
}

# train_mono (stage 3, --dict, --flat-start gmm): Kaldi's steps/train_mono.sh with strode's GMM
# tools, in exp/strode_mono_gmm: MFCC (+deltas, per-speaker CMN) of the training set; one
# Gaussian per pdf at the global mean and variance (gmm-init-mono, the monophone tree of
# phones/sets.int); the equal alignment's statistics; then --mono-iters rounds of Viterbi
# statistics (gmm-acc-stats-ali) and re-estimation (gmm-est), mixing up to --mono-gauss
# Gaussians over the first three quarters, realigning (gmm-align-compiled)
# on train_mono.sh's iterations. Its last alignment and transition model are ${mono}_ali0.
train_mono() {
  local g=${mono}_gmm a=${mono}_ali0 d j m feats init_feats x beam numgauss incgauss max_inc k last=0
  local realign_iters=" 1 2 3 4 5 6 7 8 9 10 12 14 16 18 20 23 26 29 32 35 38 "
  if unit_done $a; then echo "   $a: done before ($a/.done)"; return 0; fi
  d=$(fbank_of $train); j=$(jobs_of $d)
  rm -rf $g; mkdir -p $g/log
  make_mfcc $train; feats=$mfcc_feats
  # gmm-init-mono's global mean and variance from the first 10 utterances of
  # job 1, as train_mono.sh's "subset-feats --n=10" (apply-cmvn and
  # add-deltas work per utterance, so the scp's first lines are that subset).
  # The first gmm-est replaces the mean and variance of every pdf seen in
  # more than 3 frames, so they matter little.
  m=$exp/strode_mfcc/$(basename $train)
  head -n 10 $m/mfcc.1.scp > $g/init_feats.scp
  init_feats="ark,s,cs:$strode apply-cmvn --utt2spk=ark:$d/split$j/1/utt2spk ark:$m/cmvn.1.ark scp:$g/init_feats.scp ark:- | $strode add-deltas ark:- ark:- |"
  quietly $g/log/init.log $strode gmm-init-mono --shared-phones=$lang/phones/sets.int \
    "--train-feats=$init_feats" $lang/topo $($strode feat-to-dim "${feats//JOB/1}" - 2>/dev/null) $g/0.mdl $g/tree
  $cmd JOB=1:$j $g/log/compile_graphs.JOB.log \
    $strode compile-train-graphs --read-disambig-syms=$lang/phones/disambig.int $g/tree $g/0.mdl $lang/L.fst \
      "ark:$strode sym2int --map-oov=$(cat $lang/oov.int) --field=2- $lang/words.txt $d/split$j/JOB/text |" "ark:| gzip -c > $g/fsts.JOB.gz"
  $cmd JOB=1:$j $g/log/align.0.JOB.log \
    $strode align-equal-compiled "ark:gunzip -c $g/fsts.JOB.gz |" "$feats" ark:- \| \
    $strode gmm-acc-stats-ali $g/0.mdl "$feats" ark:- $g/0.JOB.acc
  numgauss=$($strode gmm-info $g/0.mdl 2>/dev/null | awk '/gaussians/ {print $NF}')
  max_inc=$((mono_iters * 3 / 4)); incgauss=$(( (mono_gauss - numgauss) / (max_inc > 0 ? max_inc : 1) ))
  quietly $g/log/update.0.log $strode gmm-est --min-gaussian-occupancy=3 --mix-up=$numgauss --power=0.25 \
    $g/0.mdl "$strode gmm-sum-accs - $g/0.*.acc |" $g/1.mdl
  rm -f $g/0.*.acc
  beam=6
  for x in $(seq 1 $((mono_iters - 1))); do
    if [[ "$realign_iters" == *" $x "* ]]; then
      $cmd JOB=1:$j $g/log/align.$x.JOB.log \
        $strode gmm-align-compiled --transition-scale=1.0 --acoustic-scale=0.1 --self-loop-scale=0.1 --beam=$beam \
          --retry-beam=$((beam * 4)) $g/$x.mdl "ark:gunzip -c $g/fsts.JOB.gz |" "$feats" "ark:| gzip -c > $g/ali.JOB.gz"
      last=$x
    fi
    $cmd JOB=1:$j $g/log/acc.$x.JOB.log \
      $strode gmm-acc-stats-ali $g/$x.mdl "$feats" "ark:gunzip -c $g/ali.JOB.gz |" $g/$x.JOB.acc
    quietly $g/log/update.$x.log $strode gmm-est --write-occs=$g/$((x + 1)).occs --mix-up=$numgauss --power=0.25 \
      $g/$x.mdl "$strode gmm-sum-accs - $g/$x.*.acc |" $g/$((x + 1)).mdl
    rm -f $g/$x.*.acc $g/$((x - 1)).mdl
    [ $x -gt $max_inc ] || numgauss=$((numgauss + incgauss))
    beam=10
  done
  x=$mono_iters; cp $g/$x.mdl $g/final.mdl
  echo "   $g: $($strode gmm-info $g/final.mdl 2>/dev/null | awk '/gaussians/ {print $NF}') Gaussians after $mono_iters iterations;" \
    "$(grep -h -o 'Overall log-likelihood per frame is [^ ]*' $g/log/align.$last.1.log | sed 's/Overall //') (iteration $last, job 1)"
  # The targets: the last realignment, with the trained transition model alone.
  rm -rf $a; mkdir -p $a/log; echo $j > $a/num_jobs
  quietly $a/log/copy_transition_model.log $strode copy-transition-model $g/final.mdl $a/final.mdl
  cp $g/tree $a/
  for k in $(seq $j); do cp $g/ali.$k.gz $a/; done
  make_counts $a
  mark_done $a
}

# build_tree (stage 3, --dict --num-leaves N): the first half of Kaldi's steps/train_deltas.sh on
# the alignments $mono_ali, in $tri: tree statistics of --tree-feats + deltas with per-speaker
# CMN (MFCC as train_deltas.sh, or the networks' fbank; acc-tree-stats, context
# width 3, the context-independent phones of the lang), questions from clustering the phones
# (cluster-phones on phones/sets.int, plus extra_questions.int; compile-questions), the tree
# (build-tree --max-leaves N, roots.int), its transition model (gmm-init-model), the alignments
# converted to it in $ali (convert-ali), and the triphone HCLG in $tri/graph.
build_tree() {
  local d j a=$mono_ali
  if unit_done $ali; then echo "   $ali: done before ($ali/.done)"; return 0; fi
  d=$(fbank_of $train); j=$(jobs_of $d)
  if [ "$tree_feats" = fbank ]; then
    feats="ark,s,cs:$strode apply-cmvn --utt2spk=ark:$d/split$j/JOB/utt2spk scp:$d/cmvn.scp scp:$d/split$j/JOB/feats.scp ark:- | $strode add-deltas ark:- ark:- |"
  else
    make_mfcc $train; feats=$mfcc_feats
  fi
  rm -rf $tri; mkdir -p $tri/log
  $cmd JOB=1:$j $tri/log/acc_tree.JOB.log \
    $strode acc-tree-stats --ci-phones=$(cat $lang/phones/context_indep.csl) $a/final.mdl "$feats" \
      "ark:gunzip -c $a/ali.JOB.gz |" $tri/JOB.treeacc
  quietly $tri/log/sum_tree_acc.log $strode sum-tree-stats $tri/treeacc $tri/*.treeacc
  rm -f $tri/*.treeacc
  quietly $tri/log/questions.log $strode cluster-phones $tri/treeacc $lang/phones/sets.int $tri/questions.int
  cat $lang/phones/extra_questions.int >> $tri/questions.int
  quietly $tri/log/compile_questions.log $strode compile-questions $lang/topo $tri/questions.int $tri/questions.qst
  # --num-leaves auto: one leaf per 1,000 training frames (10 s of speech), within Kaldi's
  # practice (TIMIT's tri1: 2,500 leaves for 1.1 M frames; mini_librispeech 2,000 for 1.8 M;
  # WSJ si84 2,000 for 5.4 M) and what won on speechocean762 at 40 speakers (RESULTS.md: 256
  # leaves, 257 k frames), at least 2 per root so that some phone is split.
  local leaves=$num_leaves frames roots
  if [ "$leaves" = auto ]; then
    frames=$($strode feat-to-len scp:$d/feats.scp ark,t:- 2>/dev/null | awk '{n += $2} END {print n + 0}')
    roots=$(wc -l < $lang/phones/roots.int)
    leaves=$(( frames / 1000 > 2 * roots ? frames / 1000 : 2 * roots ))
  fi
  quietly $tri/log/build_tree.log $strode build-tree --verbose=1 --max-leaves=$leaves --cluster-thresh=-1 \
    $tri/treeacc $lang/phones/roots.int $tri/questions.qst $lang/topo $tri/tree
  # --num-leaves below the roots' leaves: build-tree's warning (the tree keeps them, as Kaldi's).
  grep -h '^WARNING' $tri/log/build_tree.log | sed 's/^WARNING ([^)]*) /   WARNING: --num-leaves '"$num_leaves"': /' || true
  quietly $tri/log/init_model.log $strode gmm-init-model --write-occs=$tri/1.occs $tri/tree $tri/treeacc $lang/topo $tri/1.mdl
  quietly $tri/log/copy_transition_model.log $strode copy-transition-model $tri/1.mdl $tri/final.mdl
  rm -rf $ali; mkdir -p $ali/log; echo $j > $ali/num_jobs
  cp $tri/final.mdl $tri/tree $ali/
  $cmd JOB=1:$j $ali/log/convert.JOB.log \
    $strode convert-ali $a/final.mdl $tri/final.mdl $tri/tree "ark:gunzip -c $a/ali.JOB.gz |" "ark:| gzip -c > $ali/ali.JOB.gz"
  if [ "$graph" = $tri/graph ]; then
    quietly $tri/log/mkgraph.log $strode mkgraph ${lang}_test $tri $graph
    echo "   $graph/HCLG.fst: $(grep -h -o 'HCLG[^;]*' $tri/log/mkgraph.log | tail -n 1)"
  fi
  echo "   $tri/tree: $($strode hmm-info $tri/final.mdl 2>/dev/null | awk '/number of pdfs/ {print $4}') leaves (--num-leaves $num_leaves: at most $leaves) from $(basename $a), $tree_feats statistics"
  mark_done $ali
}

# align_round R (stage 3, --dict): a unidirectional SRU trained --align-epochs on round R-1's
# alignments, held out the set the models of stage 4 are (split_tr_cv), then the training data
# realigned with it into ${mono}_aliR. One direction is enough to place boundaries and costs half.
align_round() {
  local r=$1 prev am out
  prev=${mono}_ali$(($1-1)); am=${mono}_nnet$r; out=${mono}_ali$r
  if unit_done $out; then echo "   $out: done before ($out/.done)"; return 0; fi
  split_tr_cv
  echo "   round $r: a unidirectional sru on $(basename $prev) ($align_epochs epochs; log: $am/log/train.log), then realignment"
  mkdir -p $am/log
  $cmd $am/log/train.log $strode train $(model_flags sru) --bidirectional=false --max-iters=$align_epochs --seed=$seed \
    --learning-rate=$learning_rate $(schedule_flags) $train_opts $(pipeline_flags) $causal_flag --transition-model=$prev/final.mdl \
    "--feature-description=compute-fbank-feats $fbank_all" --checkpoint=$am/checkpoint.am --resume=true \
    "--cv-feats=$(feats_of $cv)" "$(feats_of $tr)" "ark:gunzip -c $prev/ali.*.gz |" $am/final.am
  grep -E "epoch [0-9]+:" $am/log/train.log | tail -n 1 | sed 's/^LOG (strode train) /   /' | cut -c1-150 || true
  align_with $am/final.am $(counts_of $prev) $prev $out
  mark_done $out
}

# decode_set RUN SRC (stage 6): forward | latgen-faster-mapped of data dir SRC with the final
# model of RUN (MODEL:SEED) in jobs through --cmd, lattices in MODELDIR/decode_SET/lat.JOB.gz as
# steps/decode.sh writes them, and decode_time (wall seconds, audio seconds, jobs).
decode_set() {
  local r=$1 src=$2 m mdir name d dir j t0 t1 frames
  m=$(run_name $r); mdir=$(final_dir $m)
  name=$(basename $src); d=$(nnet_dir $src); dir=$mdir/decode_$name
  if unit_done $dir; then echo "   $m $name: done before ($dir/.done)"; return 0; fi
  j=$(jobs_of $d); rm -rf $dir; mkdir -p $dir/log; echo $j > $dir/num_jobs
  # Kaldi's scoring scripts and lattice tools look for the transition model in DIR/../final.mdl
  # (nnet1 keeps a copy beside final.nnet the same way).
  cp $decode_mdl $mdir/final.mdl
  t0=$(date +%s.%N)
  $cmd JOB=1:$j $dir/log/decode.JOB.log \
    $strode forward --no-softmax=true --class-frame-counts=$mdir/pdf.counts $(cmvn_of $d) $(lookahead_stats_opt $dir) \
      $mdir/final.am "$(feats_of $d/split$j/JOB)" ark:- \| \
    $strode latgen-faster-mapped --acoustic-scale=$acwt --beam=$beam --lattice-beam=$lattice_beam --max-active=$max_active \
      --allow-partial=true --word-symbol-table=$graph/words.txt $decode_mdl $graph/HCLG.fst ark:- "ark:| gzip -c > $dir/lat.JOB.gz"
  t1=$(date +%s.%N)
  frames=$($strode feat-to-len scp:$d/feats.scp ark,t:- 2>/dev/null | awk '{n+=$2} END{print n+0}')
  # decode_time: wall seconds of the decoding, audio seconds (10 ms frames), jobs.
  echo "$t0 $t1 $frames $j" | awk '{printf "%.3f %.2f %d\n", $2-$1, $3/100, $4}' > $dir/decode_time
  echo "   $m $name: $(awk '{printf "%.1f s for %.1f s of audio in %d jobs", $1, $2, $3}' $dir/decode_time)"
  mark_done $dir
}

# make_rescore_lang (stage 6, --rescore-lm): LANG_rescore, a copy of the first pass's lang dir with
# the ConstArpa of --rescore-lm (recipes/local/build_const_arpa_lm.sh: Kaldi's
# utils/build_const_arpa_lm.sh), an ARPA file or an N-gram estimated as the first pass's LM
# (exp/strode_lm/lm_rescore.arpa.gz).
make_rescore_lang() {
  local new=${lang}_rescore arpa=$rescore_lm
  if unit_done $new; then echo "   $new: done before ($new/.done)"; return 0; fi
  case "$rescore_lm" in
    *[!0-9]*) ;;
    *) arpa=$exp/strode_lm/lm_rescore.arpa.gz; estimate_lm $rescore_lm $arpa ngram_count_rescore ;;
  esac
  rm -rf $new
  quietly $exp/strode_lm/log/build_const_arpa_lm.log \
    $root/recipes/local/build_const_arpa_lm.sh --strode $strode $arpa $rescore_old_lang $new
  mark_done $new
  echo "   $new/G.carpa: $(grep -h -o 'ConstArpaLm of order.*' $exp/strode_lm/log/build_const_arpa_lm.log)"
}

# rescore_set RUN SRC (stage 6, --rescore-lm): MODELDIR/decode_SET's lattices with the first pass's
# LM taken off and LANG_rescore's G.carpa put on (recipes/local/lmrescore_const_arpa.sh, as Kaldi's
# steps/lmrescore_const_arpa.sh) in MODELDIR/decode_SET_rescore; its decode_time is the first
# pass's plus the rescoring's.
rescore_set() {
  local r=$1 src=$2 m mdir name in dir t0 t1
  m=$(run_name $r); mdir=$(final_dir $m); name=$(basename $src)
  in=$mdir/decode_$name; dir=${in}_rescore
  if unit_done $dir; then echo "   $m $name rescored: done before ($dir/.done)"; return 0; fi
  rm -rf $dir
  t0=$(date +%s.%N)
  quietly $dir/log/lmrescore_const_arpa.log $root/recipes/local/lmrescore_const_arpa.sh --cmd "$cmd" --skip-scoring true \
    --strode $strode $rescore_old_lang ${lang}_rescore $src $in $dir
  t1=$(date +%s.%N)
  awk -v t0=$t0 -v t1=$t1 '{ printf "%.3f %s %s\n", $1 + t1 - t0, $2, $3 }' $in/decode_time > $dir/decode_time
  echo "   $m $name rescored with $rescore_lm: $(awk '{printf "%.1f s in all", $1}' $dir/decode_time)"
  mark_done $dir
}

# lookahead_stats_opt DIR: with --causal, forward's --lookahead-stats for decode dir DIR (the frames'
# look-ahead per job, DIR/lookahead_stats.JOB, which strode latency-curve adds up); a bidirectional
# model's look-ahead is the whole utterance, so nothing then.
lookahead_stats_opt() { ! $causal || echo "--lookahead-stats=$1/lookahead_stats.JOB"; }

# streams RUN (stage 6, --causal): whether RUN's model decodes online: not --head-variant=lookahead,
# whose frames wait for a learned number of frames that the online decoder does not buffer yet
# (strode forward decodes it offline as any model, and reports its look-ahead).
streams() {
  local info  # read whole, not piped into grep -q: its early exit fails the pipe under pipefail
  info=$($strode model-info --print-args=false $(final_dir $(run_name $1))/final.am 2>/dev/null) || true
  if [[ "$info" == *"head variant lookahead"* ]]; then
    [ -z "${2-}" ] || echo "   $(run_name $1) $(basename $2) online: skipped (--head-variant=lookahead decodes offline only)"
    return 1
  fi
}

# decode_online RUN SRC (stage 6, --causal): SRC decoded by online2-wav-latgen-faster from its
# audio, --chunk-length seconds at a time (features, online CMVN, the model's recurrent state and
# the search carried from chunk to chunk), lattices in MODELDIR/decode_SET_online; then its 1-best
# against the offline decode's (forward | latgen-faster-mapped on the same online-CMVN features):
# the same on every utterance is what online decoding promises.
decode_online() {
  local r=$1 src=$2 m mdir name d dir off j wavs t0 t1
  m=$(run_name $r); mdir=$(final_dir $m)
  name=$(basename $src); d=$(fbank_of $src); dir=$mdir/decode_${name}_online; off=$mdir/decode_$name
  if unit_done $dir; then echo "   $m $name online: done before ($dir/.done)"; return 0; fi
  j=$(jobs_of $d); rm -rf $dir; mkdir -p $dir/log; echo $j > $dir/num_jobs
  wavs="scp:$d/split$j/JOB/wav.scp"
  [ ! -f $d/segments ] || wavs="ark:$strode extract-segments scp,p:$d/wav.scp $d/split$j/JOB/segments ark:- |"
  t0=$(date +%s.%N)
  $cmd JOB=1:$j $dir/log/decode.JOB.log \
    $strode online2-wav-latgen-faster --transition-model=$decode_mdl --class-frame-counts=$mdir/pdf.counts \
      --feature-type=fbank --fbank-config=$exp/strode_online/fbank.conf --global-cmvn-stats=$global_cmvn \
      --chunk-length=$chunk_length --acoustic-scale=$acwt --beam=$beam --lattice-beam=$lattice_beam --max-active=$max_active \
      --word-symbol-table=$graph/words.txt $mdir/final.am $graph/HCLG.fst ark:$d/split$j/JOB/spk2utt "$wavs" \
      "ark:| gzip -c > $dir/lat.JOB.gz"
  t1=$(date +%s.%N)
  awk -v t0=$t0 -v t1=$t1 '{ printf "%.3f %s %s\n", t1 - t0, $2, $3 }' $off/decode_time > $dir/decode_time
  for x in $off $dir; do
    $strode lattice-best-path --acoustic-scale=$acwt "ark:gunzip -c $x/lat.*.gz |" ark,t:- 2> $dir/log/best_path_$(basename $x).log |
      LC_ALL=C sort > $dir/1best_$(basename $x).txt
  done
  awk 'NR == FNR { off[$1] = $0; next } { n++; if (off[$1] == $0) same++ }
    END { printf "%d of %d utterances: online 1-best = offline 1-best (%.2f%%)\n", same, n, n ? 100 * same / n : 0 }' \
    $dir/1best_decode_$name.txt $dir/1best_$(basename $dir).txt > $dir/online_vs_offline
  # Per job: the compute real-time factor and the per-chunk latency (median, p95).
  grep -h -o 'Compute: real-time factor.*' $dir/log/decode.*.log > $dir/compute_timing || true
  echo "   $m $name online (chunks of $chunk_length s): $(cat $dir/online_vs_offline); job 1: $(head -n 1 $dir/compute_timing | sed 's/^Compute: //')"
  mark_done $dir
}

# score_set RUN SRC [SUFFIX] (stage 7): recipes/local/score.sh (the LM-weight x penalty sweep,
# best_wer) of MODELDIR/decode_SET$SUFFIX through --cmd; without SUFFIX (the offline decode) also
# the run's line in exp/strode_compare.runs (strode compare over seeds).
score_set() {
  local r=$1 src=$2 suffix=${3-} dir
  dir=$(final_dir $(run_name $r))/decode_$(basename $src)$suffix
  [ -n "$suffix" ] || echo "${r%%:*} $(basename $src) ${r#*:} $dir/best_wer" >> $exp/strode_compare.runs
  $cmd $dir/scoring/log/score.log $root/recipes/local/score.sh --strode $strode --min-lmwt $min_lmwt \
    --max-lmwt $max_lmwt --word-ins-penalty "$word_ins_penalty" $src $graph $dir
  echo "   $(cat $dir/best_wer)"
}

# The GMM ladder (--dict, --gmm-ladder): mono (train_mono above), then tri1 (Kaldi's
# steps/train_deltas.sh), tri2 (train_lda_mllt.sh, LDA+MLLT) and tri3 (train_sat.sh, SAT), each
# from the alignments of the one below (align_si.sh; align_fmllr.sh above tri3), run as
# recipes/steps/*.sh on the Kaldi-layout MFCC data dirs of mfcc_data_dir. A rung's model is in
# rung_dir RUNG (exp/strode_mono_gmm, exp/strode_tri1, ...), its alignments of the training data
# in rung_ali RUNG, its graph (lang_test with its tree) in rung_dir RUNG/graph.
rung_dir() { if [ $1 = mono ]; then echo ${mono}_gmm; else echo $exp/strode_$1; fi; }
rung_ali() { if [ $1 = mono ]; then echo $mono_ali; else echo $exp/strode_$1_ali; fi; }
# ladder_rungs: the rungs above mono up to --gmm-ladder, in order.
ladder_rungs() { local r; for r in tri1 tri2 tri3; do [[ " $(ladder_upto $gmm_ladder) " == *" $r "* ]] && echo $r; done; return 0; }
ladder_upto() { case $1 in mono) echo mono ;; tri1) echo mono tri1 ;; tri2) echo mono tri1 tri2 ;; tri3) echo mono tri1 tri2 tri3 ;; esac; }

# mfcc_data_dir SRC (stages 3 and 6, --dict): a Kaldi data dir of SRC's MFCC in --mfcc-dir/NAME
# (sets $mfcc_data to it), as Kaldi's steps/*.sh read one: the MFCC of make_mfcc
# (exp/strode_mfcc/NAME) as feats.scp, their per-speaker CMVN stats as cmvn.scp, and SRC's
# text, utt2spk, spk2utt, wav.scp (segments) as our fbank copy has them (utterances without
# features dropped). The scripts split it themselves (DIR/splitN).
mfcc_data_dir() {
  local src=$1 name d m f
  name=$(basename $src); d=$mfcc_dir/$name; m=$exp/strode_mfcc/$name
  mfcc_data=$d
  if unit_done $d; then return 0; fi
  make_mfcc $src
  rm -rf $d; mkdir -p $d
  for f in wav.scp segments text utt2spk spk2utt utt2dur; do
    if [ -f $(fbank_of $src)/$f ]; then cp $(fbank_of $src)/$f $d/; fi
  done
  cat $m/mfcc.*.scp | LC_ALL=C sort > $d/feats.scp
  quietly $m/log/cmvn_data_dir.log $strode compute-cmvn-stats --spk2utt=ark:$d/spk2utt scp:$d/feats.scp \
    ark,scp:$(cd $m && pwd)/cmvn.ark,$d/cmvn.scp
  quietly $m/log/fix_data_dir.log $strode fix-data-dir $d
  mark_done $d
}

# train_frames: the frames of the training set (its fbank), once.
train_frames() {
  [ -n "${_train_frames-}" ] ||
    _train_frames=$($strode feat-to-len scp:$(fbank_of $train)/feats.scp ark,t:- 2>/dev/null | awk '{n += $2} END {print n + 0}')
  echo $_train_frames
}

# rung_size RUNG: "LEAVES GAUSSIANS" of a rung, --RUNG-leaves and --RUNG-gauss, where auto is
# build_tree's rule for tri1 (one leaf per 1,000 training frames, at least 2 per tree root) and
# a quarter more for tri2 and tri3, with 5 (tri1) or 6 Gaussians per leaf: the proportions of
# Kaldi's mini_librispeech (tri1 2000/10000, tri2b and tri3b 2500/15000). On a small set tri1
# gets at least half as many leaves again as the monophone system has pdfs (a triphone tree
# refines the monophone's states; build-tree may end with fewer leaves than it was allowed) and
# at least 80, twice LDA's 40 dimensions: tri2's LDA estimates 40 directions between the classes
# of tri1's alignments, so it needs more than 40 of them (est-lda stops otherwise).
rung_size() {
  local r=$1 lv g base mono_pdfs
  lv=${r}_leaves; lv=${!lv}; g=${r}_gauss; g=${!g}
  mono_pdfs=$($strode hmm-info $mono_ali/final.mdl 2>/dev/null | awk '/number of pdfs/ {print $4}')
  base=$(( $(train_frames) / 1000 ))
  [ $base -ge $((mono_pdfs * 3 / 2)) ] || base=$((mono_pdfs * 3 / 2))
  [ $base -ge 80 ] || base=80
  if [ "$lv" = auto ]; then if [ $r = tri1 ]; then lv=$base; else lv=$((base * 5 / 4)); fi; fi
  if [ "$g" = auto ]; then if [ $r = tri1 ]; then g=$((lv * 5)); else g=$((lv * 6)); fi; fi
  echo $lv $g
}

# rung_iter_opts RUNG: Kaldi's schedule (35 iterations, mixing up until 25, realigning on
# 10 20 30, MLLT on 2 4 6 12) scaled to --gmm-iters (none at 35: the scripts' defaults).
rung_iter_opts() {
  local n=$gmm_iters
  [ "$n" != 35 ] || return 0
  awk -v n=$n -v rung=$1 'function at(list,   k, a, x, s, seen) {
      k = split(list, a, " "); s = ""
      for (i = 1; i <= k; i++) { x = int(a[i] * n / 35 + 0.5); if (x < 1) x = 1; if (x < n && !(x in seen)) { seen[x]; s = s (s == "" ? "" : " ") x } }
      return s }
    BEGIN {
      inc = int(25 * n / 35 + 0.5); if (inc < 1) inc = 1
      printf "--num-iters %d --max-iter-inc %d --realign-iters \"%s\"", n, inc, at("10 20 30")
      if (rung == "tri2") printf " --mllt-iters \"%s\"", at("2 4 6 12")
      if (rung == "tri3") printf " --fmllr-iters \"%s\"", at("2 4 6 12")
    }'
}

# train_rung RUNG (stage 3, --dict): the rung's system from the alignments of the one below, its
# alignments of the training data, and its graph; the scripts' output in RUNGDIR/../log.
train_rung() {
  local r=$1 below dir ali size log opts
  below=$(rung_ali $(ladder_below $r)); dir=$(rung_dir $r); ali=$(rung_ali $r)
  if unit_done $ali && unit_done $dir/graph; then echo "   $dir, $ali: done before ($ali/.done)"; return 0; fi
  mfcc_data_dir $train
  size=$(rung_size $r); log=$exp/strode_ladder/log
  eval "opts=($(rung_iter_opts $r))"
  local common=(--cmd "$cmd" --strode "$strode" --boost-silence $boost_silence)
  rm -rf $dir $ali
  case $r in
    tri1) quietly $log/train_$r.log $root/recipes/steps/train_deltas.sh "${common[@]}" ${opts[@]+"${opts[@]}"} $size $mfcc_data $lang $below $dir ;;
    tri2) quietly $log/train_$r.log $root/recipes/steps/train_lda_mllt.sh "${common[@]}" ${opts[@]+"${opts[@]}"} \
            --splice-opts "--left-context=3 --right-context=3" $size $mfcc_data $lang $below $dir ;;
    tri3) quietly $log/train_$r.log $root/recipes/steps/train_sat.sh "${common[@]}" ${opts[@]+"${opts[@]}"} $size $mfcc_data $lang $below $dir ;;
  esac
  echo "   $(grep -h "^.*: $dir: " $log/train_$r.log | sed 's|^[^ ]*: ||' | tail -n 1) (--$r-leaves/--$r-gauss: $size${opts[*]+; ${opts[*]}})"
  if [ $r = tri3 ]; then
    quietly $log/align_$r.log $root/recipes/steps/align_fmllr.sh --nj $(jobs_of $mfcc_data) "${common[@]}" $mfcc_data $lang $dir $ali
  else
    quietly $log/align_$r.log $root/recipes/steps/align_si.sh --nj $(jobs_of $mfcc_data) "${common[@]}" $mfcc_data $lang $dir $ali
  fi
  # align_fmllr.sh's last pass is align_pass2 (the adapted features), align_si.sh's align.
  echo "   $ali: $(grep -h -o 'Overall log-likelihood per frame is [^ ]*' $ali/log/align.1.log $ali/log/align_pass2.1.log 2>/dev/null | sed 's/Overall //' | head -n 1) (job 1)"
  mark_done $ali
  quietly $dir/log/mkgraph.log $strode mkgraph ${lang}_test $dir $dir/graph
  echo "   $dir/graph/HCLG.fst: $(grep -h -o 'HCLG[^;]*' $dir/log/mkgraph.log | tail -n 1)"
  mark_done $dir/graph
}
ladder_below() { case $1 in tri1) echo mono ;; tri2) echo tri1 ;; tri3) echo tri2 ;; esac; }

# decode_rung RUNG SRC (stage 6, --dict): SRC decoded by the rung's system with its graph, as
# Kaldi's steps/decode.sh (decode_fmllr.sh for tri3) with its acoustic scale (0.083333) and the
# search of the networks' decodes (--beam, --lattice-beam, --max-active, as decode_gmm's), in
# RUNGDIR/decode_SET; scored in stage 7 (score_rung); decode_time as decode_set writes it.
decode_rung() {
  local r=$1 src=$2 dir name t0 t1 script=decode.sh
  name=$(basename $src); dir=$(rung_dir $r)/decode_$name
  if unit_done $dir; then echo "   $r $name: done before ($dir/.done)"; return 0; fi
  mfcc_data_dir $src
  [ $r != tri3 ] || script=decode_fmllr.sh
  rm -rf $dir
  t0=$(date +%s.%N)
  quietly $exp/strode_ladder/log/decode_${r}_$name.log $root/recipes/steps/$script --nj $(jobs_of $mfcc_data) --cmd "$cmd" \
    --strode "$strode" --skip-scoring true --beam $beam --lattice-beam $lattice_beam --max-active $max_active \
    $(rung_dir $r)/graph $mfcc_data $dir
  t1=$(date +%s.%N)
  $strode feat-to-len scp:$mfcc_data/feats.scp ark,t:- 2>/dev/null |
    awk -v t0=$t0 -v t1=$t1 -v j=$(cat $dir/num_jobs) '{n += $2} END {printf "%.3f %.2f %d\n", t1 - t0, n / 100, j}' > $dir/decode_time
  echo "   $r $name: $(awk '{printf "%.1f s for %.1f s of audio in %d jobs", $1, $2, $3}' $dir/decode_time) ($script)"
  mark_done $dir
}

# score_rung RUNG SRC (stage 7, --dict): recipes/local/score.sh of RUNGDIR/decode_SET over the
# GMMs' LM weights (--gmm-min-lmwt..--gmm-max-lmwt: Kaldi scores GMM decodes over local/score.sh's
# 7-17, nnet1's over 4-15; the GMMs' best weight is usually above 15) and the networks' penalties.
# tri3's speaker-independent first pass (decode_SET.si) is scored too, as Kaldi's RESULTS list
# decode_SET.si beside decode_SET.
score_rung() {
  local r=$1 src=$2 dir d
  dir=$(rung_dir $r)/decode_$(basename $src)
  for d in $dir $([ $r != tri3 ] || echo $dir.si); do
    $cmd $d/scoring/log/score.log $root/recipes/local/score.sh --strode $strode --min-lmwt $gmm_min_lmwt \
      --max-lmwt $gmm_max_lmwt --word-ins-penalty "$word_ins_penalty" $src $(rung_dir $r)/graph $d
    echo "   $r$([ $d = $dir ] || echo .si): $(cat $d/best_wer)"
  done
}
