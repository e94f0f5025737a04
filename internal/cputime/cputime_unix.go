//go:build unix

package cputime

import (
	"runtime"
	"syscall"
	"time"
)

// Process is the user+system CPU time this process has used (getrusage
// RUSAGE_SELF), 0 if the system call fails.
func Process() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// PeakRSS is the largest resident set this process has had, in bytes
// (getrusage's ru_maxrss: kilobytes on Linux, bytes on the BSDs and macOS),
// 0 if the system call fails.
func PeakRSS() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	if runtime.GOOS == "linux" {
		return int64(ru.Maxrss) * 1024
	}
	return int64(ru.Maxrss)
}
