package am

import (
	"math/rand"
	"testing"

	"github.com/strode-asr/strode/acoustic/optim"
	"github.com/strode-asr/strode/internal/cputime"
)

// benchStep measures one training step (forward, backward, Adam) on B
// utterances of T frames; the reported metrics are frames/s and the
// process's CPU milliseconds per step.
func benchStep(b *testing.B, preset, kind string, pdfs, t, bs int) {
	benchVariant(b, preset, kind, "", pdfs, t, bs)
}

// benchVariant is benchStep with strode's --head-variant (variant "" for
// the other kinds).
func benchVariant(b *testing.B, preset, kind, variant string, pdfs, t, bs int) {
	o, _ := PresetFor(preset, kind)
	o.InputDim, o.NumPdfs = 40, pdfs
	if variant != "" {
		o.HeadVariant = variant
	}
	m, err := New(o, 1)
	if err != nil {
		b.Fatal(err)
	}
	g, err := m.Build(t, bs, Train)
	if err != nil {
		b.Fatal(err)
	}
	defer g.Close()
	rng := rand.New(rand.NewSource(1))
	us := tinyBatch(rng, o, func() []int {
		l := make([]int, bs)
		for i := range l {
			l[i] = t
		}
		return l
	}())
	ao := optim.DefaultAdamOptions()
	ao.LearningRate, ao.ClipNorm = 1e-3, 5 // the trainer's defaults (acoustic/trainer)
	opt := optim.NewAdam(ao)
	if err := g.Load(us, rng); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	cpu := cputime.Process()
	for i := 0; i < b.N; i++ {
		if err := g.Run(); err != nil {
			b.Fatal(err)
		}
		opt.Step(m.Params.List)
	}
	b.ReportMetric(float64(t*bs*b.N)/b.Elapsed().Seconds(), "frames/s")
	// CPU time beside wall time: on a loaded machine the wall time of a
	// step swings with the other processes, its CPU time much less.
	b.ReportMetric(float64(cputime.Process()-cpu)/1e6/float64(b.N), "cpu-ms/op")
}

func BenchmarkTrainSmallSRU(b *testing.B)    { benchStep(b, "small", KindSRU, 200, 500, 8) }
func BenchmarkTrainSmallSTRODE(b *testing.B) { benchStep(b, "small", KindSTRODE, 200, 500, 8) }
func BenchmarkTrainTinySTRODE(b *testing.B)  { benchStep(b, "small", KindSTRODE, 62, 60, 16) }
func BenchmarkTrainTinySRU(b *testing.B)     { benchStep(b, "small", KindSRU, 62, 60, 16) }
func BenchmarkTrainPaperSRU(b *testing.B)    { benchStep(b, "paper", KindSRU, 3000, 500, 8) }
func BenchmarkTrainSmallODERNN(b *testing.B) { benchStep(b, "small", KindODERNN, 200, 500, 8) }
func BenchmarkTrainSmallDNN(b *testing.B)    { benchStep(b, "small", KindDNN, 200, 500, 8) }

// The four models on kaldi-mini's shape (62 pdfs, minibatches of 16
// utterances of about 150 frames), for BASELINES.md's speed table.
func BenchmarkTrainMiniSRU(b *testing.B)    { benchStep(b, "small", KindSRU, 62, 150, 16) }
func BenchmarkTrainMiniSTRODE(b *testing.B) { benchStep(b, "small", KindSTRODE, 62, 150, 16) }
func BenchmarkTrainMiniODERNN(b *testing.B) { benchStep(b, "small", KindODERNN, 62, 150, 16) }
func BenchmarkTrainMiniDNN(b *testing.B)    { benchStep(b, "small", KindDNN, 62, 150, 16) }

// strode's head variants on the same shape, beside sru and the paper's
// strode above (DESIGN.md §3's cost of each).
func BenchmarkTrainMiniSTRODEHTilde(b *testing.B) {
	benchVariant(b, "small", KindSTRODE, HeadHTilde, 62, 150, 16)
}
func BenchmarkTrainMiniSTRODEGated(b *testing.B) {
	benchVariant(b, "small", KindSTRODE, HeadGated, 62, 150, 16)
}

// FSDD's shape: minibatches of 2 utterances of about 60 frames, 60 pdfs
// (the recipe's --minibatch-utts 2).
func BenchmarkTrainFSDDDNN(b *testing.B) { benchStep(b, "small", KindDNN, 60, 60, 2) }
func BenchmarkTrainFSDDSRU(b *testing.B) { benchStep(b, "small", KindSRU, 60, 60, 2) }
