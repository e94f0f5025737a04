// Package autodiff is the one place where the STRODE code meets gorgonia, the
// graph and automatic-differentiation engine. Everything gorgonia-specific —
// graph building, tape machines, broadcasting patterns, custom operations —
// lives here, so that the model packages read as the paper's equations.
//
// A Graph is built once per model and shape and then reused: inputs are nodes
// backed by plain []float64 slices (Graph.Input) that the caller overwrites
// before every Machine.Run, and parameters are nodes that share their backing
// array with the optimizer's parameter (Graph.Param), so an optimizer step is
// visible to the next run without copying.
//
// Builder methods never return errors: the first error is kept (Graph.Err) and
// every later call returns nil, so a model reads like its formula and checks
// the error once at the end of the construction.
//
// Row vectors are 1×C matrices and column vectors R×1 matrices; AddRow, MulRow
// and MulCol broadcast them over a batch without materialising copies.
package autodiff
