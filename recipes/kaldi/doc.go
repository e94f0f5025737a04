// Package kaldi holds the tests of recipes/kaldi/run.sh, the recipe that trains
// and decodes strode's acoustic models inside an existing Kaldi s5 experiment
// (data dirs, a lang dir, GMM alignments ali.*.gz with their final.mdl, and a
// decoding graph), through the user's job runner (--cmd) in --nj parallel
// jobs. The recipe is shell, as Kaldi's are: run.sh reads as the experiment
// (a log line and a few calls per stage), steps.sh holds each stage's work
// (as Kaldi's steps/*.sh; steps_feats.sh the networks' input features, --nnet-feats),
// and every step is done by strode subcommands. The tests run it on copies of ../shared/kaldi-mini, a
// real Kaldi monophone experiment.
package kaldi
