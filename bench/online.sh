#!/usr/bin/env bash
# online.sh: streaming recognition speed of strode online2-wav-latgen-faster's
# loop (acoustic/kaldinnet/online BenchmarkOnline): the four kaldi-golden
# utterances (6.2 s of 16 kHz speech) decoded online with a causal strode
# model of the small preset (4 x 256 SRU, ODE state 64, random weights) on 23
# fbank with 4 frames of left context, online CMVN, kaldi-mini's HCLG and
# Kaldi's default beams (--beam 16 --lattice-beam 10, no max-active), on one
# core (GOMAXPROCS=1, pinned with taskset when it is there), for chunks of
# 0.1, 0.2, 0.5 and 1 s.
#
# Prints per chunk length the median over COUNT runs of
#   RTF       compute seconds per second of audio (wall clock)
#   CPU RTF   the process's CPU seconds per second of audio (what a loaded,
#             shared machine does not inflate)
#   p50, p95  per-chunk compute latency in ms: from a chunk's arrival to the
#             decoder having consumed it (features, CMVN, model, search,
#             partial result), over every chunk of the run
# The algorithmic latency (25 ms for a causal model: one analysis window)
# and the chunk's own length come on top of the compute latency.
#
# No peer runs: Kaldi's online2 binaries are not packaged in Debian.
#
#   bench/online.sh                   # from the repository root
#   COUNT=5 bench/online.sh
# Environment: COUNT (default 3) runs per chunk length; BIN: a prebuilt test
# binary (go test -c -o BIN ./acoustic/kaldinnet/online), else it is built
# into bench/out/online/.
set -euo pipefail
cd "$(dirname "$0")/.."

COUNT=${COUNT:-3}
OUT=bench/out/online
mkdir -p "$OUT"
BIN=${BIN:-}
if [ -z "$BIN" ]; then
	BIN=$OUT/online.test
	go test -c -o "$BIN" ./acoustic/kaldinnet/online
fi
PIN=()
if command -v taskset >/dev/null 2>&1; then
	PIN=(taskset -c 0)
fi
# The test binary finds the reference data from the package directory.
(cd acoustic/kaldinnet/online && GOMAXPROCS=1 "${PIN[@]}" "$OLDPWD/$BIN" -test.run '^$' \
	-test.bench '^BenchmarkOnline$' -test.benchtime 1x -test.count "$COUNT") > "$OUT/bench.txt"

awk '
/^BenchmarkOnline\/chunk=/ {
	name = $1; sub(/^BenchmarkOnline\/chunk=/, "", name); sub(/-[0-9]+$/, "", name)
	for (i = 2; i < NF; i++) {
		if ($(i+1) == "rtf") rtf[name] = rtf[name] " " $i
		if ($(i+1) == "cpu-rtf") cpu[name] = cpu[name] " " $i
		if ($(i+1) == "chunk-p50-ms") p50[name] = p50[name] " " $i
		if ($(i+1) == "chunk-p95-ms") p95[name] = p95[name] " " $i
	}
	if (!(name in seen)) { seen[name] = 1; order[++n] = name }
}
function median(s,   a, k, i, j, t) {
	k = split(s, a, " ")
	for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
	return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
}
END {
	printf "%-8s %8s %8s %10s %10s\n", "chunk", "RTF", "CPU RTF", "p50 ms", "p95 ms"
	for (i = 1; i <= n; i++) {
		c = order[i]
		printf "%-8s %8.4f %8.4f %10.2f %10.2f\n", c, median(rtf[c]), median(cpu[c]), median(p50[c]), median(p95[c])
	}
}' "$OUT/bench.txt"
echo "(median of $COUNT runs, one core; raw output in $OUT/bench.txt)"
