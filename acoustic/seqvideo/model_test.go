package seqvideo

import (
	"math"
	"math/rand"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strode-asr/strode/acoustic/autodiff"
)

func smallOptions(model string) Options {
	o := DefaultOptions()
	o.Model, o.NDF, o.PhiHidden, o.ODEHidden = model, 2, 8, 8
	return o
}

// buildBatch builds a model with o (initialised from rng) and a batch of
// videos × frames for it.
func buildBatch(tb testing.TB, o Options, rng *rand.Rand, videos, frames int, train bool) (*Model, *Batch) {
	tb.Helper()
	m, err := New(o, rng)
	if err != nil {
		tb.Fatal(err)
	}
	bt, err := m.Build(videos, frames, train)
	if err != nil {
		tb.Fatal(err)
	}
	return m, bt
}

// runBatch is buildBatch, then one run on random videos drawn from rng
// (also returned).
func runBatch(tb testing.TB, o Options, rng *rand.Rand, videos, frames int, train bool) (*Model, *Batch, *rand.Rand) {
	tb.Helper()
	m, bt := buildBatch(tb, o, rng, videos, frames, train)
	if err := bt.Set(randomVideos(rng, videos, frames)); err != nil {
		tb.Fatal(err)
	}
	if err := bt.Run(); err != nil {
		tb.Fatal(err)
	}
	return m, bt, rng
}

// TestTimes: index models give 0 … N−1; learned ones t_0 = Φ(0, z_0) > 0
// and strictly increasing times (every gap is a softplus).
func TestTimes(t *testing.T) {
	for _, model := range Models {
		m, bt, _ := runBatch(t, smallOptions(model), rand.New(rand.NewSource(1)), 3, 4, false)
		for s, ts := range bt.InferredTimes() {
			for i, v := range ts {
				if !m.Opts.Learned() && v != float64(i) {
					t.Errorf("%s: video %d time %d = %v, want the index", model, s, i, v)
				}
				if m.Opts.Learned() && !(v > 0 && (i == 0 || v > ts[i-1])) {
					t.Errorf("%s: video %d times %v: want 0 < t_0 < t_1 < …", model, s, ts)
				}
			}
		}
		if mse := autodiff.Value(bt.MSE)[0]; !(mse > 0) || bt.NextFrameMSE() <= 0 {
			t.Errorf("%s: MSE %v, next-frame MSE %v", model, mse, bt.NextFrameMSE())
		}
		if p := bt.Predicted(1); len(p) != 4 || len(p[3]) != FramePixels {
			t.Errorf("%s: Predicted: %d frames", model, len(p))
		}
	}
}

// TestEvalAndSave: a training run moves the BatchNorm statistics, an
// evaluation run does not; Save then Load into a model of another seed gives
// the same evaluation loss; Snapshot/Restore goes back exactly.
func TestEvalAndSave(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	m, err := New(smallOptions(STRODERNN), rng)
	if err != nil {
		t.Fatal(err)
	}
	videos := randomVideos(rng, 2, 3)
	tr, err := m.Build(2, 3, true)
	if err != nil {
		t.Fatal(err)
	}
	ev, err := m.Build(2, 3, false)
	if err != nil {
		t.Fatal(err)
	}
	bn := m.Norms()[0].State
	if err := tr.Set(videos); err != nil {
		t.Fatal(err)
	}
	snap := m.Snapshot()
	if err := tr.Run(); err != nil {
		t.Fatal(err)
	}
	if bn.NumBatchesTracked != 1 || bn.RunningMean[0] == 0 {
		t.Fatalf("training run: statistics %v after %d batches", bn.RunningMean, bn.NumBatchesTracked)
	}
	evalLoss := func(m *Model, ev *Batch) float64 {
		m.SetTraining(false)
		defer m.SetTraining(true)
		if err := ev.Set(videos); err != nil {
			t.Fatal(err)
		}
		if err := ev.Run(); err != nil {
			t.Fatal(err)
		}
		return autodiff.Value(ev.Loss)[0]
	}
	mean := append([]float64(nil), bn.RunningMean...)
	l1 := evalLoss(m, ev)
	if bn.NumBatchesTracked != 1 || bn.RunningMean[0] != mean[0] {
		t.Errorf("evaluation run moved the statistics")
	}
	path := filepath.Join(t.TempDir(), "m.safetensors")
	if err := m.Save(path, map[string]string{"seed": "2"}); err != nil {
		t.Fatal(err)
	}
	m2, _ := New(smallOptions(STRODERNN), rand.New(rand.NewSource(7)))
	md, err := m2.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if md["seed"] != "2" || !strings.Contains(md["options"], `"Model":"strode-rnn"`) {
		t.Errorf("metadata %v", md)
	}
	ev2, _ := m2.Build(2, 3, false)
	if l2 := evalLoss(m2, ev2); l2 != l1 {
		t.Errorf("loaded model: loss %v, saved model's %v", l2, l1)
	}
	m.Restore(snap)
	if bn.NumBatchesTracked != 0 || bn.RunningMean[0] != 0 {
		t.Errorf("Restore: statistics %v after %d batches", bn.RunningMean, bn.NumBatchesTracked)
	}
	m3, _ := New(smallOptions(STRODE), rand.New(rand.NewSource(7)))
	if _, err := m3.Load(path); err == nil {
		t.Errorf("loading a strode-rnn file into a strode model: no error")
	}
}

// TestFloat32MatchesFloat64: the float32 products change the loss by
// less than 1e-5 relative.
func TestFloat32MatchesFloat64(t *testing.T) {
	loss := func(f64 bool) float64 {
		o := smallOptions(STRODE)
		o.Float64 = f64
		rng := rand.New(rand.NewSource(4))
		m, _ := New(o, rng)
		bt, err := m.Build(2, 3, true)
		if err != nil {
			t.Fatal(err)
		}
		if err := bt.Set(randomVideos(rng, 2, 3)); err != nil {
			t.Fatal(err)
		}
		if err := bt.Run(); err != nil {
			t.Fatal(err)
		}
		return autodiff.Value(bt.Loss)[0]
	}
	a, b := loss(false), loss(true)
	if math.Abs(a-b) > 1e-5*math.Abs(b) {
		t.Errorf("loss float32 %.10g, float64 %.10g", a, b)
	}
}

func TestBadInput(t *testing.T) {
	m, _ := New(smallOptions(NODE), rand.New(rand.NewSource(1)))
	bt, _ := m.Build(2, 3, false)
	if err := bt.Set(make([][]uint8, 1)); err == nil {
		t.Error("1 video for a batch of 2: no error")
	}
	if err := bt.Set([][]uint8{make([]uint8, 3*FramePixels), make([]uint8, 10)}); err == nil {
		t.Error("short video: no error")
	}
	if _, err := m.Build(2, 1, false); err == nil {
		t.Error("1 frame: no error")
	}
	o := smallOptions("lstm")
	if _, err := New(o, rand.New(rand.NewSource(1))); err == nil {
		t.Error("unknown model: no error")
	}
}
