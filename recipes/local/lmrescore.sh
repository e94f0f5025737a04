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
new_lm_file=G.fst
add_new_lm() { new_lm_step=(lattice-lmrescore --lm-scale=1.0 ark:- "$strode fstproject --project_output=true $1 |" "$2"); }
. "$(dirname "${BASH_SOURCE[0]}")/lmrescore_common.sh"
