#!/usr/bin/env bash
# strode in your Kaldi experiment: train SRU / SRU+STRODE acoustic models on the alignments of
# an existing s5 system, decode with its graph, and score as Kaldi does. Run it from the s5
# directory (every path is relative to it), as Kaldi's own recipes:
#
#   cd egs/chime5/s5
#   /path/to/strode/recipes/kaldi/run.sh --nj 8 --cmd "queue.pl --mem 4G" \
#     --train data/train_worn --dev data/dev_worn --test "" --ali exp/tri3_ali --graph exp/tri3/graph
#
# Stages (--stage N / --stop-stage N; a finished unit of work has a .done file and is
# skipped when re-run, an unfinished one is redone, so a killed run is re-run as it was):
#   0 with --corpus chime5 --chime5-dir DIR: data/train_worn and data/dev_worn from the corpus
#     (binaural worn microphones, as egs/chime5/s5's prepare_data.sh; strode chime5-data-prep),
#     which then are the --train and --dev defaults (CHiME-5 has no worn-mic eval audio)
#   0 with --dict DIR (from scratch: no Kaldi GMM system, no --ali/--graph): the lang dir --lang
#     from Kaldi's data/local/dict (validate-dict-dir; prepare-lang with position-dependent
#     phones, --oov [<UNK>]) and its monophone tree and model (exp/strode_mono); the --lm-order
#     [3] interpolated modified Kneser-Ney LM of --lm-text [the training set's text], closed on
#     the lexicon's words (ngram-count; or --lm FILE.arpa[.gz]), its perplexity and OOV rate on
#     every scored set (ngram -ppl: exp/strode_lm/ppl_SET.txt); G.fst in LANG_test and HCLG in
#     exp/strode_mono/graph (or --graph when given)
#   1 check the layout: every file the chosen stages need, the data dirs (validate-data-dir),
#     and that the alignments' model is the graph's (same transition model, same pdfs)
#   2 fbank features + CMVN stats per speaker for every data dir, in --nj jobs through --cmd
#     (copies of the data dirs in --fbank-dir; archives in --feat-store; your feats stay)
#   3 targets: the pdf counts (priors) of ali.*.gz, and how many training utterances lack one.
#     With --dict the alignments are made first: a flat start (equal alignment of the training
#     graphs, exp/strode_mono_ali0), then --flat-start-rounds [2] rounds of the paper's iterative
#     procedure: a unidirectional SRU trained --align-epochs on the current alignments, then
#     align-compiled-mapped with it (exp/strode_mono_aliR); the last round's are the targets
#   4 train --models (sru strode), held-out set: --cv-spk-percent of the training speakers
#   5 --realign-iters rounds: align the training data with the --realign-model network, then
#     retrain every model on the new alignments (exp/MODEL_realignN)
#   6 decode every --dev/--test set: forward | latgen-faster-mapped in --nj jobs through
#     --cmd, lattices in exp/MODEL/decode_SET/lat.JOB.gz as steps/decode.sh writes them
#   7 score (local/score.sh's LM-weight x penalty sweep, best_wer) and the results table:
#     exp/strode_results.md and exp/strode_results.json
# Options (defaults in brackets):
#   --corpus NAME [none] --chime5-dir DIR: a corpus front end for stage 0 (chime5)
#   --train DIR [data/train] --dev DIR [data/dev] --test "DIR ..." [data/eval] (empty: none)
#   --lang DIR [data/lang] --ali DIR [exp/tri3_ali] --graph DIR [exp/tri3/graph]
#   --dict DIR [none]: from scratch (stages 0 and 3 make lang, LM, graph and alignments; --ali is
#     not read) --oov WORD [<UNK>] --lm FILE [estimated] --lm-text FILE [TRAIN/text] --lm-order N [3]
#     --flat-start-rounds N [2] --align-epochs N [6; --quick 3]
#   --decode-mdl FILE  transition model of the graph [GRAPH/../final.mdl]
#   --nj N [4] --cmd CMD [run.pl]: run.pl, queue.pl or slurm.pl (yours in utils/ if present,
#     else strode's), or a path to any runner with the JOB=1:N LOG COMMAND interface
#   --models "..." [sru strode] --exp DIR [exp] --seed N [777] --quick (small models, minutes)
#   --seeds "N ..." [none]: train and decode every model once per seed (exp/MODEL_seedN), then
#     strode compare: mean WER ± s.e. per model and paired differences with 95% intervals against
#     the first model (exp/strode_compare.md, .json, .png); the data split stays --seed's
#   --fbank-config FILE [conf/fbank.conf if present] --fbank-opts "..." [--num-mel-bins=40 --dither=0,
#     and conf/mfcc.conf's --sample-frequency when there is no fbank config]
#   --fbank-dir DIR [data-fbank] --feat-store DIR [fbank]
#   --cv-spk-percent N [10] --cv-utts FILE (held-out utterance list instead of speakers)
#   --exclude-utts FILE (utterances kept out of training; default: the held-out ones)
#   --preset P [small] --hidden N --layers N --context N [4] --bidirectional B [true]
#   --epochs N [20, early stopping] --minibatch-utts N [8] --learn-rate F [0.002]
#   --train-opts "..." (more strode train options) --parallel-models B [true]
#   --sru-opts, --strode-opts, --odernn-opts, --dnn-opts "...": strode train options for that
#     model only, after all others [dnn: nnet1's +-5 splicing and 2-utterance minibatches]
#   --realign-iters N [0] --realign-model M [first of --models]
#   --num-jobs-final N [1]: N > 1 trains data-parallel as nnet3 does (strode get-egs into
#     --num-archives [N] archives, then strode train-parallel: each iteration's jobs through
#     --cmd, their models averaged), with --num-jobs-initial [1], --epochs as passes over the
#     archives, --initial-effective-lrate [0.001] --final-effective-lrate [0.0001]
#   --beam F [13] --lattice-beam F [8] --acwt F [0.1] --max-active N [7000]
#   --min-lmwt N [4] --max-lmwt N [15] --word-ins-penalty "..." [0.0 0.5 1.0]
#   --strode PATH (default: $STRODE, else the repository's bin/strode, built when stale:
#     recipes/local/strode_bin.sh)   --config FILE: options as shell assignments (nj=8)
set -euo pipefail

