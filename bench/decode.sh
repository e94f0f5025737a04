#!/usr/bin/env bash
# decode.sh: decoding real-time factor of strode's latgen-faster-mapped search
# (decoder/search, LatticeDecoder + determinization, Kaldi's default beams:
# --beam 16 --lattice-beam 10 --max-active unlimited, acoustic scale 0.1) on
# one core (GOMAXPROCS=1):
#   (a) kaldi-mini's HCLG with its GMM log-likelihoods (5 utterances, 877 frames)
#   (b) the graph-building issue's 5,000-word bigram graph (synthetic lexicon,
#       10 successors per history, HCLG 173,178 states / 470,116 arcs from
#       decoder/mkgraph's mkgraph chain, as bench/mkgraph.sh builds it) with
#       oracle-noisy log-likelihoods, built in the benchmark's setup (see
#       decoder/search/bigram_bench_test.go)
# Prints every run's RTF, the median, and the ratio to the issue's goals;
# with each the CPU RTF (the process's user+system CPU time per second of
# audio), which on a shared, loaded machine measures our own work where wall
# time also counts other processes' turns on the cores. Set ONLY=s as well to
# time (b)'s search alone (no determinization) with its work per frame:
# tokens, arcs, links and pruning visits per frame, and arcs per second.
# ONLY=d times (b) on the hand-built, epsilon-heavy graph that sessions 5-8
# measured instead (decoder/search/bigram_direct_test.go: 20 successors,
# nothing determinized or epsilon-removed, ~60% more tokens per frame).
#
# The oracle-noisy log-likelihoods of (b): 3 utterances of 30 words, a random
# word sequence drawn as a walk over G's word arcs, each HMM state of each
# word lasting 1 + Geometric(1/2) frames; on every frame the true pdf has
# log-likelihood 0 and every other pdf -10 + N(0, 2^2), seeds fixed. The
# issue fixes only sigma = 2; the mean of the wrong pdfs is ours: -10 is a
# confident network's log-probability for a wrong class, so that at acoustic
# scale 0.1 a wrong pdf costs about 1 per frame and the true words win. At
# Kaldi's default beams (beam 16, no max-active) this leaves about 6,400
# tokens per frame active.
#
# No peer runs in the same run: Kaldi's decoders are not packaged in Debian,
# so the Kaldi figure quoted (RTF ≈ 0.004 for (a)) comes from the issue text,
# not from this machine.
#
#   bench/decode.sh                       # from the repository root
#   COUNT=7 bench/decode.sh
# Environment: COUNT (default 5) runs per benchmark; ONLY=a, b, s or d (or a
# combination such as ab, the default) picks benchmarks; KALDI_MINI (default
# ../shared/kaldi-mini); BIN: a prebuilt test binary of decoder/search
# (go test -c -o BIN ./decoder/search), else it is built into bench/out/decode/;
# BASE: a test binary of decoder/search built from another commit (e.g.
#   git worktree add /tmp/base COMMIT && (cd /tmp/base && go test -c -o /tmp/base.test ./decoder/search))
# whose runs alternate with ours, one by one, and whose median CPU RTF the
# ratios are taken against: on a shared machine the load then weighs on
# both alike.
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

