package strodehead

import (
	"fmt"
	"github.com/strode-asr/strode/acoustic/nn"
	"math"
)

// Effect measures how much the STRODE head's ODE moves one frame's
// output: the log-softmax of W·[e; h(t)] + b at t = 0 (h(0) = P·e, no ODE
// step) and at t = t̃ (the K Euler steps the model takes), for the aligned
// label. A head whose t̃ collapses to 0 gives equal values; a head that
// postdicts (the paper's Figure 3) raises the label's log-probability
// along t.
type Effect struct {
	LogP0, LogPT float64 // log-probability of the label at t = 0 and at t = t̃
	Arg0, ArgT   int     // arg-max pdf at t = 0 and at t = t̃
}

// Effect integrates h from P·e over [0, tt] in the model's K Euler
// steps in plain float64 (as Postdiction) and returns the label's
// log-probability and the arg-max at both ends. label must be a pdf-id;
// outLayer is the acoustic model's output layer (W and b; the head's
// variant says what W reads, variant.go).
func (hd *Head) Effect(e []float64, outLayer *nn.Linear, tt float64, label int) (Effect, error) {
	c := hd.Cfg
	if len(e) != c.In {
		return Effect{}, fmt.Errorf("strodehead: encoder output has %d values, want %d", len(e), c.In)
	}
	if label < 0 || label >= c.NumPdfs {
		return Effect{}, fmt.Errorf("strodehead: label %d out of range [0, %d)", label, c.NumPdfs)
	}
	logits := hd.outputFunc(e, outLayer)
	out := func(h []float64) (float64, int) {
		l := logits(h)
		best := 0
		for j := range l {
			if l[j] > l[best] {
				best = j
			}
		}
		nn.LogSoftmax(l, l)
		return l[label], best
	}
	h := matVec(e, hd.Proj.Data, c.State)
	var r Effect
	r.LogP0, r.Arg0 = out(h)
	if k := c.ODE.Steps; tt > 0 && k > 0 {
		step := tt / float64(k)
		for i := 0; i < k; i++ {
			f := hd.fo(h)
			for j := range h {
				h[j] += step * f[j]
			}
		}
	}
	r.LogPT, r.ArgT = out(h)
	if math.IsNaN(r.LogPT) || math.IsNaN(r.LogP0) {
		return r, fmt.Errorf("strodehead: head output is NaN (t~ = %g)", tt)
	}
	return r, nil
}
