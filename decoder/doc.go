// Package decoder turns acoustic scores into words: graph I/O, Kaldi's tree
// and transition model, training graphs and forced alignment,
// decoding-graph building (lexicon + grammar + HMM → HCLG), beam search with
// lattice generation, pdf priors that turn posteriors into pseudo
// log-likelihoods, and WER scoring. It must not know how the scores were
// computed: it reads a matrix of log-likelihoods per utterance, from any
// acoustic model. This package holds no code; its sub-packages do, one
// concept each, layered as Kaldi's src/ is (fstext, tree, hmm, decoder):
// each package below imports only packages described before it.
//
// decoder/fst is the weighted FST (OpenFst's VectorFst over the tropical
// semiring) with its binary (VectorFst, ConstFst), AT&T text and archive
// (ark:*.fsts) codecs, symbol tables (words.txt, phones.txt, sym2int) and
// the light operations every graph user needs. decoder/fstalg, beside it,
// holds the graph-building algorithms (composition, DeterminizeStar,
// encoded minimization, pushing, epsilon removal) that only mkgraph uses.
//
// decoder/tree is the phonetic decision tree (ContextDependency and its
// EventMaps) with Kaldi's tree file in both forms: it maps a phone window
// and a pdf-class to a pdf-id.
//
// decoder/hmm is the HMM topology and the TransitionModel with their Kaldi
// codecs (ReadTransitionModel reads the head of any final.mdl), self-loop
// insertion, the show-transitions and hmm-info listings and Kaldi's
// posterior helpers.
//
// decoder/align builds training graphs (compile-train-graphs), aligns
// (align-compiled-mapped, careful mode, align-equal-compiled) and serves the
// alignment tools (ali-to-pdf, ali-to-phones, analyze-counts).
//
// On these build decoder/gmm (Kaldi's GMM likelihoods), decoder/mkgraph
// (lang directories, G and HCLG), decoder/lattice (lattice types and
// operations), decoder/search (beam search with lattice generation, over
// fst and lattice), decoder/priors (pdf priors) and decoder/scoring (WER).
package decoder
