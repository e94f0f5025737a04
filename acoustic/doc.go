// Package acoustic is the STRODE core and the acoustic models built on it: the
// monotone posterior boundary network Φ, the point-process prior φ, the KL term
// of Theorem 1, differentiable ODE solvers, the SRU encoder, the regenerative
// STRODE head for speech, training, the forward pass and model files.
//
// It works on plain matrices and must not know Kaldi's file syntax: only the
// sub-package acoustic/dataset reads Kaldi tables into training batches.
package acoustic
