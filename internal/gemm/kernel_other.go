//go:build !amd64 || purego

package gemm

// availableKernels is empty off amd64 (or with the purego tag): every product
// goes to gonum's Sgemm.
func availableKernels() []*microKernel { return nil }
