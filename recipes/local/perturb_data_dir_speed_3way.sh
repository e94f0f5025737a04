#!/usr/bin/env bash
# The standard 3-way speed perturbation of a data dir, as Kaldi's
# utils/data/perturb_data_dir_speed_3way.sh: the original (speed 1.0) and copies at 0.9 and 1.1
# (recipes/local/perturb_data_dir_speed.sh: prefixes sp0.9- and sp1.1- on utterances and
# speakers, wav.scp entries piped through `strode wav-speed-perturb`, durations / factor),
# combined into one sorted dir (recipes/local/combine_data.sh) with utt2uniq mapping every copy
# to its original, and checked by `strode validate-data-dir --no-feats --no-text`.
# The audio is perturbed by strode's own resampler, not sox as in Kaldi: no dependency, the same
# samples everywhere; perturb_data_dir_speed.sh's header says how it compares with sox.
#
# Usage: recipes/local/perturb_data_dir_speed_3way.sh [options] <src-data-dir> <dest-data-dir>
#   e.g. recipes/local/perturb_data_dir_speed_3way.sh data/train data/train_sp
# <src-data-dir> needs utt2spk and wav.scp; its utt2dur and reco2dur are made there when missing
# (as Kaldi does: measuring the perturbed pipes later would be slow). If <dest-data-dir>/feats.scp
# exists this refuses to run (delete it to redo the perturbation).
# Options:
#   --always-include-prefix BOOL  prefix the original's utterances and speakers with sp1.0- too
#                                 (default false, Kaldi's default: the original ids stay, so they
#                                 are a subset of the new dir's; true can help with sorting)
#   --include-spk-prefix BOOL     prefix speaker ids too, so the dir has 3x the speakers
#                                 (default true; speaker adaptation sees each copy as a speaker)
#   --strode PATH                 strode binary (default: $STRODE, else bin/strode, built when
#                                 stale); written into wav.scp
set -euo pipefail

always_include_prefix=false
include_spk_prefix=true
strode=

. "$(dirname "$0")/parse_options.sh"
[ $# -eq 2 ] || { print_usage >&2; exit 1; }
src=$1
dest=$2
local_dir=$(dirname "$0")

[ -f "$src/wav.scp" ] || { echo "$0: expected $src/wav.scp to exist" >&2; exit 1; }
[ -f "$src/utt2spk" ] || { echo "$0: expected $src/utt2spk to exist" >&2; exit 1; }
if [ -f "$dest/feats.scp" ]; then
  echo "$0: $dest/feats.scp already exists: refusing to run this (please delete $dest/feats.scp if you want this to run)" >&2
  exit 1
fi
. "$local_dir/strode_bin.sh"

opts=(--strode "$strode" --include-spk-prefix "$include_spk_prefix")
"$local_dir/perturb_data_dir_speed.sh" "${opts[@]}" 0.9 "$src" "${dest}_speed0.9"
"$local_dir/perturb_data_dir_speed.sh" "${opts[@]}" 1.1 "$src" "${dest}_speed1.1"
if $always_include_prefix; then
  # Speed 1.0 leaves wav.scp as it is: utils/copy_data_dir.sh --utt-prefix sp1.0- --spk-prefix sp1.0-.
  "$local_dir/perturb_data_dir_speed.sh" "${opts[@]}" 1.0 "$src" "${dest}_speed1.0"
  "$local_dir/combine_data.sh" --strode "$strode" "$dest" "${dest}_speed1.0" "${dest}_speed0.9" "${dest}_speed1.1"
  rm -r "${dest}_speed1.0" "${dest}_speed0.9" "${dest}_speed1.1"
else
  "$local_dir/combine_data.sh" --strode "$strode" "$dest" "$src" "${dest}_speed0.9" "${dest}_speed1.1"
  rm -r "${dest}_speed0.9" "${dest}_speed1.1"
fi

echo "$0: generated 3-way speed-perturbed version of data in $src, in $dest"
if ! "$strode" validate-data-dir --print-args=false --no-feats --no-text "$dest"; then
  echo "$0: Validation failed.  If it is a sorting issue, try the option '--always-include-prefix true'." >&2
  exit 1
fi
