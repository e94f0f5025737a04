#!/usr/bin/env bash
# strode — the main recipe: SRU and SRU+STRODE acoustic models on real speech
# (the Free Spoken Digit Dataset, 8 kHz), trained on all speakers but the held-out
# ones, decoded with a one-digit grammar and scored with compute-wer.
#
#   ./run.sh [--quick] [--stage N] [--stop-stage N] [--fsdd-dir DIR] [--test-speakers "A B"] [--exp-dir DIR]
#
# The stages (data, fbank, lang + graph, flat start, realignment with the
# network, priors, training, decoding, a forward/latgen consistency check) live
# in recipes/fsdd/run.sh, which this script runs with the project's defaults;
# see that file for what each stage does. Results: $exp_dir/results.json and
# the compute-wer lines in $exp_dir/{sru,strode}/decode_test/wer.
# --quick trains smaller models on fewer utterances (minutes, not tens of minutes).
set -euo pipefail
cd "$(dirname "$0")"
command -v go >/dev/null || { echo "run.sh: Go is required (https://go.dev/doc/install)" >&2; exit 1; }

fsdd_dir=../shared/data/fsdd
test_speakers=george
exp_dir=exp/fsdd
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --fsdd-dir) fsdd_dir=$2; shift 2 ;;
    --test-speakers) test_speakers=$2; shift 2 ;;
    --exp-dir) exp_dir=$2; shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
if [ ! -d "$fsdd_dir/recordings" ]; then
  echo "run.sh: no FSDD recordings in $fsdd_dir/recordings." >&2
  echo "  Point --fsdd-dir at a copy of the Free Spoken Digit Dataset (its recordings/ folder of NAME_SPEAKER_INDEX.wav files)." >&2
  exit 1
fi
echo "== building strode"
mkdir -p bin
go build -o bin/strode ./cmd/strode
exec recipes/fsdd/run.sh --strode "$PWD/bin/strode" --fsdd-dir "$fsdd_dir" \
  --test-speakers "$test_speakers" --exp-dir "$exp_dir" "${args[@]}"
