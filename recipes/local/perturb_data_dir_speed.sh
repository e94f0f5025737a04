#!/usr/bin/env bash
# A speed-perturbed copy of a data dir, as Kaldi's utils/data/perturb_data_dir_speed.sh: every
# utterance and speaker gets the prefix sp<factor>- (sp0.9-utt1), every recording's wav.scp
# entry becomes a pipe that plays it <factor> times faster (durations x 1/factor, every
# frequency x factor), and utt2dur, reco2dur and segments' times are divided by <factor>.
# utt2uniq maps each copy to its original (sp0.9-utt1 utt1), so that later splits keep the
# copies of one utterance together. text, spk2gender, utt2lang, segments and
# reco2file_and_channel follow when present; spk2utt is remade from utt2spk.
#
# The audio: Kaldi pipes each entry through "sox -t wav - -t wav - speed <factor>". We use
# strode's own resampler instead, `strode wav-speed-perturb --speed=<factor> <in> - |`:
#   sp0.9-utt1 /abs/bin/strode wav-speed-perturb --speed=0.9 /data/utt1.wav - |
#   sp0.9-utt2 sox utt2.flac -t wav - | /abs/bin/strode wav-speed-perturb --speed=0.9 - - |
#   sp0.9-utt3 /abs/bin/strode wav-speed-perturb --speed=0.9 wav.ark:1234 - |
# (Kaldi needs wav-copy before sox for the ark-offset form; strode reads the offset itself.)
# Why: no dependency (sox is often missing, and this script stops nowhere for it), and the
# same samples on every machine (sox's output depends on its version and build). How it compares
# with sox: both read the samples as if taken at factor x the rate and resample them back to
# the rate, so lengths and pitch shift agree (to a sample: strode keeps Kaldi's rule for the
# number of output samples, ceil(n/factor)). The filter differs: strode uses Kaldi's own
# LinearResample (features/resample.go: windowed sinc, 6 zeros, cut-off 0.99 x half the lower
# rate, as Kaldi's ResampleWaveform), sox its band-limited "rate" effect (a steeper, longer
# filter); so the samples near the band edge differ slightly, which fbank at 23-80 mel bins
# barely sees. Not measured against sox (none here). There is no golden test of the resampler
# against Kaldi's C++ LinearResample output either; features/speedperturb_test.go checks the
# length (n/factor) and a tone's frequency (x factor) of the result.
# factor x the sampling rate must be a whole number of Hz (0.9 and 1.1 at 8 or 16 kHz are); the
# first entry's pipe is run once here so a factor that fails stops this script, not make_fbank.
#
# Usage: recipes/local/perturb_data_dir_speed.sh [options] <factor> <src-data-dir> <dest-data-dir>
#   e.g. recipes/local/perturb_data_dir_speed.sh 0.9 data/train data/train_sp0.9
# <src-data-dir> needs utt2spk and wav.scp. Its utt2dur (and reco2dur) are made there when
# missing, as Kaldi does (with strode wav-to-duration, or from segments), because measuring
# the perturbed pipes later would run every one of them.
# Options:
#   --include-spk-prefix BOOL   prefix speakers too (default true; Kaldi's option)
#   --strode PATH               strode binary (default: $STRODE, else bin/strode, built when
#                               stale); its absolute path is written into wav.scp
set -euo pipefail
export LC_ALL=C

include_spk_prefix=true
strode=

. "$(dirname "$0")/parse_options.sh"
[ $# -eq 3 ] || { print_usage >&2; exit 1; }
factor=$1
src=$2
dest=$3

if ! [[ $factor =~ ^[0-9]*\.?[0-9]+$ ]] || ! awk -v f="$factor" 'BEGIN { exit !(f + 0 > 0) }'; then
  echo "$0: the speed factor must be a positive number (such as 0.9 or 1.1), got '$factor'" >&2
  exit 1
fi
for f in utt2spk wav.scp; do
  [ -f "$src/$f" ] || { echo "$0: no such file $src/$f" >&2; exit 1; }
done
if [ "$(cd "$src" && pwd)" == "$(mkdir -p "$dest" && cd "$dest" && pwd)" ]; then
  echo "$0: this script requires <src-data-dir> and <dest-data-dir> to be different." >&2
  exit 1
fi
. "$(dirname "$0")/strode_bin.sh"
case $strode in
  /*) ;;
  */*) strode=$PWD/$strode ;;
  *) strode=$(command -v "$strode") ;;
esac
if [[ $strode =~ [[:space:]] ]]; then
  echo "$0: the strode binary's path '$strode' has white space: it cannot go into a wav.scp pipe" >&2
  exit 1
fi

utt_prefix=sp$factor-
spk_prefix=
$include_spk_prefix && spk_prefix=sp$factor-
# Recordings always get the prefix (Kaldi gives them the speaker prefix, which without
# --include-spk-prefix would leave two copies of one recording with one id and two audios).
reco_prefix=sp$factor-

# put FILE: standard input into FILE, through a temporary name.
put() { cat > "$1.tmp" && mv "$1.tmp" "$1"; }
# prefix P: every line's first field (the key) with P before it, the rest verbatim.
prefix() { awk -v p="$1" '{ sub(/^[ \t]+/, ""); print p $0 }'; }

