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
#     With --dict the alignments are made first: a flat start, exp/strode_mono_ali0 (--flat-start
#     gmm: Kaldi's steps/train_mono.sh with strode's GMM tools on MFCC + deltas, --mono-iters
#     rounds of EM and realignment from the equal alignment, mixing up to --mono-gauss Gaussians,
#     in exp/strode_mono_gmm; --flat-start equal: the equal alignment of the training graphs),
#     then --flat-start-rounds rounds of the paper's iterative procedure: a unidirectional SRU
#     trained --align-epochs on the current alignments (held out: stage 4's set), then
#     align-compiled-mapped with it (exp/strode_mono_aliR), then up Kaldi's GMM ladder to
#     --gmm-ladder from the last monophone alignments (recipes/steps: tri1 train_deltas.sh, tri2
#     train_lda_mllt.sh, tri3 train_sat.sh, each on the alignments of the rung below, realigned by
#     align_si.sh / align_fmllr.sh into exp/strode_RUNG_ali, its graph exp/strode_RUNG/graph);
#     the targets are the --nnet-ali rung's alignments (the top rung's), or
#     with --nnet-ali mono the last round's, or (--num-leaves, auto by default) the same converted
#     to a tree built on them (exp/strode_tri_ali, graph exp/strode_tri/graph)
#   4 train --models (sru strode), held-out set: --cv-spk-percent of the training speakers
#   5 --realign-iters rounds: align the training data with the --realign-model network, then
#     retrain every model on the new alignments (exp/MODEL_realignN); or --mmi-epochs: MMI
#     sequence training of every model (exp/MODEL_mmi), decoded and scored beside it
#   6 decode every --dev/--test set: forward | latgen-faster-mapped in --nj jobs through
#     --cmd, lattices in exp/MODEL/decode_SET/lat.JOB.gz as steps/decode.sh writes them; from
#     scratch with the GMM flat start, the GMM too with the monophone graph (MFCC + deltas, scored:
#     exp/strode_mono_gmm/decode_SET/best_wer), the baseline a Kaldi user's exp/mono would give,
#     and every rung of the ladder with its own graph (recipes/steps/decode.sh, decode_fmllr.sh
#     for tri3) in exp/strode_RUNG/decode_SET
#   7 score (local/score.sh's LM-weight x penalty sweep, best_wer) and the results table:
#     exp/strode_results.md and exp/strode_results.json, a row per GMM rung beside the networks'
# Options (defaults in brackets):
#   --corpus NAME [none] --chime5-dir DIR: a corpus front end for stage 0 (chime5)
#   --train DIR [data/train] --dev DIR [data/dev] --test "DIR ..." [data/eval] (empty: none)
#   --lang DIR [data/lang] --ali DIR [exp/tri3_ali] --graph DIR [exp/tri3/graph]
#   --dict DIR [none]: from scratch (stages 0 and 3 make lang, LM, graph and alignments; --ali is
#     not read) --oov WORD [<UNK>] --lm FILE [estimated] --lm-text FILE [TRAIN/text] --lm-order N [3]
#     --position-dependent-phones B [true] (prepare_lang.sh's; false: one phone per dict phone)
#     --flat-start gmm|equal [gmm] --mono-iters N [40] --mono-gauss N [1000; --quick 300]
#     --mfcc-config FILE [conf/mfcc.conf if present] --mfcc-opts "..." [--use-energy=false --dither=0;
#       without a config, the fbank's --sample-frequency and --allow-downsample/upsample too]
#     --flat-start-rounds N [0 after gmm, 2 after equal] --align-epochs N [6; --quick 3]
#     --num-leaves N|auto [auto at --gmm-ladder mono; --quick 0; with --nnet-ali mono only]: a tree of at most N leaves (auto: one
#     per 1,000 training frames) built on the monophone alignments (Kaldi's train_deltas.sh tree
#     building), the alignments converted to it (exp/strode_tri_ali) and the triphone graph
#     exp/strode_tri/graph; 0: monophone targets (speechocean762, 40 speakers: the tree 3 points
#     better, RESULTS.md)
#     --tree-feats mfcc|fbank [mfcc]: the tree's statistics from MFCC (train_deltas.sh's) or from
#     the networks' fbank, either + deltas with per-speaker CMN
#     --gmm-ladder RUNG [tri3; mono with --quick or --num-leaves]: how far up Kaldi's GMM ladder to
#     go: mono, tri1 (deltas), tri2 (LDA+MLLT), tri3 (SAT: needs recipes/steps/train_sat.sh,
#     align_fmllr.sh, decode_fmllr.sh); every rung is decoded and scored. tri3 with its fMLLR
#     inputs is measured better than the monophone tree on fbank on two corpora (speechocean762,
#     40 speakers: -6.47 points, 95 % [-10.21, -2.72], 3 seeds; FSDD, every speaker held out,
#     2 seeds: recipes/fsdd/RESULTS.md); --quick, the pipeline check, stays at the monophone
#     --nnet-ali RUNG [the --gmm-ladder rung; mono when --num-leaves is given]: the rung whose
#     alignments (and tree, and graph) the networks train on and decode with; mono: the monophone
#     targets, or --num-leaves' tree
#     --tri1-leaves N|auto --tri1-gauss N|auto (and tri2, tri3) [auto]: a rung's leaves and
#     Gaussians; auto: tri1 one leaf per 1,000 training frames (at least 1.5 per monophone pdf and 80), tri2
#     and tri3 a quarter more; 5 Gaussians per leaf for tri1, 6 above (Kaldi's mini_librispeech:
#     2000/10000, 2500/15000, 2500/15000)
#     --gmm-iters N [35; --quick 20]: the rungs' iterations, Kaldi's schedule (mixing up until 25,
#     realigning on 10 20 30, MLLT and fMLLR on 2 4 6 12) scaled to N
#     --boost-silence F [1.25, mini_librispeech's]: the silence boost of the rungs' alignments
#     --mfcc-dir DIR [data-mfcc]: the Kaldi data dirs of MFCC the recipes/steps scripts read
#     --speed-perturb B [false]: the networks train on the 3-way speed-perturbed training set
#     (Kaldi's nnet3 recipes: speeds 0.9 1.0 1.1, recipes/local/perturb_data_dir_speed_3way.sh into
#     --sp-dir [data-sp]/TRAIN_sp, its fbank in stage 2) aligned in stage 3 by the --nnet-ali rung's
#     GMM (exp/strode_RUNG_ali_sp; the GMMs themselves stay trained on TRAIN), held out by utt2uniq
#     groups (recipes/kaldi/steps_sp.sh)
#     --nnet-feats fbank|fmllr|auto [auto: fmllr from scratch up to --gmm-ladder tri3 and not
#     --causal, else fbank]: the networks' inputs (stages 4-6): fbank with per-speaker
#     CMVN, or (--gmm-ladder tri3) the tri3 system's speaker-adapted features as Kaldi's
#     steps/nnet/make_fmllr_feats.sh makes them (CMN'd MFCC, spliced, LDA+MLLT, each speaker's
#     fMLLR: the training set's from align_fmllr.sh, with --speed-perturb true its perturbed copy's
#     own speakers' from align_fmllr.sh of the copy, a test set's from tri3's decode_fmllr.sh of
#     it) with global CMVN, written to --fmllr-dir [data-fmllr]/NAME (recipes/kaldi/steps_feats.sh)
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
#   --epochs N [20; --quick 8] --minibatch-utts N [8] --learning-rate F [0.002; --quick 0.003]
#     (--learn-rate F: its deprecated name)
#   --newbob B [true]: nnet1's schedule (the learning rate halved from the first epoch whose held-out
#     CE improves by less than 1%, a worse epoch undone, stop under 0.1%); false: early stopping
#     after 3 epochs without held-out improvement (speechocean762: newbob 6 points better, RESULTS.md)
#   --causal B [false]: causal models for online decoding: unidirectional, --context frames on the
#     left only, online CMVN (apply-cmvn-online with the training set's global stats in
#     exp/strode_online, each speaker's stats carried from utterance to utterance); stage 6 then
#     also decodes every set with online2-wav-latgen-faster in --chunk-length [0.18] s chunks
#     (MODEL/decode_SET_online) and counts the utterances whose 1-best is the offline decode's;
#     every decode writes the frames' look-ahead (MODEL/decode_SET/lookahead_stats.JOB, strode
#     forward --lookahead-stats) for strode latency-curve. A fixed look-ahead: --sru-opts
#     "--target-delay=N"; a learned one (offline decoding only): --strode-opts
#     "--head-variant=lookahead --max-lookahead=8 --w-latency=W"
#   --teacher DIR [none]: a frozen teacher, DIR/final.am: a bidirectional model of this exp on the
#     networks' own features and targets. Every strode model's Gaussian prior reads its encoder output
#     (strode train --prior-teacher; off with --teacher-prior false) and, with --distill-weight L > 0
#     [0], every model trains on (1-L) CE(alignments) + L CE(its posteriors) (--distill-teacher).
#     When DIR has no final.am, stage 4 trains it there first: a bidirectional sru of the networks'
#     sizes on exactly their features (with --causal the online-CMVN'd ones, left context only),
#     --seed's, with --train-opts and --teacher-opts "..." last. Decoding never reads it. A causal
#     comparison in one go:
#       run.sh --causal true --teacher exp/teacher --models "sru strode" --seeds "1 2 3"
#     gives causal sru and teacher-prior strode; distilled causal sru: a copy of the exp without its
#     sru_seed* dirs, rerun from --stage 4 with --models sru --distill-weight 0.5.
#   --train-opts "..." (more strode train options) --parallel-models B [true]
#   --sru-opts, --strode-opts, --odernn-opts, --dnn-opts "...": strode train options for that
#     model only, after all others [dnn: nnet1's +-5 splicing and 2-utterance minibatches]
#   --realign-iters N [0] --realign-model M [first of --models]
#   --mmi-epochs N [0: none]: stage 5 trains every run on for N epochs of MMI, nnet1's sequence
#     training (steps/nnet/make_denlats.sh: denominator lattices of the training utterances on a
#     unigram graph of their text, exp/strode_dengraph, into exp/RUN_denlats; train_mmi.sh: strode
#     train --den-lats from exp/RUN into exp/MODEL_mmi[_seedN], acoustic scale 0.1, frame
#     dropping), with --mmi-learning-rate F [0.00002, Adam's] and --mmi-opts "..." (more strode
#     train options, last); stages 6 and 7 decode and score them beside the cross-entropy models.
#     --mmi-ali gmm|net [gmm]: the numerator, the alignments the run was trained on or the run's
#     own (nnet1's run_dnn.sh: steps/nnet/align.sh with the DNN, exp/RUN_ali);
#     --sequence-criterion mmi|smbr [mmi]: train_mmi.sh's MMI or train_mpe.sh's sMBR (--do-smbr
#     true, silence phones one class; exp/MODEL_smbr)
#   --num-jobs-final N [1]: N > 1 trains data-parallel as nnet3 does (strode get-egs into
#     --num-archives [N] archives, then strode train-parallel: each iteration's jobs through
#     --cmd, their models averaged), with --num-jobs-initial [1], --epochs as passes over the
#     archives, --initial-effective-lrate [0.001] --final-effective-lrate [0.0001]
#   --rescore-lm FILE|N [none]: after stage 6 decodes with the graph's LM, rescore every set's
#     lattices with a larger LM, as Kaldi's steps/lmrescore_const_arpa.sh (the graph's G.fst taken
#     off, the new LM's ConstArpa put on: LANG_rescore/G.carpa): FILE.arpa[.gz], or N for an N-gram
#     estimated as the first-pass LM is (from scratch only); scored as MODEL/decode_SET_rescore
#     beside decode_SET, and in the results table
#   --rescore-old-lang DIR [LANG_test when it has G.fst, else LANG]: the lang dir of the graph's G.fst
#   --beam F [13] --lattice-beam F [8] --acwt F [0.1] --max-active N [7000]
#   --min-lmwt N [4] --max-lmwt N [15] --word-ins-penalty "..." [0.0 0.5 1.0]: the networks' LM weights
#     (steps/nnet/decode.sh's scoring range) and penalties; --gmm-min-lmwt N [7] --gmm-max-lmwt N [17]:
#     the GMMs' (local/score.sh's defaults, which Kaldi's GMM decodes use)
#   --strode PATH (default: $STRODE, else the repository's bin/strode, built when stale:
#     recipes/local/strode_bin.sh)   --config FILE: options as shell assignments (nj=8)
set -euo pipefail