stage=0
dict=
oov="<UNK>"
lm=
lm_text=
lm_order=3
flat_start_rounds=2
align_epochs=
stop_stage=100
corpus=
chime5_dir=
nj=4
cmd=run.pl
train=data/train
dev=data/dev
test=data/eval
lang=data/lang
ali=exp/tri3_ali
graph=exp/tri3/graph
decode_mdl=
models="sru strode"
exp=exp
seed=777
seeds=
quick=false
fbank_config=
fbank_opts="--num-mel-bins=40 --dither=0"
fbank_dir=data-fbank
feat_store=fbank
cv_spk_percent=10
cv_utts=
exclude_utts=
preset=small
hidden=
layers=
context=4
bidirectional=true
epochs=
minibatch_utts=
learn_rate=
train_opts=
sru_opts=
strode_opts=
odernn_opts=
# nnet1's DNN splices +-5 frames; utterance minibatches of 2 give it about the updates per epoch
# of nnet1's 256-frame minibatches (acoustic/am/BASELINES.md: held-out accuracy 26 % vs 6.5 % at 16)
dnn_opts="--left-context=5 --right-context=5 --minibatch-utts=2"
parallel_models=true
realign_iters=0
realign_model=
num_jobs_initial=1
num_jobs_final=1
num_archives=
initial_effective_lrate=0.001
final_effective_lrate=0.0001
beam=13
lattice_beam=8
acwt=0.1
max_active=7000
min_lmwt=4
max_lmwt=15
word_ins_penalty="0.0 0.5 1.0"
strode=

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
. "$root/recipes/local/parse_options.sh"
[ $# = 0 ] || { echo "$0: unexpected argument $1 (see --help)" >&2; exit 1; }
. "$root/recipes/local/jobs.sh"
case "$corpus" in
  "") ;;
  chime5)
    [ -n "$chime5_dir" ] || { echo "$0: --corpus chime5 needs --chime5-dir (the folder with audio/ and transcriptions/)" >&2; exit 1; }
    # The worn-microphone sets are the defaults the user did not override.
    [ "$train" != data/train ] || train=data/train_worn
    [ "$dev" != data/dev ] || dev=data/dev_worn
    [ "$test" != data/eval ] || test= ;;
  *) echo "$0: --corpus $corpus: the front ends are chime5 (or none: the data dirs are given)" >&2; exit 1 ;;
