#!/usr/bin/env bash
# conv.sh: one training step (forward + backward) of the Rotating MNIST CNN
# encoder and decoder (acoustic/conv's BenchmarkStack: the STRODE reference
# code's DCGAN-style stack, batch 50, 1×64×64 images, BatchNorm in training
# mode, MSE loss) against the same stack in PyTorch (bench/conv_peer.py,
# Debian python3-torch, float32), same machine, one run, rounds interleaved
# so background load hits both. Prints each side's median ms per step, CPU
# ms per step and images/s, and the strode/PyTorch ratio of images/s.
#
#   bench/conv.sh                         # from the repository root
#   ROUNDS=7 STEPS=20 NDFS="16 32 64" THREADS="1 2" bench/conv.sh
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-5}
STEPS=${STEPS:-10}
NDFS=${NDFS:-"16 32"}
THREADS=${THREADS:-2}
PY=${PY:-/usr/bin/python3}  # a python3 with torch (Debian python3-torch by default)
OUT=bench/out/conv
mkdir -p "$OUT"
BIN=${BIN:-$OUT/conv.test}
[ -n "${NOBUILD:-}" ] || go test -c -o "$BIN" ./acoustic/conv
. bench/torch_peer.sh
check_torch_peer conv.sh
# OpenBLAS at its best: the SkylakeX kernels where the CPU has AVX-512 (they
# die with SIGILL elsewhere), its auto-detected kernel otherwise. (Debian's
# torch takes BLAS from the libblas.so.3 alternative: with only libblas3,
# the reference BLAS, its products run ~20× slower.)
if grep -q avx512f /proc/cpuinfo; then export OPENBLAS_CORETYPE=SkylakeX; fi
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-PASSIVE}
blas=$(readlink -f /usr/lib/x86_64-linux-gnu/libblas.so.3 2>/dev/null || echo unknown)
: > "$OUT/runs.txt"
for r in $(seq "$ROUNDS"); do
  for ndf in $NDFS; do
    for th in $THREADS; do
      "$BIN" -test.run '^$' -test.bench "^BenchmarkStack/ndf=$ndf\$" -test.benchtime "${STEPS}x" -test.cpu "$th" |
        awk -v ndf="$ndf" -v th="$th" '/^BenchmarkStack/ { for (i=1;i<=NF;i++) { if ($(i+1)=="ns/op") ms=$i/1e6; if ($(i+1)=="cpu-ms/op") cpu=$i }
          printf "strode ndf=%s batch=50 threads=%s ms=%.2f cpu-ms=%.2f images/s=%.1f\n", ndf, th, ms, cpu, 50000/ms }' | tee -a "$OUT/runs.txt"
      OMP_NUM_THREADS="$th" OPENBLAS_NUM_THREADS="$th" "$PY" bench/conv_peer.py --ndf="$ndf" --steps="$STEPS" --threads="$th" | tee -a "$OUT/runs.txt"
    done
  done
done
echo "== batch 50, medians over $ROUNDS rounds of $STEPS steps (ms per step; CPU ms per step; images/s) and strode/PyTorch ratios"
echo "   (ratio: images/s, higher is better for strode; cpu ratio: PyTorch CPU ms / strode CPU ms per step)"
awk '{ key=$2" "$4; side=$1; split($5,w,"="); split($6,c,"="); split($7,f,"=");
       n[side,key]++; i=n[side,key]; ms[side,key,i]=w[2]; cp[side,key,i]=c[2]; im[side,key,i]=f[2]; keys[key]=1 }
     function med(a, s, k,   c, i, j, t, v) { c=n[s,k]; for(i=1;i<=c;i++) v[i]=a[s,k,i];
       for(i=1;i<=c;i++) for(j=i+1;j<=c;j++) if (v[j]+0<v[i]+0) { t=v[i]; v[i]=v[j]; v[j]=t }
       return v[int((c+1)/2)] }
     END { for (k in keys) { s=med(im,"strode",k); p=med(im,"pytorch",k); sc=med(cp,"strode",k); pc=med(cp,"pytorch",k);
       printf "%-18s strode %8.2f ms %8.2f cpu-ms %7.1f img/s | pytorch %8.2f ms %8.2f cpu-ms %7.1f img/s | ratio %.2f cpu ratio %.2f\n",
         k, med(ms,"strode",k), sc, s, med(ms,"pytorch",k), pc, p, (p>0? s/p : 0), (sc>0? pc/sc : 0) } }' "$OUT/runs.txt" | sort -V
echo "== $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) cores, $(grep -q avx512f /proc/cpuinfo && echo AVX-512 || echo AVX2), OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-auto}, libblas.so.3 -> $blas; load: $(uptime | sed 's/.*load average: //')"
