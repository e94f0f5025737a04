// Package kaldinnet runs the acoustic models over Kaldi tables, as Kaldi's
// nnet1 tools do: training (nnet-train-frmshuff's role: Train, TrainIter),
// forward passes (nnet-forward: Forward), training archives (GetEgs), the
// postdiction curve and t̃ statistics. Its batches come from Kaldi tables:
// features from any rspecifier (with CMVN and splicing applied on the fly,
// or precomputed) and targets from pdf-id tables or transition-id
// alignments mapped through the transition model, checked against each other
// frame by frame and grouped by length with masks.
//
// It is the one acoustic package that reads Kaldi tables; it must not know the
// models' internals.
package kaldinnet
