#!/usr/bin/env bash
# Scoring of lattices, as Kaldi's local/score.sh (steps/score_kaldi.sh): for
# every word insertion penalty and LM weight, the best path of each lattice
# becomes a transcript, compute-wer scores it against the reference, and the
# best combination is reported. Everything runs with strode's own tools, so
# no Kaldi installation is needed.
#
# Usage: recipes/local/score.sh [options] <data-dir> <lang-or-graph-dir> <decode-dir>
#   <data-dir>/text                 reference transcripts
#   <lang-or-graph-dir>/words.txt   word symbol table
#   <decode-dir>/lat.*.gz           lattices (CompactLattice archives, gzipped)
# Writes <decode-dir>/scoring/penalty_<wip>/<lmwt>.txt (hypotheses),
# <decode-dir>/wer_<lmwt>_<wip> (compute-wer lines) and <decode-dir>/best_wer.
# Options:
#   --min-lmwt N            (default 7)
#   --max-lmwt N            (default 17)
#   --word-ins-penalty "L"  (default "0.0 0.5 1.0")
#   --strode PATH           strode binary (default: $STRODE, else bin/strode, else strode on PATH)
#   --stage N               0: decode the lattices to text; 1: only score existing text (default 0)
set -euo pipefail

min_lmwt=7
max_lmwt=17
word_ins_penalty="0.0 0.5 1.0"
strode="${STRODE:-}"
stage=0

while [ $# -gt 0 ]; do
  case "$1" in
    --min-lmwt) min_lmwt=$2; shift 2 ;;
    --min-lmwt=*) min_lmwt=${1#*=}; shift ;;
    --max-lmwt) max_lmwt=$2; shift 2 ;;
    --max-lmwt=*) max_lmwt=${1#*=}; shift ;;
    --word-ins-penalty) word_ins_penalty=$2; shift 2 ;;
    --word-ins-penalty=*) word_ins_penalty=${1#*=}; shift ;;
    --strode) strode=$2; shift 2 ;;
    --strode=*) strode=${1#*=}; shift ;;
    --stage) stage=$2; shift 2 ;;
    --stage=*) stage=${1#*=}; shift ;;
    --cmd|--cmd=*) [ "$1" = --cmd ] && shift; shift ;;  # accepted for Kaldi compatibility; runs locally
    -h|--help) sed -n '2,23p' "$0"; exit 0 ;;
    --*) echo "$0: unknown option $1" >&2; exit 1 ;;
    *) break ;;
  esac
done

if [ $# -ne 3 ]; then
  sed -n '2,23p' "$0" >&2
  exit 1
fi
data=$1
lang=$2
dir=$3

if [ -z "$strode" ]; then
  root=$(cd "$(dirname "$0")/../.." && pwd)
  if [ -x "$root/bin/strode" ]; then strode=$root/bin/strode
  elif command -v strode >/dev/null; then strode=$(command -v strode)
  else echo "$0: no strode binary: build it (go build -o bin/strode ./cmd/strode) or pass --strode" >&2; exit 1
  fi
fi

symtab=$lang/words.txt
for f in "$symtab" "$data/text"; do
  [ -f "$f" ] || { echo "$0: no such file $f" >&2; exit 1; }
done
shopt -s nullglob
lats=("$dir"/lat.*.gz)
shopt -u nullglob
if [ "$stage" -le 0 ] && [ ${#lats[@]} -eq 0 ]; then
  echo "$0: no lattices $dir/lat.*.gz" >&2; exit 1
fi

mkdir -p "$dir/scoring/log"
# The reference, as score_kaldi.sh's test_filt.txt (no filtering of noise
# words is needed for strode's recipes).
cp "$data/text" "$dir/scoring/test_filt.txt"

# int2sym: word-ids to words through words.txt (utils/int2sym.pl -f 2-).
int2sym() {
  awk -v symtab="$symtab" 'BEGIN { while ((getline line < symtab) > 0) { split(line, a, " "); w[a[2]] = a[1] } }
    { printf "%s", $1; for (i = 2; i <= NF; i++) { if (!($i in w)) { print "int2sym: word-id " $i " not in " symtab > "/dev/stderr"; exit 1 } printf " %s", w[$i] } printf " \n" }'
}

for wip in $word_ins_penalty; do
  mkdir -p "$dir/scoring/penalty_$wip"
  for lmwt in $(seq "$min_lmwt" "$max_lmwt"); do
    hyp=$dir/scoring/penalty_$wip/$lmwt.txt
    if [ "$stage" -le 0 ]; then
      log=$dir/scoring/log/best_path.$lmwt.$wip.log
      gunzip -c "${lats[@]}" \
        | "$strode" lattice-scale --inv-acoustic-scale="$lmwt" ark:- ark:- 2>"$log.scale" \
        | "$strode" lattice-add-penalty --word-ins-penalty="$wip" ark:- ark:- 2>"$log.penalty" \
        | "$strode" lattice-best-path --word-symbol-table="$symtab" ark:- ark,t:- 2>"$log" \
        | int2sym > "$hyp" \
        || { echo "$0: decoding lattices failed at LM weight $lmwt, penalty $wip (see $log*)" >&2; exit 1; }
    fi
    "$strode" compute-wer --text --mode=present "ark:$dir/scoring/test_filt.txt" "ark,p:$hyp" \
      > "$dir/wer_${lmwt}_${wip}" 2>"$dir/scoring/log/score.$lmwt.$wip.log" \
      || { echo "$0: compute-wer failed (see $dir/scoring/log/score.$lmwt.$wip.log)" >&2; exit 1; }
  done
done

# best_wer: the lowest %WER over all files, as utils/best_wer.sh (first on ties).
# Candidates in score_kaldi.sh's order: penalty-major, LM weight ascending.
for wip in $word_ins_penalty; do
  for lmwt in $(seq "$min_lmwt" "$max_lmwt"); do
    f=$dir/wer_${lmwt}_${wip}
    line=$(grep '^%WER' "$f" || true)
    [ -n "$line" ] && echo "$line $f"
  done
done | awk '{ if (best == "" || $2 + 0 < best + 0) { best = $2; line = $0 } } END { if (line == "") exit 1; print line }' \
  > "$dir/best_wer" || { echo "$0: no WER lines were produced" >&2; exit 1; }
cat "$dir/best_wer"
