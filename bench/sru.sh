#!/usr/bin/env bash
# sru.sh: training throughput of strode's SRU acoustic model against the same
# SRU in PyTorch (Debian python3-torch, float32, its own threads), same
# shapes, same machine, one run: 8 utterances x 500 frames, `small` (4x256,
# 200 pdfs) and `paper` (9x900, 3000 pdfs), on 1 and 2 threads. Prints each
# side's median frames/s, achieved GFLOP/s of the products, peak RSS, and the
# strode/PyTorch ratio. Rounds are interleaved so background load hits both.
#
#   bench/sru.sh                       # from the repository root
#   ROUNDS=3 STEPS=5 PRESETS="small" THREADS="1 2" bench/sru.sh
#   FRAMES=100 PRESETS=paper bench/sru.sh  # shorter utterances on a loaded machine
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-3}
STEPS=${STEPS:-5}
PRESETS=${PRESETS:-"small paper"}
THREADS=${THREADS:-"1 2"}
MODEL=${MODEL:-sru}
PY=${PY:-/usr/bin/python3}  # a python3 with torch (Debian python3-torch by default)
FRAMES=${FRAMES:-500}
UTTS=${UTTS:-8}
OUT=bench/out/sru
mkdir -p "$OUT"
BIN=${BIN:-$OUT/sru_strode}
[ -n "${NOBUILD:-}" ] || go build -o "$BIN" ./bench/srutrain
. bench/torch_peer.sh
check_torch_peer sru.sh
# OpenBLAS at its best: the SkylakeX kernels where the CPU has AVX-512 (they
# die with SIGILL elsewhere), its auto-detected kernel otherwise.
if grep -q avx512f /proc/cpuinfo; then export OPENBLAS_CORETYPE=SkylakeX; fi
# On a shared machine OpenMP threads that spin while waiting starve each other.
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-PASSIVE}
: > "$OUT/runs.txt"
for r in $(seq "$ROUNDS"); do
  for p in $PRESETS; do
    case $p in
      small) h=256 l=4 pdfs=200 ;;
      paper) h=900 l=9 pdfs=3000 ;;
    esac
    for th in $THREADS; do
      "$BIN" -preset=$p -model=$MODEL -pdfs=$pdfs -frames=$FRAMES -utts=$UTTS -steps=$STEPS -threads=$th | tee -a "$OUT/runs.txt"
      OMP_NUM_THREADS="$th" OPENBLAS_NUM_THREADS="$th" "$PY" bench/sru_peer.py --name=$p --hidden=$h --layers=$l --pdfs=$pdfs --frames=$FRAMES --utts=$UTTS --steps=$STEPS --threads=$th | tee -a "$OUT/runs.txt"
    done
  done
done
echo "== $UTTS utterances x $FRAMES frames; medians over $ROUNDS rounds (frames/s; GFLOP/s; peak RSS MiB; CPU s per step) and strode/PyTorch ratios"
echo "   (ratio: frames/s, higher is better for strode; cpu ratio: PyTorch CPU s / strode CPU s per step,"
echo "    the work each side does, which a loaded machine does not distort as it does the wall clock)"
awk '{ key=$2" threads="substr($4,9); side=$1;
       split($5,f,"="); split($7,g,"="); split($8,m,"="); split($9,c,"="); split($12,q,"=");
       n[side,key]++; i=n[side,key]; fr[side,key,i]=f[2]; gf[side,key,i]=g[2]; rs[side,key,i]=m[2]; cp[side,key,i]=c[2]; sh[side,key,i]=q[2]+0; keys[key]=1 }
     function med(a, s, k,   c, i, j, t, v) { c=n[s,k]; for(i=1;i<=c;i++) v[i]=a[s,k,i];
       for(i=1;i<=c;i++) for(j=i+1;j<=c;j++) if (v[j]+0<v[i]+0) { t=v[i]; v[i]=v[j]; v[j]=t }
       return v[int((c+1)/2)] }
     END { for (k in keys) { s=med(fr,"strode",k); p=med(fr,"pytorch",k); sc=med(cp,"strode",k); pc=med(cp,"pytorch",k);
       printf "%-17s strode %8.1f fr/s %6.2f GF/s %5.0f MiB %7.3f cpu-s %4.2f of kernel peak | pytorch %8.1f fr/s %6.2f GF/s %5.0f MiB %7.3f cpu-s | ratio %.2f cpu ratio %.2f\n",
         k, s, med(gf,"strode",k), med(rs,"strode",k), sc, med(sh,"strode",k), p, med(gf,"pytorch",k), med(rs,"pytorch",k), pc, (p>0? s/p : 0), (sc>0? pc/sc : 0) } }' "$OUT/runs.txt" | sort
echo "== $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) cores, $(grep -q avx512f /proc/cpuinfo && echo AVX-512 || echo AVX2), OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-auto}; load: $(uptime | sed 's/.*load average: //')"
