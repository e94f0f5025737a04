package tree

import (
	"bytes"
	"slices"
	"testing"

	"github.com/strode-asr/strode/decoder"
	"github.com/strode-asr/strode/decoder/gmm"
	"github.com/strode-asr/strode/kaldiio"
)

// newSynthTree builds a tree on stats whose mean depends on the pdf-class
// and on whether the left phone is 1, for phones 1..4 of testTopo.
func newSynthTree(t testing.TB) (*decoder.ContextDependency, BuildTreeStats) {
	t.Helper()
	stats := synthStats(func(pc, l, c int32) float32 {
		m := 10*float32(pc) + 100*float32(c)
		if l == 1 {
			m += 5
		}
		return m
	})
	m, _, err := BuildTree(synthQuestions(t), oneRootPerPhone(), PhoneToNumPdfClasses(ptr(testTopo(t))), stats,
		BuildTreeOptions{CentralPosition: 1, Thresh: 1, ClusterThresh: 0})
	if err != nil {
		t.Fatal(err)
	}
	return &decoder.ContextDependency{ContextWidth: 3, CentralPosition: 1, ToPdf: m}, stats
}

func ptr[T any](v T) *T { return &v }

// The transition model of a tree has, for each (phone, HMM state), one
// transition-state per pdf the tree can give it.
func TestNewTransitionModelFromTree(t *testing.T) {
	ctx, _ := newSynthTree(t)
	tm, err := NewTransitionModel(ctx, testTopo(t))
	if err != nil {
		t.Fatal(err)
	}
	if tm.NumPdfs() != 24 || tm.NumTransitionStates() != 24 || tm.NumTransitionIDs() != 48 {
		t.Errorf("%d pdfs, %d transition-states, %d transition-ids; want 24, 24, 48", tm.NumPdfs(), tm.NumTransitionStates(), tm.NumTransitionIDs())
	}
	for _, tu := range tm.Tuples {
		want := multiMap(ctx.ToPdf, EventType{{Key: -1, Value: tu.HmmState}, {Key: 1, Value: tu.Phone}}, nil)
		if !slices.Contains(want, tu.ForwardPdf) || tu.ForwardPdf != tu.SelfLoopPdf {
			t.Errorf("tuple %+v: pdf not among the tree's %v", tu, want)
		}
	}
	b := writeBytes(t, decoder.TransitionModelCodec, true, tm)
	if _, err := readBytes(t, decoder.TransitionModelCodec, b); err != nil {
		t.Errorf("transition model does not read back: %v", err)
	}
}

