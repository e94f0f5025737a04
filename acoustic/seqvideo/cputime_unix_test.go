//go:build unix

package seqvideo

import (
	"syscall"
	"time"
)

// processCPUTime is the user+system CPU time this process has used: on a
// shared, loaded machine the CPU time per step says what the work costs,
// which the wall time does not.
func processCPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
