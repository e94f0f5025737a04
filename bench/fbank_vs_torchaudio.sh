#!/usr/bin/env bash
# fbank throughput: strode compute-fbank-feats against torchaudio's
# compliance.kaldi.fbank (Debian python3-torchaudio) on the same wavs, in the
# same run, one core each; then strode on two cores (scaling).
#
#   bench/fbank_vs_torchaudio.sh [REPEATS] [RUNS]
#
# REPEATS (default 50) is how many times the golden 16 kHz wavs are listed in
# the scp (4 utterances, ~10 s of audio, ~1000 frames per listing); RUNS
# (default 5) is how many timed runs each side gets; medians are printed.
# Environment: GOLDEN (wav folder's parent), PY (python with torchaudio),
# STRODE (a strode binary; default bin/strode, built when stale by recipes/local/strode_bin.sh),
# NOBUILD=1 to use bench/out/fbank/strode as it is.
# Options for both: 16 kHz, 25/10 ms, 40 mel bins, dither 0, Kaldi defaults.
set -euo pipefail
cd "$(dirname "$0")/.."
REPEATS=${1:-50}
RUNS=${2:-5}
GOLDEN=${GOLDEN:-$(cd .. && pwd)/shared/kaldi-golden}
PY=${PY:-/usr/bin/python3}   # the Debian peer; override only to compare elsewhere
# OpenBLAS mis-detects these CPUs; SkylakeX needs AVX-512 (it dies with
# SIGILL without it), Haswell is the AVX2 kernel.
if grep -qw avx512f /proc/cpuinfo; then export OPENBLAS_CORETYPE=SkylakeX
elif grep -qw avx2 /proc/cpuinfo; then export OPENBLAS_CORETYPE=Haswell; fi

if [ ! -d "$GOLDEN/wav" ]; then
  echo "missing $GOLDEN/wav (clone ../shared beside the repository)" >&2; exit 1
fi
if ! $PY -c 'import torchaudio' 2>/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q python3-torchaudio >&2
  else
    echo "torchaudio missing: run  sudo apt-get install python3-torchaudio" >&2; exit 1
  fi
fi

OUT=bench/out/fbank
mkdir -p "$OUT"
[ -z "${NOBUILD:-}" ] || strode=$OUT/strode
. recipes/local/strode_bin.sh
SCP=$OUT/bench_wav.scp
: > "$SCP"
for r in $(seq 1 "$REPEATS"); do
  for f in "$GOLDEN"/wav/s_utt[1-4].wav; do
    echo "r${r}_$(basename "$f" .wav) $f" >> "$SCP"
  done
done

calc() { awk "BEGIN { printf \"%.6f\", $1 }"; }

pin() { # pin to core $1 when taskset exists
  if command -v taskset >/dev/null; then taskset -c "$1" "${@:2}"; else "${@:2}"; fi
}

# One timed strode run: prints wall seconds, CPU (user+sys) seconds and the
# share of the Go scheduler's P-time that was busy (from its VLOG[1] line).
strode_run() { # cores threads
  local TIMEFORMAT='%R %U %S' t busy
  t=$( { time GOMAXPROCS=$2 pin "$1" "$strode" compute-fbank-feats --print-args=false --num-mel-bins=40 \
    --dither=0 --num-threads="$2" --verbose=1 "scp:$SCP" ark:/dev/null 2>"$OUT/strode.log"; } 2>&1 )
  read -r w u s <<< "$t"
  busy=$(sed -n 's/.*were busy \([0-9.]*\)%.*/\1/p' "$OUT/strode.log")
  echo "$w $(calc "$u + $s") ${busy:-nan}"
}

cat > "$OUT/torchaudio_fbank.py" <<'PYEOF'
import sys, time, wave
import numpy as np
import torch, torchaudio.compliance.kaldi as K
torch.set_num_threads(1)
scp = [l.split(None, 1) for l in open(sys.argv[1]) if l.strip()]
t0 = time.perf_counter()
c0 = time.process_time()
frames = samples = 0
for key, path in scp:
    with wave.open(path.strip(), 'rb') as w:
        x = np.frombuffer(w.readframes(w.getnframes()), dtype='<i2').astype(np.float32)
    f = K.fbank(torch.from_numpy(x).unsqueeze(0), num_mel_bins=40, dither=0.0,
                energy_floor=0.0, sample_frequency=16000.0)
    frames += f.shape[0]; samples += x.shape[0]
