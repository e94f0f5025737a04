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
# With EXP, a trained model instead: the experiment dir of a causal run of
# recipes/kaldi/run.sh (--causal true, e.g. recipes/speechocean762), whose
# model EXP/exp/MODEL decodes the first UTTS utterances of SET with
# `strode online2-wav-latgen-faster` itself — the recipe's own command line
# from EXP/exp/MODEL/decode_SET_online/log/decode.1.log (graph, beams, online
# CMVN), with only --chunk-length changed — pinned to one core. That is the
# figure at the recipe's default model size on real speech, with the search
# a trained model leaves (random weights keep the search busier).
#
# No peer runs: Kaldi's online2 binaries are not packaged in Debian; the
# RESULTS files cite Kaldi's published figures beside ours.
#
#   bench/online.sh                   # from the repository root
#   COUNT=5 bench/online.sh
#   EXP=/path/to/exp-dir MODEL=strode_seed1 bench/online.sh
# Environment: COUNT (default 3) runs per chunk length; BIN: a prebuilt test
# binary (go test -c -o BIN ./acoustic/kaldinnet/online), else it is built
# into bench/out/online/. EXP mode: MODEL [strode], SET [dev], UTTS [40],
# STRODE: the strode binary [the one the recipe ran].
set -euo pipefail
cd "$(dirname "$0")/.."

COUNT=${COUNT:-3}
OUT=bench/out/online
mkdir -p "$OUT"
PIN=()
if command -v taskset >/dev/null 2>&1; then
	PIN=(taskset -c 0)
fi

if [ -n "${EXP:-}" ]; then
	MODEL=${MODEL:-strode}; SET=${SET:-dev}; UTTS=${UTTS:-40}
	log=$EXP/exp/$MODEL/decode_${SET}_online/log/decode.1.log
	[ -f "$log" ] || { echo "$0: $log not found: EXP must be a causal run's experiment dir (recipes/kaldi/run.sh --causal true) that decoded $SET online with exp/$MODEL" >&2; exit 1; }
	# The logged command: "# BIN online2-wav-latgen-faster OPTIONS MODEL HCLG SPK2UTT WAVS LATS".
	read -r -a words <<< "$(head -n 1 "$log" | sed 's/^# //')"
	bin=${STRODE:-${words[0]}}
	opts=(); args=()
	for w in "${words[@]:2}"; do
		case $w in
			--chunk-length=*) ;;
			--*) opts+=("$w") ;;
			*) args+=("$w") ;;
		esac
	done
	d=$(dirname "$(echo "${args[3]}" | sed 's/^scp://')")
	d=${d%/split*}
	# The first UTTS utterances, speaker by speaker (online CMVN carries each speaker's state).
	awk -v n="$UTTS" '{ out = $1; for (i = 2; i <= NF && k < n; i++) { out = out " " $i; k++ } if (NF > 1 && out != $1) print out; if (k >= n) exit }' \
		"$EXP/$d/spk2utt" > "$OUT/spk2utt"
	echo "$MODEL on $(awk '{ n += NF - 1 } END { print n }' "$OUT/spk2utt") utterances of $d, $(grep -c . "$OUT/spk2utt") speakers; $bin"
	: > "$OUT/recipe.txt"
	for c in 0.1 0.2 0.5 1.0; do
		for i in $(seq "$COUNT"); do
			(cd "$EXP" && GOMAXPROCS=1 /usr/bin/time -f "cpu %U %S" "${PIN[@]}" "$bin" online2-wav-latgen-faster "${opts[@]}" \
				--chunk-length=$c "${args[0]}" "${args[1]}" "ark:$OLDPWD/$OUT/spk2utt" "scp:$d/wav.scp" ark:/dev/null) \
				> /dev/null 2> "$OUT/recipe.log"
			# One line per run: chunk, compute RTF, p50, p95, CPU seconds, audio seconds.
			awk -v c=$c '/Compute: real-time factor/ { sub(/.*Compute: /, ""); rtf = $3; audio = $9; p50 = $16; p95 = $19 }
				/^cpu / { cpu = $2 + $3 } END { print c, rtf, p50, p95, cpu, audio }' "$OUT/recipe.log" >> "$OUT/recipe.txt"
		done
	done
	awk '
	function median(s,   a, k, i, j, t) {
		k = split(s, a, " ")
		for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
		return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
	}
	{ if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 }
	  rtf[$1] = rtf[$1] " " $2; p50[$1] = p50[$1] " " $3; p95[$1] = p95[$1] " " $4; cpu[$1] = cpu[$1] " " $5 / $6 }
	END {
		printf "%-8s %8s %8s %10s %10s\n", "chunk", "RTF", "CPU RTF", "p50 ms", "p95 ms"
		for (i = 1; i <= n; i++) { c = order[i]; printf "%-8s %8.4f %8.4f %10.2f %10.2f\n", c "s", median(rtf[c]), median(cpu[c]), median(p50[c]), median(p95[c]) }
	}' "$OUT/recipe.txt"
	echo "(median of $COUNT runs, one core; CPU RTF: the whole process's CPU time, model and graph loading included; raw lines in $OUT/recipe.txt)"
	exit 0
fi
BIN=${BIN:-}
if [ -z "$BIN" ]; then
	BIN=$OUT/online.test
	go test -c -o "$BIN" ./acoustic/kaldinnet/online
fi
# The test binary finds the reference data from the package directory.
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
(cd acoustic/kaldinnet/online && GOMAXPROCS=1 "${PIN[@]}" "$BIN" -test.run '^$' \
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
