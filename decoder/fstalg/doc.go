// Package fstalg holds the weighted FST algorithms that decoding-graph
// building needs on top of package fst's VectorFst: composition with an
// epsilon-sequencing filter, Kaldi's DeterminizeStar (weighted
// determinization that removes input epsilons, in the tropical or the log
// semiring), encoded minimization (OpenFst's Minimize of the acceptor whose
// labels encode ilabel, olabel and quantized weight, as Kaldi's
// MinimizeEncoded), local epsilon removal (Kaldi's RemoveEpsLocal) and
// relabelling of symbols to epsilon (fstrmsymbols).
//
// Weights are tropical costs (negated natural-log probabilities) as in
// package fst: Times is +, Plus is min in the tropical semiring and
// -log(e^-a + e^-b) in the log semiring. Every algorithm returns a new FST or
// edits its argument in place as documented; none keeps references to its
// input.
package fstalg