t1 = time.perf_counter()
c1 = time.process_time()
print(f"{t1 - t0:.6f} {frames} {samples} {c1 - c0:.6f}")
PYEOF

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

# Frames and audio duration, from one untimed torchaudio run (also a warm-up).
PEER=$(pin 1 $PY "$OUT/torchaudio_fbank.py" "$SCP") || { echo "torchaudio run failed" >&2; exit 1; }
read -r _ FRAMES SAMPLES _ <<< "$PEER"
AUDIO_S=$(calc "$SAMPLES / 16000")
strode_run 0 1 >/dev/null # warm-up (page cache)

# How much two cores speed up a trivially parallel job right now: a
# CPU-bound awk loop on core 0, then the same work split in two halves run
# at once on cores 0 and 1. 2.00 on an idle machine; less when other
# processes hold part of a core, and then no program can scale further.
spin_ceiling() {
  local TIMEFORMAT='%R' one two
  local full='BEGIN { for (i = 0; i < 8e6; i++) x += i }' half='BEGIN { for (i = 0; i < 4e6; i++) x += i }'
  one=$( { time pin 0 awk "$full"; } 2>&1 )
  two=$( { time { pin 0 awk "$half" & pin 1 awk "$half" & wait; }; } 2>&1 )
  calc "$one / $two"
}

# Runs alternate (ours, peer, ours on two cores) so that load from other
# processes falls on all three alike; wall and CPU seconds are kept.
ours1=(); ours2=(); theirs=(); ours1c=(); ours2c=(); theirsc=(); busy2=(); ceil=()
for i in $(seq 1 "$RUNS"); do
  # Command substitution, not "read < <(...)": read returns at the first
  # line, while the process may still be exiting (Python's teardown holds a
  # core for a good part of a second), and the next timed run would share
  # the machine with it.
  out=$(strode_run 0 1); read -r w c _ <<< "$out"; ours1+=("$w"); ours1c+=("$c")
  out=$(pin 1 $PY "$OUT/torchaudio_fbank.py" "$SCP"); read -r t _ _ tc <<< "$out"
  theirs+=("$t"); theirsc+=("$tc")
  out=$(strode_run 0,1 2); read -r w c b <<< "$out"; ours2+=("$w"); ours2c+=("$c"); busy2+=("$b")
  ceil+=("$(spin_ceiling)")
done
med() { printf '%s\n' "$@" | median; }
o1=$(med "${ours1[@]}"); o2=$(med "${ours2[@]}"); th=$(med "${theirs[@]}")
o1c=$(med "${ours1c[@]}"); o2c=$(med "${ours2c[@]}"); thc=$(med "${theirsc[@]}")
b2=$(med "${busy2[@]}"); c2=$(med "${ceil[@]}")

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-unset}, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "input: $(wc -l < "$SCP") utterances, $FRAMES frames, $(printf %.1f "$AUDIO_S") s of audio; medians of $RUNS runs"
echo "                                        wall        frames/s   RTF       CPU (user+sys)"
printf 'strode compute-fbank-feats, 1 core : %8.3f s  %9.0f  %.5f  %8.3f s\n' "$o1" "$(calc "$FRAMES / $o1")" "$(calc "$o1 / $AUDIO_S")" "$o1c"
printf 'torchaudio compliance.kaldi.fbank   : %8.3f s  %9.0f  %.5f  %8.3f s (loop only)\n' "$th" "$(calc "$FRAMES / $th")" "$(calc "$th / $AUDIO_S")" "$thc"
printf 'strode compute-fbank-feats, 2 cores: %8.3f s  %9.0f  %.5f  %8.3f s\n' "$o2" "$(calc "$FRAMES / $o2")" "$(calc "$o2 / $AUDIO_S")" "$o2c"
printf 'ratio strode/torchaudio (1 core, throughput): %.2f wall, %.2f CPU time\n' "$(calc "$th / $o1")" "$(calc "$thc / $o1c")"
printf 'scaling strode 2 cores / 1 core: %.2f (wall); the 2-core run used %.2f cores of CPU time on average,\n' "$(calc "$o1 / $o2")" "$(calc "$o2c / $o2")"
printf '  and its 2 Go scheduler Ps were busy %s%% of the time (100%% = the pool never left a core idle)\n' "$b2"
printf 'machine ceiling: an awk loop split over two cores ran %.2fx as fast as on one (2.00 = both cores free)\n' "$c2"
echo "(on a loaded machine the wall figures include waiting for the CPU; the CPU-time ratio does not)"