stage=0
dict=
oov="<UNK>"
position_dependent_phones=true
lm=
lm_text=
lm_order=3
rescore_lm=
rescore_old_lang=
flat_start=gmm
flat_start_rounds=
mono_iters=40
num_leaves=
tree_feats=mfcc
gmm_ladder=
nnet_ali=
tri1_leaves=auto
tri1_gauss=auto
tri2_leaves=auto
tri2_gauss=auto
tri3_leaves=auto
tri3_gauss=auto
gmm_iters=
boost_silence=1.25
mfcc_dir=data-mfcc
speed_perturb=false
sp_dir=data-sp
nnet_feats=auto
fmllr_dir=data-fmllr
mono_gauss=
mfcc_config=
mfcc_opts="--use-energy=false --dither=0"
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
causal=false
chunk_length=0.18
newbob=true
epochs=
minibatch_utts=
learning_rate=
learn_rate=  # the deprecated name of --learning-rate, still taken
train_opts=
sru_opts=
strode_opts=
odernn_opts=
# nnet1's DNN splices +-5 frames; utterance minibatches of 2 give it about the updates per epoch
# of nnet1's 256-frame minibatches (acoustic/am/BASELINES.md: held-out accuracy 26 % vs 6.5 % at 16)
dnn_opts="--left-context=5 --right-context=5 --minibatch-utts=2"
parallel_models=true
teacher=
teacher_prior=true
teacher_opts=
distill_weight=0
realign_iters=0
realign_model=
mmi_epochs=0
mmi_learning_rate=0.00002
mmi_ali=gmm
sequence_criterion=mmi
mmi_opts=
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
gmm_min_lmwt=7
gmm_max_lmwt=17
word_ins_penalty="0.0 0.5 1.0"
strode=

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
. "$root/recipes/local/parse_options.sh"
[ $# = 0 ] || { echo "$0: unexpected argument $1 (see --help)" >&2; exit 1; }
if [ -n "$learn_rate" ]; then
  echo "$0: WARNING: --learn-rate is deprecated: use --learning-rate" >&2
  if [ -n "$learning_rate" ] && [ "$learning_rate" != "$learn_rate" ]; then
    echo "$0: --learning-rate $learning_rate and --learn-rate $learn_rate disagree (--learn-rate is the deprecated name of --learning-rate)" >&2; exit 1
  fi
  learning_rate=$learn_rate
fi
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
# The work of every stage: recipes/kaldi/steps.sh (functions of the settings, read when called).
. "$root/recipes/kaldi/steps.sh"
. "$root/recipes/kaldi/steps_sp.sh"  # --speed-perturb
. "$root/recipes/kaldi/steps_feats.sh"
. "$root/recipes/kaldi/steps_mmi.sh"     # --mmi-epochs
# From scratch (--dict): the lang, graph and alignments are this recipe's own (stages 0 and 3),
# unless --graph names a graph you have.
from_scratch=false; mono=$exp/strode_mono; own_graph=false
if [ -n "$dict" ]; then
  from_scratch=true
  [ "$graph" != exp/tri3/graph ] || { graph=$mono/graph; own_graph=true; }
  case "$flat_start" in
    gmm) : ${flat_start_rounds:=0} ;;
    equal) : ${flat_start_rounds:=2} ;;
    *) echo "$0: --flat-start must be gmm or equal, not '$flat_start'" >&2; exit 1 ;;
  esac
  case "$flat_start_rounds" in ''|*[!0-9]*) echo "$0: --flat-start-rounds must be a whole number, not '$flat_start_rounds'" >&2; exit 1 ;; esac
  mono_ali=${mono}_ali$flat_start_rounds; ali=$mono_ali
  # The GMM ladder above the monophone system, and the rung the networks train on: tri3 (and
  # its fMLLR features as the networks' inputs, --nnet-feats auto), measured better than the
  # monophone tree on fbank on speechocean762 and FSDD; --quick proves the pipeline in minutes
  # and keeps the monophone.
  # A tree of --num-leaves on the monophone alignments is a monophone-ladder option: no climb then.
  if $quick || { [ -n "$num_leaves" ] && [ "$num_leaves" != 0 ]; }; then : ${gmm_ladder:=mono}; else : ${gmm_ladder:=tri3}; fi
  # --num-leaves builds the networks' own tree on the monophone alignments: given, the networks
  # train on that (--nnet-ali mono) unless told otherwise, which contradicts it.
  if [ -z "$nnet_ali" ]; then
    if [ -n "$num_leaves" ] && [ "$num_leaves" != 0 ]; then nnet_ali=mono; else nnet_ali=$gmm_ladder; fi
  elif [ "$nnet_ali" != mono ] && [ -n "$num_leaves" ] && [ "$num_leaves" != 0 ]; then
    echo "$0: --num-leaves $num_leaves builds the networks' tree on the monophone alignments, --nnet-ali $nnet_ali gives them that rung's tree: pass one of them" >&2; exit 1
  fi
  case "$gmm_ladder" in mono|tri1|tri2|tri3) ;; *) echo "$0: --gmm-ladder must be mono, tri1, tri2 or tri3, not '$gmm_ladder'" >&2; exit 1 ;; esac
  [[ " $(ladder_upto $gmm_ladder) " == *" $nnet_ali "* ]] ||
    { echo "$0: --nnet-ali $nnet_ali is not a rung of --gmm-ladder $gmm_ladder ($(ladder_upto $gmm_ladder))" >&2; exit 1; }
  for x in tri1_leaves tri1_gauss tri2_leaves tri2_gauss tri3_leaves tri3_gauss; do
    case "${!x}" in auto) ;; ''|*[!0-9]*|0) echo "$0: --${x//_/-} must be a positive whole number or auto, not '${!x}'" >&2; exit 1 ;; esac
  done
  if [ "$gmm_ladder" = tri3 ]; then
    for x in train_sat.sh align_fmllr.sh decode_fmllr.sh; do
      [ -f "$root/recipes/steps/$x" ] || { echo "$0: --gmm-ladder tri3 needs recipes/steps/$x, which this strode lacks" >&2; exit 1; }
    done
  fi
  # --num-leaves N: context-dependent targets, a tree built on the monophone alignments (auto
  # unless --quick, which keeps monophone targets and minutes).
  [ -n "$num_leaves" ] || { if $quick; then num_leaves=0; else num_leaves=auto; fi; }
  case "$num_leaves" in auto) ;; ''|*[!0-9]*) echo "$0: --num-leaves must be a whole number or auto, not '$num_leaves'" >&2; exit 1 ;; esac
  tri=$exp/strode_tri
  case "$tree_feats" in mfcc|fbank) ;; *) echo "$0: --tree-feats must be mfcc or fbank, not '$tree_feats'" >&2; exit 1 ;; esac
  if [ "$nnet_ali" != mono ]; then
    # The networks' targets are the rung's alignments (its tree), decoded with its graph.
    num_leaves=0; ali=$(rung_ali $nnet_ali)
    ! $own_graph || graph=$(rung_dir $nnet_ali)/graph
  elif [ "$num_leaves" != 0 ]; then
    ali=${tri}_ali
    ! $own_graph || graph=$tri/graph
  fi
