package main

import (
	"github.com/strode-asr/strode/decoder/hmm"
)

// The gmm-* commands are Kaldi's GMM model tools, as far as using a GMM
// system's model with strode's decoder needs them (gmm-compute-likes,
// gmm-info, gmm-copy), and its tools of monophone GMM training
// (steps/train_mono.sh): a flat start with one Gaussian per pdf at the
// global mean and variance (gmm-init-mono), then rounds of Viterbi
// statistics (gmm-acc-stats-ali, gmm-sum-accs), maximum-likelihood
// re-estimation with mixing up (gmm-est), and realignment
// (gmm-align-compiled).

// g6 prints a number as Kaldi's logs do (six significant digits).
func g6(v float64) string { return hmm.FormatG6(v) }
