//go:build !linux

package features

import "time"

// threadCPU is unavailable here; benchmarks then report wall time only.
func threadCPU() time.Duration { return 0 }

// processCPU is unavailable here.
func processCPU() time.Duration { return 0 }