// gmm-init-model: one Gaussian per pdf with the mean and variance of its
// leaf's frames; the model file reads back.
func TestInitModel(t *testing.T) {
	ctx, stats := newSynthTree(t)
	res, err := InitModel(ctx, testTopo(t), stats, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	am := res.Model.AM
	if am.NumPdfs() != 24 || am.Dim != 1 || len(res.Occs) != 24 {
		t.Fatalf("%d pdfs of dimension %d, %d occs", am.NumPdfs(), am.Dim, len(res.Occs))
	}
	split, _ := splitStatsByMap(stats, ctx.ToPdf)
	for pdf, s := range split {
		g := sumStats(s)
		mean := g.X[0] / g.Count
		vr := g.X2[0]/g.Count - mean*mean
		d := am.Pdfs[pdf]
		if !near(float64(d.MeansInvVars[0]/d.InvVars[0]), mean, 1e-5) || !near(1/float64(d.InvVars[0]), vr, 1e-4) {
			t.Errorf("pdf %d: mean %g var %g, want %g %g", pdf, d.MeansInvVars[0]/d.InvVars[0], 1/d.InvVars[0], mean, vr)
		}
		if float64(res.Occs[pdf]) != g.Count {
			t.Errorf("pdf %d: occ %g, want %g", pdf, res.Occs[pdf], g.Count)
		}
	}
	for _, binary := range []bool{true, false} {
		b := writeBytes(t, gmm.ModelCodec, binary, &res.Model)
		back, err := readBytes(t, gmm.ModelCodec, b)
		if err != nil {
			t.Fatalf("binary=%v: model does not read back: %v", binary, err)
		}
		if again := writeBytes(t, gmm.ModelCodec, binary, back); !bytes.Equal(b, again) {
			t.Errorf("binary=%v: model does not round-trip", binary)
		}
	}
	// Stats that the tree cannot map (another context width) are an error.
	bad := BuildTreeStats{{Event: EventType{{Key: -1, Value: 0}, {Key: 1, Value: 9}}, Stats: twoFrames(0, 1)}}
	if _, err := InitModel(ctx, testTopo(t), bad, 0.01); err == nil {
		t.Error("stats of a phone the tree lacks accepted")
	}
}

// convert-ali: every frame keeps its phone, state and transition kind, and
// takes the new tree's pdf for its phone window; the reordering follows
// --reorder.
func TestConvertAlignment(t *testing.T) {
	ctx, _ := newSynthTree(t)
	newTM, err := NewTransitionModel(ctx, testTopo(t))
	if err != nil {
		t.Fatal(err)
	}
	oldTM := testMonoTM(t)
	phones := []int32{1, 2, 1, 3, 4}
	var ali []int32
	for i, p := range phones {
		ali = append(ali, phoneAli(t, oldTM, p, [3]int{1 + i%2, 2, 3})...)
	}
	for _, reorder := range []bool{true, false} {
		conv, err := NewAlignmentConverter(oldTM, newTM, ctx, ConvertAlignmentOptions{Reorder: reorder})
		if err != nil {
			t.Fatal(err)
		}
		out, err := conv.Convert(ali)
		if err != nil {
			t.Fatal(err)
		}
		if len(out) != len(ali) {
			t.Fatalf("reorder=%v: %d frames from %d", reorder, len(out), len(ali))
		}
		if isReordered(newTM, out) != reorder {
			t.Errorf("reorder=%v: output reordered=%v", reorder, isReordered(newTM, out))
		}
		split, ok, err := newTM.SplitToPhones(out)
		if err != nil || !ok || len(split) != len(phones) {
			t.Fatalf("reorder=%v: converted alignment splits into %d phones (ok=%v, %v)", reorder, len(split), ok, err)
		}
		pdfs, _ := newTM.AliToPdf(out)
		f := 0
		for i, s := range split {
			window := []int32{0, phones[i], 0}
			if i > 0 {
				window[0] = phones[i-1]
			}
			if i+1 < len(phones) {
				window[2] = phones[i+1]
			}
			for _, tid := range s {
				if newTM.TransitionIDToPhone(tid) != phones[i] {
					t.Errorf("frame %d: phone %d, want %d", f, newTM.TransitionIDToPhone(tid), phones[i])
				}
				want, err := ctx.Compute(window, newTM.TransitionIDToHmmState(tid))
				if err != nil || pdfs[f] != want {
					t.Errorf("frame %d: pdf %d, want the tree's %d for %v (%v)", f, pdfs[f], want, window, err)
				}
				f++
			}
		}
	}
	conv, _ := NewAlignmentConverter(oldTM, newTM, ctx, ConvertAlignmentOptions{Reorder: true})
	if _, err := conv.Convert(ali[:3]); err == nil {
		t.Error("an alignment cut mid-phone converted")
	}
}

func TestWriteIntegerVectorVector(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteIntegerVectorVector("-", [][]int32{{1, 2}, {}, {30}}, kaldiio.WithStdout(&buf)); err != nil {
		t.Fatal(err)
	}
	if buf.String() != "1 2\n\n30\n" {
		t.Errorf("wrote %q", buf.String())
	}
	back, err := parseIntLines(&buf, "x")
	if err != nil || !slices.EqualFunc(back, [][]int32{{1, 2}, {}, {30}}, slices.Equal) {
		t.Errorf("read back %v, %v", back, err)
	}
}

// gmm-init-model with an old tree and model: each new pdf copies the old
// pdf its frames came from (here the monophone pdf of its phone and
// pdf-class).
func TestInitModelFromOld(t *testing.T) {
	ctx, stats := newSynthTree(t)
	oldTree := &decoder.TableEventMap{Key: 0, Table: make([]decoder.EventMap, 5)}
	old := gmm.AmDiagGmm{Dim: 1}
	for ph := int32(1); ph <= 4; ph++ {
		byClass := &decoder.TableEventMap{Key: -1}
		for pc := int32(0); pc < 3; pc++ {
			pdf := 3*(ph-1) + pc
			byClass.Table = append(byClass.Table, &decoder.ConstantEventMap{Answer: pdf})
			g := gmm.DiagGmm{Dim: 1, Weights: []float32{1}, MeansInvVars: []float32{float32(pdf)}, InvVars: []float32{1}}
			if _, err := g.ComputeGconsts(); err != nil {
				t.Fatal(err)
			}
			old.Pdfs = append(old.Pdfs, g)
		}
		oldTree.Table[ph] = byClass
	}
	oldCtx := &decoder.ContextDependency{ContextWidth: 1, CentralPosition: 0, ToPdf: oldTree}
	res, err := InitModelFromOld(ctx, testTopo(t), stats, oldCtx, &old)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range stats {
		pdf, _ := ctx.ToPdf.Map(st.Event)
		pc, _ := st.Event.Lookup(-1)
		ph, _ := st.Event.Lookup(1)
		if got := res.Model.AM.Pdfs[pdf].MeansInvVars[0]; got != float32(3*(ph-1)+pc) {
			t.Errorf("new pdf %d (event %v) copied old pdf %g, want %d", pdf, st.Event, got, 3*(ph-1)+pc)
		}
	}
	wide := &decoder.ContextDependency{ContextWidth: 5, CentralPosition: 2, ToPdf: oldTree}
	if _, err := InitModelFromOld(ctx, testTopo(t), stats, wide, &old); err == nil {
		t.Error("an old tree of wider context accepted")
	}
}
