# The body of lmrescore.sh and lmrescore_const_arpa.sh (Kaldi's steps/lmrescore.sh --mode 1 and
# steps/lmrescore_const_arpa.sh), which differ only in how the new LM's costs are put on. The
# sourcing script sets new_lm_file (the file in <new-lang-dir>) and defines add_new_lm, which
# sets the array new_lm_step to the command (after $strode) that reads lattices on stdin and
# writes them to its last argument, with the new LM's costs on.
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
newlm=$newlang/$new_lm_file
cmp -s $oldlang/words.txt $newlang/words.txt || echo "$0: Warning: vocabularies may be incompatible."
for f in $oldlm $newlm $indir/num_jobs; do [ -f $f ] || { echo "$0: Missing file $f" >&2; exit 1; }; done
ls $indir/lat.*.gz >/dev/null 2>&1 || { echo "$0: No lattices in input directory $indir" >&2; exit 1; }

mkdir -p $outdir/log
nj=$(cat $indir/num_jobs)
cp $indir/num_jobs $outdir

add_new_lm "$newlm" "ark,t:|gzip -c>$outdir/lat.JOB.gz"
$cmd JOB=1:$nj $outdir/log/rescorelm.JOB.log \
  $strode lattice-lmrescore --lm-scale=-1.0 "ark:gunzip -c $indir/lat.JOB.gz|" "$strode fstproject --project_output=true $oldlm |" ark:- \| \
  $strode "${new_lm_step[@]}"

if ! $skip_scoring; then
  $local_dir/score.sh --strode $strode --min-lmwt $min_lmwt --max-lmwt $max_lmwt \
    --word-ins-penalty "$word_ins_penalty" $data $newlang $outdir
else
  echo "$0: Not scoring because requested so..."
fi
