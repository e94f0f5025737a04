#!/usr/bin/env bash
# CTM files (word, start time, duration) from a decode dir's lattices, as Kaldi's
# steps/get_ctm.sh: for every LM weight, the best path of each lattice is cut at word
# boundaries (lattice-align-words with the lang dir's phones/word_boundary.int, or
# lattice-align-words-lexicon with phones/align_lexicon.int when the phones carry no
# word-position marks) and written as CTM lines by nbest-to-ctm. Times are relative to the
# utterance, or to the recording when <data-dir>/segments exists (as utils/convert_ctm.pl,
# with <data-dir>/reco2file_and_channel naming file and channel; without it, the recording-id
# and channel 1). Everything runs with strode's own tools.
#
# Usage: recipes/local/get_ctm.sh [options] <data-dir> <lang-or-graph-dir> <decode-dir>
#   <lang-or-graph-dir>/words.txt and phones/word_boundary.int or phones/align_lexicon.int
#   <decode-dir>/lat.*.gz           lattices; the model is <decode-dir>/../final.mdl
# Writes <decode-dir>/score_<lmwt>/<data-dir name>.ctm: "<utt> 1 <start> <dur> <word>" lines,
# or "<file> <channel> <start> <dur> <word>" with segments.
# Options:
#   --min-lmwt N            (default 7)
#   --max-lmwt N            (default 17)
#   --frame-shift SECONDS   (default 0.01)
#   --use-segments BOOL     convert times to the recording's when segments exist (default true)
#   --print-silence BOOL    also write silence, as word <eps> (default false)
#   --model FILE            (default <decode-dir>/../final.mdl)
#   --strode PATH           strode binary (default: $STRODE, else bin/strode, built when stale)
set -euo pipefail

min_lmwt=7
max_lmwt=17
frame_shift=0.01
use_segments=true
print_silence=false
model=
strode=
stage=0
cmd=run.pl  # accepted for Kaldi compatibility; the CTMs are made locally

. "$(dirname "$0")/parse_options.sh"
[ $# -eq 3 ] || { print_usage >&2; exit 1; }
data=$1
lang=$2
dir=$3
. "$(dirname "$0")/strode_bin.sh"

model=${model:-$dir/../final.mdl}
for f in "$lang/words.txt" "$model"; do
  [ -f "$f" ] || { echo "$0: expecting file $f to exist" >&2; exit 1; }
done
shopt -s nullglob
lats=("$dir"/lat.*.gz)
shopt -u nullglob
[ ${#lats[@]} -gt 0 ] || { echo "$0: no lattices $dir/lat.*.gz" >&2; exit 1; }

if [ -f "$lang/phones/word_boundary.int" ]; then
  align=(lattice-align-words "$lang/phones/word_boundary.int" "$model")
elif [ -f "$lang/phones/align_lexicon.int" ]; then
  align=(lattice-align-words-lexicon "$lang/phones/align_lexicon.int" "$model")
else
  echo "$0: neither $lang/phones/word_boundary.int nor $lang/phones/align_lexicon.int exists: cannot align." >&2
  exit 1
fi

# Segment-relative times to the recording's, as utils/convert_ctm.pl.
segments=
if [ -f "$data/segments" ] && $use_segments; then
  segments=$data/segments
fi
to_recording() {
  if [ -z "$segments" ]; then
    cat
    return
  fi
  local r2fc=/dev/null
  [ -f "$data/reco2file_and_channel" ] && r2fc=$data/reco2file_and_channel
  awk -v segs="$segments" -v r2fc="$r2fc" '
    BEGIN {
      while ((getline l < segs) > 0) {
        n = split(l, a, " "); if (n == 0) continue
        if (n != 4) { print "Bad line in segments file: " l > "/dev/stderr"; exit 1 }
        reco[a[1]] = a[2]; beg[a[1]] = a[3]; fin[a[1]] = a[4]
      }
      while ((getline l < r2fc) > 0) {
        n = split(l, a, " "); if (n == 0) continue
        if (n != 3) { print "Bad line in reco2file_and_channel file: " l > "/dev/stderr"; exit 1 }
        file[a[1]] = a[2]; chan[a[1]] = a[3]
      }
    }
    NF == 0 { next }
    {
      if (NF != 5 && NF != 6) { print "Unexpected ctm format: " $0 > "/dev/stderr"; exit 1 }
      if (!($1 in reco)) { print "Utterance-id " $1 " not defined in segments file " segs > "/dev/stderr"; exit 1 }
      r = reco[$1]
      f = (r in file) ? file[r] : r; c = (r in chan) ? chan[r] : 1
      b = sprintf("%.2f", $3 + beg[$1]); d = sprintf("%.2f", $4)
      line = f " " c " " b " " d " " $5 (NF == 6 ? " " $6 : "")
      if (b + d > fin[$1] + 0.01) print "Warning: word appears to be past end of recording; line is " line > "/dev/stderr"
      print line
    }'
}

name=$(basename "$data")
mkdir -p "$dir/scoring/log"
for lmwt in $(seq "$min_lmwt" "$max_lmwt"); do
  mkdir -p "$dir/score_$lmwt"
  log=$dir/scoring/log/get_ctm.$lmwt.log
  ctm=$dir/score_$lmwt/$name.ctm
  gunzip -c "${lats[@]}" \
    | "$strode" lattice-1best --lm-scale="$lmwt" ark:- ark:- 2>"$log.1best" \
    | "$strode" "${align[@]}" ark:- ark:- 2>"$log.align" \
    | "$strode" nbest-to-ctm --frame-shift="$frame_shift" --print-silence="$print_silence" ark:- - 2>"$log" \
    | "$strode" int2sym --print-args=false --field=5 "$lang/words.txt" 2>"$log.int2sym" \
    | to_recording > "$ctm.tmp" \
    || { echo "$0: making the CTM failed at LM weight $lmwt (see $log*)" >&2; exit 1; }
  mv "$ctm.tmp" "$ctm"
done
echo "$0: wrote $dir/score_{$min_lmwt..$max_lmwt}/$name.ctm"
