// Package steps holds strode's copies of Kaldi's egs/wsj/s5/steps scripts
// for the GMM ladder above the monophone system: train_deltas.sh (tri1:
// a triphone tree and GMM on CMN'd MFCC + deltas), align_si.sh (the
// training data realigned with a delta or LDA+MLLT model), train_lda_mllt.sh
// (tri2b: spliced features, LDA, its own tree, MLLT) and decode.sh (lattices
// of either, scored by recipes/local/score.sh). Each has Kaldi's name,
// positional arguments, options and defaults and writes Kaldi's layout
// (final.mdl, tree, ali.JOB.gz, num_jobs, final.mat, splice_opts,
// cmvn_opts, log/), running strode's tools (--strode or $STRODE, else
// recipes/local/strode_bin.sh) through --cmd as Kaldi's run.pl, queue.pl or
// slurm.pl (recipes/local/jobs.sh); common.sh holds the parts of Kaldi's
// utils/ they call. recipes/kaldi/run.sh --dict climbs the ladder with them.
// The Go code here is only their tests, on ../shared/kaldi-mini.
package steps
