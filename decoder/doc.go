// Package decoder turns acoustic scores into words: OpenFst graph I/O and the
// FST and lattice codecs, Kaldi's transition model and decision tree, training
// graphs and forced alignment, decoding-graph building (lexicon + grammar +
// HMM → HCLG), beam search with lattice generation, pdf priors that turn
// posteriors into pseudo log-likelihoods, and WER scoring.
//
// It must not know how the scores were computed: it reads a matrix of
// log-likelihoods per utterance, from any acoustic model.
package decoder
