// Package decoder turns acoustic scores into words: OpenFst graph I/O and the
// FST and lattice codecs, Kaldi's transition model and decision tree, training
// graphs and forced alignment, decoding-graph building (lexicon + grammar +
// HMM → HCLG), beam search with lattice generation, pdf priors that turn
// posteriors into pseudo log-likelihoods, and WER scoring.
//
// It must not know how the scores were computed: it reads a matrix of
// log-likelihoods per utterance, from any acoustic model.
//
// This package holds the shared core; sub-packages build on it.
//
// FSTs. VectorFst is OpenFst's VectorFst<StdArc> (tropical float weights):
// States[s].Arcs is a plain slice, so arc iteration is a range loop.
// fst.ReadFile / fst.Reader read VectorFst and ConstFst binaries (Kaldi's
// HCLG.fst is a ConstFst) into it; WriteVectorFst and WriteConstFst write
// OpenFst's formats, fst.WriteText and fst.TextReader the AT&T text form, and
// fst.Codec is Kaldi's VectorFstHolder for FST archives (ark:*.fsts).
// SymbolTable reads words.txt / phones.txt.
//
// HMM objects. TransitionModel (with its hmm.Topology) and ContextDependency
// (the tree, an EventMap) read and write Kaldi's binary and text forms
// byte-identically through TransitionModelCodec and ContextDependencyCodec;
// ReadTransitionModel reads the head of any final.mdl. The model maps
// transition-ids to (phone, HMM state, pdf-id, transition index) and back.
//
// Training graphs and alignment. TrainingGraphCompiler is Kaldi's
// compile-train-graphs (L ∘ transcript, context expansion for any tree
// width, HMM expansion, self-loops); Aligner is align-compiled-mapped's
// Viterbi beam search (FasterDecoder) with Kaldi's transition-probability
// scaling, retry beam and careful mode; EqualAlign is align-equal-compiled,
// reproducing Kaldi's random paths. AliToPdf, AliToPhones, SplitToPhones,
// Counts (analyze-counts), Print (show-transitions) serve the Kaldi tools
// of the same names in cmd/strode.
package decoder
