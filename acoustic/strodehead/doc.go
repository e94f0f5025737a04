// Package strodehead is the regenerative STRODE postdictive head of the
// acoustic model (DESIGN.md §3) as a component on any encoder's frames:
//
//	t̃_i = Φ(ε0, e_i);  h(0) = P·e_i;  h̃_i = h(t̃_i) by K Euler steps of f_o
//	loss terms: w_kl·KL_i (Theorem 1) − w_p·mean_d log N(h̃_i,d; μ_d, σ²_d)
//
// with (μ, σ²) from an MLP of the next frame's input features (training
// only). Head holds its parameters (New adds them to a model's nn.Params,
// Shapes lists them without allocating), Build puts Φ, the ODE solve and
// h̃ on a graph, KLRows and PriorLogLik are its loss terms; the output
// layer that reads h̃ (W_h = OutH) beside the encoder belongs to the model,
// and OutputTerms gives it its inputs by the head's variant (variant.go:
// the paper's W·e + W_h·h̃ + b, h̃ alone, or e gated by h̃).
// The heavy parts are fused float32 kernels (entry.go: h0 and b(z) in one
// product; prior32.go: the prior network and the Gaussian term); with
// sru.Float32Products off the same head is built from float64 graph
// operations, which the finite-difference checks verify and the float32
// kernels are tested against. Postdiction and Effect replay one frame's
// ODE in plain float64 (the paper's Figure 3; t̃'s effect on the output).
//
// The acoustic model's "strode" kind (acoustic/am) is an SRU encoder with
// this head; another encoder gets the head by the same few calls.
package strodehead
