#!/bin/sh
# bench/sine.sh — CPU seconds per training epoch of the sine recipe (100 batches
# of 50 sequences: forward, backward, Adam) on one core, strode vs a PyTorch
# peer doing the same computation (bench/sine_peer.py) in the same run, at the
# paper's sizes (ode-hidden 8) and the reference code's (ode-hidden 100); and
# the split of strode's time between gorgonia's machinery and arithmetic
# (from a CPU profile). strode's figure is its default, the fused Euler solve
# in float32 like the peer; the fused float64 solve and the unfused (graph
# operations, float64) one are shown beside it.
#
# usage: bench/sine.sh [RUNS]      (default 5; medians are reported)
#   PY=python3 with torch (default /usr/bin/python3, Debian's python3-torch);
#   the peer runs on one thread, OpenBLAS included (its spinning second
#   thread used to be counted in the peer's CPU time)
#   STRODE_TEST=prebuilt test binary of ./acoustic/strode (default: go test -c)
set -eu
cd "$(dirname "$0")/.."
RUNS=${1:-5}
OUT=bench/out/sine
mkdir -p "$OUT"
PY=${PY:-/usr/bin/python3}
# OpenBLAS must not mis-detect the CPU; SkylakeX needs AVX-512, Haswell is the
# AVX2 kernel.
if grep -qw avx512f /proc/cpuinfo; then CORE=SkylakeX; else CORE=Haswell; fi
. bench/torch_peer.sh
check_torch_peer sine.sh
echo "nproc $(nproc); $(grep -m1 'model name' /proc/cpuinfo); OPENBLAS_CORETYPE=$CORE; load $(cut -d' ' -f1-3 /proc/loadavg)"
if [ -n "${STRODE_TEST:-}" ]; then cp "$STRODE_TEST" "$OUT/strode.test"; else go test -c -o "$OUT/strode.test" ./acoustic/strode; fi
: > "$OUT/go.txt"
i=0
while [ $i -lt "$RUNS" ]; do
	GOMAXPROCS=1 "$OUT/strode.test" -test.run '^$' -test.bench TrainBatch -test.benchtime 20x | grep '^Bench' >> "$OUT/go.txt"
	i=$((i + 1))
done
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
gomed() { grep -E "ode-hidden=$1 " "$OUT/go.txt" | awk '{for(i=1;i<=NF;i++) if($(i+1)=="cpu-s/epoch") print $i}' | median; }
for h in 8 100; do
	OPENBLAS_CORETYPE=$CORE OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 $PY bench/sine_peer.py $h "$RUNS" > "$OUT/peer$h.txt"
	ours=$(gomed $h)
	f64=$(gomed "$h-float64")
	unf=$(gomed "$h-unfused")
	peer=$(median < "$OUT/peer$h.txt")
	echo "ode-hidden $h: strode $ours s/epoch (fused float64 $f64, unfused Euler $unf), peer $peer s/epoch, strode/peer time ratio $(echo "$ours $peer" | awk '{printf "%.2f", $1/$2}')"
done
# Machinery vs arithmetic: flat CPU samples of the fused training step
# (arithmetic: the fused kernels of packages ode, strode and nn, math, gonum's
# BLAS, gorgonia's element loops and Adam; everything else is machinery).
for h in 8 100; do
	GOMAXPROCS=1 "$OUT/strode.test" -test.run '^$' -test.bench "TrainBatch/ode-hidden=$h\$" -test.benchtime 40x -test.cpuprofile "$OUT/cpu$h.prof" > /dev/null
	command -v go > /dev/null || { echo "no go tool: profile left in $OUT/cpu$h.prof"; continue; }
	go tool pprof -top -nodecount=100000 "$OUT/strode.test" "$OUT/cpu$h.prof" 2>/dev/null | awk -v h=$h '
		$1 ~ /s$/ && NF >= 6 {
			v = $1; sub(/ms$/, "", v); if ($1 ~ /ms$/) v /= 1000; else sub(/s$/, "", v)
			f = $6
			if (f ~ /asyncPreempt/) pre += v
			else if (f ~ /acoustic\/ode\.|strode\.\(\*(recurrence|priorDensity|klTerm)\)|acoustic\/nn\.\(\*denseStack\)|^math\.|gonum\/blas|gonum\/internal\/asm|tensor\/internal\/execution|vecf64|optim\.\(\*Adam\)/) ar += v
			else mach += v
		}
		END { t = ar + mach; printf "ode-hidden %s: arithmetic %.0f%%, gorgonia machinery + runtime %.0f%% (preemption samples %.0f%% left out)\n", h, 100*ar/t, 100*mach/t, 100*pre/(t+pre) }'
done