esac

. "$root/recipes/local/strode_bin.sh"
cmd=$(resolve_cmd "$cmd")
run_stage() { [ "$1" -ge "$stage" ] && [ "$1" -le "$stop_stage" ]; }
case "$nj" in ''|*[!0-9]*|0) echo "$0: --nj must be a positive whole number, not '$nj'" >&2; exit 1 ;; esac
# From scratch (--dict): the lang, graph and alignments are this recipe's own (stages 0 and 3),
# unless --graph names a graph you have.
from_scratch=false; mono=$exp/strode_mono
if [ -n "$dict" ]; then
  from_scratch=true
  [ "$graph" != exp/tri3/graph ] || graph=$mono/graph
  ali=${mono}_ali$flat_start_rounds
  case "$flat_start_rounds" in ''|*[!0-9]*) echo "$0: --flat-start-rounds must be a whole number, not '$flat_start_rounds'" >&2; exit 1 ;; esac
fi
[ -n "$decode_mdl" ] || decode_mdl=$(dirname "$graph")/final.mdl
[ -n "$realign_model" ] || realign_model=${models%% *}
[ -z "$fbank_config" ] && [ -f conf/fbank.conf ] && fbank_config=conf/fbank.conf
# Without an fbank config, the sampling rate is the experiment's MFCC one (conf/mfcc.conf
# names it whenever the corpus is not 16 kHz): fbank of 8 kHz telephone speech must say so.
if [ -z "$fbank_config" ] && [ -f conf/mfcc.conf ] && [[ " $fbank_opts" != *--sample-frequency* ]]; then
  sf=$(sed -n 's/^ *--sample-frequency=\([0-9.]*\).*/\1/p' conf/mfcc.conf | tail -n 1)
  [ -z "$sf" ] || fbank_opts="$fbank_opts --sample-frequency=$sf"
fi
fbank_all="$fbank_opts${fbank_config:+ --config=$fbank_config}"

# Model sizes: --quick proves the pipeline in a couple of minutes; the default is the
# small CPU preset (DESIGN.md §3 gives the paper's 9 x 900).
if $quick; then
  : ${align_epochs:=3}
  : ${hidden:=128}; : ${layers:=2}; : ${epochs:=8}; : ${minibatch_utts:=4}; : ${learn_rate:=0.003}
  model_opts="--ode-state=16 --ode-hidden=16 --phi-hidden=16 --prior-hidden=16"
else
  : ${align_epochs:=6}
  : ${hidden:=256}; : ${layers:=3}; : ${epochs:=20}; : ${minibatch_utts:=8}; : ${learn_rate:=0.002}
  model_opts="--ode-state=32 --ode-hidden=32 --phi-hidden=32 --prior-hidden=32"
fi
sets=$(for s in $dev $test; do echo $s; done | awk '!seen[$0]++')
fbank_of() { echo "$fbank_dir/$(basename "$1")"; }  # our copy of a data dir
# jobs_of DIR: --nj, or fewer when DIR has fewer speakers (a speaker is never split, as Kaldi's
# split_data.sh; decoding a one-speaker test set runs as one job).
jobs_of() { local n; n=$(wc -l < "$1/spk2utt"); [ "$n" -lt "$nj" ] && echo "$n" || echo "$nj"; }
tr=$(fbank_of $train)_tr; cv=$(fbank_of $train)_cv
counts_of() { if [ "$1" = "$ali" ]; then echo "$exp/strode_targets/pdf.counts"; else echo "$1/pdf.counts"; fi; }
# The models that are decoded, and the alignments (and priors) they were trained on.
final_ali=$ali; [ "$realign_iters" = 0 ] || final_ali=$exp/${realign_model}_ali$realign_iters
final_dir() { if [ "$realign_iters" = 0 ]; then echo "$exp/$1"; else echo "$exp/${1}_realign$realign_iters"; fi; }
# The runs: every model once per seed of --seeds (MODEL:SEED), named MODEL_seedSEED, or once
# with --seed, named MODEL.
runs=()
for m in $models; do for sd in ${seeds:-$seed}; do runs+=("$m:$sd"); done; done
run_name() { if [ -n "$seeds" ]; then echo "${1%%:*}_seed${1#*:}"; else echo "${1%%:*}"; fi; }

