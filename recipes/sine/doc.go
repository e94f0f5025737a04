// Package sine is the irregularly sampled sine-wave recipe of the STRODE
// paper (ICML 2021, §5.1) and its reference code: 5,200 sequences of 10
// observations x = sin(2πt) + 0.1·U[0,1) (no noise on the first point, at
// t = 0) at event times of a Poisson (λ = 10) or Hawkes (μ = 10, α = 0.5,
// β = 1) process, split 5,000/100/100. It trains sequential STRODE with the
// paper's encoder (`strode`) and the context encoder (`strode-context`), the
// same model with unit gaps (`node`), and scores the index baseline 0 … n−1,
// printing CS, gap r and MSE (mean ± std over seeds), writing results.json
// and a scatter plot of inferred vs true boundary times (scatter.png, and scatter.svg beside it).
//
// `strode sine` is the command; Run is its body.
//
// # Defaults and variants
//
// The defaults are DESIGN.md §3 and the paper's settings (Adam 3e-4, batch
// 50, w_kl 1e-7, 20 epochs); the fused Euler solve runs in float32 as the
// reference code trains (--ode-dtype float64 for the float64 one; the
// figures agree to several digits, RESULTS.md). With them the gaps learn a
// code of the next value rather than its time (gap r ≈ −0.1): the ODE
// restarts from z_j on every interval, so any monotone code of x_{j+1} in
// the gap predicts as well as the true gap. --variant picks the model's form
// (strode.Variant, acoustic/strode/variant.go, for what each computes):
//
//   - paper (the default): the model as published;
//   - phase-state: the ODE state is a point on the unit circle (u/|u|,
//     u = z_j·P + p) rotating at one learned speed, decoded linearly, each
//     solve continues over the next two gaps and those predictions join the
//     loss, and Φ starts with every gap ≈ ln 2; a start point chooses only a
//     phase and a gap only a phase advance, and the advances must compose
//     (this builds in a single-frequency oscillator: prior knowledge of the
//     data). With --learning-rate 1e-3 it reaches gap r ≥ 0.5 (RESULTS.md).
//
// --graph-forms builds the encoder, b(z), Φ's recurrence, the prior density
// and the KL term from graph operations instead of fused nodes (the same
// model to rounding, slower; reproduces runs made before the fused nodes).
// The other experiments of earlier sessions (a carried ODE state, linear
// and skew-symmetric ODE functions, longer horizons for the paper's form, a
// warm-up of Φ, …) were removed; RESULTS.md keeps their figures.
//
// The progress line shows, per epoch, validation MSE, CS, gap r and the mean
// inferred gap at each step with the gaps' within-step spread (cv): a
// profile far from flat (Poisson gaps have the same mean at every step) is
// what keeps the pooled gap r low.
package sine
