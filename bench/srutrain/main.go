// Command srutrain times training steps (forward, backward, Adam) of strode's
// acoustic models on random data for bench/sru.sh: one line per run with
// the median frames/s, the achieved GFLOP/s of the matrix products
// (stepFLOPs), the peak resident memory in all and per frame of minibatch,
// and — on one thread — the micro-kernel's peak on this core
// (gemm.KernelPeak) with the share of it that the whole step reaches
// (counted FLOPs over the step's CPU seconds).
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
	"github.com/strode-asr/strode/internal/gemm"
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
	memprofile := flag.String("memprofile", "", "write a heap profile after the last step to this file")
	bidir := flag.Bool("bidirectional", false, "bidirectional SRU")
	layers := flag.Int("layers", 0, "SRU layers (0: the preset's)")
	hidden := flag.Int("hidden", 0, "SRU units per layer (0: the preset's)")
	headSize := flag.Int("head", 0, "strode: ODE state and the hidden sizes of f_o, Φ/φ and the prior (0: the preset's)")
	phiZ := flag.String("phi-z", "", "strode: b(z) of Φ, nonpos or free (the recipes' choice; empty: the preset's)")
	paired := flag.Int("paired", 0, "instead: this many pairs of one step on one thread and one on two, back to back; prints the median two-thread speed-up of the pairs")
	vs := flag.String("vs", "", "instead: a second model of this kind (same sizes), and -steps pairs of one step of each back to back; prints the median of the per-pair speed ratios (this model's frames/s over the other's)")
	flag.Parse()
	runtime.GOMAXPROCS(*threads)
	o, err := am.Preset(*preset)
	check(err)
	o.Kind, o.InputDim, o.NumPdfs = *kind, *in, *pdfs
	o.SRU.Dropout = 0 // the peer has none either
	o.SRU.Bidirectional = *bidir
	if *layers > 0 {
		o.SRU.Layers = *layers
	}
	if *hidden > 0 {
		o.SRU.Hidden = *hidden
	}
	if *phiZ != "" {
		o.PhiZ = *phiZ
	}
	if *headSize > 0 {
		o.ODEState, o.ODEHidden, o.PhiHidden, o.PriorHidden = *headSize, *headSize, *headSize, *headSize
	}
	m, g := build(o, *t, *b)
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
	if *vs != "" {
		o2 := o
		o2.Kind = *vs
		m2, g2 := build(o2, *t, *b)
		check(g2.Load(us, rng))
		adam2 := optim.NewAdam(optim.DefaultAdamOptions())
		versus(func() { check(g.Run()); adam.Step(m.Params.List) }, func() { check(g2.Run()); adam2.Step(m2.Params.List) },
			*steps, *preset, *kind, *vs, float64(*t**b))
		return
	}
	if *paired > 0 {
		pairs(g.Run, func() { adam.Step(m.Params.List) }, *paired, *preset, *kind, float64(*t**b))
		return
	}
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
	if *memprofile != "" {
		runtime.GC() // the profile shows the heap as of the last collection
		f, err := os.Create(*memprofile)
		check(err)
		check(pprof.WriteHeapProfile(f))
		check(f.Close())
	}
	sort.Float64s(times)
	sort.Float64s(cpus)
	med := times[len(times)/2]
	n := float64(*t * *b)
	flops := stepFLOPs(m, n)
	peak := 0.0
	if *threads == 1 {
		peak = gemm.KernelPeak(2 * time.Second)
	}
	share := 0.0
	if peak > 0 {
		share = flops / cpus[len(cpus)/2] / 1e9 / peak
	}
	rss := peakRSS()
	fmt.Printf("strode %s %s threads=%d frames/s=%.1f step_s=%.3f gflops=%.2f peak_rss_mib=%.0f cpu_s=%.3f rss_per_frame_mib=%.3f kernel_peak_gflops=%.1f peak_share=%.3f\n",
		*preset, *kind, *threads, n/med, med, flops/med/1e9, rss, cpus[len(cpus)/2], rss/n, peak, share)
}

