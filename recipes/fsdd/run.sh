#!/usr/bin/env bash
# Free Spoken Digit Dataset recipe: SRU and SRU+STRODE acoustic models on real
# 8 kHz speech, trained on some speakers and tested on others.
#
#   recipes/fsdd/run.sh --fsdd-dir ../shared/data/fsdd --test-speakers george --exp-dir exp/fsdd [--quick]
#
# This recipe is FSDD's front end to recipes/kaldi/run.sh --dict, the from-scratch pipeline
# every corpus shares: stage 0 writes the data dirs and the dict dir, the pipeline makes the
# Kaldi experiment in --exp-dir (its lang, LM, graph, features, alignments, models and decodes,
# where it puts them), and stages 8-9 are FSDD's own checks on the test speaker.
# Stages (--stage N / --stop-stage N; 0-7 are the pipeline's own stage numbers, passed on to it,
# and every finished unit of work has a .done file and is skipped when re-run):
#   0 data dirs (wav.scp, text, utt2spk, spk2utt) with speaker-prefixed keys, and the dict dir
#     data/local/dict (strode fsdd-data-prep); takes 5-9 of every training speaker are the
#     held-out (cross-validation) set of the neural training. With --speeds "0.8 0.9 1.0 1.1 1.2"
#     (the default) every training take appears once per speed factor (keys spF-SPK_DIGIT_TAKE,
#     speaker spF-SPK, the prefix of Kaldi's perturb_data_dir_speed.sh; strode wav-speed-perturb
#     writes the waves, as Kaldi's "sox speed"). With --warps "0.9 1.0 1.1" every take at its own
#     speed appears once more per VTLN warp factor (speaker wF-SPK): augmentation that imitates
#     other speakers. With --tts-voices N (default 0) espeak-ng speaks every digit --tts-takes
#     times (pitch and rate varied) in each of N synthetic voices (English accents x male
#     variants), as speakers ttsNN that train with the others (espeak-ng is installed with
#     apt-get when missing and running as root; otherwise the command that installs it is named).
#     Then the pipeline's stage 0: the lang dir (the ten digits, no "oh", <SIL> the OOV word,
#     phones without word positions), the Witten-Bell trigram of the training transcripts (one
#     digit per sentence: in effect a one-digit grammar) and its monophone HCLG.
#   1 the pipeline's layout check
#   2 fbank features (--num-mel-bins at 8 kHz, default 23, warped per utterance by utt2warp; waves at
#     a higher rate, as espeak-ng's, downsampled), CMVN stats per speaker
#   3 flat start (equally spaced alignments of the training graphs), then 2 rounds of the paper's
#     realignment: a unidirectional SRU trained on the current alignments, realigning with it
#     (strode_mono_ali1, strode_mono_ali2); the pdf counts (priors) of the last alignments
#   4 train --models on those alignments
#   6-7 forward with priors | latgen-faster-mapped in --nj jobs, scoring of the 1-best at acoustic
#     scale 0.1, the results table; then DIR/results.json
#   8 check: forward written to a file, then latgen-faster-mapped on it, gives the same 1-best
#   9 unsupervised adaptation to the test speaker (--adapt, default true; see below)
# --models "sru strode" (the default) picks the models of stages 4-9 (any of dnn sru odernn
# strode); --parallel-models BOOL (default true) trains them as parallel processes in stage 4.
# --seeds "N ..." trains and decodes every model once per seed in stages 4-7 (DIR/MODEL_seedN, the
# front end of stages 0-3 stays --seed's) and compares them (DIR/strode_compare.md, strode
# compare); stages 8-9 then are skipped. recipes/fsdd/compare.sh runs this for every speaker.
# --test-takes N: the test speaker's takes 0..N-1 of every digit (default 10 with --quick, else 50).
# Model options: --target-delay N (the networks' outputs lag N frames behind their labels, so
# the unidirectional SRU sees N frames beyond the one it labels), --context N (splice +-N frames),
# --bidirectional BOOL (the sru and strode models of stage 4; default true),
# --hidden N (units per SRU layer and direction), --train-opts "..." (more options for every
# strode train, the realigners' too), --epochs N (stage 4), --spec-augment "..." (strode train's
# SpecAugment masks of the sru, strode and odernn models of stage 4; default none),
# --pipeline-opts "..." (more options for recipes/kaldi/run.sh, last so that they win).
# Stage 9 (--adapt true, the default; false skips it) adapts to the test speaker without its transcripts: the
# stage-7 1-best paths of the --adapt-keep most confident test utterances (mean posterior of the
# path's pdfs) are the targets of --adapt-epochs epochs of fine-tuning at --adapt-lr, then the
# test speaker is decoded again; results.json keeps the speaker-independent "wer" and adds
# "adapted" (an adapted WER is not a speaker-independent result). --adapt-rounds N repeats it
# from the previous round's model and 1-best; --adapt-spec-augment "..." are its SpecAugment masks.
# --nj N (default 2) and --cmd CMD (default run.pl) as recipes/kaldi/run.sh; --strode PATH (default:
# $STRODE, else bin/strode, built when stale: recipes/local/strode_bin.sh); --config FILE (options as
# shell assignments, recipes/local/parse_options.sh). Logs go to DIR/*/log/. Every stage can be re-run.
set -euo pipefail

