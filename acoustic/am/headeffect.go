package am

import (
	"fmt"
	"math"
)

// HeadEffect measures how much the STRODE head's ODE moves one frame's
// output: the log-softmax of W·[e; h(t)] + b at t = 0 (h(0) = P·e, no ODE
// step) and at t = t̃ (the K Euler steps the model takes), for the aligned
// label. A head whose t̃ collapses to 0 gives equal values; a head that
// postdicts (the paper's Figure 3) raises the label's log-probability
// along t.
type HeadEffect struct {
	LogP0, LogPT float64 // log-probability of the label at t = 0 and at t = t̃
	Arg0, ArgT   int     // arg-max pdf at t = 0 and at t = t̃
}

// HeadEffect integrates h from P·e over [0, tt] in the model's K Euler
// steps in plain float64 (as Postdiction) and returns the label's
// log-probability and the arg-max at both ends. label must be a pdf-id.
func (m *Model) HeadEffect(e []float64, tt float64, label int) (HeadEffect, error) {
	o := m.Opts
	hd, err := m.strode("the head's effect")
	if err != nil {
		return HeadEffect{}, err
	}
	if len(e) != o.SRU.OutDim() {
		return HeadEffect{}, fmt.Errorf("am: encoder output has %d values, want %d", len(e), o.SRU.OutDim())
	}
	if label < 0 || label >= o.NumPdfs {
		return HeadEffect{}, fmt.Errorf("am: label %d out of range [0, %d)", label, o.NumPdfs)
	}
	base := matVec(e, m.Out.W.Data, o.NumPdfs)
	for j := range base {
		base[j] += m.Out.B.Data[j]
	}
	out := func(h []float64) (float64, int) {
		l := matVec(h, hd.OutH.Data, o.NumPdfs)
		best := 0
		for j := range l {
			l[j] += base[j]
			if l[j] > l[best] {
				best = j
			}
		}
		logSoftmaxRow(l, l)
		return l[label], best
	}
	h := matVec(e, hd.Proj.Data, o.ODEState)
	var r HeadEffect
	r.LogP0, r.Arg0 = out(h)
	if k := o.ODE.Steps; tt > 0 && k > 0 {
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
		return r, fmt.Errorf("am: head output is NaN (t~ = %g)", tt)
	}
	return r, nil
}
