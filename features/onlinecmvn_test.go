package features

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// handOnlineCmvn is Kaldi's OnlineCmvn written out the slow way for frame t
// of feats: the window's plain sums, then the speaker's and the global
// stats as whole-count fractions, then mean (and variance) normalisation
// in double. It shares no code with OnlineCmvn.
func handOnlineCmvn(o OnlineCmvnOptions, spk, global []float64, feats [][]float64, t int) []float64 {
	dim := len(feats[0])
	sum, sq := make([]float64, dim), make([]float64, dim)
	n := 0.0
	for s := max(0, t-o.CmnWindow+1); s <= t; s++ {
		for d, v := range feats[s] {
			sum[d] += v
			sq[d] += v * v
		}
		n++
	}
	top := func(stats []float64, most float64) {
		if stats == nil || n >= float64(o.CmnWindow) {
			return
		}
		c := math.Min(math.Min(float64(o.CmnWindow)-n, most), stats[dim])
		if c <= 0 {
			return
		}
		for d := 0; d < dim; d++ {
			sum[d] += c / stats[dim] * stats[d]
			sq[d] += c / stats[dim] * stats[dim+1+d]
		}
		n += c
	}
	top(spk, float64(o.SpeakerFrames))
	top(global, float64(o.GlobalFrames))
	out := make([]float64, dim)
	for d, v := range feats[t] {
		mean := sum[d] / n
		out[d] = v - mean
		if o.NormVars {
			out[d] /= math.Sqrt(sq[d]/n - mean*mean)
		}
	}
	return out
}

func randomFeats(rng *rand.Rand, rows, dim int, shift float64) ([]float32, [][]float64) {
	flat := make([]float32, rows*dim)
	rowsF := make([][]float64, rows)
	for t := range rowsF {
		rowsF[t] = make([]float64, dim)
		for d := range rowsF[t] {
			v := float32(shift + 3*rng.NormFloat64() + float64(d))
			flat[t*dim+d] = v
			rowsF[t][d] = float64(v)
		}
	}
	return flat, rowsF
}

// statsOf is compute-cmvn-stats of feats.
func statsOf(feats [][]float64) []float64 {
	dim := len(feats[0])
	st := make([]float64, 2*(dim+1))
	for _, row := range feats {
		for d, v := range row {
			st[d] += v
			st[dim+1+d] += v * v
		}
		st[dim]++
	}
	return st
}

// Online CMVN against the hand computation, over two utterances of one
// speaker (the second starts from the first's State), with small windows so
// that every regime is reached: the global stats topping up the first
// frames, the window full, the speaker's stats topping up the second
// utterance, means only and with variances.
func TestOnlineCmvnMatchesHand(t *testing.T) {
	const dim = 3
	rng := rand.New(rand.NewPCG(3, 4))
	_, globalFeats := randomFeats(rng, 500, dim, 10)
	global := statsOf(globalFeats)
	for _, o := range []OnlineCmvnOptions{
		{CmnWindow: 10, SpeakerFrames: 6, GlobalFrames: 4, NormMeans: true},
		{CmnWindow: 10, SpeakerFrames: 6, GlobalFrames: 4, NormMeans: true, NormVars: true},
		DefaultOnlineCmvnOptions(),
	} {
		st, err := NewOnlineCmvnState(global, dim)
		if err != nil {
			t.Fatal(err)
		}
		var spk []float64
		for utt, rows := range []int{25, 17} {
			flat, feats := randomFeats(rng, rows, dim, -5)
			c, err := NewOnlineCmvn(o, st, dim)
			if err != nil {
				t.Fatal(err)
			}
			// In pieces of 1, 2, 3, … frames, as a decoder asks for them.
			for r, k := 0, 1; r < rows; r, k = r+k, k+1 {
				k = min(k, rows-r)
				if err := c.Process(flat[r*dim:(r+k)*dim], k); err != nil {
					t.Fatal(err)
				}
			}
			for tt := 0; tt < rows; tt++ {
				want := handOnlineCmvn(o, spk, global, feats, tt)
				for d := range want {
					if got := float64(flat[tt*dim+d]); math.Abs(got-want[d]) > 2e-5*(1+math.Abs(want[d])) {
						t.Fatalf("%+v utterance %d frame %d dim %d: %v, by hand %v", o, utt, tt, d, got, want[d])
					}
				}
			}
			st = c.State()
			if spk == nil {
				spk = statsOf(feats)
			} else {
				s2 := statsOf(feats)
				for i := range spk {
					spk[i] += s2[i]
				}
			}
			for i := range spk {
				if math.Abs(st.Speaker[i]-spk[i]) > 1e-9*(1+math.Abs(spk[i])) {
					t.Fatalf("utterance %d: speaker stats %d: %v, want %v", utt, i, st.Speaker[i], spk[i])
				}
			}
		}
	}
}

