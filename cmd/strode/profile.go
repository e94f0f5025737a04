package main

import (
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"runtime/pprof"
	"sync"
	"syscall"
)

// Profiles for finding where a command spends its time or memory, named by
// environment variables so that every subcommand has them without an
// option of its own: STRODE_CPUPROFILE=FILE writes a CPU profile of the
// whole run, STRODE_MEMPROFILE=FILE a heap profile at its end (go tool
// pprof reads both). A run stopped by SIGINT or SIGTERM (timeout, run.pl's
// kill) still writes them, then exits with 128 + the signal, as the signal
// would have.
func startProfiles() (stop func()) {
	var stops []func()
	if f := os.Getenv("STRODE_CPUPROFILE"); f != "" {
		w, err := os.Create(f)
		if err == nil {
			err = pprof.StartCPUProfile(w)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "WARNING (strode) STRODE_CPUPROFILE=%s: %v\n", f, err)
		} else {
			stops = append(stops, func() { pprof.StopCPUProfile(); w.Close() })
		}
	}
	if f := os.Getenv("STRODE_MEMPROFILE"); f != "" {
		stops = append(stops, func() {
			w, err := os.Create(f)
			if err == nil {
				runtime.GC()
				err = pprof.WriteHeapProfile(w)
				w.Close()
			}
			if err != nil {
				fmt.Fprintf(os.Stderr, "WARNING (strode) STRODE_MEMPROFILE=%s: %v\n", f, err)
			}
		})
	}
	var once sync.Once
	stop = func() {
		once.Do(func() {
			for _, s := range stops {
				s()
			}
		})
	}
	if len(stops) > 0 {
		sig := make(chan os.Signal, 1)
		signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
		go func() {
			s := <-sig
			stop()
			os.Exit(128 + int(s.(syscall.Signal)))
		}()
	}
	return stop
}
