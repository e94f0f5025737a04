//go:build !unix

package gemm

import "time"

// processCPUTime is not measured on this system; benchmarks then omit
// cpu-gflops.
func processCPUTime() time.Duration { return 0 }
