// Package gmm holds the diagonal-covariance GMM acoustic models of Kaldi's
// GMM systems (the AmDiagGmm after the transition model in a final.mdl):
// reading and writing them, evaluating them as Kaldi's gmm-compute-likes
// does (per frame and pdf, the log of a weighted sum of Gaussians, in float
// as Kaldi computes it, with the Gaussian constants recomputed on reading),
// and training them as Kaldi's monophone recipe does.
//
// Evaluation lets strode's decoder be checked against Kaldi's GMM decodes,
// and a user decode a GMM system with strode when Kaldi is not installed.
// Training is the flat start of the from-scratch pipeline: InitMono (one
// Gaussian per pdf at the global mean and variance), Viterbi statistics
// (AccumAmDiagGmm, Kaldi's accumulator format), the maximum-likelihood
// update with Kaldi's floors and removals (MleAmDiagGmmUpdate), mixing up
// by occupancy (SplitByCount, drawing from glibc's rand as Kaldi does), and
// BatchScorer, which scores many frames a matrix product at a time for the
// realignment passes. InitModel is gmm-init-model: the model of a new tree
// from its statistics.
package gmm
