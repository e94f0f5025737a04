#!/usr/bin/env bash
# One data dir from several, as Kaldi's utils/combine_data.sh: each file that every source has
# (utt2spk, text, wav.scp, segments, feats.scp, cmvn.scp, utt2dur, reco2dur, ...) is their
# lines together, sorted in C order; spk2utt is remade from utt2spk; then `strode fix-data-dir`
# sorts, drops repeated keys and keeps what every file covers. utt2uniq, when any source has
# one, is made for all (a source without it maps each utterance to itself). A file only some
# sources have is left out, with a warning (Kaldi's newer script does so too, except that it
# makes whole-recording segments for the sources without them; here a mix of sources with and
# without segments is an error). <dest-data-dir> is removed first, so it may not be a source.
#
# Usage: recipes/local/combine_data.sh [options] <dest-data-dir> <src-data-dir1> <src-data-dir2> ...
# Options:
#   --extra-files "F1 F2"   more per-key files to combine (default none)
#   --skip-fix BOOL         do not run fix-data-dir at the end (default false)
#   --strode PATH           strode binary (default: $STRODE, else bin/strode, built when stale)
set -euo pipefail
export LC_ALL=C

extra_files=
skip_fix=false
strode=

. "$(dirname "$0")/parse_options.sh"
[ $# -ge 2 ] || { print_usage >&2; exit 1; }
dest=$1
shift
. "$(dirname "$0")/strode_bin.sh"

for d in "$@"; do
  [ -f "$d/utt2spk" ] || { echo "$0: no such file $d/utt2spk" >&2; exit 1; }
  if [ -d "$dest" ] && [ "$(cd "$d" && pwd)" == "$(cd "$dest" && pwd)" ]; then
    echo "$0: <dest-data-dir> $dest is also a source: it would be removed before it is read" >&2
    exit 1
  fi
done
rm -rf "$dest"
mkdir -p "$dest"

n_seg=0
for d in "$@"; do [ -f "$d/segments" ] && n_seg=$((n_seg + 1)); done
if [ $n_seg -gt 0 ] && [ $n_seg -lt $# ]; then
  echo "$0: $n_seg of the $# source dirs have segments and the others do not: cannot combine them" >&2
  exit 1
fi

has_utt2uniq=false
for d in "$@"; do [ -f "$d/utt2uniq" ] && has_utt2uniq=true; done
if $has_utt2uniq; then
  for d in "$@"; do
    if [ -f "$d/utt2uniq" ]; then cat "$d/utt2uniq"; else awk '{ print $1, $1 }' "$d/utt2spk"; fi
  done | sort -k1,1 > "$dest/utt2uniq.tmp"
  mv "$dest/utt2uniq.tmp" "$dest/utt2uniq"
  echo "$0: combined utt2uniq"
fi

extra_files=${extra_files//utt2uniq/}
for f in utt2spk utt2lang utt2dur utt2num_frames reco2dur feats.scp text cmvn.scp vad.scp segments \
         reco2file_and_channel wav.scp spk2gender $extra_files; do
  have=0
  for d in "$@"; do [ -f "$d/$f" ] && have=$((have + 1)); done
  if [ $have -eq $# ]; then
    for d in "$@"; do cat "$d/$f"; done | sort -k1,1 > "$dest/$f.tmp"
    mv "$dest/$f.tmp" "$dest/$f"
    echo "$0: combined $f"
  elif [ $have -gt 0 ]; then
    echo "$0 [warning]: not combining $f: only $have of the $# source dirs have it" >&2
  fi
done

"$strode" utt2spk-to-spk2utt --print-args=false "$dest/utt2spk" > "$dest/spk2utt.tmp"
mv "$dest/spk2utt.tmp" "$dest/spk2utt"
if ! $skip_fix; then
  "$strode" fix-data-dir --print-args=false "$dest"
fi
