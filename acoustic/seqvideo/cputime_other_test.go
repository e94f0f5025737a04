//go:build !unix

package seqvideo

import "time"

// processCPUTime is not measured on this system; benchmarks then report 0
// cpu-ms/op.
func processCPUTime() time.Duration { return 0 }
