#!/usr/bin/env bash
# Scoring of lattices, as Kaldi's local/score.sh (steps/score_kaldi.sh): for
# every word insertion penalty and LM weight, the best path of each lattice
# becomes a transcript, compute-wer scores it against the reference, the
# best combination is reported, and its errors are broken down per
# utterance, per speaker and per word pair, with a bootstrap confidence
# interval. Everything runs with strode's own tools, so no Kaldi installation
# is needed.
#
# Usage: recipes/local/score.sh [options] <data-dir> <lang-or-graph-dir> <decode-dir>
#   <data-dir>/text                 reference transcripts
#   <data-dir>/utt2spk              speakers (for wer_details/per_spk; skipped with a warning without it)
#   <lang-or-graph-dir>/words.txt   word symbol table
#   <decode-dir>/lat.*.gz           lattices (CompactLattice archives, gzipped)
# Writes, as score_kaldi.sh does, in <decode-dir>:
#   wer_<lmwt>_<wip>                          compute-wer's lines for each LM weight and penalty
#   scoring_kaldi/test_filt.txt               the reference, filtered
#   scoring_kaldi/penalty_<wip>/<lmwt>.txt    the hypotheses, filtered
#   scoring_kaldi/best_wer                    the lowest %WER line and its wer_ file
#   scoring_kaldi/wer_details/{lmwt,wip}      the LM weight and penalty of best_wer
#   scoring_kaldi/wer_details/per_utt         aligned ref/hyp/op lines and C S I D counts per utterance
#   scoring_kaldi/wer_details/per_spk         counts and rates per speaker and in sum
#   scoring_kaldi/wer_details/ops             counts of every correct/substituted/inserted/deleted word pair
#   scoring_kaldi/wer_details/wer_bootci      the WER's bootstrap 95% confidence interval
# and, as strode's recipes have always read them, best_wer (= scoring_kaldi/best_wer),
# scoring/test_filt.txt and scoring/penalty_<wip>/<lmwt>.txt (copies), logs in scoring/log.
# Filters, as score_kaldi.sh's: an executable local/wer_output_filter, local/wer_ref_filter or
# local/wer_hyp_filter under the directory the script is run from filters the reference
# (wer_ref_filter, else wer_output_filter) and the hypotheses (wer_hyp_filter, else
# wer_output_filter) on their way to test_filt.txt and <lmwt>.txt; otherwise they pass unchanged.
# Options:
#   --min-lmwt N            (default 7)
#   --max-lmwt N            (default 17)
#   --word-ins-penalty "L"  (default "0.0 0.5 1.0"; commas separate too, as in Kaldi)
#   --stats true|false      write scoring_kaldi/wer_details (default true)
#   --ref-filtering-cmd C   filter for the reference (default: found in local/ as above, else cat)
#   --hyp-filtering-cmd C   filter for the hypotheses (default: found in local/ as above, else cat)
#   --strode PATH           strode binary (default: $STRODE, else bin/strode, built when stale)
#   --stage N               0: decode the lattices to text; 1: only score existing text (default 0)
#   --max-jobs N            LM weight x penalty pairs scored at once (default: the CPUs, nproc)
set -euo pipefail

min_lmwt=7
max_lmwt=17
word_ins_penalty="0.0 0.5 1.0"
stats=true
ref_filtering_cmd=
hyp_filtering_cmd=
strode=
stage=0
max_jobs=
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
wips=$(echo "$word_ins_penalty" | sed 's/,/ /g')

# score_kaldi.sh's filters: the recipe's local/ (relative to where it runs).
if [ -z "$ref_filtering_cmd" ]; then
  ref_filtering_cmd=cat
  [ -x local/wer_output_filter ] && ref_filtering_cmd=local/wer_output_filter
  [ -x local/wer_ref_filter ] && ref_filtering_cmd=local/wer_ref_filter
fi
if [ -z "$hyp_filtering_cmd" ]; then
  hyp_filtering_cmd=cat
  [ -x local/wer_output_filter ] && hyp_filtering_cmd=local/wer_output_filter
  [ -x local/wer_hyp_filter ] && hyp_filtering_cmd=local/wer_hyp_filter
fi

sk=$dir/scoring_kaldi
mkdir -p "$dir/scoring/log" "$sk/log"
# The filter command is word-split as score_kaldi.sh's unquoted use splits it.
# shellcheck disable=SC2086
$ref_filtering_cmd < "$data/text" > "$sk/test_filt.txt" \
  || { echo "$0: filtering the reference with '$ref_filtering_cmd' failed" >&2; exit 1; }
cp "$sk/test_filt.txt" "$dir/scoring/test_filt.txt"

