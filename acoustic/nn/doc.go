// Package nn owns the generic layers that the models of package acoustic
// build their graphs from: Params, an ordered collection of named
// optim.Params (Glorot- or zero-initialised); Net, a graph of package
// autodiff together with the binding of parameters to its nodes, so that
// the same parameters drive a training graph and an evaluation graph of
// another batch size (Net.Bound lists them in gradient order); Linear
// (y = x·W + b) and MLP (Linear layers each followed by ReLU); and their
// fused forms, FusedDense and MLP.ApplyFused, which compute a stack of dense
// layers as one graph node with a hand-written reverse pass (the same values
// as the graph operations to rounding, for models where gorgonia's per-node
// cost would outweigh the arithmetic). Scalar reads a scalar node after a
// run. The STRODE model (package strode) and the acoustic models (sru, am,
// seqvideo) use these; nothing here knows their equations.
package nn