# ---------------------------------------------------------------------------------------
# Stage 0: a corpus front end makes the data dirs.
if [ "$corpus" = chime5 ] && run_stage 0; then
  log_stage 0 "CHiME-5 worn-microphone data dirs from $chime5_dir"
  for pair in train:$train dev:$dev; do
    set_name=${pair%%:*}; d=${pair#*:}
    [ -n "$d" ] || continue
    if unit_done $d; then echo "   $d: done before ($d/.done)"; continue; fi
    quietly $exp/strode_check/log/chime5_data_prep_$set_name.log \
      $strode chime5-data-prep "$chime5_dir" $set_name $d
    echo "   $d: $(wc -l < $d/utt2spk) utterances, $(wc -l < $d/spk2utt) speakers"
    mark_done $d
  done
fi

# ---------------------------------------------------------------------------------------
# Stage 0, from scratch: lang dir, LM, decoding graph.
if $from_scratch && run_stage 0; then
  log_stage 0 "from scratch: lang dir $lang, a $lm_order-gram LM and HCLG from $dict"
  lmdir=$exp/strode_lm; mkdir -p $lmdir/log $mono/log
  quietly $mono/log/validate_dict_dir.log $strode validate-dict-dir $dict ||
    { echo "$0: stage 0: $dict is not a valid dict dir (see $mono/log/validate_dict_dir.log)" >&2; exit 1; }
  if unit_done $lang; then
    echo "   $lang: done before ($lang/.done)"
  elif [ -e $lang/L.fst ]; then
    echo "$0: stage 0: $lang exists and was not made by this recipe; pass --lang with a new directory for the lang that --dict makes" >&2; exit 1
  else
    quietly $mono/log/prepare_lang.log $strode prepare-lang --mono-dir=$mono $dict "$oov" $lmdir/lang_tmp $lang
    mark_done $lang
    echo "   $lang: $(grep -c -v -E '^(<eps>|#)' $lang/phones.txt) phones, $(grep -c -v -E '^(<eps>|#0|<s>|</s>) ' $lang/words.txt) words; $mono: $($strode hmm-info $mono/final.mdl 2>/dev/null | tr '\n' ',' | sed 's/,$//')"
  fi
  if [ -z "$lm" ]; then
    lm=$lmdir/lm.arpa.gz
    if ! [ -s $lm ]; then
      grep -v -E '^(<eps>|#0|<s>|</s>) ' $lang/words.txt | cut -d' ' -f1 > $lmdir/vocab
      cut -d' ' -f2- ${lm_text:-$train/text} > $lmdir/lm_text
      quietly $lmdir/log/ngram_count.log $strode ngram-count -order $lm_order -kndiscount -interpolate \
        -vocab $lmdir/vocab -unk -map-unk "$oov" -text $lmdir/lm_text -lm $lm
    fi
  fi
  for src in $sets; do
    cut -d' ' -f2- $src/text > $lmdir/text_$(basename $src)
    $strode ngram -lm $lm -order $lm_order -ppl $lmdir/text_$(basename $src) > $lmdir/ppl_$(basename $src).txt 2> $lmdir/log/ppl_$(basename $src).log
    echo "   LM $lm on $(basename $src): $(tr '\n' ' ' < $lmdir/ppl_$(basename $src).txt | sed 's/^file [^:]*: //')"
  done
  if [ "$graph" = $mono/graph ] && ! unit_done $graph; then
    rm -rf ${lang}_test; cp -r $lang ${lang}_test; rm -f ${lang}_test/.done
    quietly $lmdir/log/arpa2fst.log $strode arpa2fst --disambig-symbol=#0 --read-symbol-table=$lang/words.txt "gunzip -c $lm |" ${lang}_test/G.fst
    quietly $mono/log/mkgraph.log $strode mkgraph ${lang}_test $mono $graph
    mark_done $graph
    echo "   $graph/HCLG.fst: $(grep -h -o 'HCLG[^;]*' $mono/log/mkgraph.log | tail -n 1)"
  fi
fi

# ---------------------------------------------------------------------------------------
# Stage 1: check the layout (always, for the stages about to run: a missing file is found
# now, not an hour into training).
missing=()
need() {  # need FILE STAGE WHAT
  [ -e "$1" ] || missing+=("$1 (stage $2: $3)")
}
# needs A B: a stage in A..B is checked: those about to run, or all of them when stage 1 runs
# alone (--stop-stage 1 checks the layout for the whole recipe).
check_to=$stop_stage; [ "$stop_stage" -le 1 ] && check_to=7
needs() { [ "$1" -le "$check_to" ] && [ "$2" -ge "$stage" ]; }
if needs 2 7; then
  for d in $train $sets; do
    for f in wav.scp utt2spk spk2utt; do need $d/$f 2 "features of $d"; done
  done
fi
if needs 4 5; then need $train/text 5 "transcripts for realignment"; fi
if needs 7 7; then for d in $sets; do need $d/text 7 "reference transcripts for scoring"; done; fi
if needs 3 5 && ! $from_scratch; then
  need $ali/final.mdl 3 "the alignments' model (pdf-ids of the targets)"
  ls $ali/ali.*.gz >/dev/null 2>&1 || missing+=("$ali/ali.*.gz (stage 3: the training alignments, from steps/align_si.sh or a training dir)")
fi
if $from_scratch && needs 3 7; then
  for f in L.fst words.txt phones/disambig.int oov.txt; do need $lang/$f 3 "the lang dir of stage 0"; done
  need $mono/final.mdl 3 "the monophone model of stage 0"
fi
if [ "$realign_iters" != 0 ] && needs 5 5; then
  need $ali/tree 5 "training graphs for realignment"
  need $lang/L.fst 5 "training graphs for realignment"
  need $lang/words.txt 5 "training graphs for realignment"
  need $lang/phones/disambig.int 5 "training graphs for realignment"
  need $lang/oov.txt 5 "transcript words missing from the lexicon"
fi
if needs 6 7; then
  need $graph/HCLG.fst 6 "decoding graph"
  need $graph/words.txt 6 "word symbol table"
  need $decode_mdl 6 "the graph's transition model (--decode-mdl)"
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "$0: the experiment in $PWD lacks:" >&2
  printf '  %s\n' "${missing[@]}" >&2
  exit 1
fi
if run_stage 1; then
  log_stage 1 "check the layout in $PWD"
  echo "   strode: $strode; jobs: --nj $nj through '$cmd'"
  for d in $train $sets; do
    quietly $exp/strode_check/log/validate_$(basename $d).log $strode validate-data-dir --no-feats $d ||
      { echo "$0: stage 1: $d is not a valid data dir (fix it, e.g. utils/fix_data_dir.sh $d)" >&2; exit 1; }
  done
  if needs 3 6 && ! $from_scratch; then
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
  fi
fi

# ---------------------------------------------------------------------------------------
if run_stage 2; then
  log_stage 2 "fbank features and CMVN stats per speaker ($fbank_all)"
  mkdir -p $feat_store; store=$(cd $feat_store && pwd)
  for src in $train $sets; do
    name=$(basename $src); d=$(fbank_of $src); logdir=$exp/make_fbank/$name/log
    if unit_done $d; then echo "   $name: done before ($d/.done)"; continue; fi
    rm -rf $d $logdir; mkdir -p $d $logdir
    for f in wav.scp segments reco2file_and_channel text utt2spk spk2utt spk2gender utt2dur; do
      [ -f $src/$f ] && cp $src/$f $d/
    done
    j=$(jobs_of $d); quietly $logdir/split.log $strode split-data $d $j
    # VTLN warps per utterance (utt2warp), as steps/make_mfcc.sh takes them
    warp=; [ -f $src/utt2warp ] && cp $src/utt2warp $d/ && warp=--vtln-map=ark:$d/utt2warp
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
  done
fi

# ---------------------------------------------------------------------------------------
# Priors (pdf counts) of an alignment dir, into $(counts_of DIR).
make_counts() {
  local a=$1 out; out=$(counts_of $1); mkdir -p $(dirname $out)/log
  $strode analyze-counts --binary=false "ark:gunzip -c $a/ali.*.gz | $strode ali-to-pdf $a/final.mdl ark:- ark:- |" \
    $out.tmp 2> $(dirname $out)/log/analyze_counts.log && mv $out.tmp $out
}
model_flags() {  # the model options common to strode train and strode train-parallel
  echo --preset=$preset $model_opts --sru-hidden=$hidden --sru-layers=$layers --bidirectional=$bidirectional \
    --model=$1 --phi-z=free --minibatch-utts=$minibatch_utts --minibatch-frames=4000
}
own_opts() {  # --MODEL-opts: the options of one model, given last so that they win
  case "$1" in sru|strode|odernn|dnn) local v=${1}_opts; echo "${!v}" ;; esac
}
pipeline_flags() {  # the features as the models see them
  echo --cmvn=scp:$(fbank_of $train)/cmvn.scp --utt2spk=ark:$(fbank_of $train)/utt2spk --norm-vars=true \
    --left-context=$context --right-context=$context
}
# realign AM COUNTS FROM OUT: align the training data with the network AM (its priors COUNTS)
# through the training graphs of the model and tree in FROM, into OUT/ali.JOB.gz.
realign() {
  local am=$1 counts=$2 from=$3 out=$4 d j oov_int
  d=$(fbank_of $train); j=$(jobs_of $d); oov_int=$(cat $lang/oov.int)
  rm -rf $out; mkdir -p $out/log
  cp $from/final.mdl $from/tree $out/; echo $j > $out/num_jobs
  $cmd JOB=1:$j $out/log/align.JOB.log \
    $strode compile-train-graphs --read-disambig-syms=$lang/phones/disambig.int $out/tree $out/final.mdl $lang/L.fst \
      "ark:$strode sym2int --map-oov=$oov_int --field=2- $lang/words.txt $d/split$j/JOB/text |" ark:- \| \
    $strode align-compiled-mapped --beam=10 --retry-beam=40 --acoustic-scale=0.1 --self-loop-scale=0.1 $out/final.mdl ark:- \
      "ark:$strode forward --no-softmax=true --class-frame-counts=$counts --cmvn=scp:$d/cmvn.scp --utt2spk=ark:$d/utt2spk $am scp:$d/split$j/JOB/feats.scp ark:- |" \
      "ark:| gzip -c > $out/ali.JOB.gz"
  make_counts $out
  grep -h -E "^LOG .*Overall|^LOG .*Done" $out/log/align.*.log | sed 's/^LOG (strode align-compiled-mapped) /   /' || true
}
if $from_scratch && run_stage 3; then
  log_stage 3 "from scratch: flat start, then $flat_start_rounds rounds of train and realign"
  d=$(fbank_of $train); j=$(jobs_of $d); a=${mono}_ali0
  if ! unit_done $a; then
    rm -rf $a; mkdir -p $a/log; cp $mono/final.mdl $mono/tree $a/; echo $j > $a/num_jobs
    $cmd JOB=1:$j $a/log/align_equal.JOB.log \
      $strode compile-train-graphs --read-disambig-syms=$lang/phones/disambig.int $a/tree $a/final.mdl $lang/L.fst \
        "ark:$strode sym2int --map-oov=$(cat $lang/oov.int) --field=2- $lang/words.txt $d/split$j/JOB/text |" ark:- \| \
      $strode align-equal-compiled ark:- scp:$d/split$j/JOB/feats.scp "ark:| gzip -c > $a/ali.JOB.gz"
    make_counts $a; mark_done $a
    echo "   $a: equal alignments of $(gunzip -c $a/ali.*.gz | $strode copy-int-vector ark:- ark,t:- 2>/dev/null | wc -l) utterances"
  fi
  for r in $(seq 1 $flat_start_rounds); do
    prev=${mono}_ali$((r-1)); am=${mono}_nnet$r; out=${mono}_ali$r
    if unit_done $out; then echo "   $out: done before ($out/.done)"; continue; fi
    echo "   round $r: a unidirectional sru on $(basename $prev) ($align_epochs epochs; log: $am/log/train.log), then realignment"
    mkdir -p $am/log
    $cmd $am/log/train.log $strode train $(model_flags sru) --bidirectional=false --max-iters=$align_epochs --seed=$seed \
      --learn-rate=$learn_rate $train_opts $(pipeline_flags) --transition-model=$prev/final.mdl \
      "--feature-description=compute-fbank-feats $fbank_all" --checkpoint=$am/checkpoint.am --resume=true \
      scp:$d/feats.scp "ark:gunzip -c $prev/ali.*.gz |" $am/final.am
    realign $am/final.am $prev/pdf.counts $prev $out
    mark_done $out
  done
