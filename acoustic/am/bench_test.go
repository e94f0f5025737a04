package am

import (
	"math/rand"
	"testing"
)

// benchStep measures one training step (forward, backward, Adam) on B
// utterances of T frames; the reported metric is frames/s.
func benchStep(b *testing.B, preset, kind string, pdfs, t, bs int) {
	o, _ := Preset(preset)
	o.Kind, o.InputDim, o.NumPdfs = kind, 40, pdfs
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
	opt := newAdam(DefaultTrainOptions().Adam)
	if err := g.Load(us, rng); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := g.Run(); err != nil {
			b.Fatal(err)
		}
		opt.step(m.Params.List)
	}
	b.ReportMetric(float64(t*bs*b.N)/b.Elapsed().Seconds(), "frames/s")
}

func BenchmarkTrainSmallSRU(b *testing.B)    { benchStep(b, "small", KindSRU, 200, 500, 8) }
func BenchmarkTrainSmallSTRODE(b *testing.B) { benchStep(b, "small", KindSTRODE, 200, 500, 8) }
func BenchmarkTrainTinySTRODE(b *testing.B)  { benchStep(b, "small", KindSTRODE, 62, 60, 16) }
func BenchmarkTrainTinySRU(b *testing.B)     { benchStep(b, "small", KindSRU, 62, 60, 16) }
func BenchmarkTrainPaperSRU(b *testing.B)    { benchStep(b, "paper", KindSRU, 3000, 500, 8) }