// Kaldi's documented behaviour (online-feature.h): a speaker's first
// utterance starts from the global stats — frame 0 is normalised by the
// mean of itself and global-frames (200) frames of the global mean — and
// once the window holds cmn-window frames only the window counts.
func TestOnlineCmvnFirstFramesUseGlobalStats(t *testing.T) {
	const dim = 2
	global := []float64{
		1000, -2000, 100, // Σx = 100 frames of mean (10, −20)
		0, 0, 0,
	}
	o := DefaultOnlineCmvnOptions()
	st, err := NewOnlineCmvnState(global, dim)
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewOnlineCmvn(o, st, dim)
	if err != nil {
		t.Fatal(err)
	}
	rows := 700
	feats := make([]float32, rows*dim)
	for i := range feats {
		feats[i] = 1 // a constant signal: its own mean is 1
	}
	if err := c.Process(feats, rows); err != nil {
		t.Fatal(err)
	}
	// frame 0: mean = (1 + 200·10)/201 and (1 − 200·20)/201
	for d, g := range []float64{10, -20} {
		want := 1 - (1+200*g)/201
		if got := float64(feats[d]); math.Abs(got-want) > 1e-5 {
			t.Errorf("frame 0 dim %d: %v, want %v (global stats for 200 frames)", d, got, want)
		}
		// frame 399: 400 frames of its own, 200 of global → still 600.
		want = 1 - (400+200*g)/600
		if got := float64(feats[399*dim+d]); math.Abs(got-want) > 1e-5 {
			t.Errorf("frame 399 dim %d: %v, want %v", d, got, want)
		}
		// frame 650: the window is full, the global stats are gone.
		if got := feats[650*dim+d]; got != 0 {
			t.Errorf("frame 650 dim %d: %v, want 0", d, got)
		}
	}
	// The speaker's next utterance: its first frame takes 599 frames of the
	// speaker's 700 (capped at speaker-frames = 600 and at what the window
	// lacks), no global stats: mean 1.
	c2, _ := NewOnlineCmvn(o, c.State(), dim)
	next := []float32{3, 3}
	c2.Process(next, 1)
	for d := range next {
		if want := 3 - (3+599*1.0)/600; math.Abs(float64(next[d])-want) > 1e-5 {
			t.Errorf("second utterance frame 0 dim %d: %v, want %v", d, next[d], want)
		}
	}
}

func TestOnlineCmvnErrors(t *testing.T) {
	global := []float64{1, 2, 3, 4, 5, 0}
	bad := []OnlineCmvnOptions{
		{CmnWindow: 0, NormMeans: true},
		{CmnWindow: 10, SpeakerFrames: 20, GlobalFrames: 5, NormMeans: true},
		{CmnWindow: 600, SpeakerFrames: 600, GlobalFrames: 200, NormVars: true},
		{CmnWindow: 600, SpeakerFrames: 600, GlobalFrames: 200, NormMeans: true, SkipDims: "0:x"},
	}
	for _, o := range bad {
		if err := o.Validate(); !errors.Is(err, ErrOptions) {
			t.Errorf("%+v: %v", o, err)
		}
	}
	if _, err := NewOnlineCmvnState(global, 3); !errors.Is(err, ErrCmvn) {
		t.Errorf("stats of dimension 2 for features of 3: %v", err)
	}
	if _, err := NewOnlineCmvnState([]float64{1, 2, 0, 4, 5, 0}, 2); !errors.Is(err, ErrCmvn) {
		t.Errorf("zero count: %v", err)
	}
	o := DefaultOnlineCmvnOptions()
	o.SkipDims = "2"
	st, _ := NewOnlineCmvnState(global, 2)
	if _, err := NewOnlineCmvn(o, st, 2); !errors.Is(err, ErrOptions) {
		t.Errorf("--skip-dims=2 for dimension 2: %v", err)
	}
	// Skipped dimensions pass through unchanged.
	o.SkipDims = "1"
	c, err := NewOnlineCmvn(o, st, 2)
	if err != nil {
		t.Fatal(err)
	}
	x := []float32{7, 7}
	c.Process(x, 1)
	if x[1] != 7 || x[0] == 7 {
		t.Errorf("--skip-dims=1: %v", x)
	}
}
