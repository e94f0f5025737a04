#!/usr/bin/env bash
# gemm.sh: float32 GEMM throughput of strode (internal/gemm), gonum and
# OpenBLAS (Debian, cblas_sgemm; its auto-detected kernel and
# OPENBLAS_CORETYPE=SkylakeX), measured in the same run on the same shapes,
# on 1 and 2 threads. Prints GFLOP/s (median over rounds of each run's median)
# and the ratios the issue asks for.
#
#   bench/gemm.sh                 # from the repository root
#   ROUNDS=5 REPS=5 bench/gemm.sh
#
# The two-thread speed-up is also measured in pairs: one process alternates
# one-thread and two-thread calls back to back (bench/gemmtime -paired, and
# gemm_peer with PAIRED=2), and the table under the first one gives the median
# of the pairs' ratios. On a VM whose cores' speed drifts with its neighbours'
# load, that is the figure to quote: medians of runs seconds apart mix states.
#
# Environment: ROUNDS (default 3) full passes, interleaved so that load from
# other processes hits every implementation alike; REPS (default 5) timed calls
# per shape and run; PAIRED_REPS (default 2·REPS) pairs per shape and round;
# GONUM_REPS (default 3); SHAPES (m×k×n list); THREADS
# (default "1 2"); BIN: a folder holding prebuilt gemm_strode and gemm_peer
# (then nothing is built). Outputs go to bench/out/gemm/.
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${ROUNDS:-3}
REPS=${REPS:-5}
GONUM_REPS=${GONUM_REPS:-3}
PAIRED_REPS=${PAIRED_REPS:-$((2 * REPS))}
THREADS=${THREADS:-"1 2"}
SHAPES=${SHAPES:-"1024x1024x1024 4000x900x2700 4000x256x768"}
OUT=bench/out/gemm
mkdir -p "$OUT"

if [ -n "${BIN:-}" ]; then
	STRODE=$BIN/gemm_strode PEER=$BIN/gemm_peer
else
	STRODE=$OUT/gemm_strode PEER=$OUT/gemm_peer
	if [ ! -e /usr/include/x86_64-linux-gnu/cblas.h ] && [ ! -e /usr/include/cblas.h ] ||
		! ldconfig -p | grep 'libopenblas\.so' >/dev/null; then
		if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
			echo "installing libopenblas-dev ..." >&2
			apt-get install -y -q libopenblas-dev >/dev/null ||
				{ apt-get update -q >/dev/null && apt-get install -y -q libopenblas-dev >/dev/null; }
		else
			echo "gemm.sh: OpenBLAS missing: run  sudo apt-get install libopenblas-dev gcc" >&2
			exit 1
		fi
	fi
	go build -o "$STRODE" ./bench/gemmtime
	gcc -O2 -o "$PEER" bench/gemm_peer.c -I/usr/include/x86_64-linux-gnu -lopenblas
fi

flags=$(grep -m1 '^flags' /proc/cpuinfo)
has() { [[ " $flags " == *" $1 "* ]]; }
echo "cpu:     $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), nproc $(nproc)"
echo "simd:    avx2=$(has avx2 && echo yes || echo no) fma=$(has fma && echo yes || echo no) avx512f=$(has avx512f && echo yes || echo no)"
echo "kernels: $("$STRODE" -list)"
echo "load:    $(uptime | sed 's/.*load average/load average/')"
echo "shapes m×k×n: $SHAPES; $ROUNDS rounds × $REPS reps (gonum $GONUM_REPS)"
echo

shape_args() { for s in $SHAPES; do echo "${s//x/ }"; done | tr '\n' ' '; }
RAW=$OUT/raw.txt PAIRS=$OUT/pairs.txt
: >"$RAW"
: >"$PAIRS"
for round in $(seq 1 "$ROUNDS"); do
	for t in $THREADS; do
		"$STRODE" -impl strode -threads "$t" -reps "$REPS" $SHAPES >>"$RAW"
		if "$STRODE" -list | grep avx512 >/dev/null; then
			"$STRODE" -impl strode -kernel avx2 -threads "$t" -reps "$REPS" $SHAPES >>"$RAW"
		fi
		"$STRODE" -impl gonum -threads "$t" -reps "$GONUM_REPS" $SHAPES >>"$RAW"
		OPENBLAS_NUM_THREADS=$t "$PEER" openblas-auto "$REPS" $(shape_args) >>"$RAW" 2>"$OUT/auto.log"
		# On a CPU without AVX-512 the SkylakeX kernel dies of SIGILL (exit 132).
		# (The subshell reports the signal to its own, discarded, stderr.)
		if (OPENBLAS_CORETYPE=SkylakeX OPENBLAS_NUM_THREADS=$t "$PEER" openblas-skylakex "$REPS" $(shape_args) \
			>>"$RAW" 2>"$OUT/skx.log"; exit $?) 2>/dev/null; then :; else
			echo "NOTRUN openblas-skylakex exit $?" >>"$RAW"
		fi
		if [ "$t" -gt 1 ]; then
			"$STRODE" -impl strode -threads "$t" -paired -reps "$PAIRED_REPS" $SHAPES | grep '^PAIR' >>"$PAIRS"
			if ! grep -q NOTRUN "$RAW"; then
				OPENBLAS_CORETYPE=SkylakeX OPENBLAS_NUM_THREADS=$t PAIRED=$t "$PEER" openblas-skylakex "$PAIRED_REPS" $(shape_args) \
					2>/dev/null | grep '^PAIR' >>"$PAIRS"
			fi
			PAIRED=$t "$PEER" openblas-auto "$PAIRED_REPS" $(shape_args) 2>/dev/null | grep '^PAIR' >>"$PAIRS"
		fi
	done
	echo "round $round done, $(uptime | sed 's/.*load average/load average/')" >&2
