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
#   --strode PATH           strode binary (default: $STRODE, else bin/strode, built when stale)
#   --stage N               0: decode the lattices to text; 1: only score existing text (default 0)
set -euo pipefail

min_lmwt=7
max_lmwt=17
word_ins_penalty="0.0 0.5 1.0"
strode=
stage=0
cmd=run.pl  # accepted for Kaldi compatibility; scoring runs locally

. "$(dirname "$0")/parse_options.sh"
[ $# -eq 3 ] || { print_usage >&2; exit 1; }
data=$1
lang=$2
dir=$3
. "$(dirname "$0")/strode_bin.sh"

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
        | "$strode" int2sym --print-args=false --field=2- "$symtab" > "$hyp" 2>"$log.int2sym" \
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