fi
nnet_train=$train  # the networks' training set: --train, or with --speed-perturb its copy (use_sp)
sp_settings
# --causal: nothing looks ahead (strode train --causal refuses what would) and CMVN is online.
causal_flag=; global_cmvn=$exp/strode_online/global_cmvn.stats
if $causal; then
  bidirectional=false; causal_flag=--causal
  [ "$num_jobs_final" -le 1 ] || { echo "$0: --causal trains in one job (--num-jobs-final 1)" >&2; exit 1; }
fi
if [ -n "$teacher" ]; then
  [ "$num_jobs_final" -le 1 ] || { echo "$0: --teacher trains in one job per model (--num-jobs-final 1)" >&2; exit 1; }
elif [ "$distill_weight" != 0 ]; then
  echo "$0: --distill-weight $distill_weight needs --teacher DIR (the model whose posteriors are the soft targets)" >&2; exit 1
fi
check_nnet_feats
check_mmi
[ -n "$decode_mdl" ] || decode_mdl=$(dirname "$graph")/final.mdl
# --rescore-lm: the first pass's G.fst is LANG_test's (from scratch, or a Kaldi lang_test beside LANG).
if [ -n "$rescore_lm" ]; then
  [ -n "$rescore_old_lang" ] || { if $from_scratch || [ -f ${lang}_test/G.fst ]; then rescore_old_lang=${lang}_test; else rescore_old_lang=$lang; fi; }
  case "$rescore_lm" in
    *[!0-9]*) ;;
    *) $from_scratch || { echo "$0: --rescore-lm $rescore_lm (an order) estimates the LM from scratch only (--dict); pass an ARPA file" >&2; exit 1; } ;;
  esac
