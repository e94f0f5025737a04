#!/usr/bin/env bash
# strode — the main recipe. Stages run top to bottom; --stage/--stop-stage
# pick a range, as in Kaldi recipes.
#
# Stage 0 builds the `strode` binary into ./bin. Later stages (the speech
# recipe on the built-in corpus) are added as the toolkit grows; until then the
# recipe shows what the binary offers.
set -euo pipefail
stage=0
stop_stage=100
while [ $# -gt 0 ]; do
  case "$1" in
    --stage) stage=$2; shift 2 ;;
    --stage=*) stage=${1#*=}; shift ;;
    --stop-stage) stop_stage=$2; shift 2 ;;
    --stop-stage=*) stop_stage=${1#*=}; shift ;;
    *) echo "run.sh: unknown option $1" >&2; exit 1 ;;
  esac
done
cd "$(dirname "$0")"
command -v go >/dev/null || { echo "run.sh: Go is required (https://go.dev/doc/install)" >&2; exit 1; }

if [ "$stage" -le 0 ] && [ "$stop_stage" -ge 0 ]; then
  echo "== stage 0: build strode"
  mkdir -p bin
  go build -o bin/strode ./cmd/strode
  bin/strode --help
fi
