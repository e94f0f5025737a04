package strodehead

import (
	"math"
	"math/rand"
	"testing"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/autodiff/gradcheck"
	"github.com/strode-asr/strode/acoustic/nn"
	"github.com/strode-asr/strode/acoustic/optim"
)

// readAheadCase is a minibatch of two utterances (5 and 3 frames, time-major
// in 5 × 2 rows) of 3-dimensional e, with boundaries that cover every
// branch: inside the utterance, clamped at L = 2, at 0, past the last frame.
func readAheadCase() (e, tt, mask []float64, batch, h int) {
	batch, h = 2, 3
	rng := rand.New(rand.NewSource(5))
	e = make([]float64, 10*h)
	for i := range e {
		e[i] = rng.NormFloat64()
	}
	//    frame:   0   1   2   3   4
	ta := []float64{0.3, 1.7, 2.6, 0, 0.45} // utterance a: 5 frames (t = 2.6 clamps at 2; frame 3 at 0; 4 past the end)
	tb := []float64{1.25, 1.2, 0.2}         // utterance b: 3 frames (frame 1 reads past the end, 2 is the last)
	tt, mask = make([]float64, 10), make([]float64, 10)
	for t, v := range ta {
		tt[t*batch], mask[t*batch] = v, 1
	}
	for t, v := range tb {
		tt[t*batch+1], mask[t*batch+1] = v, 1
	}
	return e, tt, mask, batch, h
}

// TestReadAheadValues: ê by hand at a few rows.
func TestReadAheadValues(t *testing.T) {
	e, tt, mask, batch, h := readAheadCase()
	k := &readAhead{l: 2, batch: batch}
	if _, _, err := k.Shape([][2]int{{10, h}, {10, 1}, {10, 1}}); err != nil {
		t.Fatal(err)
	}
	out := make([]float64, 10*h)
	k.Forward(out, [][]float64{e, tt, mask})
	row := func(r int) []float64 { return e[r*h : (r+1)*h] }
	for _, tc := range []struct {
		name string
		r    int
		want func(j int) float64
	}{
		{"a frame 0 at 0.3", 0, func(j int) float64 { return 0.7*row(0)[j] + 0.3*row(2)[j] }},
		{"a frame 2 clamped at 2", 4, func(j int) float64 { return row(8)[j] }},
		{"a frame 3 at 0", 6, func(j int) float64 { return row(6)[j] }},
		{"a frame 4 past the end", 8, func(j int) float64 { return row(8)[j] }},
		{"b frame 0 at 1.25", 1, func(j int) float64 { return 0.75*row(3)[j] + 0.25*row(5)[j] }},
		{"b frame 1 past the end", 3, func(j int) float64 { return row(5)[j] }},
		{"b padding", 7, func(int) float64 { return 0 }},
	} {
		for j := 0; j < h; j++ {
			if got, want := out[tc.r*h+j], tc.want(j); math.Abs(got-want) > 1e-12 {
				t.Errorf("%s [%d]: %g, want %g", tc.name, j, got, want)
			}
		}
	}
}

// TestReadAheadGradient: the kernel's gradients in e and t̃ against central
// differences, through a random linear cost; and t̃'s gradient is zero where
// the read does not move (clamped at L, past the end, padding).
func TestReadAheadGradient(t *testing.T) {
	e, tt, mask, batch, h := readAheadCase()
	pe := optim.NewParam("e", 10, h, optim.Free)
	pt := optim.NewParam("tt", 10, 1, optim.Free)
	copy(pe.Data, e)
	copy(pt.Data, tt)
	pt.Data[6] = 0.05 // not at 0, where a central difference would see the clamp
	rng := rand.New(rand.NewSource(8))
	w := make([]float64, 10*h)
	for i := range w {
		w[i] = rng.NormFloat64()
	}
	hd := &Head{Cfg: Config{MaxLookahead: 2, Variant: VariantLookahead}}
	net := nn.NewNet()
	m := net.Const("mask", mask, 10, 1)
	y := hd.ReadAhead(net, net.P(pe), net.P(pt), m, batch)
	cost := net.Sum(net.Mul(y, net.Const("w", w, 10, h)))
	ps, nodes := net.Bound()
	mach, err := net.Compile(cost, nodes)
	if err != nil {
		t.Fatal(err)
	}
	defer mach.Close()
	if err := mach.Run(); err != nil {
		t.Fatal(err)
	}
	dtt := append([]float64(nil), mach.Grad(1)...)
	for _, r := range []int{4, 8, 3, 5, 7, 9} { // clamped, past the end (a, b, b's last frame), padding
		if dtt[r] != 0 {
			t.Errorf("row %d: d cost/d t~ = %g, want 0", r, dtt[r])
		}
	}
	if dtt[0] == 0 || dtt[1] == 0 {
		t.Errorf("rows inside: d cost/d t~ = %g, %g, want nonzero", dtt[0], dtt[1])
	}
	// every entry, -short too: the kernel's branches sit at single rows
	grads := [][]float64{append([]float64(nil), mach.Grad(0)...), append([]float64(nil), dtt...)}
	loss := func() float64 {
		if err := mach.Run(); err != nil {
			t.Fatal(err)
		}
		return autodiff.Value(cost)[0]
	}
	gradcheck.Compare(t, "read-ahead", ps, grads, loss, gradcheck.Options{Step: 1e-6, Floor: 1e-4, Every: 30})
}

// TestLookaheadFrames: ⌈min(t̃, L)⌉, 0 for the other variants.
func TestLookaheadFrames(t *testing.T) {
	c := Config{Variant: VariantLookahead, MaxLookahead: 8}
	for _, tc := range []struct {
		tt   float64
		want int
	}{{0, 0}, {1e-6, 1}, {1, 1}, {1.01, 2}, {7.5, 8}, {8, 8}, {30, 8}, {math.NaN(), 0}} {
		if got := c.LookaheadFrames(tc.tt); got != tc.want {
			t.Errorf("t~ %g: %d frames, want %d", tc.tt, got, tc.want)
		}
	}
	if got := (Config{Variant: VariantPaper, MaxLookahead: 8}).LookaheadFrames(3); got != 0 {
		t.Errorf("paper: %d frames", got)
	}
}
