// Package pointproc simulates the temporal point processes of the STRODE
// recipes: the homogeneous Poisson process and the Hawkes process with
// exponential kernel, intensity λ(t) = μ + Σ_{t_j < t} α·β·e^{−β(t − t_j)}
// (α is the branching ratio, the reference code's convention), simulated by
// Ogata's thinning. Every simulation takes its own *rand.Rand, so a seed
// fixes the events.
package pointproc
