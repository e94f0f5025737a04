package gemm

import (
	"fmt"
	"strings"
	"sync/atomic"
)

// microKernel is one register-blocked kernel and the cache blocking that
// suits it.
//
// fn computes the mr×nr tile acc = Σ_p a[p*mr+i]·b[p*nr+j] over p = 0..k-1 in
// order, from a packed A micro-panel a and a packed B micro-panel b, and
// stores it at c (row stride ldc floats) when add == 0, or adds it to c
// otherwise. All mr×nr elements at c are touched.
type microKernel struct {
	name       string
	mr, nr     int // register tile: rows, columns of C
	mc, kc, nc int // cache blocks: rows of A, inner dimension, columns of B
	fn         func(k int, a, b, c *float32, ldc int, add int)
}

// GonumKernel is the name Kernel reports when products go to gonum's Sgemm.
const GonumKernel = "gonum"

var kernels = availableKernels()

// active is the kernel in use; nil means gonum.
var active atomic.Pointer[microKernel]

func init() {
	if len(kernels) > 0 {
		active.Store(kernels[0])
	}
}

// Kernel returns the name of the micro-kernel in use: "avx512", "avx2" or
// "gonum".
func Kernel() string {
	if k := active.Load(); k != nil {
		return k.name
	}
	return GonumKernel
}

// Kernels returns the names of the kernels this CPU can run, best first,
// always ending with "gonum".
func Kernels() []string {
	names := make([]string, 0, len(kernels)+1)
	for _, k := range kernels {
		names = append(names, k.name)
	}
	return append(names, GonumKernel)
}

// SetKernel chooses the kernel by name (one of Kernels()), for benchmarks and
// tests; the default is the first of Kernels(). It returns the name of the
// kernel used before.
func SetKernel(name string) (prev string, err error) {
	prev = Kernel()
	if name == GonumKernel {
		active.Store(nil)
		return prev, nil
	}
	for _, k := range kernels {
		if k.name == name {
			active.Store(k)
			return prev, nil
		}
	}
	return prev, fmt.Errorf("gemm: kernel %q not available on this CPU (have %s)", name, strings.Join(Kernels(), ", "))
}