median() { tr ' ' '\n' | sort -g | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

BASE=${BASE:-}
run() { # name benchtime: runs the benchmark (alternating with BASE's), keeps the output in $OUT
	: >"$OUT/$1.txt"
	[ -z "$BASE" ] || : >"$OUT/$1.base.txt"
	for _ in $(seq "$COUNT"); do
		GOMAXPROCS=1 "$BIN" -test.run '^$' -test.bench "^$1\$" -test.benchtime "$2" >>"$OUT/$1.txt"
		[ -z "$BASE" ] || GOMAXPROCS=1 "$BASE" -test.run '^$' -test.bench "^$1\$" -test.benchtime "$2" >>"$OUT/$1.base.txt"
	done
}
metric() { # name unit [file suffix]: that metric of every run
	awk -v u="$2" '/RTF/ { for (i = 1; i <= NF; i++) if ($(i + 1) == u) print $i }' "$OUT/$1${3:-}.txt"
}
versus() { # name: the base's CPU RTF runs and our speed-up over its median
	[ -n "$BASE" ] || return 0
	local ours base
	ours=$(metric "$1" cpuRTF | median)
	base=$(metric "$1" cpuRTF .base | median)
	echo "    base $BASE: CPU RTF runs: $(metric "$1" cpuRTF .base | tr '\n' ' ')-> median $base; ours is $(awk -v o="$ours" -v b="$base" 'BEGIN { printf "%.2f", b / o }')x faster"
}

echo "nproc $(nproc); $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'); load $(cut -d' ' -f1-3 /proc/loadavg)"
ONLY=${ONLY:-ab}
if [[ $ONLY == *a* ]]; then
run BenchmarkLatgenMini 40x
a=$(metric BenchmarkLatgenMini RTF); ca=$(metric BenchmarkLatgenMini cpuRTF)
echo "(a) kaldi-mini HCLG, GMM loglikes: RTF runs: $(echo $a); CPU RTF runs: $(echo $ca)"
ma=$(echo "$a" | median); mca=$(echo "$ca" | median)
echo "(a) median RTF $ma (CPU $mca); goal 0.005 -> ratio $(awk -v m="$ma" 'BEGIN { printf "%.2f", m / 0.005 }') of goal (CPU $(awk -v m="$mca" 'BEGIN { printf "%.2f", m / 0.005 }')); vs Kaldi's quoted 0.004: $(awk -v m="$ma" 'BEGIN { printf "%.2f", m / 0.004 }')x"
versus BenchmarkLatgenMini
fi
if [[ $ONLY == *b* ]]; then
run BenchmarkLatgenBigram5k 1x
b=$(metric BenchmarkLatgenBigram5k RTF); cb=$(metric BenchmarkLatgenBigram5k cpuRTF)
echo "(b) 5,000-word bigram, oracle-noisy loglikes: RTF runs: $(echo $b); CPU RTF runs: $(echo $cb)"
mb=$(echo "$b" | median); mcb=$(echo "$cb" | median)
echo "(b) median RTF $mb (CPU $mcb); goal 0.1 -> ratio $(awk -v m="$mb" 'BEGIN { printf "%.2f", m / 0.1 }') of goal (CPU $(awk -v m="$mcb" 'BEGIN { printf "%.2f", m / 0.1 }'))"
versus BenchmarkLatgenBigram5k
fi
if [[ $ONLY == *d* ]]; then
run BenchmarkLatgenBigram5kDirect 1x
d=$(metric BenchmarkLatgenBigram5kDirect RTF); cd=$(metric BenchmarkLatgenBigram5kDirect cpuRTF)
echo "(b, hand-built graph of sessions 5-8) RTF runs: $(echo $d); CPU RTF runs: $(echo $cd)"
echo "(b, hand-built graph) median RTF $(echo "$d" | median) (CPU $(echo "$cd" | median))"
versus BenchmarkLatgenBigram5kDirect
fi
if [[ $ONLY == *s* ]]; then
run BenchmarkDecodeBigram5k 1x
s=$(metric BenchmarkDecodeBigram5k RTF); cs=$(metric BenchmarkDecodeBigram5k cpuRTF)
echo "(b) search alone: RTF runs: $(echo $s); CPU RTF runs: $(echo $cs)"
mcs=$(echo "$cs" | median)
echo "(b) search alone: median RTF $(echo "$s" | median) (CPU $mcs); work per frame:" \
	$(awk '/RTF/ { for (i = 3; i < NF; i++) if ($(i + 1) ~ /\/frame/) printf "%s %s, ", $i, $(i + 1); print ""; exit }' "$OUT/BenchmarkDecodeBigram5k.txt")
# arcs per CPU-second: arcs per frame x 100 frames per second of audio / CPU RTF
echo "(b) search alone: $(awk -v c="$mcs" '/RTF/ { for (i = 1; i < NF; i++) if ($(i + 1) == "arcs/frame") { printf "%.1f", $i * 100 / c / 1e6; exit } }' "$OUT/BenchmarkDecodeBigram5k.txt")M arcs per CPU-second (at the median CPU RTF)"
versus BenchmarkDecodeBigram5k
if [[ $ONLY == *b* ]]; then
	echo "(b) split: search $mcs, lattice output and determinization $(awk -v a="$mcb" -v b="$mcs" 'BEGIN { printf "%.4f", a - b }') CPU RTF (medians of (b) and search alone)"
fi
fi
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
