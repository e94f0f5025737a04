//go:build unix

package search

import (
	"syscall"
	"time"
)

// cpuTime is the process's user plus system CPU time: on a shared machine
// it measures the benchmark's own work where wall time also counts the
// time other processes held the cores.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
