package am

import (
	"math"
	"math/rand"
	"strconv"
	"testing"

	"github.com/strode-asr/strode/acoustic/nn"
)

// TestHeadEffect: at t̃ = 0 the two ends agree exactly; at the model's own
// t̃ the log-probability at t = t̃ is Postdiction's probability at step K
// (the same Euler steps; tolerance 1e-12) and the forward graph's
// log-softmax of the label (its float32 products: 1e-4), for every head
// variant — so the plain float64 output of each variant is the graph's —
// and the other kinds are refused.
func TestHeadEffect(t *testing.T) {
	for _, v := range []string{HeadPaper, HeadHTilde, HeadGated} {
		t.Run(v, func(t *testing.T) { checkHeadEffect(t, v) })
	}
}

func checkHeadEffect(t *testing.T, variant string) {
	o := tinyOptions(KindSTRODE)
	o.HeadVariant = variant
	m, err := New(o, 3)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(4))
	u := tinyBatch(rng, o, []int{6})[0]
	fw := NewForwarder(m)
	defer fw.Close()
	g, err := fw.Run(u)
	if err != nil {
		t.Fatal(err)
	}
	enc, tt, logits := g.Rows(g.Enc, 0), g.Rows(g.TTilde, 0), g.Output(0, nil)
	h := o.SRU.OutDim()
	for i := 0; i < u.Rows; i++ {
		e := enc[i*h : (i+1)*h]
		label := i % o.NumPdfs
		z, err := m.HeadEffect(e, 0, label)
		if err != nil {
			t.Fatal(err)
		}
		if z.LogP0 != z.LogPT || z.Arg0 != z.ArgT {
			t.Errorf("frame %d, t~ = 0: %+v, want equal ends", i, z)
		}
		for _, ttv := range []float64{tt[i], 2.5} {
			eff, err := m.HeadEffect(e, ttv, label)
			if err != nil {
				t.Fatal(err)
			}
			tr, err := m.Postdiction(e, ttv, label)
			if err != nil {
				t.Fatal(err)
			}
			want := math.Log(tr.Probs[strconv.Itoa(label)][o.ODE.Steps])
			if math.Abs(eff.LogPT-want) > 1e-12*math.Max(1, math.Abs(want)) {
				t.Errorf("frame %d t~ = %g: log p(label | h(t~)) = %.15g, postdiction gives %.15g", i, ttv, eff.LogPT, want)
			}
			if eff.LogP0 != z.LogP0 {
				t.Errorf("frame %d: log p at t = 0 depends on t~: %g vs %g", i, eff.LogP0, z.LogP0)
			}
			if ttv != tt[i] {
				continue
			}
			row := make([]float64, o.NumPdfs)
			nn.LogSoftmax(row, logits[i*o.NumPdfs:(i+1)*o.NumPdfs])
			if d := math.Abs(eff.LogPT - row[label]); d > 1e-4*math.Max(1, math.Abs(row[label])) {
				t.Errorf("frame %d: log p(label) at t~ %.8g, the forward graph's %.8g", i, eff.LogPT, row[label])
			}
		}
	}
	if _, err := m.HeadEffect(enc[:h], 1, o.NumPdfs); err == nil {
		t.Error("a label out of range was accepted")
	}
	sru, err := New(tinyOptions(KindSRU), 3)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sru.HeadEffect(enc[:h], 1, 0); err == nil {
		t.Error("an sru model was accepted")
	}
}
