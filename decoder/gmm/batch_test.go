package gmm

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/strode-asr/strode/internal/glibcrand"
	"github.com/strode-asr/strode/kaldiio"
)

func randomFeats(rows, dim int, seed uint64) kaldiio.Matrix {
	rng := rand.New(rand.NewPCG(seed, 1))
	m := kaldiio.NewMatrix(rows, dim)
	for i := range m.Data {
		m.Data[i] = float32(rng.NormFloat64() * 2)
	}
	return m
}

// The batched scorer is the per-frame one up to float rounding, on Kaldi's
// monophone model of kaldi-mini (62 pdfs, 396 Gaussians).
func TestBatchScorerMatchesPerFrame(t *testing.T) {
	m, err := ReadModel("testdata/mono.mdl")
	if err != nil {
		t.Fatal(err)
	}
	feats := randomFeats(57, m.AM.Dim, 3)
	var want, got kaldiio.Matrix
	if err := m.AM.LogLikelihoods(&feats, &want); err != nil {
		t.Fatal(err)
	}
	b := NewBatchScorer(&m.AM)
	if err := b.LogLikelihoods(&feats, &got); err != nil {
		t.Fatal(err)
	}
	if got.Rows != want.Rows || got.Cols != want.Cols {
		t.Fatalf("%d×%d, want %d×%d", got.Rows, got.Cols, want.Rows, want.Cols)
	}
	for i, w := range want.Data {
		if d := math.Abs(float64(got.Data[i] - w)); d > 1e-4*math.Max(1, math.Abs(float64(w))) {
			t.Fatalf("element %d: %g, want %g", i, got.Data[i], w)
		}
	}
	bad := randomFeats(2, m.AM.Dim+1, 1)
	if err := b.LogLikelihoods(&bad, &got); err == nil {
		t.Error("features of the wrong dimension: no error")
	}
}

// BenchmarkLogLikelihoods compares the batched scorer with the per-frame
// one (gmm-compute-likes) on 1,000 frames of a 127-pdf, 1,000-Gaussian
// model of 39 dimensions, the size of an English monophone system.
func BenchmarkLogLikelihoods(b *testing.B) {
	am := InitMono(127, 39, nil, nil)
	occs := make([]float64, 127)
	for i := range occs {
		occs[i] = 1000
	}
	am.SplitByCount(occs, MixUpOptions{MixUp: 1000, Power: 0.2, MinCount: 1, PerturbFactor: 0.5}, glibcrand.New(1))
	feats := randomFeats(1000, 39, 5)
	var out kaldiio.Matrix
	b.Run("per-frame", func(b *testing.B) {
		for range b.N {
			am.LogLikelihoods(&feats, &out)
		}
	})
	b.Run("batched", func(b *testing.B) {
		s := NewBatchScorer(&am)
		for range b.N {
			s.LogLikelihoods(&feats, &out)
		}
	})
}