fi
[ -n "$realign_model" ] || realign_model=${models%% *}
[ -z "$fbank_config" ] && [ -f conf/fbank.conf ] && fbank_config=conf/fbank.conf
# Without an fbank config, the sampling rate is the experiment's MFCC one (conf/mfcc.conf
# names it whenever the corpus is not 16 kHz): fbank of 8 kHz telephone speech must say so.
if [ -z "$fbank_config" ] && [ -f conf/mfcc.conf ] && [[ " $fbank_opts" != *--sample-frequency* ]]; then
  sf=$(sed -n 's/^ *--sample-frequency=\([0-9.]*\).*/\1/p' conf/mfcc.conf | tail -n 1)
  [ -z "$sf" ] || fbank_opts="$fbank_opts --sample-frequency=$sf"
fi
fbank_all="$fbank_opts${fbank_config:+ --config=$fbank_config}"
# The flat start's MFCC: the experiment's conf/mfcc.conf when it has one (Kaldi's make_mfcc.sh).
[ -z "$mfcc_config" ] && [ -f conf/mfcc.conf ] && mfcc_config=conf/mfcc.conf
# Without an MFCC config, the MFCC's sampling rate (and resampling permissions) are the fbank's:
# the GMMs' MFCC of 8 kHz speech given only --fbank-opts "--sample-frequency=8000" must say so too.
if [ -z "$mfcc_config" ] && [[ " $mfcc_opts" != *--sample-frequency* ]]; then
  for x in $({ [ -z "$fbank_config" ] || cat $fbank_config; echo " $fbank_opts"; } | tr ' ' '\n' |
      grep -E '^--(sample-frequency|allow-downsample|allow-upsample)='); do
    mfcc_opts="$mfcc_opts $x"
  done
