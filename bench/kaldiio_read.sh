#!/usr/bin/env bash
# kaldiio_read.sh: read throughput of strode's Kaldi table reader against
# `cat FILE > /dev/null` on the same file, measured in the same run.
#
#   bench/kaldiio_read.sh            # from the repository root
#   ROUNDS=7 COPIES=2000 bench/kaldiio_read.sh
#
# It builds a binary float archive of real Kaldi fbank matrices (the golden
# kaldiio/testdata/fbank23.ark, 4 utterances, concatenated COPIES times:
# ~106 MB at the default 1900) and its compressed copy (`strode copy-feats
# --compress=true`, Kaldi's default method). Each round times, interleaved so
# machine load hits every command alike:
#   cat big.ark > /dev/null                      (the peer: raw read)
#   strode feat-to-len ark:big.ark ark:/dev/null (read + decode every matrix)
#   cat big_cm.ark > /dev/null
#   strode feat-to-len ark:big_cm.ark ark:/dev/null (read + decompress)
# The page cache is warmed first, so both sides read from memory. Prints the
# median wall time of each, MB/s of archive bytes, median CPU seconds, and our
# throughput as a ratio to cat's (1.0 = as fast as cat; the goal is >= 0.5
# uncompressed). On a loaded machine wall times swing; the ratio of medians
# from interleaved runs is the figure to quote.
# Outputs go to bench/out/kaldiio/.
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${ROUNDS:-5}
COPIES=${COPIES:-1900}
OUT=bench/out/kaldiio
mkdir -p "$OUT"
. recipes/local/strode_bin.sh  # $STRODE, else bin/strode (built when stale); exports STRODE

BIG=$OUT/big.ark
BIGCM=$OUT/big_cm.ark
if [ ! -s "$BIG" ] || [ "$(stat -c %s "$BIG")" -ne $((COPIES * $(stat -c %s kaldiio/testdata/fbank23.ark))) ]; then
	for _ in $(seq 1 "$COPIES"); do cat kaldiio/testdata/fbank23.ark; done >"$BIG"
	"$STRODE" copy-feats --print-args=false --compress=true "ark:$BIG" "ark:$BIGCM" 2>/dev/null
fi
size=$(stat -c %s "$BIG")
sizecm=$(stat -c %s "$BIGCM")
matrices=$((COPIES * 4))

now() { date +%s.%N; }
timeit() { # prints the wall seconds taken by "$@"; appends its CPU seconds (user+sys) to $CPU
	local t0 t1
	t0=$(now)
	/usr/bin/time -f "%U %S" -o "$OUT/cpu.tmp" "$@" >/dev/null 2>&1
	t1=$(now)
	awk '{print $1 + $2}' "$OUT/cpu.tmp" >>"$CPU"
	echo "$t1 - $t0" | bc -l
}
median() { sort -g | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.4f", m}'; }

echo "cpu:   $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), nproc $(nproc)"
echo "load:  $(uptime | sed 's/.*load average/load average/')"
echo "files: $BIG ($size bytes, $matrices matrices), $BIGCM ($sizecm bytes); $ROUNDS rounds"
cat "$BIG" "$BIGCM" >/dev/null # warm the page cache

for f in cat strode catcm strodecm; do : >"$OUT/$f.txt"; : >"$OUT/$f.cpu"; done
for _ in $(seq 1 "$ROUNDS"); do
	CPU=$OUT/cat.cpu timeit cat "$BIG" >>"$OUT/cat.txt"
	CPU=$OUT/strode.cpu timeit "$STRODE" feat-to-len --print-args=false "ark:$BIG" ark:/dev/null >>"$OUT/strode.txt"
	CPU=$OUT/catcm.cpu timeit cat "$BIGCM" >>"$OUT/catcm.txt"
	CPU=$OUT/strodecm.cpu timeit "$STRODE" feat-to-len --print-args=false "ark:$BIGCM" ark:/dev/null >>"$OUT/strodecm.txt"
done
c=$(median <"$OUT/cat.txt"); s=$(median <"$OUT/strode.txt")
cc=$(median <"$OUT/catcm.txt"); sc=$(median <"$OUT/strodecm.txt")
mbps() { echo "$1 / $2 / 1000000" | bc -l | xargs printf "%.0f"; }
ratio() { echo "$1 / $2" | bc -l | xargs printf "%.2f"; }
cpu() { median <"$OUT/$1.cpu"; }
echo "median wall time, throughput of archive bytes, and median CPU seconds (user+sys):"
printf "%-40s %8ss %6s MB/s  cpu %ss\n" "cat big.ark > /dev/null" "$c" "$(mbps "$size" "$c")" "$(cpu cat)"
printf "%-40s %8ss %6s MB/s  cpu %ss  ratio to cat: %s\n" "strode feat-to-len ark:big.ark (FM)" "$s" "$(mbps "$size" "$s")" "$(cpu strode)" "$(ratio "$c" "$s")"
printf "%-40s %8ss %6s MB/s  cpu %ss\n" "cat big_cm.ark > /dev/null" "$cc" "$(mbps "$sizecm" "$cc")" "$(cpu catcm)"
printf "%-40s %8ss %6s MB/s  cpu %ss  ratio to cat: %s (%s MB/s of floats)\n" "strode feat-to-len ark:big_cm.ark (CM)" "$sc" "$(mbps "$sizecm" "$sc")" "$(cpu strodecm)" "$(ratio "$cc" "$sc")" "$(mbps "$size" "$sc")"
