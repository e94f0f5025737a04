package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
)

// Profiles for finding where a command spends its time or memory, named by
// environment variables so that every subcommand has them without an
// option of its own: STRODE_CPUPROFILE=FILE writes a CPU profile of the
// whole run, STRODE_MEMPROFILE=FILE a heap profile at its end (go tool
// pprof reads both).
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
	return func() {
		for _, s := range stops {
			s()
		}
	}
}