fi
if run_stage 3; then
  log_stage 3 "targets: $ali/ali.*.gz through $ali/final.mdl; priors"
  t=$exp/strode_targets; mkdir -p $t/log
  make_counts $ali
  gunzip -c $ali/ali.*.gz | $strode copy-int-vector ark:- ark,t:- 2> $t/log/copy_ali.log | cut -d' ' -f1 | LC_ALL=C sort > $t/ali.keys
  d=$(fbank_of $train)
  n=$($strode filter-scp --print-args=false --exclude $t/ali.keys $d/feats.scp | wc -l)
  echo "   $(wc -l < $t/ali.keys) alignments; $n of $(wc -l < $d/feats.scp) training utterances have none and are skipped in training (as Kaldi does)"
  echo "   priors: $(counts_of $ali) ($(awk '{print NF-2}' $(counts_of $ali)) pdfs)"
fi

# ---------------------------------------------------------------------------------------
# train_models ALI SUFFIX: train every model on the alignments in ALI into exp/MODEL$SUFFIX.
# One process per model through --cmd (--num-jobs-final 1), or data-parallel (see --help).
train_one() {  # train_one MODEL ALI DIR SEED
  local m=$1 a=$2 dir=$3 sd=$4
  if [ "$num_jobs_final" -le 1 ]; then
    # A re-run resumes from the checkpoint of the last finished epoch (bit for bit).
    $cmd $dir/log/train.log $strode train $(model_flags $m) --max-iters=$epochs --seed=$sd \
      --learn-rate=$learn_rate --patience=3 $train_opts $(pipeline_flags) --transition-model=$a/final.mdl \
      "--feature-description=compute-fbank-feats $fbank_all" --checkpoint=$dir/checkpoint.am --resume=true \
      --curves-png=$dir/curves.png --cv-feats=scp:$cv/feats.scp $(own_opts $m) \
      scp:$tr/feats.scp "ark:gunzip -c $a/ali.*.gz |" $dir/final.am
  else
    # The driver runs here and sends each iteration's jobs through --cmd; a re-run continues
    # after the last averaged model.
    $strode train-parallel --cmd "$cmd" --num-jobs-initial=$num_jobs_initial --num-jobs-final=$num_jobs_final \
      --num-epochs=$epochs --initial-effective-lrate=$initial_effective_lrate \
      --final-effective-lrate=$final_effective_lrate --final-model=best --srand=$sd $(model_flags $m) $train_opts \
      $(own_opts $m | sed -E 's/--(left|right)-context=[0-9]+//g') $egs $dir > $dir/log/train_parallel.log 2>&1 && cp $dir/final.mdl $dir/final.am
  fi
}
train_models() {
  local a=$1 suffix=$2 r m dir pids=()
  egs=$exp/strode_egs$suffix
  if [ "$num_jobs_final" -gt 1 ] && ! unit_done $egs; then
    echo "   training archives: $egs (log: $egs/log/get_egs.log)"
    rm -rf $egs; mkdir -p $egs/log
    $cmd $egs/log/get_egs.log $strode get-egs --num-archives=${num_archives:-$num_jobs_final} --srand=$seed \
      --transition-model=$a/final.mdl $(pipeline_flags) "--feature-description=compute-fbank-feats $fbank_all" \
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

if run_stage 4; then
  log_stage 4 "train $models on $ali"
  d=$(fbank_of $train)
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
  train_models $ali ""
fi

# ---------------------------------------------------------------------------------------
if [ "$realign_iters" != 0 ] && run_stage 5; then
  for r in $(seq 1 $realign_iters); do
    rm0=$(run_name "$realign_model:${seeds%% *}")  # the realigning network: the first seed's
    if [ $r = 1 ]; then src=$exp/$rm0; else src=$exp/${rm0}_realign$((r-1)); fi
    out=$exp/${realign_model}_ali$r
    log_stage 5 "round $r: align the training data with $src, retrain on it"
    if ! unit_done $out; then
      realign $src/final.am $src/pdf.counts $ali $out
      mark_done $out
    fi
    train_models $out _realign$r
  done
fi

# ---------------------------------------------------------------------------------------
if run_stage 6; then
  log_stage 6 "decode $(echo $sets) with $graph"
  for r in "${runs[@]}"; do
    m=$(run_name $r); mdir=$(final_dir $m)
    for src in $sets; do
      name=$(basename $src); d=$(fbank_of $src); dir=$mdir/decode_$name
      if unit_done $dir; then echo "   $m $name: done before ($dir/.done)"; continue; fi
      j=$(jobs_of $d); rm -rf $dir; mkdir -p $dir/log; echo $j > $dir/num_jobs
      # Kaldi's scoring scripts and lattice tools look for the transition model in DIR/../final.mdl
      # (nnet1 keeps a copy beside final.nnet the same way).
      cp $decode_mdl $mdir/final.mdl
      t0=$(date +%s.%N)
      $cmd JOB=1:$j $dir/log/decode.JOB.log \
        $strode forward --no-softmax=true --class-frame-counts=$mdir/pdf.counts --cmvn=scp:$d/cmvn.scp --utt2spk=ark:$d/utt2spk \
          $mdir/final.am scp:$d/split$j/JOB/feats.scp ark:- \| \
        $strode latgen-faster-mapped --acoustic-scale=$acwt --beam=$beam --lattice-beam=$lattice_beam --max-active=$max_active \
          --allow-partial=true --word-symbol-table=$graph/words.txt $decode_mdl $graph/HCLG.fst ark:- "ark:| gzip -c > $dir/lat.JOB.gz"
      t1=$(date +%s.%N)
      frames=$($strode feat-to-len scp:$d/feats.scp ark,t:- 2>/dev/null | awk '{n+=$2} END{print n+0}')
      # decode_time: wall seconds of the decoding, audio seconds (10 ms frames), jobs.
      echo "$t0 $t1 $frames $j" | awk '{printf "%.3f %.2f %d\n", $2-$1, $3/100, $4}' > $dir/decode_time
      echo "   $m $name: $(awk '{printf "%.1f s for %.1f s of audio in %d jobs", $1, $2, $3}' $dir/decode_time)"
      mark_done $dir
    done
  done
fi

# ---------------------------------------------------------------------------------------
if run_stage 7; then
  log_stage 7 "score (LM weights $min_lmwt-$max_lmwt, penalties $word_ins_penalty) and results"
  dirs=(); : > $exp/strode_compare.runs
  for r in "${runs[@]}"; do
    mdir=$(final_dir $(run_name $r)); dirs+=($mdir)
    for src in $sets; do
      dir=$mdir/decode_$(basename $src)
      echo "${r%%:*} $(basename $src) ${r#*:} $dir/best_wer" >> $exp/strode_compare.runs
      $cmd $dir/scoring/log/score.log $root/recipes/local/score.sh --strode $strode --min-lmwt $min_lmwt \
        --max-lmwt $max_lmwt --word-ins-penalty "$word_ins_penalty" $src $graph $dir
      echo "   $(cat $dir/best_wer)"
    done
  done
  $strode results-table --print-args=false --md=$exp/strode_results.md --json=$exp/strode_results.json ${dirs[@]}
  echo "   (also in $exp/strode_results.md and $exp/strode_results.json)"
  if [ -n "$seeds" ]; then
    echo "   paired comparison over seeds $seeds (strode compare; $exp/strode_compare.md)"
    $strode compare --print-args=false --baseline=${models%% *} --json=$exp/strode_compare.json --png=$exp/strode_compare.png \
      $exp/strode_compare.runs | tee $exp/strode_compare.md
  fi
fi
