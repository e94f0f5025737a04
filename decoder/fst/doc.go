// Package fst is the weighted finite-state transducer that every graph in
// the decoder is: OpenFst's VectorFst<StdArc> (tropical float weights, Kaldi's
// fst::StdVectorFst) and its file forms. VectorFst keeps its states in a
// slice and each state's arcs in a plain slice, so arc iteration is a range
// loop.
//
// Reader and ReadFile read OpenFst's VectorFst and ConstFst binaries (Kaldi's
// HCLG.fst is a ConstFst), ReadRx any Kaldi rxfilename ("cmd |", "-");
// WriteVectorFst, WriteConstFst and WriteFile write them. WriteText and
// TextReader are the AT&T text form of fstprint and fstcompile. Codec is
// Kaldi's VectorFstHolder, the object codec of FST archives (ark:*.fsts, as
// compile-train-graphs writes them). SymbolTable is OpenFst's symbol table
// (words.txt, phones.txt); SymbolMapper is utils/sym2int.pl over it.
// ComputeProperties gives the property bits written in headers, and the few
// light operations the layers above need (linear acceptors, arc sorting,
// Connect, composition with an epsilon-free right side, log-semiring epsilon
// removal, quantization) sit beside the type. ReadIntList reads label lists
// such as phones/disambig.int.
//
// Package fst imports nothing of the decoder; tree, hmm, align, fstalg,
// mkgraph and search build on it. The heavier graph-building algorithms
// (composition with epsilon filters, DeterminizeStar, encoded minimization,
// weight pushing, RemoveEpsLocal) stay apart in decoder/fstalg, as Kaldi keeps
// its fstext apart from OpenFst's fst: only mkgraph needs them, the packages
// that read, align and search graphs do not, and this package stays the
// type and its codecs, small enough to read in one sitting. fstalg sits beside
// fst rather than beneath it (decoder/fst/fstalg) because the dependency is
// one-way already and mkgraph's import of it need not change.
package fst
