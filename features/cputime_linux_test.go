//go:build linux

package features

import (
	"syscall"
	"time"
)

// threadCPU is the CPU time of the calling OS thread (RUSAGE_THREAD):
// unlike wall time it does not grow while other processes have the CPU.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// processCPU is the CPU time of the whole process (all threads, the
// collector's included).
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(0 /* RUSAGE_SELF */, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