# utt2dur and reco2dur of the source (utils/data/get_utt2dur.sh, get_reco2dur.sh).
if [ ! -f "$src/utt2dur" ]; then
  if [ -f "$src/segments" ]; then
    awk '{ print $1, $4 - $3 }' "$src/segments" | put "$src/utt2dur"
  else
    "$strode" wav-to-duration scp:"$src/wav.scp" ark,t:"$src/utt2dur.tmp" 2> "$src/.wav-to-duration.log" && mv "$src/utt2dur.tmp" "$src/utt2dur" ||
      { echo "$0: strode wav-to-duration scp:$src/wav.scp failed:" >&2; grep -v '^LOG' "$src/.wav-to-duration.log" | tail -n 5 >&2
        rm -f "$src/.wav-to-duration.log" "$src/utt2dur.tmp"; exit 1; }
    rm -f "$src/.wav-to-duration.log"
  fi
  echo "$0: made $src/utt2dur"
fi
if [ ! -f "$src/reco2dur" ]; then
  if [ -f "$src/segments" ]; then
    "$strode" wav-to-duration scp:"$src/wav.scp" ark,t:"$src/reco2dur.tmp" 2> "$src/.wav-to-duration.log" && mv "$src/reco2dur.tmp" "$src/reco2dur" ||
      { echo "$0: strode wav-to-duration scp:$src/wav.scp failed:" >&2; grep -v '^LOG' "$src/.wav-to-duration.log" | tail -n 5 >&2
        rm -f "$src/.wav-to-duration.log" "$src/reco2dur.tmp"; exit 1; }
    rm -f "$src/.wav-to-duration.log"
  else
    cp "$src/utt2dur" "$src/reco2dur.tmp" && mv "$src/reco2dur.tmp" "$src/reco2dur"
  fi
fi

awk -v p="$utt_prefix" -v q="$spk_prefix" 'NF != 2 { printf("%s:%d: bad line in utt2spk: %s\n", FILENAME, FNR, $0) > "/dev/stderr"; exit 1 }
  { print p $1, q $2 }' "$src/utt2spk" | put "$dest/utt2spk"
"$strode" utt2spk-to-spk2utt --print-args=false "$dest/utt2spk" | put "$dest/spk2utt"
if [ -f "$src/utt2uniq" ]; then
  awk -v p="$utt_prefix" '{ print p $1, $2 }' "$src/utt2uniq"
else
  awk -v p="$utt_prefix" '{ print p $1, $1 }' "$src/utt2spk"
fi | put "$dest/utt2uniq"
[ -f "$src/text" ] && prefix "$utt_prefix" < "$src/text" | put "$dest/text"
[ -f "$src/utt2lang" ] && prefix "$utt_prefix" < "$src/utt2lang" | put "$dest/utt2lang"
[ -f "$src/spk2gender" ] && prefix "$spk_prefix" < "$src/spk2gender" | put "$dest/spk2gender"
awk -v p="$utt_prefix" -v f="$factor" '{ print p $1, $2 / f }' "$src/utt2dur" | put "$dest/utt2dur"
awk -v p="$reco_prefix" -v f="$factor" '{ print p $1, $2 / f }' "$src/reco2dur" | put "$dest/reco2dur"

wav_prefix=$utt_prefix
dropped=0
if [ -f "$src/segments" ]; then
  wav_prefix=$reco_prefix
  # Kaldi's rule: times / factor to 2 decimals; a segment no longer than 10 ms goes.
  awk -v p="$utt_prefix" -v r="$reco_prefix" -v f="$factor" '{ s = $3 / f; e = $4 / f
      if (e > s + 0.01) printf("%s%s %s%s %.2f %.2f\n", p, $1, r, $2, s, e) }' "$src/segments" | put "$dest/segments"
  dropped=$(( $(wc -l < "$src/segments") - $(wc -l < "$dest/segments") ))
  [ -f "$src/reco2file_and_channel" ] && prefix "$reco_prefix" < "$src/reco2file_and_channel" | put "$dest/reco2file_and_channel"
fi
# wav.scp: a pipe gets the perturbation appended; a file or ark offset is read by it; at
# speed 1 (the 3-way script's sp1.0- copy, Kaldi's copy_data_dir.sh) the entry stays as it is.
awk -v p="$wav_prefix" -v f="$factor" -v s="$strode" '{
    sub(/^[ \t]+/, ""); key = $1; rx = $0; sub(/^[^ \t]+[ \t]+/, "", rx); sub(/[ \t]+$/, "", rx)
    if (f + 0 == 1) print p key " " rx
    else if (rx ~ /\|$/) { sub(/[ \t]*\|$/, "", rx); print p key " " rx " | " s " wav-speed-perturb --speed=" f " - - |" }
    else print p key " " s " wav-speed-perturb --speed=" f " " rx " - |" }' "$src/wav.scp" | put "$dest/wav.scp"

# Run the first entry's pipe now: a factor the rate cannot take, or a broken source pipe, is
# better found here than when the features are made.
head -n 1 "$dest/wav.scp" > "$dest/.check.scp"
if ! "$strode" wav-to-duration scp:"$dest/.check.scp" ark,t:/dev/null 2> "$dest/.check.log"; then
  echo "$0: the first perturbed recording does not decode ($(cut -d' ' -f1 "$dest/.check.scp")):" >&2
  grep -v '^LOG' "$dest/.check.log" | tail -n 5 >&2
  rm -f "$dest/.check.scp" "$dest/.check.log"
  exit 1
fi
rm -f "$dest/.check.scp" "$dest/.check.log"

if [ "$dropped" -gt 0 ]; then
  echo "$0: $dropped segments of $src are 10 ms or shorter at speed $factor: removing their utterances"
  "$strode" fix-data-dir --print-args=false "$dest"
fi
echo "$0: generated speed-perturbed version of data in $src, in $dest"
"$strode" validate-data-dir --print-args=false --no-feats --no-text "$dest"
