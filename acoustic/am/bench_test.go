package am

import (
	"math/rand"
	"sort"
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

// BenchmarkTrainMiniHeadPairs runs one training step of each of sru, strode
// and its htilde and gated heads in turn (kaldi-mini's shape, as the Mini
// benchmarks), b.N rounds in one process, and reports each model's CPU ms
// per step and the median over rounds of each head's CPU time per step
// against sru's and the paper strode's: steps of the same minutes, paired,
// for a loaded machine. Run it with -cpu 1 so that CPU time is the step's.
func BenchmarkTrainMiniHeadPairs(b *testing.B) {
	type arm struct {
		name string
		m    *Model
		g    *Batch
		opt  *optim.Adam
		cpu  []float64
	}
	var arms []*arm
	for _, v := range []struct {
		name, kind, variant string
		causal              bool
	}{
		{"sru", KindSRU, "", false}, {"strode", KindSTRODE, HeadPaper, false}, {"htilde", KindSTRODE, HeadHTilde, false}, {"gated", KindSTRODE, HeadGated, false},
		// The look-ahead head needs a causal encoder: its ratio is against the causal sru.
		{"sru-causal", KindSRU, "", true}, {"lookahead", KindSTRODE, HeadLookahead, true},
	} {
		o, _ := PresetFor("small", v.kind)
		o.InputDim, o.NumPdfs = 40, 62
		if v.variant != "" {
			o.HeadVariant = v.variant
		}
		o.SRU.Bidirectional = !v.causal && o.SRU.Bidirectional
		m, err := New(o, 1)
		if err != nil {
			b.Fatal(err)
		}
		g, err := m.Build(150, 16, Train)
		if err != nil {
			b.Fatal(err)
		}
		defer g.Close()
		rng := rand.New(rand.NewSource(1))
		us := tinyBatch(rng, o, []int{150, 150, 150, 150, 150, 150, 150, 150, 150, 150, 150, 150, 150, 150, 150, 150})
		if err := g.Load(us, rng); err != nil {
			b.Fatal(err)
		}
		ao := optim.DefaultAdamOptions()
		ao.LearningRate, ao.ClipNorm = 1e-3, 5
		arms = append(arms, &arm{name: v.name, m: m, g: g, opt: optim.NewAdam(ao)})
	}
	step := func(a *arm) {
		if err := a.g.Run(); err != nil {
			b.Fatal(err)
		}
		a.opt.Step(a.m.Params.List)
	}
	for _, a := range arms { // the first step allocates the graphs' buffers
		step(a)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for k := range arms {
			a := arms[(i+k)%len(arms)] // the order turns from round to round
			c := cputime.Process()
			step(a)
			a.cpu = append(a.cpu, float64(cputime.Process()-c)/1e6)
		}
	}
	median := func(v []float64) float64 {
		s := append([]float64(nil), v...)
		sort.Float64s(s)
		return s[len(s)/2]
	}
	for _, a := range arms {
		b.ReportMetric(median(a.cpu), a.name+"-cpu-ms/step")
	}
	for _, ref := range arms[:2] {
		for _, a := range arms[1:4] {
			if a == ref {
				continue
			}
			r := make([]float64, len(a.cpu))
			for i := range r {
				r[i] = a.cpu[i] / ref.cpu[i]
			}
			b.ReportMetric(median(r), a.name+"/"+ref.name)
		}
	}
	r := make([]float64, len(arms[5].cpu))
	for i := range r {
		r[i] = arms[5].cpu[i] / arms[4].cpu[i]
	}
	b.ReportMetric(median(r), "lookahead/sru-causal")
}
