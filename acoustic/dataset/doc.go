// Package dataset turns Kaldi tables into training batches for the acoustic
// models: features from any rspecifier (with CMVN and splicing applied on the
// fly, or precomputed) and targets from pdf-id tables or transition-id
// alignments mapped through the transition model, checked against each other
// frame by frame and grouped by length with masks.
//
// It is the one acoustic package that reads Kaldi tables; it must not know the
// models' internals.
package dataset
