//go:build !unix

package cputime

import "time"

// Process is not measured on this system: always 0, so benchmarks report 0
// cpu-ms/op.
func Process() time.Duration { return 0 }

// PeakRSS is not measured on this system: always 0.
func PeakRSS() int64 { return 0 }
