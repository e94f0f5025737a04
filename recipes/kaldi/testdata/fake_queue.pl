#!/usr/bin/env bash
# A stand-in for a cluster's queue.pl: records its arguments (one line per call in
# $FAKE_QUEUE_LOG), then runs the job with strode's local runner, as a grid engine
# would run it on a node. The recipe must drive it exactly as it drives run.pl.
printf '%s\n' "$*" >> "${FAKE_QUEUE_LOG:?FAKE_QUEUE_LOG is not set}"
exec "${STRODE:?STRODE is not set}" run.pl "$@"