fi
mfcc_all="$mfcc_opts${mfcc_config:+ --config=$mfcc_config}"

# Model sizes: --quick proves the pipeline in a couple of minutes; the default is the
# small CPU preset (DESIGN.md §3 gives the paper's 9 x 900).
if $quick; then
  : ${align_epochs:=3}; : ${mono_gauss:=300}; : ${gmm_iters:=20}
  : ${hidden:=128}; : ${layers:=2}; : ${epochs:=8}; : ${minibatch_utts:=4}; : ${learning_rate:=0.003}
  model_opts="--ode-state=16 --ode-hidden=16 --phi-hidden=16 --prior-hidden=16"
else
  : ${align_epochs:=6}; : ${mono_gauss:=1000}; : ${gmm_iters:=35}
  : ${hidden:=256}; : ${layers:=3}; : ${epochs:=20}; : ${minibatch_utts:=8}; : ${learning_rate:=0.002}
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

if [ "$corpus" = chime5 ] && run_stage 0; then
  log_stage 0 "CHiME-5 worn-microphone data dirs from $chime5_dir"
  chime5_data_dir train $train
  chime5_data_dir dev $dev
fi

if $from_scratch && run_stage 0; then
  check_dict_inputs
  log_stage 0 "from scratch: lang dir $lang, a $lm_order-gram LM and HCLG from $dict"
  echo "   the GMM ladder up to $gmm_ladder; the networks on ${nnet_ali}'s alignments$([ "$num_leaves" = 0 ] || echo " (a tree of $num_leaves leaves)"), $nnet_feats inputs"
  make_lang
  make_lm
  for src in $sets; do lm_ppl $src; done
  make_graph
