//go:build !unix

package search

import "time"

// cpuTime is not measured here; benchmarks then report a CPU RTF of 0.
func cpuTime() time.Duration { return 0 }
