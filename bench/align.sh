#!/usr/bin/env bash
# Forced-alignment speed on ../shared/kaldi-mini: our align-compiled-mapped
# core (and compile-train-graphs + align) over the five golden test
# utterances with Kaldi's GMM log-likelihoods and Kaldi's align-script
# options (beam 10, retry-beam 40, acoustic scale 0.1, self-loop scale 0.1).
# Prints the median real-time factor over COUNT runs (default 5).
#
# Peer: Kaldi's own align-compiled-mapped would be the peer, but Kaldi is
# not packaged by Debian and not installed here, so this script reports our
# figures only (it runs Kaldi too when `align-compiled-mapped` is on PATH).
set -euo pipefail
cd "$(dirname "$0")/.."
COUNT=${COUNT:-5}
echo "nproc: $(nproc); cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"
out=$(go test -run '^$' -bench 'KaldiMini' -benchtime 2s -count "$COUNT" ./decoder/)
echo "$out" | grep -E '^Benchmark'
for b in $(echo "$out" | awk '/^Benchmark/ {print $1}' | sort -u); do
  vals=$(echo "$out" | awk -v b="$b" '$1 == b { for (i = 1; i < NF; i++) if ($(i+1) == "RTF") print $i }' | sort -g)
  n=$(echo "$vals" | wc -l)
  echo "$b median RTF $(echo "$vals" | sed -n "$(( (n + 1) / 2 ))p") over $n runs"
done
if command -v align-compiled-mapped >/dev/null 2>&1; then
  K=../shared/kaldi-mini
  start=$(date +%s.%N)
  align-compiled-mapped --beam=10 --retry-beam=40 --transition-scale=1.0 --self-loop-scale=0.1 --acoustic-scale=0.1 \
    $K/exp/mono/final.mdl ark:$K/golden/test5_graphs.fsts ark:$K/golden/test5_loglikes.ark ark:/dev/null 2>/dev/null
  end=$(date +%s.%N)
  echo "Kaldi align-compiled-mapped (one run, includes start-up): $(echo "$end - $start" | bc) s for 8.77 s of audio"
else
  echo "peer: Kaldi's align-compiled-mapped not on PATH (not packaged by Debian); no ratio reported"
fi