done
echo "openblas auto-detected core: $(sed -n 's/openblas core \([^,]*\),.*/\1/p' "$OUT/auto.log" | head -1)"
if grep -q NOTRUN "$RAW"; then
	echo "openblas SkylakeX: NOT RUNNABLE on this CPU ($(grep -m1 NOTRUN "$RAW" | cut -d' ' -f3-); 132 = SIGILL: no AVX-512)"
fi
echo

# Median over rounds of the per-run medians, then the table and ratios.
awk '
$1 == "RESULT" { key = $2 SUBSEP $3 SUBSEP $4; n[key]++; v[key, n[key]] = $5; impls[$2] = 1; shapes[$3] = 1; thr[$4] = 1 }
function median(key,   i, j, t, c, a) {
	c = n[key]; if (!c) return 0
	for (i = 1; i <= c; i++) a[i] = v[key, i]
	for (i = 1; i <= c; i++) for (j = i + 1; j <= c; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	return c % 2 ? a[(c + 1) / 2] : (a[c / 2] + a[c / 2 + 1]) / 2
}
function ratio(x, y) { return (x > 0 && y > 0) ? sprintf("%.2f", x / y) : "-" }
END {
	for (i in impls) if (i ~ /^strode-/ && i != "strode-avx2") ours = i
	if (ours == "") ours = "strode-avx2"
	ni = 0
	for (i in impls) names[++ni] = i
	for (i = 1; i <= ni; i++) for (j = i + 1; j <= ni; j++) if (names[j] > names[i]) { t = names[i]; names[i] = names[j]; names[j] = t }
	printf "%-18s %-4s", "shape (m×k×n)", "thr" >hdr
	for (i = 1; i <= ni; i++) printf " %17s", names[i] >hdr
	printf "   %s/auto %s/skx %s/gonum %s\n", "ours", "ours", "ours", "ours_2T/1T" >hdr
	printf "ours = %s; columns are GFLOP/s (2·m·n·k / s), medians over rounds\n", ours >foot
	for (s in shapes) for (t in thr) {
		printf "%-18s %-4s", s, t
		for (i = 1; i <= ni; i++) printf " %17.1f", median(names[i] SUBSEP s SUBSEP t)
		o = median(ours SUBSEP s SUBSEP t)
		printf "   %9s %8s %10s", ratio(o, median("openblas-auto" SUBSEP s SUBSEP t)), ratio(o, median("openblas-skylakex" SUBSEP s SUBSEP t)), ratio(o, median("gonum" SUBSEP s SUBSEP t))
		if (t == 2) printf " %10s", ratio(o, median(ours SUBSEP s SUBSEP 1))
		printf "\n"
	}
}' hdr="$OUT/header.txt" foot="$OUT/footer.txt" "$RAW" | sort >"$OUT/table.txt"
cat "$OUT/header.txt" "$OUT/table.txt"
echo
cat "$OUT/footer.txt"

# The paired speed-ups: median and quartiles of every pair of every round.
if [ -s "$PAIRS" ]; then
	echo
	echo "speed-up of T threads over 1, paired (median of pairs [25th–75th percentile], pairs):"
	sort -k2,2 -k3,3 -k4,4n -k5,5g "$PAIRS" | awk '
	{ key = $3 " " $4 " " $2; n[key]++; v[key, n[key]] = $5; if (!(key in seen)) { seen[key] = 1; order[++nk] = key } }
	function q(key, f,   i) { i = int(f * (n[key] - 1) + 1.5); return v[key, i] }
	END { for (i = 1; i <= nk; i++) { k = order[i]; split(k, a, " ")
		printf "  %-18s T=%s  %-18s %5.2f  [%4.2f–%4.2f]  %d\n", a[1], a[2], a[3], q(k, 0.5), q(k, 0.25), q(k, 0.75), n[k] } }'
fi
