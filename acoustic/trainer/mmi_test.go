package trainer

import (
	"math"
	"math/rand"
	"testing"

	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/decoder/lattice"
	"github.com/strode-asr/strode/decoder/priors"
	"github.com/strode-asr/strode/kaldiio"
)

// kaldiMiniLattice is the first of Kaldi's own decoding lattices of
// kaldi-mini's test set (compact, as latgen writes them), with the
// monophone system's transition model (62 pdfs).
func kaldiMiniLattice(t *testing.T) (*lattice.CompactLattice, *hmm.TransitionModel) {
	t.Helper()
	tm, err := hmm.ReadTransitionModel("../../testdata/kaldi-mini/exp/mono/final.mdl")
	if err != nil {
		t.Fatal(err)
	}
	r, err := kaldiio.OpenSequentialReader("ark:gunzip -c ../../testdata/kaldi-mini/exp/mono/decode_test/lat.1.gz |", lattice.CompactLatticeCodec)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if !r.Next() {
		t.Fatalf("no lattice: %v", r.Err())
	}
	c := r.Value()
	return &c, tm
}

// mmiObjective is F at logits L (through loglikes and MMI), and MMI's q.
func mmiObjective(t *testing.T, c *lattice.CompactLattice, tm *hmm.TransitionModel, prior *priors.Prior, logits []float64, num []int32, acwt float64, drop bool) (float64, []float32, SequenceStats) {
	t.Helper()
	ll, err := loglikes(logits, tm.NumPdfs(), prior)
	if err != nil {
		t.Fatal(err)
	}
	q, st, err := MMI(c.ToLattice(), ll, num, tm, acwt, 1, drop)
	if err != nil {
		t.Fatal(err)
	}
	return st.Objective, q, st
}

// sequenceFixture is Kaldi's kaldi-mini lattice with seeded random logits
// and priors, and as the alignment the lattice's posterior-best pdf per
// frame (so no numerator pdf is missing from it); q0 is MMI's rows for a
// numerator of pdf 0 throughout, rng the generator after the draws.
type sequenceFixture struct {
	c      *lattice.CompactLattice
	tm     *hmm.TransitionModel
	prior  *priors.Prior
	logits []float64
	num    []int32
	q0     []float32
	T, P   int
	rng    *rand.Rand
}

func newSequenceFixture(t *testing.T, seed int64) *sequenceFixture {
	t.Helper()
	c, tm := kaldiMiniLattice(t)
	P := tm.NumPdfs()
	lat := c.ToLattice()
	if err := lat.TopSort(); err != nil {
		t.Fatal(err)
	}
	_, T, err := lat.StateTimes()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(seed))
	counts := make([]float64, P)
	for j := range counts {
		counts[j] = 1 + rng.Float64()*100
	}
	prior, err := priors.New(counts, 1, 1e-10)
	if err != nil {
		t.Fatal(err)
	}
	logits := make([]float64, T*P)
	for i := range logits {
		logits[i] = rng.NormFloat64()
	}
	ll, err := loglikes(logits, P, prior)
	if err != nil {
		t.Fatal(err)
	}
	q0, _, err := MMI(c.ToLattice(), ll, make([]int32, T), tm, 1, 1, false)
	if err != nil {
		t.Fatal(err)
	}
	num := make([]int32, T)
	for tt := range num {
		best := 0
		for j := 1; j < P; j++ {
			if q0[tt*P+j] < q0[tt*P+best] { // q = onehot(0) − γ_den: the most negative is the largest posterior
				best = j
			}
		}
		num[tt] = int32(best)
	}
	return &sequenceFixture{c: c, tm: tm, prior: prior, logits: logits, num: num, q0: q0, T: T, P: P, rng: rng}
}

