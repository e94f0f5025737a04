#!/usr/bin/env bash
# strode — the main recipe: SRU and SRU+STRODE acoustic models on real speech
# (the Free Spoken Digit Dataset, 8 kHz), trained on all speakers but the held-out
# ones, decoded with a one-digit grammar and scored with compute-wer.
#
#   ./run.sh [--quick] [--stage N] [--stop-stage N] [--fsdd-dir DIR] [--fsdd-url URL] [--fetch-only]
#            [--test-speakers "A B"] [--exp-dir DIR] [--strode PATH] [any option of recipes/fsdd/run.sh]
#
# The corpus: --fsdd-dir DIR when given (used as is), else ../shared/data/fsdd,
# else the cache data/fsdd; when none has recordings/, `strode fetch-fsdd`
# downloads release v1.0.10 (3,000 recordings, 6 speakers; --fsdd-url overrides
# the address, e.g. file:///tmp/fsdd-v1.0.10.tar.gz) into data/fsdd, checking
# every file against recipes/fsdd/SHA256SUMS.upstream-v1.0.10. The
# recordings are CC BY-SA 4.0 (Zohar Jackson et al.; see recipes/fsdd/doc.go).
# --fetch-only finds or downloads the corpus, prints its folder and stops.
#
# The stages (data and dict dirs, then the from-scratch pipeline
# recipes/kaldi/run.sh --dict: lang, LM and graph, fbank, flat start,
# realignment with the network, priors, training, decoding; then a
# forward/latgen consistency check and test-speaker adaptation) live in
# recipes/fsdd/run.sh, which this script runs with the project's defaults;
# see that file for what each stage does. Results: $exp_dir/results.json and
# the compute-wer lines in $exp_dir/{sru,strode}/decode_test/wer.
# --quick trains smaller models on fewer utterances (minutes, not tens of minutes).
# The strode binary: --strode PATH, else $STRODE, else bin/strode, built with Go when missing
# or older than the sources (recipes/local/strode_bin.sh, which names how to install Go).
set -euo pipefail
cd "$(dirname "$0")"

fsdd_dir=
fsdd_url=
fetch_only=false
test_speakers=george
exp_dir=exp/fsdd
strode=
forward_options=()  # the options of recipes/fsdd/run.sh, handed on as they are
. recipes/local/parse_options.sh
[ $# = 0 ] || { echo "run.sh: unexpected argument $1 (see ./run.sh --help)" >&2; exit 1; }

# Where the recordings are: --fsdd-dir, ../shared, the cache, else download.
if [ -n "$fsdd_dir" ]; then
  if [ ! -d "$fsdd_dir/recordings" ]; then
    echo "run.sh: --fsdd-dir $fsdd_dir has no recordings/ folder (FSDD's NAME_SPEAKER_INDEX.wav files)." >&2
    echo "  Leave --fsdd-dir out to use ../shared/data/fsdd or data/fsdd, or to download the corpus." >&2
    exit 1
  fi
elif [ -d ../shared/data/fsdd/recordings ]; then
  fsdd_dir=../shared/data/fsdd
elif [ -d data/fsdd/recordings ]; then
  fsdd_dir=data/fsdd
else
  . recipes/local/strode_bin.sh
  echo "== no FSDD copy in ../shared/data/fsdd or data/fsdd: downloading release v1.0.10 into data/fsdd" >&2
  if ! "$strode" fetch-fsdd --sums="$PWD/recipes/fsdd/SHA256SUMS.upstream-v1.0.10" \
      ${fsdd_url:+--url="$fsdd_url"} data/fsdd >/dev/null; then
    echo "run.sh: could not fetch FSDD (above: why, and how to place the files by hand);" >&2
    echo "  with the archive at hand: ./run.sh --fsdd-url file:///path/to/fsdd-v1.0.10.tar.gz" >&2
    exit 1
  fi
  fsdd_dir=data/fsdd
fi
echo "== FSDD recordings: $fsdd_dir/recordings" >&2
if $fetch_only; then
  echo "$fsdd_dir"
  exit 0
fi
. recipes/local/strode_bin.sh
exec recipes/fsdd/run.sh --strode "$strode" --fsdd-dir "$fsdd_dir" \
  --test-speakers "$test_speakers" --exp-dir "$exp_dir" ${forward_options[@]+"${forward_options[@]}"}