fsdd_dir=../shared/data/fsdd
test_speakers=george
exp_dir=exp/fsdd
quick=false
stage=0
stop_stage=100
nj=2
cmd=run.pl
strode=
preset=small
seed=777
seeds=
test_takes=          # 10 (--quick), else 50
num_mel_bins=23
tts_voices=0
tts_takes=3
warps=
speeds=
target_delay=0
context=4
bidirectional=true        # measured better than one direction on jackson and nicolas (RESULTS.md)
hidden=
train_opts=          # more options for every strode train
spec_augment=        # SpecAugment masks in stage 4: off (measured worse on jackson and yweweler, RESULTS.md)
epochs=              # 8 (--quick), else 4
parallel_models=true # stage 4 trains the models as parallel processes (a 2-core machine trains sru and strode in the time of strode)
adapt=true           # stage 9: unsupervised adaptation to the test speaker (the WER of stage 7 stays the speaker-independent one)
adapt_keep=0.8       # fraction of the test utterances (the most confident 1-best) the adaptation trains on
adapt_epochs=2
adapt_lr=0.0001
adapt_rounds=        # 3 (--quick: 1); each further round starts from the previous round's model and 1-best
# SpecAugment masks of the adaptation's fine-tuning (a frequency band is up to 4 of the 23 mel
# bins): they keep it from fitting the errors of the 1-best it trains on (RESULTS.md)
adapt_spec_augment="--freq-masks=2 --freq-mask-width=4 --time-masks=1 --time-mask-width=5"
models="sru strode"
pipeline_opts=       # more options for recipes/kaldi/run.sh

root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/recipes/local/parse_options.sh"
[ $# = 0 ] || { echo "$0: unexpected argument $1 (see --help)" >&2; exit 1; }
. "$root/recipes/local/jobs.sh"

# Sizes: --quick keeps the run to minutes on a small CPU.
if $quick; then
  train_takes=5-24  # 20 takes per digit and speaker
  model_opts="--sru-hidden=128 --sru-layers=2 --ode-state=32 --ode-hidden=32 --phi-hidden=32 --prior-hidden=32"
  align_epochs=4; align_rounds=2; : ${test_takes:=10} ${epochs:=8} ${warps:=1.0} ${speeds:=1.0} ${adapt_rounds:=1}
else
  train_takes=5-49
  model_opts="--sru-hidden=192 --sru-layers=3 --ode-state=32 --ode-hidden=32 --phi-hidden=32 --prior-hidden=32"
  # 5x the takes (speed perturbation 0.8-1.2; measured better than VTLN warps and than 0.9-1.1,
  # RESULTS.md): 4 epochs
  align_epochs=5; align_rounds=2; : ${test_takes:=50} ${epochs:=4} ${warps:=1.0} ${speeds:="0.8 0.9 1.0 1.1 1.2"} ${adapt_rounds:=3}
fi
case "$test_takes" in *[!0-9]*|0) echo "$0: --test-takes takes a whole number from 1 to 50, not '$test_takes'" >&2; exit 1 ;; esac
[ "$test_takes" -le 50 ] || { echo "$0: --test-takes $test_takes: FSDD has 50 takes per digit and speaker" >&2; exit 1; }
[ -d "$fsdd_dir/recordings" ] || { echo "$0: $fsdd_dir/recordings not found" >&2; exit 1; }
fsdd_dir=$(cd "$fsdd_dir" && pwd)
. "$root/recipes/local/strode_bin.sh"
mkdir -p "$exp_dir"
exp_dir=$(cd "$exp_dir" && pwd)
data=$exp_dir/data
fbank=$exp_dir/data-fbank  # the pipeline's copies of the data dirs, with feats.scp and cmvn.scp
# What the pipeline makes in --exp-dir (recipes/kaldi/run.sh --exp . --lang lang): the lang dir,
# the monophone graph and the last realignment round's alignments, the models' targets.
lang=$exp_dir/lang
graph=$exp_dir/strode_mono/graph
ali=$exp_dir/strode_mono_ali$align_rounds

