#!/usr/bin/env bash
# Language-model rescoring of lattices, as Kaldi's steps/lmrescore.sh --mode 1: in each job of
# <input-decode-dir>, the old LM's cost is taken off every word sequence (lattice-lmrescore
# --lm-scale=-1.0 with <old-lang-dir>/G.fst projected on its output, so that its back-off arcs
# read epsilon) and the new LM's is put on (--lm-scale=1.0 with <new-lang-dir>/G.fst); the
# lattices go to <output-decode-dir>/lat.JOB.gz, which is then scored with recipes/local/score.sh.
# As in Kaldi, method 1 is inexact: a word sequence gets the cost of its best path through G,
# which may take a back-off arc where an explicit n-gram exists.
#
# Usage: recipes/local/lmrescore.sh [options] <old-lang-dir> <new-lang-dir> <data-dir> <input-decode-dir> <output-decode-dir>
# Options:
#   --cmd CMD               job runner (default run.pl: strode's, or utils/run.pl when present)
#   --skip-scoring B        (default false)
#   --min-lmwt N --max-lmwt N --word-ins-penalty "L"   for score.sh (its defaults: 7, 17, "0.0 0.5 1.0")
#   --strode PATH           strode binary (default: $STRODE, else bin/strode, built when stale)
set -euo pipefail

cmd=run.pl
skip_scoring=false
min_lmwt=7
max_lmwt=17
word_ins_penalty="0.0 0.5 1.0"
strode=

echo "$0 $*"
local_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$local_dir/parse_options.sh"
[ $# -eq 5 ] || { print_usage >&2; exit 1; }
oldlang=$1 newlang=$2 data=$3 indir=$4 outdir=$5
. "$local_dir/strode_bin.sh"
. "$local_dir/jobs.sh"
cmd=$(resolve_cmd "$cmd")

oldlm=$oldlang/G.fst
newlm=$newlang/G.fst
cmp -s $oldlang/words.txt $newlang/words.txt || echo "$0: Warning: vocabularies may be incompatible."
for f in $oldlm $newlm $indir/num_jobs; do [ -f $f ] || { echo "$0: Missing file $f" >&2; exit 1; }; done
ls $indir/lat.*.gz >/dev/null 2>&1 || { echo "$0: No lattices in input directory $indir" >&2; exit 1; }

mkdir -p $outdir/log
nj=$(cat $indir/num_jobs)
cp $indir/num_jobs $outdir

$cmd JOB=1:$nj $outdir/log/rescorelm.JOB.log \
  $strode lattice-lmrescore --lm-scale=-1.0 "ark:gunzip -c $indir/lat.JOB.gz|" "$strode fstproject --project_output=true $oldlm |" ark:- \| \
  $strode lattice-lmrescore --lm-scale=1.0 ark:- "$strode fstproject --project_output=true $newlm |" "ark,t:|gzip -c>$outdir/lat.JOB.gz"

if ! $skip_scoring; then
  $local_dir/score.sh --strode $strode --min-lmwt $min_lmwt --max-lmwt $max_lmwt \
    --word-ins-penalty "$word_ins_penalty" $data $newlang $outdir
else
  echo "$0: Not scoring because requested so..."
fi
