// Package sine is the irregularly sampled sine-wave recipe of the STRODE
// paper (ICML 2021, §5.1) and its reference code: 5,200 sequences of 10
// observations x = sin(2πt) + 0.1·U[0,1) (no noise on the first point, at
// t = 0) at event times of a Poisson (λ = 10) or Hawkes (μ = 10, α = 0.5,
// β = 1) process, split 5,000/100/100. It trains sequential STRODE with the
// paper's encoder (`strode`) and the context encoder (`strode-context`), the
// same model with unit gaps (`node`), and scores the index baseline 0 … n−1,
// printing CS, gap r and MSE (mean ± std over seeds), writing results.json
// and a scatter plot of inferred vs true boundary times (scatter.png).
//
// `strode sine` is the command; Run is its body.
package sine
