// Package align is Kaldi's training-side graph and alignment tools:
// TrainingGraphCompiler is compile-train-graphs (L ∘ transcript, context
// expansion for any tree width, HMM expansion, self-loops); Aligner is
// align-compiled-mapped's Viterbi beam search (FasterDecoder) with Kaldi's
// transition-probability scaling, retry beam and careful mode
// (ModifyGraphForCarefulAlignment); EqualAlign is align-equal-compiled,
// reproducing Kaldi's random paths. AliToPdf, AliToPhones, SplitToPhones and
// PhoneLengths serve ali-to-pdf and ali-to-phones, Int32PairVectorCodec is
// the holder of ali-to-phones --write-lengths, and Counts is
// analyze-counts. A Kaldi user looks for all of them under "alignments":
// they read or write the per-frame transition-id sequences that a
// TransitionModel gives meaning to.
//
// It is the top of the decoder's core layers (fst → tree → hmm → align):
// it uses the FST type, the tree and the transition model, and nothing
// below imports it. cmd/strode's compile-train-graphs, align-* and ali-*
// commands are its front ends.
package align
