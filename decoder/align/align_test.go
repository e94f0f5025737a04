package align

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/strode-asr/strode/decoder/fst"
	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/decoder/tree"
)

// toyModel is a monophone system of nPhones 3-state left-to-right phones,
// pdf = 3·(phone-1) + state, self-loop probability 0.6.
func toyModel(t testing.TB, nPhones int) (*hmm.TransitionModel, *tree.ContextDependency) {
	t.Helper()
	entry := hmm.TopologyEntry{
		{ForwardPdfClass: 0, SelfLoopPdfClass: 0, Transitions: []hmm.Transition{{Dest: 0, Prob: 0.6}, {Dest: 1, Prob: 0.4}}},
		{ForwardPdfClass: 1, SelfLoopPdfClass: 1, Transitions: []hmm.Transition{{Dest: 1, Prob: 0.6}, {Dest: 2, Prob: 0.4}}},
		{ForwardPdfClass: 2, SelfLoopPdfClass: 2, Transitions: []hmm.Transition{{Dest: 2, Prob: 0.6}, {Dest: 3, Prob: 0.4}}},
		{ForwardPdfClass: hmm.NoPdf, SelfLoopPdfClass: hmm.NoPdf},
	}
	var phones []int32
	for p := 1; p <= nPhones; p++ {
		phones = append(phones, int32(p))
	}
	topo := hmm.Topology{Entries: []hmm.TopologyEntry{entry}}
	if err := topo.SetPhones([][]int32{phones}); err != nil {
		t.Fatal(err)
	}
	table := make([]tree.EventMap, nPhones+1)
	for p := 1; p <= nPhones; p++ {
		sub := make([]tree.EventMap, 3)
		for s := range sub {
			sub[s] = &tree.ConstantEventMap{Answer: int32(3*(p-1) + s)}
		}
		table[p] = &tree.TableEventMap{Key: tree.PdfClassKey, Table: sub}
	}
	tree := &tree.ContextDependency{ContextWidth: 1, CentralPosition: 0, ToPdf: &tree.TableEventMap{Key: 0, Table: table}}
	tm, err := hmm.NewTransitionModel(topo, func(phone, s int32) (int32, int32, error) {
		pdf, err := tree.Compute([]int32{phone}, s)
		return pdf, pdf, err
	})
	if err != nil {
		t.Fatal(err)
	}
	return tm, tree
}

// phoneLoopLexicon maps each phone to the word with the same id.
func phoneLoopLexicon(nPhones int) *fst.VectorFst {
	l := fst.NewVectorFst()
	s := l.AddState()
	l.Start = s
	l.SetFinal(s, fst.WeightOne)
	for p := 1; p <= nPhones; p++ {
		l.AddArc(s, fst.Arc{ILabel: int32(p), OLabel: int32(p), Weight: fst.WeightOne, NextState: s})
	}
	return l
}

// With oracle log-likelihoods (the true state sequence scores high, plus
// noise) forced alignment recovers the true transition-id sequence.
func TestAlignOracle(t *testing.T) {
	const nPhones = 8
	tm, tree := toyModel(t, nPhones)
	comp, err := NewTrainingGraphCompiler(tm, tree, phoneLoopLexicon(nPhones), nil, DefaultTrainingGraphOptions())
	if err != nil {
		t.Fatal(err)
	}
	opt := DefaultOptions()
	opt.Beam, opt.RetryBeam, opt.AcousticScale, opt.SelfLoopScale = 10, 40, 0.1, 0.1
	al, err := NewAligner(tm, opt)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for utt := 0; utt < 20; utt++ {
		var words, truth []int32
		for range 3 + rng.IntN(6) {
			words = append(words, int32(1+rng.IntN(nPhones)))
		}
		for _, p := range words {
			for s := int32(0); s < 3; s++ {
				ts := tm.TransitionStateOf(hmm.TransitionTuple{Phone: p, HmmState: s, ForwardPdf: 3*(p-1) + s, SelfLoopPdf: 3*(p-1) + s})
				fwd, loop := tm.PairToTransitionID(ts, 1), tm.PairToTransitionID(ts, 0)
				truth = append(truth, fwd) // reorder: forward first, then self-loops
				for range rng.IntN(6) {
					truth = append(truth, loop)
				}
			}
		}
		g, err := comp.CompileText(words)
		if err != nil {
			t.Fatal(err)
		}
		rows, cols := len(truth), tm.NumPdfs()
		ll := make([]float32, rows*cols)
		for i, tid := range truth {
			for j := 0; j < cols; j++ {
				v := -8 + 0.5*rng.NormFloat64()
				if int32(j) == tm.TransitionIDToPdf(tid) {
					v = 0.5 * rng.NormFloat64()
				}
				ll[i*cols+j] = float32(v)
			}
		}
		ali, err := al.Align(g, ll, rows, cols)
		if err != nil {
			t.Fatalf("utt %d: %v", utt, err)
		}
		if !slices.Equal(ali.TransitionIDs, truth) {
			t.Errorf("utt %d: alignment\n%v\nwant\n%v", utt, ali.TransitionIDs, truth)
		}
		if !slices.Equal(ali.Words, words) {
			t.Errorf("utt %d: words %v, want %v", utt, ali.Words, words)
		}
		if math.IsNaN(ali.LogLike(opt.AcousticScale)) {
			t.Error("NaN log-likelihood")
		}
	}
}

func TestAlignErrors(t *testing.T) {
	tm, tree := toyModel(t, 2)
	comp, _ := NewTrainingGraphCompiler(tm, tree, phoneLoopLexicon(2), nil, DefaultTrainingGraphOptions())
	g, err := comp.CompileText([]int32{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	al, _ := NewAligner(tm, Options{Beam: 10, AcousticScale: 0.1, TransitionScale: 1, SelfLoopScale: 0.1})
	cols := tm.NumPdfs()
	// Too few frames for six HMM states: no final state is reached.
	if _, err := al.Align(g, make([]float32, 3*cols), 3, cols); !errors.Is(err, ErrAlignFailed) {
		t.Errorf("short utterance: %v", err)
	}
	if _, err := al.Align(g, make([]float32, 10*(cols+1)), 10, cols+1); !errors.Is(err, ErrDimMismatch) {
		t.Errorf("wrong columns: %v", err)
	}
	if _, err := al.Align(g, nil, 0, cols); !errors.Is(err, ErrZeroLength) {
		t.Errorf("zero frames: %v", err)
	}
	bad := g.Copy()
	bad.States[0].Arcs[0].ILabel = 999
	if _, err := al.Align(bad, make([]float32, 10*cols), 10, cols); !errors.Is(err, hmm.ErrModel) {
		t.Errorf("label beyond model: %v", err)
	}
}

func TestNthSmallest(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for n := 1; n < 60; n++ {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = float64(rng.IntN(10)) // ties included
		}
		sorted := slices.Clone(xs)
		slices.Sort(sorted)
		for k := 0; k < n; k++ {
			if got := nthSmallest(slices.Clone(xs), k); got != sorted[k] {
				t.Fatalf("n=%d k=%d: %g, want %g", n, k, got, sorted[k])
			}
		}
	}
}
