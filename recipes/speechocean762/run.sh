#!/usr/bin/env bash
# speechocean762 (openslr 101): read English sentences by 250 non-native speakers, 16 kHz, with
# a 2,604-word lexicon — strode's first real continuous-speech corpus, trained from scratch
# (no Kaldi GMM system) through the generic pipeline recipes/kaldi/run.sh --dict.
#
#   recipes/speechocean762/run.sh [--corpus-dir DIR] [--exp-dir exp/speechocean762] [--nj 2]
#       [--cmd run.pl] [--models "sru strode"] [--quick] [--stage N] [--stop-stage N]
#
# The corpus: --corpus-dir DIR, else ../shared/data/speechocean762 beside the repository, else
# the cache data/speechocean762 of the repository, else downloaded from --url (openslr's
# speechocean762.tar.gz), every file checked against recipes/speechocean762/SHA256SUMS.upstream;
# a failed download leaves no half-filled cache, and offline it stops at once with the commands
# to place the files by hand (strode fetch-speechocean762).
# Stages:
#   0 data dirs and dict dir (strode speechocean762-data-prep): train (the train half without the
#     dev speakers), dev (recipes/speechocean762/dev_speakers.txt: 13 speakers balanced by age and
#     gender), test when the corpus has it; data/local/dict from resource/lexicon.txt.
#     --quick keeps --quick-train-speakers [12] training speakers and --quick-dev-speakers [3]
#     dev speakers (the first of each list), and no test set.
#   1- recipes/kaldi/run.sh --dict data/local/dict in --exp-dir, with its stage numbers: lang, LM
#     and graph (0), layout check (1), fbank (2), flat start and realignment rounds, priors (3),
#     training (4), decoding and scoring of dev and test (6, 7); --stage and --stop-stage pass on
#     to it (stage 0 here is its stage 0 too). Its default climbs Kaldi's GMM ladder to tri3 (SAT)
#     and trains the networks on tri3's alignments and fMLLR features (RESULTS.md: the full train
#     half's rows); --quick keeps the monophone system and fbank.
# Options (defaults in brackets): --corpus-dir DIR --url URL --exp-dir DIR [exp/speechocean762]
#   --nj N [2] --cmd CMD [run.pl] --models "..." [sru strode] --seed N [777] --quick
#   --pipeline-opts "..." (more options for recipes/kaldi/run.sh) --strode PATH
# Results: EXP/strode_results.md and .json (WER per model and set), EXP/strode_lm/ppl_*.txt (the
# LM's perplexity and OOVs on dev and test).
set -euo pipefail

corpus_dir=
url=https://www.openslr.org/resources/101/speechocean762.tar.gz
exp_dir=exp/speechocean762
nj=2
cmd=run.pl
models="sru strode"
seed=777
quick=false
quick_train_speakers=12
quick_dev_speakers=3
pipeline_opts=
stage=0
stop_stage=100
strode=
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
. "$root/recipes/local/parse_options.sh"
[ $# = 0 ] || { echo "$0: unexpected argument $1 (see --help)" >&2; exit 1; }
. "$root/recipes/local/strode_bin.sh"
. "$root/recipes/local/jobs.sh"
mkdir -p $exp_dir; exp_dir=$(cd $exp_dir && pwd)
data=$exp_dir/data

if [ "$stage" -le 0 ] && [ "$stop_stage" -ge 0 ]; then
  log_stage 0 "speechocean762 data dirs and dict dir in $data"
  corpus=$($strode fetch-speechocean762 --print-args=false ${corpus_dir:+--corpus-dir="$corpus_dir"} \
    --shared-dir="$root/../shared/data/speechocean762" --url="$url" "$root/data/speechocean762")
  echo "   corpus: $corpus"
  rm -rf $data; mkdir -p $exp_dir/log
  quietly $exp_dir/log/data_prep.log $strode speechocean762-data-prep "$corpus" $data
  if $quick; then
    for s in train:$quick_train_speakers dev:$quick_dev_speakers; do
      set_name=${s%%:*}; n=${s#*:}
      cut -d' ' -f1 $data/$set_name/spk2utt | head -n $n > $data/$set_name.quick.spk
      quietly $exp_dir/log/subset_$set_name.log $strode subset-data-dir --spk-list $data/$set_name.quick.spk \
        $data/$set_name $data/${set_name}_quick
      rm -rf $data/$set_name; mv $data/${set_name}_quick $data/$set_name
    done
    rm -rf $data/test
  fi
  for d in train dev test; do
    [ -d $data/$d ] && echo "   $d: $(wc -l < $data/$d/utt2spk) utterances, $(wc -l < $data/$d/spk2utt) speakers"
  done
  grep -h -i 'missing from the lexicon\|oov' $exp_dir/log/data_prep.log | sed 's/^/   /' || true
fi

test_sets=; [ -d $data/test ] && test_sets=data/test
# --quick decodes with narrower beams: its weak models leave many hypotheses within 13 of the
# best, and the default beams decode at about real time on 2 cores.
quick_decode=; ! $quick || quick_decode="--beam 10 --lattice-beam 4 --max-active 2000"
# The generic pipeline, run in the experiment dir (paths relative to it, as in an s5 dir).
(
  cd $exp_dir
  $root/recipes/kaldi/run.sh --strode "$strode" --nj $nj --cmd "$cmd" --exp exp \
    --dict data/local/dict --lang data/lang --train data/train --dev data/dev --test "$test_sets" \
    --models "$models" --seed $seed --quick $quick --stage $stage --stop-stage $stop_stage \
    --fbank-opts "--num-mel-bins=40 --dither=0" $quick_decode $pipeline_opts
)