fi

# The files the chosen stages need are checked whatever the stages: a missing file is found
# now, not an hour into training.
check_files
if run_stage 1; then
  log_stage 1 "check the layout in $PWD"
  check_layout
fi

if run_stage 2; then
  log_stage 2 "fbank features and CMVN stats per speaker ($fbank_all)"
  for src in $train $sets; do make_fbank $src; done
  if $speed_perturb; then log_stage 2 "speed perturbation of $train (0.9 1.0 1.1) into $sp_train, its fbank"; make_sp_data; fi
  ! $causal || make_global_cmvn
fi

if $from_scratch && run_stage 3; then
  log_stage 3 "from scratch: flat start, then $flat_start_rounds rounds of training and realignment"
  if [ "$flat_start" = gmm ]; then train_mono; else flat_start; fi
  for r in $(seq 1 $flat_start_rounds); do align_round $r; done
  for r in $(ladder_rungs); do
    log_stage 3 "GMM ladder: $r ($(rung_dir $r)) from $(rung_ali $(ladder_below $r)), alignments $(rung_ali $r)"
    train_rung $r
  done
  [ "$num_leaves" = 0 ] || build_tree
  if $speed_perturb; then log_stage 3 "align $sp_train with the $nnet_ali GMM ($(rung_dir $nnet_ali)) into $sp_ali"; align_sp; fi
