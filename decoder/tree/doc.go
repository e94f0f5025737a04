// Package tree is Kaldi's phonetic decision tree (src/tree): the
// ContextDependency that maps a window of ContextWidth phones, with the
// central phone at CentralPosition, and a pdf-class to a pdf-id, through an
// EventMap of ConstantEventMap, TableEventMap and SplitEventMap nodes (CE,
// TE and SE in Kaldi's files). ContextDependencyCodec reads and writes the
// tree file byte-identically with Kaldi in binary and text; Read reads one
// from any Kaldi rxfilename.
//
// It imports nothing of the decoder: the HMM objects (package hmm), the
// training graphs (package align) and decoding-graph building (mkgraph) ask
// it for pdf-ids. Expanding an FST into phone windows (Kaldi's ContextFst)
// belongs to the graph builders that do it, not here.
package tree
