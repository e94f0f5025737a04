package transform

import (
	"math"
	"testing"

	"github.com/strode-asr/strode/decoder/gmm"
)

// gmm-boost-silence on kaldi-mini's monophone model (phone 1 is SIL, five
// pdfs): the boosted pdfs' log-likelihoods rise by log(boost) on any
// frame, the others' stay; a bad phone list or factor is an error.
func TestGmmBoostSilence(t *testing.T) {
	const model = "../gmm/testdata/mono.mdl"
	env := Env{Log: func(string, ...any) {}, Warn: func(string, ...any) {}}
	orig, err := gmm.ReadModel(model)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		phones []int32
		boost  float32
		pdfs   int
	}{
		{"silence x2", []int32{1}, 2, 5},
		{"silence x1 (no change)", []int32{1}, 1, 5},
		{"no phones", nil, 3, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, err := gmm.ReadModel(model)
			if err != nil {
				t.Fatal(err)
			}
			n, err := BoostSilence(env, m, c.phones, c.boost)
			if err != nil || n != c.pdfs {
				t.Fatalf("BoostSilence: %d pdfs, %v; want %d", n, err, c.pdfs)
			}
			boosted, _ := PdfsForPhones(&m.Trans, c.phones)
			is := map[int32]bool{}
			for _, p := range boosted {
				is[p] = true
			}
			x := make([]float32, len(orig.AM.Pdfs[0].InvVars)/orig.AM.Pdfs[0].NumGauss())
			for p := range m.AM.Pdfs {
				s := make([]float32, m.AM.Pdfs[p].NumGauss())
				got := m.AM.Pdfs[p].LogLikelihood(x, s)
				want := orig.AM.Pdfs[p].LogLikelihood(x, s)
				if is[int32(p)] {
					want += float32(math.Log(float64(c.boost)))
				}
				if math.Abs(float64(got-want)) > 1e-3 {
					t.Errorf("pdf %d: log-likelihood %g, want %g", p, got, want)
				}
			}
		})
	}
	for _, c := range []struct{ phones, boost string }{{"1:x", "1.5"}, {"1:1", "1.5"}, {"1", "0"}, {"1", "NaN"}} {
		o := DefaultBoostSilenceOptions()
		switch c.boost {
		case "0":
			o.Boost = 0
		case "NaN":
			o.Boost = math.NaN()
		}
		if err := GmmBoostSilence(env, o, c.phones, model, t.TempDir()+"/out.mdl"); err == nil {
			t.Errorf("gmm-boost-silence %s --boost=%s: no error", c.phones, c.boost)
		}
	}
}