fi
use_sp  # --speed-perturb: from here the networks' data, targets and priors are the perturbed set's
if run_stage 3; then
  log_stage 3 "targets: $ali/ali.*.gz through $ali/final.mdl; priors"
  make_counts $ali
  count_targets
fi

# --nnet-feats fmllr: from here on the networks read the tri3 system's fMLLR features.
if [ "$nnet_feats" = fmllr ] && { run_stage 4 || run_stage 5 || run_stage 6; }; then
  log_stage 4 "the networks' inputs: fMLLR features of $(rung_dir tri3)"; use_fmllr_feats
fi
if run_stage 4; then
  log_stage 4 "train $models on $ali"
  split_tr_cv
  report_sp
  train_teacher $ali
  train_models $ali ""
fi

if [ "$realign_iters" != 0 ] && run_stage 5; then
  for r in $(seq 1 $realign_iters); do
    log_stage 5 "round $r: align the training data with $(realign_src $r), retrain on it"
    realign $r
    train_models $exp/${realign_model}_ali$r _realign$r
  done
fi

if [ "$mmi_epochs" != 0 ] && run_stage 5; then
  log_stage 5 "$(criterion_name) sequence training of $models: $mmi_epochs epochs from the cross-entropy models (denominator lattices on a unigram graph)"
  make_dengraph
  for r in "${runs[@]}"; do train_mmi $r; done
