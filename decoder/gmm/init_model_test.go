package gmm

import (
	"bytes"
	"strings"
	"testing"

	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/decoder/tree"
	"github.com/strode-asr/strode/kaldiio"
)

// initTopo has phones 1..4 of three emitting states each.
func initTopo(t testing.TB) hmm.Topology {
	t.Helper()
	text := "<Topology>\n<TopologyEntry>\n<ForPhones>\n1 2 3 4\n</ForPhones>\n" +
		"<State> 0 <PdfClass> 0 <Transition> 0 0.75 <Transition> 1 0.25 </State>\n" +
		"<State> 1 <PdfClass> 1 <Transition> 1 0.75 <Transition> 2 0.25 </State>\n" +
		"<State> 2 <PdfClass> 2 <Transition> 2 0.75 <Transition> 3 0.25 </State>\n" +
		"<State> 3 </State>\n</TopologyEntry>\n</Topology>\n"
	var topo hmm.Topology
	if err := hmm.TopologyCodec.Read(kaldiio.NewReader(strings.NewReader(text), "topo"), false, &topo); err != nil {
		t.Fatal(err)
	}
	return topo
}

// newSynthTree builds, with tree.BuildTree, a tree on stats of phones 1..4
// (left contexts 1..4) whose mean depends on the pdf-class and on whether
// the left phone is 1: 24 leaves.
func newSynthTree(t testing.TB) (*tree.ContextDependency, tree.BuildTreeStats) {
	t.Helper()
	var stats tree.BuildTreeStats
	for c := int32(1); c <= 4; c++ {
		for l := int32(1); l <= 4; l++ {
			for pc := int32(0); pc < 3; pc++ {
				m := 10*float32(pc) + 100*float32(c)
				if l == 1 {
					m += 5
				}
				g := tree.NewGaussClusterable(1, 0.01)
				g.AddStats([]float32{m - 1}, 50)
				g.AddStats([]float32{m + 1}, 50)
				stats = append(stats, tree.Stat{Event: tree.EventType{{Key: -1, Value: pc}, {Key: 0, Value: l}, {Key: 1, Value: c}, {Key: 2}}, Stats: g})
			}
		}
	}
	stats.Sort()
	q, err := tree.CompileQuestions([][]int32{{1}, {2}, {3}, {4}, {1, 2}, {3, 4}}, 3, tree.CompileQuestionsOptions{ContextWidth: 3})
	if err != nil {
		t.Fatal(err)
	}
	roots := &tree.Roots{}
	for p := int32(1); p <= 4; p++ {
		roots.PhoneSets = append(roots.PhoneSets, []int32{p})
		roots.Shared = append(roots.Shared, true)
		roots.Split = append(roots.Split, true)
	}
	topo := initTopo(t)
	m, info, err := tree.BuildTree(q, roots, hmm.PhoneToNumPdfClasses(&topo), stats, tree.BuildTreeOptions{CentralPosition: 1, Thresh: 1})
	if err != nil {
		t.Fatal(err)
	}
	if info.NumLeaves != 24 {
		t.Fatalf("synthetic tree has %d leaves, want 24", info.NumLeaves)
	}
	return &tree.ContextDependency{ContextWidth: 3, CentralPosition: 1, ToPdf: m}, stats
}

func encode[T any](t testing.TB, c kaldiio.Codec[T], binary bool, v *T) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := kaldiio.NewWriter(&buf)
	if binary {
		w.WriteBinaryHeader()
	}
	if err := c.Write(w, binary, v); err != nil {
		t.Fatal(err)
	}
	w.Flush()
	return buf.Bytes()
}

func decode[T any](t testing.TB, c kaldiio.Codec[T], b []byte) (*T, error) {
	t.Helper()
	r := kaldiio.NewReader(bytes.NewReader(b), "test")
	binary, err := r.ReadBinaryHeader()
	if err != nil {
		return nil, err
	}
	v := new(T)
	return v, c.Read(r, binary, v)
}

func near(a, b, tol float64) bool {
	d := a - b
	if d < 0 {
		d = -d
	}
	return d <= tol*max(1, max(a, -a, b, -b))
}

// gmm-init-model: one Gaussian per pdf with the mean and variance of its
// leaf's frames; the model file reads back.
func TestInitModel(t *testing.T) {
	ctx, stats := newSynthTree(t)
	res, err := InitModel(ctx, initTopo(t), stats, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	am := res.Model.AM
	if am.NumPdfs() != 24 || am.Dim != 1 || len(res.Occs) != 24 {
		t.Fatalf("%d pdfs of dimension %d, %d occs", am.NumPdfs(), am.Dim, len(res.Occs))
	}
	split, _ := tree.SplitStatsByMap(stats, ctx.ToPdf)
	for pdf, s := range split {
		g := tree.SumStats(s)
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
		b := encode(t, ModelCodec, binary, &res.Model)
		back, err := decode(t, ModelCodec, b)
		if err != nil {
			t.Fatalf("binary=%v: model does not read back: %v", binary, err)
		}
		if again := encode(t, ModelCodec, binary, back); !bytes.Equal(b, again) {
			t.Errorf("binary=%v: model does not round-trip", binary)
		}
	}
	// Stats that the tree cannot map (another context width) are an error.
	bad := tree.BuildTreeStats{{Event: tree.EventType{{Key: -1, Value: 0}, {Key: 1, Value: 9}}, Stats: tree.NewGaussClusterable(1, 0.01)}}
	if _, err := InitModel(ctx, initTopo(t), bad, 0.01); err == nil {
		t.Error("stats of a phone the tree lacks accepted")
	}
}

// gmm-init-model with an old tree and model: each new pdf copies the old
// pdf its frames came from (here the monophone pdf of its phone and
// pdf-class).
func TestInitModelFromOld(t *testing.T) {
	ctx, stats := newSynthTree(t)
	oldTree := &tree.TableEventMap{Key: 0, Table: make([]tree.EventMap, 5)}
	old := AmDiagGmm{Dim: 1}
	for ph := int32(1); ph <= 4; ph++ {
		byClass := &tree.TableEventMap{Key: -1}
		for pc := int32(0); pc < 3; pc++ {
			pdf := 3*(ph-1) + pc
			byClass.Table = append(byClass.Table, &tree.ConstantEventMap{Answer: pdf})
			g := DiagGmm{Dim: 1, Weights: []float32{1}, MeansInvVars: []float32{float32(pdf)}, InvVars: []float32{1}}
			if _, err := g.ComputeGconsts(); err != nil {
				t.Fatal(err)
			}
			old.Pdfs = append(old.Pdfs, g)
		}
		oldTree.Table[ph] = byClass
	}
	oldCtx := &tree.ContextDependency{ContextWidth: 1, CentralPosition: 0, ToPdf: oldTree}
	res, err := InitModelFromOld(ctx, initTopo(t), stats, oldCtx, &old)
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
	wide := &tree.ContextDependency{ContextWidth: 5, CentralPosition: 2, ToPdf: oldTree}
	if _, err := InitModelFromOld(ctx, initTopo(t), stats, wide, &old); err == nil {
		t.Error("an old tree of wider context accepted")
	}
}
