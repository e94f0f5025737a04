// Package search is Viterbi beam search over an OpenFst decoding graph
// (HCLG, epsilon arcs included) with lattice generation, as Kaldi's
// LatticeFasterDecoder: token passing frame by frame with beam and histogram
// (max-active/min-active) pruning, forward links between tokens that form the
// state-level lattice, periodic pruning of links and tokens to the lattice
// beam, final-cost handling and extraction of the raw lattice, which
// decoder/lattice determinizes as latgen-faster does.
//
// Online decoding drives the same decoder as Kaldi's online decoders do
// (online.go): InitDecoding, AdvanceDecoding whenever more frames are ready,
// FinalizeDecoding, FinalResult; in between, PartialBestPath (partial
// results, trailing silence for endpointing) and FinalRelativeCost. The
// lattice does not depend on how the frames were split.
//
// Costs follow Kaldi: a token's cost is the graph cost plus the acoustic
// cost, the acoustic cost of an emitting arc being minus the scaled
// log-likelihood of its transition-id's pdf (scale × loglike, in float32 as
// DecodableMatrixScaledMapped). A per-frame offset (minus the best token's
// cost) keeps the numbers small, and is added back when the lattice is read
// out, exactly as Kaldi does.
//
// Memory: each frame owns a slab of its tokens (in creation order, so
// Kaldi's newest-first token list is the slab read backwards), a parallel
// slab of their two costs (apart, as the pruning reads them at random link
// targets and the beam test alone), and a slab of the forward links leaving them (16 bytes each: target token, graph arc,
// two costs), each token naming its epsilon and its emitting links as two
// ranges. Pruning removes links in place and deletes tokens by compacting
// the slab once a quarter of them are dead; a pruned frame moves to a
// narrow slab and its wide one serves a new frame; slabs go back to bounded
// pools between utterances. The state → token lookup of the frame being
// built is a dense array of 32-bit entries packing a generation stamp and a
// token index. Decoding in steady state allocates nothing per frame, and
// the raw lattice is identical to the one Kaldi's list-based layout gives.
//
// Where the work differs from Kaldi's, the result does not: periodic
// pruning (every --prune-interval frames) only frees memory, since it
// removes links whose extra cost, a lower bound of the final one, already
// exceeds the lattice beam, and FinalizeDecoding recomputes every extra
// cost to the exact fixed point. So periodic pruning makes one pass per
// frame (Kaldi repeats it while epsilon links see stale values), and runs
// at every fourth prune interval only (see pruneActiveTokens). The
// lattices are byte-identical either way.
package search