fi
# The runs decoded and scored: the cross-entropy ones, and with --mmi-epochs their MMI models.
mapfile -t decoded < <(mmi_runs)

if run_stage 6; then
  log_stage 6 "decode $(echo $sets) with $graph"
  for src in $sets; do make_set_fmllr_feats $src; done
  for r in "${decoded[@]}"; do
    for src in $sets; do decode_set $r $src; ! $causal || ! streams $r $src || decode_online $r $src; done
  done
  if [ -n "$rescore_lm" ]; then
    make_rescore_lang
    for r in "${decoded[@]}"; do for src in $sets; do rescore_set $r $src; done; done
  fi
  # The flat start's GMM on the monophone graph, as a Kaldi user's exp/mono would be decoded, and
  # every rung of the ladder with its own graph.
  if $from_scratch && [ "$flat_start" = gmm ] && $own_graph; then
    for src in $sets; do decode_gmm $src; done
  fi
  if $from_scratch && [ -n "$(ladder_rungs)" ]; then
    log_stage 6 "decode $(echo $sets) with the GMM ladder: $(echo $(ladder_rungs))"
    for r in $(ladder_rungs); do for src in $sets; do decode_rung $r $src; done; done
  fi
fi

if run_stage 7; then
  log_stage 7 "score (LM weights $min_lmwt-$max_lmwt, the GMMs' $gmm_min_lmwt-$gmm_max_lmwt; penalties $word_ins_penalty) and results"
  : > $exp/strode_compare.runs
  gmm_dirs=
  if $from_scratch; then
    [ ! -f ${mono}_gmm/decode_$(basename ${sets%% *})/best_wer ] || gmm_dirs=${mono}_gmm
    for r in $(ladder_rungs); do
      for src in $sets; do score_rung $r $src; done
      gmm_dirs="$gmm_dirs $(rung_dir $r)"
    done
  fi
  for r in "${decoded[@]}"; do
    for src in $sets; do
      score_set $r $src; ! $causal || ! streams $r || score_set $r $src _online; [ -z "$rescore_lm" ] || score_set $r $src _rescore
    done
  done
  # The target set of the models (the pdfs of their alignments' model), and from scratch the
  # LM's perplexity and OOV rate per set.
  pdfs=$($strode hmm-info $final_ali/final.mdl 2>/dev/null | awk '/number of pdfs/ {print $4}')
  targets="$(basename $ali) ($pdfs pdfs)"; lm_opt=
  if $from_scratch; then
    targets="mono ($pdfs pdfs)"; [ "$num_leaves" = 0 ] || targets="tree ($pdfs leaves)"
    [ "$nnet_ali" = mono ] || targets="$nnet_ali ($pdfs leaves)"
    ! $speed_perturb || targets="$targets, speed-perturbed x3"
    [ "$nnet_feats" = fbank ] || targets="$targets, tri3 fMLLR inputs"
    lm_opt=--lm-dir=$exp/strode_lm
  fi
  $strode results-table --print-args=false --targets="$targets" $lm_opt \
    --md=$exp/strode_results.md --json=$exp/strode_results.json $gmm_dirs \
    $(for r in "${decoded[@]}"; do final_dir $(run_name $r); done)
  echo "   (also in $exp/strode_results.md and $exp/strode_results.json)"
  if [ -n "$seeds" ]; then
    echo "   paired comparison over seeds $seeds (strode compare; $exp/strode_compare.md)"
    $strode compare --print-args=false --baseline=${models%% *} --json=$exp/strode_compare.json --png=$exp/strode_compare.png \
      $exp/strode_compare.runs | tee $exp/strode_compare.md
  fi
fi
