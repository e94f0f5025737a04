package strodehead

import (
	"encoding/json"
	"fmt"
	"github.com/strode-asr/strode/acoustic/nn"
	"math"
	"os"
	"sort"
)

// Trajectory is the paper's Figure 3 for one frame: the softmax output of
// the STRODE head as the ODE solution h(i+t) runs over t ∈ [0, 2t̃_i].
type Trajectory struct {
	Utt    string               `json:"utt"`
	Frame  int                  `json:"frame"`
	TTilde float64              `json:"t_tilde"` // the frame's sampled boundary t̃_i
	Label  int                  `json:"label"`   // the aligned pdf-id (−1 if unknown)
	Times  []float64            `json:"t"`       // t values, 0 … 2t̃ in 2K Euler steps
	Probs  map[string][]float64 `json:"probs"`   // pdf-id → softmax probability along t
	Shown  []int                `json:"shown"`   // the label and the two most probable others
}

// Postdiction integrates h from h(0) = P·e over [0, 2t̃] with the head's
// Euler steps (step t̃/K, 2K steps) in plain float64 and returns the
// softmax of the output layer at every step (W·[e; h(t)] + b in the
// paper's variant; the head's variant's equation, variant.go). e is the
// encoder output of the frame (Hidden values), label its aligned pdf-id or
// −1, outLayer the acoustic model's output layer (W and b).
func (hd *Head) Postdiction(e []float64, outLayer *nn.Linear, tt float64, label int) (*Trajectory, error) {
	c := hd.Cfg
	if len(e) != c.In {
		return nil, fmt.Errorf("strodehead: encoder output has %d values, want %d", len(e), c.In)
	}
	s := c.State
	h := matVec(e, hd.Proj.Data, s)
	logits := hd.outputFunc(e, outLayer)
	k := c.ODE.Steps
	step := tt / float64(k)
	tr := &Trajectory{TTilde: tt, Label: label}
	var all [][]float64
	for i := 0; i <= 2*k; i++ {
		if i > 0 {
			f := hd.fo(h)
			for j := range h {
				h[j] += step * f[j]
			}
		}
		l := logits(h)
		nn.LogSoftmax(l, l)
		for j := range l {
			l[j] = math.Exp(l[j])
		}
		tr.Times = append(tr.Times, float64(i)*step)
		all = append(all, l)
	}
	// The label and the two others with the highest peak probability.
	peak := make([]float64, c.NumPdfs)
	for _, l := range all {
		for j, v := range l {
			peak[j] = math.Max(peak[j], v)
		}
	}
	idx := make([]int, c.NumPdfs)
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return peak[idx[a]] > peak[idx[b]] })
	if label >= 0 {
		tr.Shown = append(tr.Shown, label)
	}
	for _, j := range idx {
		if len(tr.Shown) == 3 || (label < 0 && len(tr.Shown) == 2) {
			break
		}
		if j != label {
			tr.Shown = append(tr.Shown, j)
		}
	}
	tr.Probs = map[string][]float64{}
	for _, j := range tr.Shown {
		p := make([]float64, len(all))
		for i, l := range all {
			p[i] = l[j]
		}
		tr.Probs[fmt.Sprint(j)] = p
	}
	return tr, nil
}

// fo is f_o(h) = L2(tanh(L1(tanh(L0 h)))) in plain float64.
func (hd *Head) fo(h []float64) []float64 {
	x := h
	for i, l := range hd.ODE {
		y := matVec(x, l.W.Data, l.W.Cols)
		for j := range y {
			y[j] += l.B.Data[j]
			if i < 2 {
				y[j] = math.Tanh(y[j])
			}
		}
		x = y
	}
	return x
}

// matVec is x·W for a row x and W len(x)×cols, row-major.
func matVec(x, w []float64, cols int) []float64 {
	y := make([]float64, cols)
	for i, v := range x {
		row := w[i*cols : (i+1)*cols]
		for j, a := range row {
			y[j] += v * a
		}
	}
	return y
}

// WriteJSON writes the trajectory as JSON.
func (tr *Trajectory) WriteJSON(path string) error {
	b, err := json.MarshalIndent(tr, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}
