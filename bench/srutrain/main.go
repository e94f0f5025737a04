// Command srutrain times training steps (forward, backward, Adam) of strode's
// acoustic models on random data for bench/sru.sh: one line per run with
// the median frames/s, the achieved GFLOP/s of the matrix products and the
// peak resident memory.
package main

import (
	"flag"
	"fmt"
	"math/rand"
	"os"
	"runtime"
	"runtime/pprof"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/strode-asr/strode/acoustic/am"
	"github.com/strode-asr/strode/acoustic/optim"
)

func main() {
	preset := flag.String("preset", "small", "paper or small")
	kind := flag.String("model", "sru", "sru or strode")
	pdfs := flag.Int("pdfs", 200, "output size")
	in := flag.Int("input-dim", 40, "input features per frame")
	t := flag.Int("frames", 500, "frames per utterance")
	b := flag.Int("utts", 8, "utterances per minibatch")
	steps := flag.Int("steps", 5, "timed steps (after one warm-up)")
	threads := flag.Int("threads", 1, "cores (GOMAXPROCS)")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the timed steps to this file")
	flag.Parse()
	runtime.GOMAXPROCS(*threads)
	o, err := am.Preset(*preset)
	check(err)
	o.Kind, o.InputDim, o.NumPdfs = *kind, *in, *pdfs
	o.SRU.Dropout = 0 // the peer has none either
	m, err := am.New(o, 1)
	check(err)
	g, err := m.Build(*t, *b, am.Train)
	check(err)
	rng := rand.New(rand.NewSource(1))
	var us []*am.Utterance
	for i := 0; i < *b; i++ {
		u := &am.Utterance{Key: fmt.Sprint(i), Rows: *t, Feats: make([]float32, *t**in), Targets: make([]int32, *t)}
		for j := range u.Feats {
			u.Feats[j] = float32(rng.NormFloat64())
		}
		for j := range u.Targets {
			u.Targets[j] = int32(rng.Intn(*pdfs))
		}
		us = append(us, u)
	}
	check(g.Load(us, rng))
	adam := optim.NewAdam(optim.DefaultAdamOptions())
	var times, cpus []float64
	for i := 0; i <= *steps; i++ {
		if i == 1 && *cpuprofile != "" {
			f, err := os.Create(*cpuprofile)
			check(err)
			check(pprof.StartCPUProfile(f))
			defer pprof.StopCPUProfile()
		}
		start, cpu0 := time.Now(), cpuSeconds()
		check(g.Run())
		adam.Step(m.Params.List)
		if i > 0 {
			times = append(times, time.Since(start).Seconds())
			cpus = append(cpus, cpuSeconds()-cpu0)
		}
	}
	sort.Float64s(times)
	sort.Float64s(cpus)
	med := times[len(times)/2]
	n := float64(*t * *b)
	// FLOPs of the products: forward 2·N·in·out per product, backward twice that.
	flops := 0.0
	din := float64(*in)
	h := float64(o.SRU.Hidden)
	for l := 0; l < o.SRU.Layers; l++ {
		k := 3.0
		if din != h {
			k = 4
		}
		flops += 6 * n * din * k * h
		din = h
	}
	flops += 6 * n * h * float64(*pdfs)
	fmt.Printf("strode %s %s threads=%d frames/s=%.1f step_s=%.3f gflops=%.2f peak_rss_mib=%.0f cpu_s=%.3f\n",
		*preset, *kind, *threads, n/med, med, flops/med/1e9, peakRSS(), cpus[len(cpus)/2])
}

// cpuSeconds is the process's user+system CPU time: on a shared machine
// the CPU seconds per step measure the work done, whatever the wall clock.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

func peakRSS() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmHWM:") {
			var kb float64
			fmt.Sscanf(strings.TrimSpace(strings.TrimPrefix(l, "VmHWM:")), "%f", &kb)
			return kb / 1024
		}
	}
	return 0
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "sru bench:", err)
		os.Exit(1)
	}
}