feat_opts="--sample-frequency=8000 --num-mel-bins=$num_mel_bins --dither=0 --allow-downsample=true"
# CMVN per speaker (means and variances over all of a speaker's takes, as Kaldi's
# apply-cmvn --utt2spk): per-utterance CMVN of half-second digits removes part of the
# word; per-speaker stats remove the speaker and the channel.
splice_opts="--norm-vars=true --left-context=$context --right-context=$context"
cmvn_opts() { echo "--cmvn=scp:$fbank/$1/cmvn.scp --utt2spk=ark:$fbank/$1/utt2spk"; }
# --phi-z=free: the STRODE head's boundary branch b(e) with free signs; DESIGN.md's
# all-non-positive b(z) collapses t~ to a constant ~2e-4 (acoustic/am boundaryZ).
[ -z "$hidden" ] || model_opts="$model_opts --sru-hidden=$hidden"
model_opts="$model_opts $train_opts"
common_train_opts="--preset=$preset $model_opts --target-delay=$target_delay --phi-z=free --seed=$seed --minibatch-utts=16 --minibatch-frames=4000 --patience=3"
# SpecAugment (--spec-augment) for the recurrent models of stage 4, not the realigners of stage 3.
aug_opts=()
if [ -n "$spec_augment" ]; then for m in sru strode odernn; do aug_opts+=(--$m-opts "$spec_augment"); done; fi
run_stage() { [ "$1" -ge "$stage" ] && [ "$1" -le "$stop_stage" ]; }
# model_inputs DIR: what the model in DIR reads of the test set and decodes with, from its own
# record (strode model-info) and transition model: in_feats and in_cmvn (fbank with per-speaker
# CMVN, or with --pipeline-opts "--nnet-feats fmllr" the tri3 system's fMLLR features with global
# CMVN), in_fmllr (true then), and in_mdl and in_graph (the monophone ones, or the ladder rung's
# whose final.mdl the pipeline copied beside the model).
model_inputs() {
  local r
  in_feats=$fbank/test/feats.scp; in_cmvn=$(cmvn_opts test); in_fmllr=false
  if $strode model-info $1/final.am 2>/dev/null | grep -q '^feature pipeline.*fMLLR'; then
    in_feats=$exp_dir/data-fmllr/test/feats.scp; in_fmllr=true
    in_cmvn="--cmvn=ark:$exp_dir/data-fmllr/global_cmvn.ark --utt2spk=ark:$exp_dir/data-fmllr/test/utt2global"
  fi
  in_mdl=$ali/final.mdl; in_graph=$graph
  for r in strode_tri3 strode_tri2 strode_tri1 strode_tri; do
    if [ -f $1/final.mdl ] && cmp -s $1/final.mdl $exp_dir/$r/final.mdl; then in_mdl=$1/final.mdl; in_graph=$exp_dir/$r/graph; break; fi
  done
}
# The trained runs of stages 4-7: MODEL, or MODEL_seedN for every seed of --seeds.
if [ -z "$seeds" ]; then run_dirs=$(for m in $models; do echo $exp_dir/$m; done)
else run_dirs=$(for m in $models; do for sd in $seeds; do echo $exp_dir/${m}_seed$sd; done; done); fi
# espeak-ng for --tts-voices, installed when missing and run as root (else fsdd-data-prep names the command).
install_espeak_ng() {
  if ! command -v espeak-ng >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "   installing espeak-ng (for --tts-voices)"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq espeak-ng >/dev/null) || true
  fi
}

if run_stage 0; then
  log_stage 0 "data dirs and dict dir (test speakers: $test_speakers; training speeds: $speeds; warps: $warps; synthetic voices: $tts_voices)"
  [ "$tts_voices" = 0 ] || install_espeak_ng
  $strode fsdd-data-prep --print-args=false --test-speakers="$test_speakers" --train-takes=$train_takes --test-takes=0-$((test_takes - 1)) \
    --speeds="$speeds" --warps="$warps" --tts-voices=$tts_voices --tts-takes=$tts_takes --tts-dir=$exp_dir/tts/recordings \
    "$fsdd_dir" $data 2>&1 | sed 's/^/   /'
fi

