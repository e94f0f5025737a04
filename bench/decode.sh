#!/usr/bin/env bash
# decode.sh: decoding real-time factor of strode's latgen-faster-mapped search
# (decoder/search, LatticeDecoder + determinization, Kaldi's default beams:
# --beam 16 --lattice-beam 10 --max-active unlimited, acoustic scale 0.1) on
# one core (GOMAXPROCS=1):
#   (a) kaldi-mini's HCLG with its GMM log-likelihoods (5 utterances, 877 frames)
#   (b) a 5,000-word bigram graph with oracle-noisy log-likelihoods, built in
#       the benchmark's setup (see decoder/search/bigram_bench_test.go)
# Prints every run's RTF, the median, and the ratio to the issue's goals.
#
# No peer runs in the same run: Kaldi's decoders are not packaged in Debian,
# so the Kaldi figure quoted (RTF ≈ 0.004 for (a)) comes from the issue text,
# not from this machine.
#
#   bench/decode.sh                       # from the repository root
#   COUNT=7 bench/decode.sh
# Environment: COUNT (default 5) runs per benchmark; ONLY=a or ONLY=b runs one
# of the two; KALDI_MINI (default
# ../shared/kaldi-mini); BIN: a prebuilt test binary of decoder/search
# (go test -c -o BIN ./decoder/search), else it is built into bench/out/decode/.
set -euo pipefail
cd "$(dirname "$0")/.."

COUNT=${COUNT:-5}
KALDI_MINI=${KALDI_MINI:-$(cd .. && pwd)/shared/kaldi-mini}
OUT=bench/out/decode
mkdir -p "$OUT"
[ -f "$KALDI_MINI/MANIFEST.md" ] || { echo "decode.sh: kaldi-mini not found at $KALDI_MINI (set KALDI_MINI)" >&2; exit 1; }
BIN=${BIN:-}
if [ -z "$BIN" ]; then
	BIN=$OUT/search.test
	go test -c -o "$BIN" ./decoder/search
fi
export STRODE_KALDI_MINI=$KALDI_MINI

median() { sort -g | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

run() { # name benchtime
	GOMAXPROCS=1 "$BIN" -test.run '^$' -test.bench "^$1\$" -test.benchtime "$2" -test.count "$COUNT" |
		tee "$OUT/$1.txt" | awk '/RTF/ { for (i = 1; i <= NF; i++) if ($(i + 1) == "RTF") print $i }'
}

echo "nproc $(nproc); $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'); load $(cut -d' ' -f1-3 /proc/loadavg)"
ONLY=${ONLY:-ab}
if [[ $ONLY == *a* ]]; then
a=$(run BenchmarkLatgenMini 40x)
echo "(a) kaldi-mini HCLG, GMM loglikes: RTF runs: $(echo $a)"
ma=$(echo "$a" | tr ' ' '\n' | median)
echo "(a) median RTF $ma; goal 0.005 -> ratio $(awk -v m="$ma" 'BEGIN { printf "%.2f", m / 0.005 }') of goal; vs Kaldi's quoted 0.004: $(awk -v m="$ma" 'BEGIN { printf "%.2f", m / 0.004 }')x"
fi
if [[ $ONLY == *b* ]]; then
b=$(run BenchmarkLatgenBigram5k 1x)
echo "(b) 5,000-word bigram, oracle-noisy loglikes: RTF runs: $(echo $b)"
mb=$(echo "$b" | tr ' ' '\n' | median)
echo "(b) median RTF $mb; goal 0.1 -> ratio $(awk -v m="$mb" 'BEGIN { printf "%.2f", m / 0.1 }') of goal"
fi
