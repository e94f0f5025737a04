// Package ode solves dh/dτ = f(h) on a graph with fixed-step explicit
// methods — Euler (DESIGN.md §3: K = 10 steps) and classical RK4 — over
// intervals whose lengths are graph values, one per row of the state, so
// gradients reach whatever produced the interval (STRODE's boundaries).
package ode