# Stages 0-7: the from-scratch pipeline in the experiment this recipe makes (paths relative to
# it). The held-out set of every network is the held-out takes at their own speed
# (cv_heldout.list), and none of their copies trains (cv.list). Scoring keeps one LM weight and
# no penalty: RESULTS.md's figures are the 1-best at acoustic scale 0.1. The networks stop early
# (--newbob false) on monophone targets (--num-leaves 0) and fbank (--gmm-ladder mono), as every
# FSDD figure was measured and stage 9 adapts; newbob and a tree are not measured here yet. The
# pipeline's default ladder (tri3 alignments, fMLLR inputs) is measured better here too, at quick
# sizes (RESULTS.md): --pipeline-opts "--gmm-ladder tri3" gives it (stage 9 then leaves the
# models alone: fMLLR has adapted them).
if [ "$stage" -le 7 ] && [ "$stop_stage" -ge 0 ]; then
  (cd $exp_dir && "$root/recipes/kaldi/run.sh" --strode "$strode" --nj $nj --cmd "$cmd" --exp . \
    --dict data/local/dict --oov "<SIL>" --position-dependent-phones false --lang lang \
    --train data/train --dev "" --test data/test --stage $stage --stop-stage $((stop_stage < 7 ? stop_stage : 7)) \
    --flat-start equal --flat-start-rounds $align_rounds --align-epochs $align_epochs --num-leaves 0 --gmm-ladder mono \
    --fbank-opts "$feat_opts" --cv-utts data/train/cv_heldout.list --exclude-utts data/train/cv.list \
    --models "$models" --seed $seed --preset $preset --context $context \
    --bidirectional $bidirectional --epochs $epochs --minibatch-utts 16 --learning-rate 0.001 --newbob false --parallel-models $parallel_models \
    --train-opts "$model_opts --target-delay=$target_delay" ${aug_opts[@]+"${aug_opts[@]}"} \
    --beam 13 --lattice-beam 6 --acwt 0.1 --min-lmwt 10 --max-lmwt 10 --gmm-min-lmwt 10 --gmm-max-lmwt 10 \
    --word-ins-penalty 0.0 \
    ${seeds:+--seeds "$seeds"} $pipeline_opts) 2>&1 | sed 's/^/   /'
fi

if run_stage 7; then
  echo "   FSDD's results: $exp_dir/results.json"
  for d in $run_dirs; do  # the 1-best at acoustic scale 0.1 (LM weight 10, no penalty), as the figures in RESULTS.md
    cp $d/decode_test/wer_10_0.0 $d/decode_test/wer
    $strode lattice-best-path --acoustic-scale=0.1 "ark:gunzip -c $d/decode_test/lat.*.gz |" ark,t:$d/decode_test/words.int \
      2> $d/decode_test/log/best_path.log
  done
  $strode results-table --print-args=false --summary-json=$exp_dir/results.json $run_dirs > /dev/null
  cat $exp_dir/results.json
fi
if [ -n "$seeds" ] && [ "$stop_stage" -ge 8 ]; then
  echo "== stages 8-9 skipped: --seeds compares the speaker-independent runs of stage 7 ($exp_dir/strode_compare.md)"
  stop_stage=7
fi

if run_stage 8; then
  log_stage 8 "forward to a file, latgen-faster-mapped on it: same 1-best as stage 7?"
  for m in $models; do
    dir=$exp_dir/$m/decode_test; model_inputs $exp_dir/$m
    $strode forward --no-softmax=true --class-frame-counts=$exp_dir/$m/pdf.counts $in_cmvn $exp_dir/$m/final.am \
      scp:$in_feats ark:$dir/loglikes.ark 2> $dir/log/forward_file.log
    $strode latgen-faster-mapped --acoustic-scale=0.1 --beam=13 --lattice-beam=6 $in_mdl $in_graph/HCLG.fst \
      ark:$dir/loglikes.ark ark:$dir/lat_file.ark 2> $dir/log/decode_file.log
    $strode lattice-best-path --acoustic-scale=0.1 ark:$dir/lat_file.ark ark,t:$dir/words_file.int 2> $dir/log/best_path.log
    if cmp -s $dir/words.int $dir/words_file.int; then echo "   $m: identical 1-best ($(wc -l < $dir/words.int) utterances)";
    else echo "   $m: 1-best DIFFERS"; diff $dir/words.int $dir/words_file.int | head -5; fi
    rm -f $dir/loglikes.ark $dir/lat_file.ark
  done
fi