# One pair: its best paths as text, then compute-wer on them. The pairs are
# independent, so they run --max-jobs at a time, as score_kaldi.sh runs its
# LM weights as one job array through $cmd.
score_pair() {
  local lmwt=$1 wip=$2 hyp=$sk/penalty_$2/$1.txt log=$dir/scoring/log/best_path.$1.$2.log
  if [ "$stage" -le 0 ]; then
    # shellcheck disable=SC2086
    gunzip -c "${lats[@]}" \
      | "$strode" lattice-scale --inv-acoustic-scale="$lmwt" ark:- ark:- 2>"$log.scale" \
      | "$strode" lattice-add-penalty --word-ins-penalty="$wip" ark:- ark:- 2>"$log.penalty" \
      | "$strode" lattice-best-path --word-symbol-table="$symtab" ark:- ark,t:- 2>"$log" \
      | "$strode" int2sym --print-args=false --field=2- "$symtab" 2>"$log.int2sym" \
      | $hyp_filtering_cmd > "$hyp" \
      || { echo "$0: decoding lattices failed at LM weight $lmwt, penalty $wip (see $log*)" >&2; return 1; }
    cp "$hyp" "$dir/scoring/penalty_$wip/$lmwt.txt"
  elif [ ! -f "$hyp" ] && [ -f "$dir/scoring/penalty_$wip/$lmwt.txt" ]; then
    # A decode dir scored before scoring_kaldi/ was written.
    cp "$dir/scoring/penalty_$wip/$lmwt.txt" "$hyp"
  fi
  "$strode" compute-wer --text --mode=present "ark:$sk/test_filt.txt" "ark,p:$hyp" \
    > "$dir/wer_${lmwt}_${wip}" 2>"$dir/scoring/log/score.$lmwt.$wip.log" \
    || { echo "$0: compute-wer failed (see $dir/scoring/log/score.$lmwt.$wip.log)" >&2; return 1; }
}

[ -n "$max_jobs" ] || max_jobs=$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
case "$max_jobs" in ''|*[!0-9]*|0) echo "$0: --max-jobs takes a positive whole number, not '$max_jobs'" >&2; exit 1 ;; esac
# The oldest pair is waited for when --max-jobs run (plain wait PID, so bash 3 will do).
pids=() failed=0
for wip in $wips; do
  mkdir -p "$sk/penalty_$wip" "$dir/scoring/penalty_$wip"
  for lmwt in $(seq "$min_lmwt" "$max_lmwt"); do
    if [ ${#pids[@]} -ge "$max_jobs" ]; then
      wait "${pids[0]}" || failed=1
      pids=("${pids[@]:1}")
    fi
    score_pair "$lmwt" "$wip" &
    pids+=($!)
  done
done
for pid in ${pids[@]+"${pids[@]}"}; do
  wait "$pid" || failed=1
done
[ "$failed" = 0 ] || exit 1

# best_wer: the lowest %WER over all files, as utils/best_wer.sh (first on ties).
# Candidates in score_kaldi.sh's order: penalty-major, LM weight ascending.
for wip in $wips; do
  for lmwt in $(seq "$min_lmwt" "$max_lmwt"); do
    f=$dir/wer_${lmwt}_${wip}
    line=$(grep '^%WER' "$f" || true)
    [ -n "$line" ] && echo "$line $f"
  done
done | awk '{ if (best == "" || $2 + 0 < best + 0) { best = $2; line = $0 } } END { if (line == "") exit 1; print line }' \
  > "$sk/best_wer" || { echo "$0: no WER lines were produced" >&2; exit 1; }
cp "$sk/best_wer" "$dir/best_wer"

# The LM weight and penalty are read back from the file name, wer_<lmwt>_<wip>,
# as score_kaldi.sh reads them.
best_wer_file=$(awk '{print $NF}' "$sk/best_wer")
best_wip=$(echo "$best_wer_file" | awk -F_ '{print $NF}')
best_lmwt=$(echo "$best_wer_file" | awk -F_ '{N=NF-1; print $N}')
if [ -z "$best_lmwt" ]; then
  echo "$0: we could not get the details of the best WER from the file $best_wer_file" >&2; exit 1
fi

if $stats; then
  wd=$sk/wer_details
  mkdir -p "$wd"
  echo "$best_lmwt" > "$wd/lmwt"
  echo "$best_wip" > "$wd/wip"
  best_hyp=$sk/penalty_$best_wip/$best_lmwt.txt
  "$strode" align-text --special-symbol='***' "ark:$sk/test_filt.txt" "ark:$best_hyp" ark,t:- 2>"$sk/log/stats1.log" \
    | "$strode" wer-per-utt-details --special-symbol '***' 2>>"$sk/log/stats1.log" > "$wd/per_utt" \
    || { echo "$0: the per-utterance details failed (see $sk/log/stats1.log)" >&2; exit 1; }
  if [ -f "$data/utt2spk" ]; then
    "$strode" wer-per-spk-details "$data/utt2spk" < "$wd/per_utt" > "$wd/per_spk" 2>>"$sk/log/stats1.log" \
      || { echo "$0: the per-speaker details failed (see $sk/log/stats1.log)" >&2; exit 1; }
  else
    echo "$0: no $data/utt2spk: no $wd/per_spk" >&2
  fi
  # The C locale makes sort's order the byte order Kaldi's path.sh sets.
  "$strode" wer-ops-details --special-symbol '***' < "$wd/per_utt" 2>"$sk/log/stats2.log" \
    | LC_ALL=C sort -b -i -k 1,1 -k 4,4rn -k 2,2 -k 3,3 > "$wd/ops" \
    || { echo "$0: the word-pair details failed (see $sk/log/stats2.log)" >&2; exit 1; }
  "$strode" compute-wer-bootci --mode=present "ark:$sk/test_filt.txt" "ark:$best_hyp" \
    > "$wd/wer_bootci" 2>"$sk/log/wer_bootci.log" \
    || { echo "$0: compute-wer-bootci failed (see $sk/log/wer_bootci.log)" >&2; exit 1; }
fi
cat "$dir/best_wer"
