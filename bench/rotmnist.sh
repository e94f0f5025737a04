#!/usr/bin/env bash
# rotmnist.sh: whole-model training step of our Rotating MNIST models
# (acoustic/seqvideo's BenchmarkTrainStepAdam: what one minibatch of
# `strode rotmnist` runs — batch Set, forward + reverse pass, gradient check,
# Adam 5e-4 with the sign projection — at batch 50 videos × 6 frames of
# 1×64×64, BatchNorm in training mode) against the same network in PyTorch
# (bench/rotmnist_peer.py, Debian python3-torch, float32, Adam 5e-4), same
# machine, one run, rounds interleaved so background load hits both. Prints
# per model, ndf and thread count each side's median ms and CPU ms per step
# and epoch seconds (one epoch = 5000 videos = 100 steps), and the
# strode/PyTorch ratio of steps per second (> 1: strode is faster; issue 24's
# goal is ≥ 1 on 2 cores). The parameter counts of both sides are printed
# and must agree (the script stops if they do not).
#
#   bench/rotmnist.sh                     # from the repository root
#   ROUNDS=7 STEPS=20 MODELS="node odernn strode strode-rnn" NDFS="16 32" THREADS="1 2" bench/rotmnist.sh
#   ROUNDS=1 STEPS=2 bench/rotmnist.sh    # a quick check that both sides run
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-5}
STEPS=${STEPS:-10}
MODELS=${MODELS:-"node strode"}
NDFS=${NDFS:-16}
THREADS=${THREADS:-2}
PY=${PY:-/usr/bin/python3}  # a python3 with torch (Debian python3-torch by default)
OUT=bench/out/rotmnist
mkdir -p "$OUT"
BIN=${BIN:-$OUT/seqvideo.test}
[ -n "${NOBUILD:-}" ] || go test -c -o "$BIN" ./acoustic/seqvideo
. bench/torch_peer.sh
check_torch_peer rotmnist.sh
# OpenBLAS at its best: the SkylakeX kernels where the CPU has AVX-512 (they
# die with SIGILL elsewhere), its auto-detected kernel otherwise. (Debian's
# torch takes BLAS from the libblas.so.3 alternative: with only libblas3,
# the reference BLAS, its products run ~20× slower.)
if grep -q avx512f /proc/cpuinfo; then export OPENBLAS_CORETYPE=SkylakeX; fi
# On a shared machine OpenMP threads that spin while waiting starve each other.
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-PASSIVE}
blas=$(readlink -f /usr/lib/x86_64-linux-gnu/libblas.so.3 2>/dev/null || echo unknown)
echo "== torch $("$PY" -c 'import torch; print(torch.__version__)'), OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-auto}, libblas.so.3 -> $blas"
: > "$OUT/runs.txt"
: > "$OUT/params.txt"
for r in $(seq "$ROUNDS"); do
  for model in $MODELS; do
    for ndf in $NDFS; do
      for th in $THREADS; do
        ours=$("$BIN" -test.run '^$' -test.bench "^BenchmarkTrainStepAdam\$/^$model\$/^ndf=$ndf\$" -test.benchtime "${STEPS}x" -test.cpu "$th" |
          awk -v m="$model" -v ndf="$ndf" -v th="$th" '/^BenchmarkTrainStepAdam/ {
            for (i=1;i<=NF;i++) { if ($(i+1)=="ns/op") ms=$i/1e6; if ($(i+1)=="cpu-ms/op") cpu=$i; if ($(i+1)=="params") np=$i }
            printf "strode model=%s ndf=%s batch=50 threads=%s ms=%.2f cpu-ms=%.2f epoch-s=%.2f frames/s=%.1f params=%d\n", m, ndf, th, ms, cpu, ms/10, 300000/ms, np }')
        if [ -z "$ours" ]; then
          echo "rotmnist.sh: BenchmarkTrainStepAdam/$model/ndf=$ndf gave no result" >&2
          exit 1
        fi
        echo "$ours" | tee -a "$OUT/runs.txt"
        # torch.set_num_threads bounds its own pool only: OpenBLAS and OpenMP get the same count here.
        peer=$(OMP_NUM_THREADS="$th" OPENBLAS_NUM_THREADS="$th" "$PY" bench/rotmnist_peer.py --model="$model" --ndf="$ndf" --steps="$STEPS" --threads="$th")
        echo "$peer" | tee -a "$OUT/runs.txt"
        if [ "$r" = 1 ] && [ "$th" = "${THREADS%% *}" ]; then
          po=$(echo "$ours" | sed 's/.* params=\([0-9]*\).*/\1/')
          pp=$(echo "$peer" | sed 's/.* params=\([0-9]*\).*/\1/')
          echo "$model ndf=$ndf $po $pp" >> "$OUT/params.txt"
          if [ "$po" != "$pp" ]; then
            echo "rotmnist.sh: $model ndf=$ndf: strode has $po parameters, the PyTorch peer $pp: not the same network" >&2
            exit 1
          fi
        fi
      done
    done
  done
done
echo "== parameters (strode = PyTorch, checked):"
awk '{ printf "   %-12s %-7s strode %d  pytorch %d\n", $1, $2, $3, $4 }' "$OUT/params.txt"
echo "== batch 50 × 6 frames, Adam; medians over $ROUNDS rounds of $STEPS steps (ms per step; CPU ms per step; epoch = 100 steps)"
echo "   (ratio: steps/s strode / PyTorch, higher is better for strode; cpu ratio: PyTorch CPU ms / strode CPU ms per step)"
awk '{ side=$1; delete f; for (i=2;i<=NF;i++) { split($i, kv, "="); f[kv[1]]=kv[2] }
       key=$2" "$3" "$5; n[side,key]++; i=n[side,key]; ms[side,key,i]=f["ms"]; cp[side,key,i]=f["cpu-ms"]; keys[key]=1 }
     function med(a, s, k,   c, i, j, t, v) { c=n[s,k]; for(i=1;i<=c;i++) v[i]=a[s,k,i];
       for(i=1;i<=c;i++) for(j=i+1;j<=c;j++) if (v[j]+0<v[i]+0) { t=v[i]; v[i]=v[j]; v[j]=t }
       return v[int((c+1)/2)] }
     END { for (k in keys) { s=med(ms,"strode",k); p=med(ms,"pytorch",k); sc=med(cp,"strode",k); pc=med(cp,"pytorch",k);
       printf "%-36s strode %8.2f ms %8.2f cpu-ms %7.2f epoch-s | pytorch %8.2f ms %8.2f cpu-ms %7.2f epoch-s | ratio %.2f cpu ratio %.2f\n",
         k, s, sc, s/10, p, pc, p/10, (s>0? p/s : 0), (sc>0? pc/sc : 0) } }' "$OUT/runs.txt" | sort -V
echo "== $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) cores, $(grep -q avx512f /proc/cpuinfo && echo AVX-512 || echo AVX2), OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-auto}, libblas.so.3 -> $blas; load: $(uptime | sed 's/.*load average: //')"
