#!/usr/bin/env bash
# sru.sh: training throughput of strode's acoustic models (MODELS, default
# "strode sru") against the same SRU in PyTorch (Debian python3-torch,
# float32, its own threads), same shapes, same machine, one run: `small`
# (4x256, 200 pdfs, 8 utterances x 500 frames) and `paper` (9x900, 5000 pdfs,
# 16 utterances x 500 frames), on 1 and 2 threads. Prints
# each side's median frames/s, achieved GFLOP/s of the products, peak RSS, the
# share of the kernel's one-core peak (one thread), and the medians of the
# per-round ratios: each model / PyTorch and strode / sru. Rounds are
# interleaved so background load hits every side.
#
#   bench/sru.sh                       # from the repository root
#   ROUNDS=3 STEPS=5 PRESETS="small" THREADS="1 2" bench/sru.sh
#   FRAMES=100 PRESETS=paper bench/sru.sh  # shorter utterances on a loaded machine
#   ROUNDS=1 PAIRS=30 PRESETS=small THREADS=1 bench/sru.sh  # strode/sru at the small preset
#
# Two threads on a shared VM: prefer `srutrain -paired=N` (bench/README.md).
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-3}
STEPS=${STEPS:-5}
PRESETS=${PRESETS:-"small paper"}
THREADS=${THREADS:-"1 2"}
MODELS=${MODELS:-${MODEL:-strode sru}}
PY=${PY:-/usr/bin/python3}  # a python3 with torch (Debian python3-torch by default)
FRAMES=${FRAMES:-500}
PAIRS=${PAIRS:-15}  # pairs of strode and sru steps for the in-process ratio (0: none)
UTTS=${UTTS:-}  # default: 8 (small), 16 (paper)
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
      small) h=256 l=4 pdfs=200 u=${UTTS:-8} ;;
      paper) h=900 l=9 pdfs=5000 u=${UTTS:-16} ;;
    esac
    for th in $THREADS; do
      for m in $MODELS; do
        "$BIN" -preset=$p -model=$m -pdfs=$pdfs -frames=$FRAMES -utts=$u -steps=$STEPS -threads=$th | tee -a "$OUT/runs.txt"
      done
      OMP_NUM_THREADS="$th" OPENBLAS_NUM_THREADS="$th" "$PY" bench/sru_peer.py --name=$p --hidden=$h --layers=$l --pdfs=$pdfs --frames=$FRAMES --utts=$u --steps=$STEPS --threads=$th | tee -a "$OUT/runs.txt"
    done
  done
done
echo "== medians over $ROUNDS rounds (frames/s; GFLOP/s; peak RSS MiB; CPU s per step; share of the kernel peak) and of the per-round ratios"
echo "   (x/pytorch: frames/s, higher is better for strode; cpu: PyTorch CPU s / ours per step, which a loaded machine distorts less)"
awk '{ key=$2" threads="substr($4,9); side=($1=="pytorch") ? "pytorch" : $3;
       split($5,f,"="); split($7,g,"="); split($8,m,"="); split($9,c,"="); split($12,q,"=");
       n[side,key]++; i=n[side,key]; fr[side,key,i]=f[2]; gf[side,key,i]=g[2]; rs[side,key,i]=m[2]; cp[side,key,i]=c[2]; sh[side,key,i]=q[2]+0;
       keys[key]=1; if (side!="pytorch") sides[side]=1 }
     function med(a, s, k,   c, i, j, t, v) { c=n[s,k]; for(i=1;i<=c;i++) v[i]=a[s,k,i];
       for(i=1;i<=c;i++) for(j=i+1;j<=c;j++) if (v[j]+0<v[i]+0) { t=v[i]; v[i]=v[j]; v[j]=t }
       return v[int((c+1)/2)] }
     # the median over rounds of a[s,k,i]/b[t,k,i] (rounds that both sides ran)
     function medratio(a, s, b, t, k,   c, i, j, x, v) { c=(n[s,k]<n[t,k]) ? n[s,k] : n[t,k];
       for(i=1;i<=c;i++) v[i]=(b[t,k,i]>0) ? a[s,k,i]/b[t,k,i] : 0;
       for(i=1;i<=c;i++) for(j=i+1;j<=c;j++) if (v[j]<v[i]) { x=v[i]; v[i]=v[j]; v[j]=x }
       return v[int((c+1)/2)] }
     END { for (k in keys) {
       printf "%-17s pytorch %8.1f fr/s %6.2f GF/s %5.0f MiB %7.3f cpu-s\n", k, med(fr,"pytorch",k), med(gf,"pytorch",k), med(rs,"pytorch",k), med(cp,"pytorch",k);
       for (s in sides) if (n[s,k]>0)
         printf "%-17s %-7s %8.1f fr/s %6.2f GF/s %5.0f MiB %7.3f cpu-s %4.2f of kernel peak | %s/pytorch %.2f cpu %.2f\n",
           k, s, med(fr,s,k), med(gf,s,k), med(rs,s,k), med(cp,s,k), med(sh,s,k), s, medratio(fr,s,fr,"pytorch",k), medratio(cp,"pytorch",cp,s,k);
       if (n["strode",k]>0 && n["sru",k]>0) printf "%-17s strode/sru %.2f\n", k, medratio(fr,"strode",fr,"sru",k) } }' "$OUT/runs.txt" | sort
# strode against sru by pairs of steps in one process (srutrain -vs): the ratio the drift of a
# shared machine's core over seconds distorts least (bench/README.md, Pairs).
if [ "${PAIRS:-15}" -gt 0 ] && [[ " $MODELS " == *" strode "* && " $MODELS " == *" sru "* ]]; then
  echo "== strode/sru by $PAIRS pairs of one-thread steps in one process (median, quartiles of the per-pair ratios)"
  for p in $PRESETS; do
    case $p in small) pdfs=200 u=${UTTS:-8} ;; paper) pdfs=5000 u=${UTTS:-16} ;; esac
    "$BIN" -preset=$p -model=strode -vs=sru -pdfs=$pdfs -frames=$FRAMES -utts=$u -steps=$PAIRS -threads=1
  done
fi
echo "== $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) cores, $(grep -q avx512f /proc/cpuinfo && echo AVX-512 || echo AVX2), OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-auto}; load: $(uptime | sed 's/.*load average: //')"
