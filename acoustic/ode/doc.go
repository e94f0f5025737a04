// Package ode solves dh/dτ = f(h) on a graph with fixed-step explicit
// methods — Euler (DESIGN.md §3: K = 10 steps) and classical RK4 — over
// intervals whose lengths are graph values, one per row of the state, so
// gradients reach whatever produced the interval (STRODE's boundaries).
//
// For the MLP ODE function of the sine model, SolveMLP runs the K Euler
// steps as one fused graph node with a hand-written reverse pass, in float64
// (eulerMLP: AVX2 dgemm micro-kernels) or, with Options.DType = Float32 as
// the paper's reference code trains, in float32 (eulerMLP32: sgemm's AVX2
// micro-kernels reading transposed operands in place, eight-lane tanh and
// tanh'). The vectorised tanh (tanh.go) documents its algorithm and its
// measured error against math.Tanh. Gradient checks use float64.
package ode
