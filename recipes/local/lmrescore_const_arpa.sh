#!/usr/bin/env bash
# Language-model rescoring of lattices with a ConstArpaLm, as Kaldi's steps/lmrescore_const_arpa.sh:
# in each job of <input-decode-dir>, the old LM's cost is taken off every word sequence
# (lattice-lmrescore --lm-scale=-1.0 with <old-lang-dir>/G.fst projected on its output) and the
# new LM's is put on from <new-lang-dir>/G.carpa (lattice-lmrescore-const-arpa --lm-scale=1.0: the
# ARPA model's own back-off scoring of each word sequence, exact, unlike a G.fst); the lattices
# go to <output-decode-dir>/lat.JOB.gz, scored with recipes/local/score.sh. G.carpa comes from
# recipes/local/build_const_arpa_lm.sh.
#
# Usage: recipes/local/lmrescore_const_arpa.sh [options] <old-lang-dir> <new-lang-dir> <data-dir> <input-decode-dir> <output-decode-dir>
# Options:
#   --cmd CMD               job runner (default run.pl: strode's, or utils/run.pl when present)
#   --skip-scoring B        (default false)
#   --min-lmwt N --max-lmwt N --word-ins-penalty "L"   for score.sh (its defaults: 7, 17, "0.0 0.5 1.0")
#   --strode PATH           strode binary (default: $STRODE, else bin/strode, built when stale)
new_lm_file=G.carpa
add_new_lm() { new_lm_step=(lattice-lmrescore-const-arpa --lm-scale=1.0 ark:- "$1" "$2"); }
. "$(dirname "${BASH_SOURCE[0]}")/lmrescore_common.sh"