func build(o am.Options, t, b int) (*am.Model, *am.Batch) {
	m, err := am.New(o, 1)
	check(err)
	g, err := m.Build(t, b, am.Train)
	check(err)
	return m, g
}

// versus times n pairs of training steps, one of each model, back to back
// (the order alternating from pair to pair), and prints the median and
// quartiles of the per-pair ratios of their speeds: what the acceptance's
// "strode ≥ 0.8× sru" compares, measured so that the drift of a shared
// machine's core over seconds hits both sides of every ratio (pairs).
func versus(a, b func(), n int, preset, kindA, kindB string, frames float64) {
	timed := func(f func()) float64 {
		start := time.Now()
		f()
		return time.Since(start).Seconds()
	}
	timed(a) // warm-up: buffers, page faults
	timed(b)
	var ratios, ta, tb []float64
	for i := 0; i < n; i++ {
		var x, y float64
		if i%2 == 0 {
			x, y = timed(a), timed(b)
		} else {
			y, x = timed(b), timed(a)
		}
		ratios, ta, tb = append(ratios, y/x), append(ta, x), append(tb, y)
	}
	sort.Float64s(ratios)
	sort.Float64s(ta)
	sort.Float64s(tb)
	q := func(f float64) float64 { return ratios[int(f*float64(len(ratios)-1)+0.5)] }
	fmt.Printf("strode %s %s vs %s pairs=%d frames/s=%.1f frames/s_vs=%.1f ratio=%.3f q1=%.3f q3=%.3f\n",
		preset, kindA, kindB, n, frames/ta[len(ta)/2], frames/tb[len(tb)/2], q(0.5), q(0.25), q(0.75))
}

// pairs times n pairs of training steps, one on one thread and one on two,
// back to back (the order alternating from pair to pair), and prints the
// median and quartiles of the per-pair speed-ups. On a shared virtual
// machine the speed of a core drifts over seconds; two steps a moment
// apart see the same drift, where medians of separate runs minutes apart
// mix it into the ratio (bench/README.md).
func pairs(run func() error, step func(), n int, preset, kind string, frames float64) {
	timed := func(threads int) float64 {
		runtime.GOMAXPROCS(threads)
		start := time.Now()
		check(run())
		step()
		return time.Since(start).Seconds()
	}
	timed(1) // warm-up: buffers, page faults
	timed(2)
	var ratios, one []float64
	for i := 0; i < n; i++ {
		var t1, t2 float64
		if i%2 == 0 {
			t1, t2 = timed(1), timed(2)
		} else {
			t2, t1 = timed(2), timed(1)
		}
		ratios, one = append(ratios, t1/t2), append(one, t1)
	}
	sort.Float64s(ratios)
	sort.Float64s(one)
	q := func(f float64) float64 { return ratios[int(f*float64(len(ratios)-1)+0.5)] }
	fmt.Printf("strode %s %s paired=%d frames/s_1t=%.1f speedup_2t=%.3f q1=%.3f q3=%.3f\n",
		preset, kind, n, frames/one[len(one)/2], q(0.5), q(0.25), q(0.75))
}

// stepFLOPs counts the floating-point operations of the matrix products of
// one training step on n frames: every weight matrix (a parameter of more
// than one row) is one product per frame, 2·in·out forward and twice that
// backward (the input's and the weight's gradients), so 6·n·Σ in·out; the
// ODE's f_o is applied once per Euler step. Biases, gates and other
// elementwise work are left out: what is counted is what the GEMM kernel
// does, and the share of its peak says how much of the step is spent
// elsewhere.
func stepFLOPs(m *am.Model, n float64) float64 {
	sum := 0.0
	for _, p := range m.Params.List {
		if p.Rows < 2 {
			continue
		}
		io := float64(p.Rows * p.Cols)
		if strings.HasPrefix(p.Name, "ode.") && p.Name != "ode.proj" {
			io *= float64(m.Opts.ODE.Steps)
		}
		sum += io
	}
	return 6 * n * sum
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