// checkRowsSumToZero fails unless every frame's row of q (T×P) sums to
// zero, which makes the distillation term's gradient the criterion's.
func checkRowsSumToZero(t *testing.T, q []float32, T, P int) {
	t.Helper()
	for tt := 0; tt < T; tt++ {
		sum := 0.0
		for j := 0; j < P; j++ {
			sum += float64(q[tt*P+j])
		}
		if math.Abs(sum) > 1e-5 {
			t.Fatalf("frame %d: q sums to %g, want 0", tt, sum)
		}
	}
}

// TestMMIGradient checks MMI's rows against finite differences of its
// objective: ∂F/∂L_tj = κ·q_tj on a real lattice (Kaldi's), random logits,
// a numerator path through the lattice's pdfs and a random one.
func TestMMIGradient(t *testing.T) {
	f := newSequenceFixture(t, 1)
	c, tm, prior, logits, num, q0, rng := f.c, f.tm, f.prior, f.logits, f.num, f.q0, f.rng
	T, P := f.T, f.P
	const acwt = 1.0
	f0, q, st := mmiObjective(t, c, tm, prior, logits, num, acwt, true)
	if st.Dropped != 0 || st.Frames != T {
		t.Fatalf("stats %+v: want %d frames, none dropped", st, T)
	}
	checkRowsSumToZero(t, q, T, P)
	const h = 1e-2
	checked := 0
	for k := 0; k < 40; k++ {
		tt, j := rng.Intn(T), rng.Intn(P)
		if k < 10 { // the numerator pdf and the lattice's own pdfs, where q is not tiny
			j = int(num[tt])
		}
		i := tt*P + j
		save := logits[i]
		logits[i] = save + h
		fp, _, _ := mmiObjective(t, c, tm, prior, logits, num, acwt, true)
		logits[i] = save - h
		fm, _, _ := mmiObjective(t, c, tm, prior, logits, num, acwt, true)
		logits[i] = save
		fd := (fp - fm) / (2 * h)
		if want := acwt * float64(q[i]); math.Abs(fd-want) > 2e-3+1e-2*math.Abs(want) {
			t.Errorf("frame %d pdf %d: finite difference %.6f, κ·q %.6f", tt, j, fd, want)
		}
		checked++
	}
	t.Logf("%d frames, objective %.4f; %d entries checked", T, f0, checked)

	// A numerator pdf the lattice lacks drops its frame (--drop-frames):
	// its row is zero; without dropping it is onehot − γ_den.
	absent := -1
	for j := 0; j < P && absent < 0; j++ {
		if q0[j] == 0 && j != 0 {
			absent = j
		}
	}
	if absent < 0 {
		t.Fatal("every pdf has a posterior on frame 0")
	}
	num[0] = int32(absent)
	_, qd, st := mmiObjective(t, c, tm, prior, logits, num, acwt, true)
	if st.Dropped != 1 {
		t.Errorf("dropped %d frames, want 1", st.Dropped)
	}
	for j := 0; j < P; j++ {
		if qd[j] != 0 {
			t.Fatalf("dropped frame 0: q[%d] = %g, want 0", j, qd[j])
		}
	}
	_, qk, _ := mmiObjective(t, c, tm, prior, logits, num, acwt, false)
	if qk[absent] != 1 {
		t.Errorf("kept frame 0: q at the absent numerator pdf %g, want 1", qk[absent])
	}
}

// TestMMIErrors: a lattice of another length, and a pdf out of range, are
// errors naming what is wrong.
func TestMMIErrors(t *testing.T) {
	c, tm := kaldiMiniLattice(t)
	P := tm.NumPdfs()
	lat := c.ToLattice()
	_ = lat.TopSort()
	_, T, _ := lat.StateTimes()
	ll := make([]float32, (T+1)*P)
	if _, _, err := MMI(c.ToLattice(), ll, make([]int32, T+1), tm, 0.1, 1, true); err == nil {
		t.Error("a lattice one frame short: no error")
	}
	num := make([]int32, T)
	num[3] = int32(P)
	if _, _, err := MMI(c.ToLattice(), ll[:T*P], num, tm, 0.1, 1, true); err == nil {
		t.Error("pdf out of range: no error")
	}
}
