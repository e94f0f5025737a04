// Package lattice holds Kaldi's lattice types and the operations scoring
// needs: Lattice (arcs carry a transition-id input label, a word output label
// and a LatticeWeight of two costs) and CompactLattice (an acceptor on words
// whose CompactLatticeWeight also carries the transition-id string), their
// text and binary forms as Kaldi writes them, conversion between the two,
// scaling (lattice-scale), word insertion penalties (lattice-add-penalty),
// best path (lattice-best-path), beam pruning and determinization that keeps
// the best transition-id sequence per word sequence; and the word-level
// outputs read after decoding: n-best paths, word alignment (Kaldi's
// word_boundary.int and align_lexicon.int aligners), minimum Bayes risk
// decoding with confidences (Kaldi's sausages) and oracle paths; and LM
// rescoring (lattice-lmrescore: composition with a grammar FST at a scale,
// −1 to take the old LM's costs off and +1 to put a new one's on;
// lattice-lmrescore-const-arpa: the LM costs of each word sequence replaced
// by a lm.ConstArpa's through deterministic composition).
//
// Weights, as Kaldi's LatticeWeight: (graph cost, acoustic cost), both
// negated log-probabilities in float32. Times adds both; Plus keeps the
// better one, where better means the smaller sum graph+acoustic, ties broken
// by the smaller graph cost (Kaldi's Compare). Zero is (+Inf, +Inf) and One is
// (0, 0). A CompactLatticeWeight's Plus keeps the better LatticeWeight, ties
// broken by the shorter string and then the lexicographically greater one
// (Kaldi's order).
package lattice
