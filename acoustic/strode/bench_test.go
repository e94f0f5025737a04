package strode

import (
	"fmt"
	"math"
	"math/rand"
	"syscall"
	"testing"

	"github.com/strode-asr/strode/acoustic/ode"
	"github.com/strode-asr/strode/acoustic/optim"
)

// BenchmarkTrainBatch is one training step of the sine recipe (batch of 50
// sequences of 10 points: forward, backward, Adam) at the paper's sizes
// (ode-hidden 8) and the reference code's (ode-hidden 100), with the Euler
// steps as one fused node in float32 (default), in float64, or as graph
// operations (unfused, float64). An epoch is 100 such steps.
func BenchmarkTrainBatch(b *testing.B) {
	for _, tc := range []struct {
		hid     int
		unfused bool
		dtype   string
	}{{8, false, ode.Float32}, {100, false, ode.Float32}, {8, false, ode.Float64}, {100, false, ode.Float64}, {8, true, ode.Float64}, {100, true, ode.Float64}} {
		name := fmt.Sprintf("ode-hidden=%d", tc.hid)
		if tc.unfused {
			name += "-unfused"
		} else if tc.dtype == ode.Float64 {
			name += "-float64"
		}
		b.Run(name, func(b *testing.B) {
			o := DefaultSequentialOptions()
			o.ODEHidden = tc.hid
			o.ODE.Unfused, o.ODE.DType = tc.unfused, tc.dtype
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
