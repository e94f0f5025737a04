// Package gmm reads the diagonal-covariance GMM acoustic models of Kaldi's
// GMM systems (the AmDiagGmm after the transition model in a final.mdl) and
// evaluates them as Kaldi's gmm-compute-likes does: per frame and pdf, the
// log of a weighted sum of Gaussians, in float as Kaldi computes it, with the
// Gaussian constants recomputed on reading (Kaldi does not trust the stored
// ones either).
//
// strode's acoustic models are neural, but GMM likelihoods are what a Kaldi
// user's baseline produces; computing them here lets strode's decoder be
// checked against Kaldi's GMM decodes on every utterance of a test set, and
// lets a user decode a GMM system with strode when Kaldi is not installed.
package gmm