if $adapt && run_stage 9; then
  log_stage 9 "unsupervised adaptation to the test speaker (1-best of stage 7, --adapt-keep=$adapt_keep), $exp_dir/results.json"
  adapted=
  for m in $models; do
    model_inputs $exp_dir/$m
    # fMLLR inputs are adapted to the test speaker already (decode_fmllr.sh's transforms), and the
    # fine-tuning below feeds fbank: nothing to do for such a model.
    if $in_fmllr; then echo "   $m reads tri3's fMLLR features (speaker-adapted already): no stage-9 adaptation"; continue; fi
    src=$exp_dir/$m/final.am; dec=$exp_dir/$m/decode_test; adapted="$adapted $exp_dir/$m"
    for r in $(seq 1 $adapt_rounds); do
      dir=$exp_dir/$m/adapt; [ $r = 1 ] || dir=$exp_dir/$m/adapt$r
      mkdir -p $dir/log $dir/decode_test/log
      # The decoded path (words and transition-ids), and the utterances the network is surest of
      # (the mean posterior of the path's pdfs over the frames): the adaptation's training set.
      $strode lattice-best-path --acoustic-scale=0.1 "ark:gunzip -c $dec/lat.*.gz |" ark,t:$dir/words.int ark:$dir/ali.ark 2> $dir/log/best_path.log
      $strode forward $(cmvn_opts test) $src scp:$fbank/test/feats.scp ark:- 2> $dir/log/forward_post.log |
        $strode prob-to-post --min-post=0 ark:- ark:- 2> $dir/log/prob_to_post.log |
        $strode get-post-on-ali ark:- "ark:$strode ali-to-pdf $ali/final.mdl ark:$dir/ali.ark ark:- |" ark,t:- 2> $dir/log/get_post_on_ali.log |
        $strode select-confident-utts --keep-fraction=$adapt_keep ark:- $dir/confidence $dir/keep.list 2> $dir/log/select.log
      $strode filter-scp --print-args=false $dir/keep.list $fbank/test/feats.scp > $dir/feats.scp
      # The held-out set is the training set itself (one speaker, pseudo-labels): it only reports the fit.
      $strode train $common_train_opts $adapt_spec_augment --bidirectional=$bidirectional --model=$m --init-model=$src \
        --learning-rate=$adapt_lr --max-iters=$adapt_epochs --patience=$((adapt_epochs+1)) $(cmvn_opts test) $splice_opts \
        --transition-model=$ali/final.mdl --feature-description="compute-fbank-feats $feat_opts" --cv-feats=scp:$dir/feats.scp \
        scp:$dir/feats.scp ark:$dir/ali.ark $dir/final.am 2> $dir/log/train.log
      grep -E "epoch [0-9]+:" $dir/log/train.log | sed 's/^LOG (strode train) /   /' | cut -c1-110 || true
      $strode forward --no-softmax=true --class-frame-counts=$exp_dir/$m/pdf.counts $(cmvn_opts test) $dir/final.am scp:$fbank/test/feats.scp ark:- 2> $dir/decode_test/log/forward.log |
        $strode latgen-faster-mapped --acoustic-scale=0.1 --beam=13 --lattice-beam=6 --word-symbol-table=$lang/words.txt \
          $ali/final.mdl $graph/HCLG.fst ark:- "ark:| gzip -c > $dir/decode_test/lat.1.gz" ark,t:$dir/decode_test/words.int 2> $dir/decode_test/log/decode.log
      $strode int2sym --field=2- $lang/words.txt $dir/decode_test/words.int > $dir/decode_test/hyp.txt 2> $dir/decode_test/log/int2sym.log
      $strode compute-wer --text --mode=present ark:$data/test/text ark:$dir/decode_test/hyp.txt > $dir/decode_test/wer 2> $dir/decode_test/log/wer.log
      echo "   $m adapted, round $r ($(wc -l < $dir/keep.list) of $(wc -l < $dir/confidence) test utterances): $(grep WER $dir/decode_test/wer) (speaker-independent: $(grep WER $exp_dir/$m/decode_test/wer))"
      src=$dir/final.am; dec=$dir/decode_test
    done
  done
  [ -z "$adapted" ] || $strode results-table --print-args=false --summary-json=$exp_dir/results.json --adapt-rounds=$adapt_rounds \
    $adapted > /dev/null
  cat $exp_dir/results.json
fi

# The results table of stage 7 (speaker-independent), printed last and kept beside results.json.
if [ -f $exp_dir/strode_results.md ]; then
  cp $exp_dir/strode_results.md $exp_dir/results.md
  echo "== results ($exp_dir/results.md; adapted WERs of stage 9 in results.json)"
  cat $exp_dir/results.md
fi
