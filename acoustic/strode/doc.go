// Package strode is the STRODE core of DESIGN.md §3, written as the paper's
// equations on top of packages autodiff and nn:
//
//   - Boundary, the monotone posterior sampler Φ(t, z) = sg(t) + softplus(a(t) + b(z))
//     with non-positive weights and its derivative Φ'(t) by tangent propagation;
//   - Prior, the cumulative intensity φ(t) = softplus(ρ)·t + softplus(c(t)+d) − softplus(c(0)+d)
//     with non-negative weights, its intensity φ'(t) and density p(t) = φ'(t)·e^{−φ(t)};
//   - KL, the regulariser of Theorem 1 on the nodes m_k = −1 + kε, k = 1 … K−1;
//   - Sequential, the sequential STRODE of the sine recipe (t_i = Φ(t_{i−1}, z_i),
//     ODE from z_j over [t_j, t_{j+1}], decode, MSE + w_kl·KL), with the
//     `paper` and `context` posterior encoders and two variants (variant.go):
//     `paper`, the model as published, and `phase-state`, a unit-circle ODE
//     state over a three-gap horizon (the Rotating MNIST models of
//     acoustic/seqvideo reuse its Φ, φ and KL term); Sequential.Save and
//     Load write and read its parameters as a safetensors file;
//   - the metrics CS (cosine similarity of times) and gap r (Pearson
//     correlation of gaps).
//
// Parameters, their binding to a graph and the plain layers (Linear, MLP)
// are package nn's.
//
// The equations are written once as graph operations (Boundary.Next,
// Prior.Density, …: the readable form, used by the tests and the acoustic
// model). Where the sequential model would pay gorgonia's per-node cost for
// little arithmetic, it uses fused nodes with hand-written reverse passes
// that compute the same (nn's MLP.ApplyFused for the encoder, Boundary.BFused,
// Boundary.Gaps for the recurrence of Φ, Prior.DensityFused, Boundary.KLTerm;
// the Euler solve in package ode): 631 → 120 graph nodes per sine training
// step. Each is tested against the graph form and by finite differences;
// SequentialOptions.GraphForms builds the whole model from the graph forms
// instead. The acoustic model reuses Boundary, Prior, KL, the ODE solver and
// the optimizers.
package strode
