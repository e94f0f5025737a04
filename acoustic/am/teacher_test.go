package am

import (
	"math/rand"
	"testing"

	"github.com/strode-asr/strode/acoustic/sru"
)

// withTeacher gives every utterance a teacher's rows: encodings of width
// enc (Utterance.PriorIn; 0: none) and posteriors over p pdfs (Soft; 0:
// none), seeded, the posteriors held in float32 as a teacher's are.
func withTeacher(rng *rand.Rand, us []*Utterance, enc, p int) {
	for _, u := range us {
		if enc > 0 {
			u.PriorIn = make([]float32, u.Rows*enc)
			for j := range u.PriorIn {
				u.PriorIn[j] = float32(rng.NormFloat64())
			}
		}
		if p > 0 {
			u.Soft = make([]float32, u.Rows*p)
			for r := 0; r < u.Rows; r++ {
				row, sum := u.Soft[r*p:(r+1)*p], float32(0)
				for j := range row {
					row[j] = float32(rng.ExpFloat64())
					sum += row[j]
				}
				for j := range row {
					row[j] /= sum
				}
			}
		}
	}
}

// TestGradientsTeacher is TestGradients for the teacher's terms: the STRODE
// prior reading a teacher's encodings (PriorInput teacher, its Gaussian
// term weighted up so that it matters), and distillation's soft targets
// (λ = 0.4, with and without label smoothing) for sru and strode, every
// parameter's gradient against central finite differences in float64.
func TestGradientsTeacher(t *testing.T) {
	defer func(v bool) { sru.Float32Products = v }(sru.Float32Products)
	sru.Float32Products = false
	const enc = 6
	for _, tc := range []struct {
		name            string
		kind            string
		prior           bool
		distill, smooth float64
	}{
		{"strode-teacher-prior", KindSTRODE, true, 0, 0},
		{"sru-distill", KindSRU, false, 0.4, 0},
		{"sru-distill-smoothed", KindSRU, false, 0.4, 0.2},
		{"strode-distill", KindSTRODE, false, 0.4, 0},
		{"strode-teacher-prior-distill", KindSTRODE, true, 1, 0.2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := tinyOptions(tc.kind)
			if tc.kind == KindSTRODE {
				o.WKL, o.WP, o.PhiZ = 0.3, 0.5, PhiZFree
			}
			if tc.prior {
				o.PriorInput, o.PriorInputDim = PriorTeacher, enc
			}
			m, err := New(o, 3)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewSource(4))
			moveBiasesOffZero(m, rng)
			for _, p := range m.Params.List {
				if p.Name == "gauss.0.weight" && tc.prior && p.Rows != enc {
					t.Fatalf("gauss.0.weight is %d×%d, want %d rows (the teacher's width)", p.Rows, p.Cols, enc)
				}
			}
			bt, err := m.BuildWith(4, 3, Train, TrainTerms{Smoothing: tc.smooth, Distill: tc.distill})
			if err != nil {
				t.Fatal(err)
			}
			defer bt.Close()
			us := tinyBatch(rng, o, []int{4, 2, 3})
			withTeacher(rng, us, map[bool]int{true: enc}[tc.prior], map[bool]int{true: o.NumPdfs}[tc.distill != 0])
			if err := bt.Load(us, rng); err != nil {
				t.Fatal(err)
			}
			if err := bt.Run(); err != nil {
				t.Fatal(err)
			}
			params := bt.Params()
			if len(params) != len(m.Params.List) {
				t.Fatalf("%d parameters reached by the gradient, want the model's %d", len(params), len(m.Params.List))
			}
			compareBatchGradients(t, tc.name, bt, params)
		})
	}
}
