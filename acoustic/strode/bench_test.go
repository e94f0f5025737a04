package strode

import (
	"fmt"
	"math"
	"math/rand"
	"syscall"
	"testing"

	"github.com/strode-asr/strode/acoustic/optim"
)

// BenchmarkTrainBatch is one training step of the sine recipe (batch of 50
// sequences of 10 points: forward, backward, Adam) at the paper's sizes
// (ode-hidden 8) and the reference code's (ode-hidden 100), with the Euler
// steps as one fused node (default) or as graph operations (unfused). An
// epoch is 100 such steps.
func BenchmarkTrainBatch(b *testing.B) {
	for _, tc := range []struct {
		hid     int
		unfused bool
	}{{8, false}, {100, false}, {8, true}, {100, true}} {
		name := fmt.Sprintf("ode-hidden=%d", tc.hid)
		if tc.unfused {
			name += "-unfused"
		}
		b.Run(name, func(b *testing.B) {
			o := DefaultSequentialOptions()
			o.ODEHidden = tc.hid
			o.ODE.Unfused = tc.unfused
			m, err := NewSequential(o, rand.New(rand.NewSource(1)))
			if err != nil {
				b.Fatal(err)
			}
			bt, err := m.Build(50, 10, true)
			if err != nil {
				b.Fatal(err)
			}
			rng := rand.New(rand.NewSource(2))
			seqs := make([][][]float64, 50)
			for s := range seqs {
				for i := 0; i < 10; i++ {
					seqs[s] = append(seqs[s], []float64{math.Sin(rng.Float64() * 6)})
				}
			}
			opt := optim.NewAdam(optim.DefaultAdamOptions())
			cpu0 := cpuSeconds()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := bt.Set(seqs); err != nil {
					b.Fatal(err)
				}
				if err := bt.Run(); err != nil {
					b.Fatal(err)
				}
				opt.Step(bt.Params)
			}
			b.ReportMetric(b.Elapsed().Seconds()/float64(b.N)*100, "s/epoch")
			// CPU seconds of this process: the figure that counts on a
			// machine shared with other jobs (wall time inflates with load).
			b.ReportMetric((cpuSeconds()-cpu0)/float64(b.N)*100, "cpu-s/epoch")
			b.ReportMetric(float64(bt.Net.NodeCount()), "nodes")
		})
	}
}

// cpuSeconds is the user+system CPU time of the process so far.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
