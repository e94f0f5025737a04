#!/usr/bin/env bash
# The ConstArpaLm of an ARPA LM, as Kaldi's utils/build_const_arpa_lm.sh: <new-lang-dir> is a
# copy of <old-lang-dir> with G.carpa, the LM's words mapped to <old-lang-dir>/words.txt's
# integers (strode map-arpa-lm; n-grams with other words are dropped) and packed by strode
# arpa-to-const-arpa with --bos-symbol/--eos-symbol from words.txt and --unk-symbol from oov.int.
# The ARPA file may be gzipped (name ending in .gz) or plain.
#
# Usage: recipes/local/build_const_arpa_lm.sh [options] <arpa-lm-path> <old-lang-dir> <new-lang-dir>
# Options:
#   --strode PATH           strode binary (default: $STRODE, else bin/strode, built when stale)
set -euo pipefail

strode=
local_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$local_dir/parse_options.sh"
[ $# -eq 3 ] || { print_usage >&2; exit 1; }
arpa_lm=$1 old_lang=$2 new_lang=$3
. "$local_dir/strode_bin.sh"
export LC_ALL=C

mkdir -p $new_lang
[ "$(cd $old_lang && pwd)" = "$(cd $new_lang && pwd)" ] || cp -r $old_lang/* $new_lang
unk=$(cat $new_lang/oov.int)
bos=$(awk '$1 == "<s>" { print $2 }' $new_lang/words.txt)
eos=$(awk '$1 == "</s>" { print $2 }' $new_lang/words.txt)
if [ -z "$bos" ] || [ -z "$eos" ]; then
  echo "$0: <s> and </s> symbols are not in $new_lang/words.txt" >&2
  exit 1
fi
cat=cat; case "$arpa_lm" in *.gz) cat="gunzip -c" ;; esac
$strode arpa-to-const-arpa --bos-symbol=$bos --eos-symbol=$eos --unk-symbol=$unk \
  "$cat $arpa_lm | $strode map-arpa-lm $new_lang/words.txt |" $new_lang/G.carpa
