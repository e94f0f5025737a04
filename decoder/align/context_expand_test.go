package align

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/strode-asr/strode/decoder/fst"
	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/decoder/tree"
)

// triphoneModel is a toy context-dependent system: every (left, phone,
// right, state) has its own pdf, 0 standing for the utterance edge.
func triphoneModel(t *testing.T, nPhones int) (*hmm.TransitionModel, *tree.ContextDependency) {
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
	pdf := func(l, c, r, s int) int32 { return int32(((((c-1)*(nPhones+1)+l)*(nPhones+1))+r)*3 + s) }
	centre := make([]tree.EventMap, nPhones+1)
	for c := 1; c <= nPhones; c++ {
		left := make([]tree.EventMap, nPhones+1)
		for l := 0; l <= nPhones; l++ {
			right := make([]tree.EventMap, nPhones+1)
			for r := 0; r <= nPhones; r++ {
				st := make([]tree.EventMap, 3)
				for s := range st {
					st[s] = &tree.ConstantEventMap{Answer: pdf(l, c, r, s)}
				}
				right[r] = &tree.TableEventMap{Key: tree.PdfClassKey, Table: st}
			}
			left[l] = &tree.TableEventMap{Key: 2, Table: right}
		}
		centre[c] = &tree.TableEventMap{Key: 0, Table: left}
	}
	tree := &tree.ContextDependency{ContextWidth: 3, CentralPosition: 1, ToPdf: &tree.TableEventMap{Key: 1, Table: centre}}
	tm, err := hmm.NewTransitionModelMulti(topo, func(phone, s int32) ([][2]int32, error) {
		var out [][2]int32
		for l := 0; l <= nPhones; l++ {
			for r := 0; r <= nPhones; r++ {
				p := pdf(l, int(phone), r, int(s))
				out = append(out, [2]int32{p, p})
			}
		}
		return out, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return tm, tree
}

// Training graphs of a triphone tree put each phone's left and right
// neighbours (0 at the edges) into its pdfs: oracle log-likelihoods built
// from the triphone pdfs of a known phone sequence align back to it.
func TestTriphoneTrainingGraphOracle(t *testing.T) {
	const nPhones = 4
	tm, tree := triphoneModel(t, nPhones)
	// A lexicon whose words are single phones, with an optional extra word
	// pronounced as two phones (1 2), to exercise multi-phone words.
	lex := phoneLoopLexicon(nPhones)
	mid := lex.AddState()
	lex.AddArc(0, fst.Arc{ILabel: 1, OLabel: nPhones + 1, Weight: fst.WeightOne, NextState: mid})
	lex.AddArc(mid, fst.Arc{ILabel: 2, Weight: fst.WeightOne, NextState: 0})
	comp, err := NewTrainingGraphCompiler(tm, tree, lex, nil, DefaultTrainingGraphOptions())
	if err != nil {
		t.Fatal(err)
	}
	opt := scriptAlignOptions()
	al, err := NewAligner(tm, opt)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for utt := 0; utt < 20; utt++ {
		var words, phones []int32
		for range 1 + rng.IntN(5) {
			w := int32(1 + rng.IntN(nPhones+1))
			words = append(words, w)
			if w == nPhones+1 {
				phones = append(phones, 1, 2)
			} else {
				phones = append(phones, w)
			}
		}
		var truth []int32
		for i, p := range phones {
			l, r := int32(0), int32(0)
			if i > 0 {
				l = phones[i-1]
			}
			if i+1 < len(phones) {
				r = phones[i+1]
			}
			for s := int32(0); s < 3; s++ {
				pdf, err := tree.Compute([]int32{l, p, r}, s)
				if err != nil {
					t.Fatal(err)
				}
				ts := tm.TransitionStateOf(hmm.TransitionTuple{Phone: p, HmmState: s, ForwardPdf: pdf, SelfLoopPdf: pdf})
				truth = append(truth, tm.PairToTransitionID(ts, 1))
				for range rng.IntN(4) {
					truth = append(truth, tm.PairToTransitionID(ts, 0))
				}
			}
		}
		g, err := comp.CompileText(words)
		if err != nil {
			t.Fatal(err)
		}
		cols := tm.NumPdfs()
		ll := make([]float32, len(truth)*cols)
		for i, tid := range truth {
			for j := 0; j < cols; j++ {
				ll[i*cols+j] = float32(-8 + 0.5*rng.NormFloat64())
			}
			ll[i*cols+int(tm.TransitionIDToPdf(tid))] = float32(0.5 * rng.NormFloat64())
		}
		ali, err := al.Align(g, ll, len(truth), cols)
		if err != nil {
			t.Fatalf("utt %d (%v): %v", utt, phones, err)
		}
		if !slices.Equal(ali.TransitionIDs, truth) {
			t.Errorf("utt %d (%v): alignment\n%v\nwant\n%v", utt, phones, ali.TransitionIDs, truth)
		}
		got, _, err := AliToPhones(tm, ali.TransitionIDs, false)
		if err != nil || !slices.Equal(got, phones) {
			t.Errorf("utt %d: phones %v, want %v (%v)", utt, got, phones, err)
		}
	}
}
