#!/usr/bin/env bash
# mkgraph.sh: time to build a 5,000-word bigram decoding graph with
# `strode mkgraph` (one core) against the same composition /
# determinization / minimization chain run with Debian's OpenFst 1.7 tools
# (libfst-tools) on the same inputs, measured in the same run:
#
#   strode:  mkgraph lang mono graph   (L∘G, DeterminizeStar, MinimizeEncoded,
#            Ha∘LG, DeterminizeStar, rmsymbols, rmepslocal, MinimizeEncoded,
#            add-self-loops, ConstFst written)
#   OpenFst: fstcompose L G | fstrmepsilon | fstdeterminize | encoded fstminimize,
#            fstcompose Ha LG | fstrmepsilon | fstdeterminize |
#            fstrelabel (disambig tids -> eps) | fstrmepsilon | encoded fstminimize
#            (fstencode --encode_labels --encode_weights around fstminimize)
#            (no self-loops: OpenFst has no add-self-loops)
#
# The peer is not the same algorithm (OpenFst determinizes in the tropical
# semiring after full epsilon removal), so
# the ratio compares the cost of equivalent pipelines, not identical work.
#
#   bench/mkgraph.sh                  # from the repository root
#   ROUNDS=5 WORDS=5000 SUCCESSORS=10 bench/mkgraph.sh
#
# Prints each run's wall and CPU seconds, their medians and the ratios
# peer/strode, and the graph sizes. Outputs go to bench/out/mkgraph/.
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${ROUNDS:-3}
WORDS=${WORDS:-5000}
SUCCESSORS=${SUCCESSORS:-10}
OUT=bench/out/mkgraph
mkdir -p "$OUT"

if ! command -v fstcompose >/dev/null; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
		apt-get install -y -q libfst-tools >/dev/null ||
			{ apt-get update -q >/dev/null && apt-get install -y -q libfst-tools >/dev/null; }
	else
		echo "mkgraph.sh: OpenFst tools missing: run  sudo apt-get install libfst-tools" >&2
		exit 1
	fi
fi

. recipes/local/strode_bin.sh  # $STRODE, else bin/strode (built when stale)
go run ./bench/graphinputs -words "$WORDS" -successors "$SUCCESSORS" -out "$OUT"

PIN=""
command -v taskset >/dev/null && PIN="taskset -c 0"

strode_run() {
	GOMAXPROCS=1 $PIN "$strode" mkgraph "$OUT/lang" "$OUT/mono" "$OUT/graph" 2>"$OUT/strode.log"
}
# Encoded minimization, as Kaldi's fstminimizeencoded: labels and weights
# encoded into one label, the acceptor minimized, then decoded.
minimize_encoded() {
	$PIN fstencode --encode_labels --encode_weights - "$OUT/codex.$1" |
		$PIN fstminimize | $PIN fstencode --decode - "$OUT/codex.$1"
}
peer_run() {
	$PIN fstarcsort --sort_type=olabel "$OUT/lang/L_disambig.fst" |
		$PIN fstcompose - "$OUT/lang/G.fst" | $PIN fstrmepsilon | $PIN fstdeterminize |
		minimize_encoded lg >"$OUT/LG_peer.fst"
	$PIN fstarcsort --sort_type=olabel "$OUT/Ha.fst" |
		$PIN fstcompose - "$OUT/LG_peer.fst" | $PIN fstrmepsilon | $PIN fstdeterminize |
		$PIN fstrelabel --relabel_ipairs="$OUT/disambig_tid_to_eps.txt" | $PIN fstrmepsilon |
		minimize_encoded hclg >"$OUT/HCLGa_peer.fst"
}

median() { sort -g | awk '{a[NR]=$1} END{print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

echo "cpu:  $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), nproc $(nproc)"
echo "load: $(uptime | sed 's/.*load average/load average/')"
echo "$WORDS words, $SUCCESSORS bigram successors per history; $ROUNDS rounds, interleaved"
echo "(wall = elapsed seconds; cpu = user+sys seconds of the process tree, which other load on the machine inflates less)"
: >"$OUT/strode.wall"; : >"$OUT/peer.wall"; : >"$OUT/strode.cpu"; : >"$OUT/peer.cpu"
TIMEFORMAT='%R %U %S'
for r in $(seq 1 "$ROUNDS"); do
	read -r sw su ss < <({ time strode_run; } 2>&1 >/dev/null | tail -1)
	read -r pw pu ps < <({ time peer_run; } 2>&1 >/dev/null | tail -1)
	sc=$(echo "$su + $ss" | bc -l); pc=$(echo "$pu + $ps" | bc -l)
	echo "$sw" >>"$OUT/strode.wall"; echo "$pw" >>"$OUT/peer.wall"
	echo "$sc" >>"$OUT/strode.cpu"; echo "$pc" >>"$OUT/peer.cpu"
	printf 'round %d: strode wall %.2f s cpu %.2f s; OpenFst wall %.2f s cpu %.2f s\n' "$r" "$sw" "$sc" "$pw" "$pc"
done
msw=$(median <"$OUT/strode.wall"); mpw=$(median <"$OUT/peer.wall")
msc=$(median <"$OUT/strode.cpu"); mpc=$(median <"$OUT/peer.cpu")
printf 'median wall: strode %.2f s, OpenFst %.2f s, ratio OpenFst/strode %.2f\n' "$msw" "$mpw" "$(echo "$mpw / $msw" | bc -l)"
printf 'median cpu:  strode %.2f s, OpenFst %.2f s, ratio OpenFst/strode %.2f\n' "$msc" "$mpc" "$(echo "$mpc / $msc" | bc -l)"
echo "strode HCLG:  $(fstinfo "$OUT/graph/HCLG.fst" | awk '/# of states/{s=$NF} /# of arcs/{a=$NF} END{print s " states, " a " arcs"}')"
echo "OpenFst HCLGa (no self-loops): $(fstinfo "$OUT/HCLGa_peer.fst" | awk '/# of states/{s=$NF} /# of arcs/{a=$NF} END{print s " states, " a " arcs"}')"
