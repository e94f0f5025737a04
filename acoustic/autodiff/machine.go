package autodiff

import (
	"fmt"
	"runtime"
	"time"

	"gorgonia.org/gorgonia"
)

// Machine runs a compiled graph: the forward pass and, when it was compiled
// with parameters, the reverse pass giving d cost / d parameter.
type Machine struct {
	vm    gorgonia.VM
	grads gorgonia.Nodes
	// Busy accumulates the wall time spent in Run (machinery + arithmetic).
	Busy time.Duration
	// Runs counts calls to Run.
	Runs int
}

// Compile adds the symbolic gradient of the scalar cost with respect to wrt
// (none: forward only) and returns a tape machine for the graph. Compile the
// graph once and Run it for every minibatch.
func (g *Graph) Compile(cost *Node, wrt []*Node) (*Machine, error) {
	if g.err != nil {
		return nil, g.err
	}
	m := &Machine{}
	if len(wrt) > 0 {
		grads, err := gorgonia.Grad(cost, wrt...)
		if err != nil {
			return nil, fmt.Errorf("graph: gradient: %w", err)
		}
		m.grads = grads
	}
	m.vm = gorgonia.NewTapeMachine(g.g)
	return m, nil
}

// Run evaluates the graph on the current input and parameter values.
func (m *Machine) Run() error {
	start := time.Now()
	m.vm.Reset()
	err := m.vm.RunAll()
	m.Busy += time.Since(start)
	m.Runs++
	if err != nil {
		return fmt.Errorf("graph: run: %w", err)
	}
	return nil
}

// Grad is the gradient of the cost with respect to the i-th node of wrt after
// a Run, in the node's row-major layout. The slice is owned by the machine.
func (m *Machine) Grad(i int) []float64 { return Value(m.grads[i]) }

// Close releases the machine. Gorgonia's tape machine carries a finalizer
// (its CUDA cleanup, which Close has just done); an object with a finalizer
// keeps everything it reaches alive through one more garbage collection, so
// a trainer that drops a graph per minibatch shape held every graph dropped
// since the last collection — and the heap goal doubled each time (13 GB
// in one epoch of 1 M frames). Removing the finalizer after Close lets the
// graph's buffers go in the next collection.
func (m *Machine) Close() error {
	err := m.vm.Close()
	runtime.SetFinalizer(m.vm, nil)
	return err
}
