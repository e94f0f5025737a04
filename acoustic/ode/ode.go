package ode

import (
	"flag"
	"fmt"

	"github.com/strode-asr/strode/acoustic/autodiff"
)

// Method names a fixed-step solver.
const (
	Euler = "euler"
	RK4   = "rk4"
)

// DType names the precision of the fused Euler solve.
const (
	Float64 = "float64"
	Float32 = "float32"
)

// Options configures a Solver.
type Options struct {
	Method string // "euler" or "rk4"
	Steps  int    // fixed number of steps K over each interval
	// Unfused builds SolveMLP's Euler steps from graph operations instead
	// of the fused node (for comparisons and checks).
	Unfused bool
	// DType is the precision of the fused Euler solve (SolveMLP): Float64,
	// or Float32 as the paper's reference PyTorch code trains (about twice
	// as fast; inputs and results stay float64 on the graph). "" means
	// Float64. Solves built from graph operations are always float64.
	DType string
}

// DefaultOptions are the paper's: 10 Euler steps, in float64 (models that
// train in float32 set DType).
func DefaultOptions() Options { return Options{Method: Euler, Steps: 10, DType: Float64} }

// Register adds the options to fs.
func (o *Options) Register(fs *flag.FlagSet) {
	fs.StringVar(&o.Method, "ode-solver", o.Method, "ODE solver: euler or rk4")
	fs.IntVar(&o.Steps, "ode-steps", o.Steps, "fixed number of ODE solver steps per interval")
	fs.BoolVar(&o.Unfused, "ode-unfused", o.Unfused, "build the Euler steps of the ODE solve as graph operations instead of one fused node")
}

// Validate checks the options.
func (o Options) Validate() error {
	if o.Method != Euler && o.Method != RK4 {
		return fmt.Errorf("ode: unknown solver %q (want euler or rk4)", o.Method)
	}
	if o.DType != "" && o.DType != Float64 && o.DType != Float32 {
		return fmt.Errorf("ode: unknown dtype %q (want float32 or float64)", o.DType)
	}
	if o.Steps < 1 {
		return fmt.Errorf("ode: --ode-steps=%d, must be ≥ 1", o.Steps)
	}
	return nil
}

// Func is the right-hand side f of dh/dτ = f(h), built on the graph.
type Func func(h *autodiff.Node) *autodiff.Node

// Solver integrates an autonomous ODE with fixed steps.
type Solver struct{ Opts Options }

// Solve integrates from h0 (R×D) over intervals of length span (R×1, one per
// row) and returns h at the end of each interval. The step size is span/K
// per row: Euler h ← h + s·f(h); RK4 h ← h + s/6·(k1 + 2k2 + 2k3 + k4).
func (s Solver) Solve(g *autodiff.Graph, f Func, h0, span *autodiff.Node) *autodiff.Node {
	k := float64(s.Opts.Steps)
	step := g.Scale(span, 1/k)
	h := h0
	switch s.Opts.Method {
	case RK4:
		half := g.Scale(span, 0.5/k)
		sixth := g.Scale(span, 1/(6*k))
		for i := 0; i < s.Opts.Steps; i++ {
			k1 := f(h)
			k2 := f(g.Add(h, g.MulCol(k1, half)))
			k3 := f(g.Add(h, g.MulCol(k2, half)))
			k4 := f(g.Add(h, g.MulCol(k3, step)))
			sum := g.Add(g.Add(k1, k4), g.Scale(g.Add(k2, k3), 2))
			h = g.Add(h, g.MulCol(sum, sixth))
		}
	default:
		for i := 0; i < s.Opts.Steps; i++ {
			h = g.Add(h, g.MulCol(f(h), step))
		}
	}
	return h
}
