package hmm

import (
	"slices"
	"strings"
	"testing"

	"github.com/strode-asr/strode/decoder/tree"
	"github.com/strode-asr/strode/kaldiio"
)

const treeModelTopo = `<Topology>
<TopologyEntry>
<ForPhones>
1 2 3
</ForPhones>
<State> 0 <PdfClass> 0 <Transition> 0 0.75 <Transition> 1 0.25 </State>
<State> 1 <PdfClass> 1 <Transition> 1 0.75 <Transition> 2 0.25 </State>
<State> 2 </State>
</TopologyEntry>
</Topology>
`

func treeModelTopology(t testing.TB) Topology {
	t.Helper()
	var topo Topology
	if err := TopologyCodec.Read(kaldiio.NewReader(strings.NewReader(treeModelTopo), "topo"), false, &topo); err != nil {
		t.Fatal(err)
	}
	return topo
}

// The transition model of a tree has, for each (phone, HMM state), one
// transition-state per pdf the tree can give it with the other context
// positions free (Kaldi's GetPdfInfo).
func TestNewTransitionModelFromTree(t *testing.T) {
	// pdf-class 0 of every phone: leaf 0 after phone 1, else 1; pdf-class
	// 1: leaf 2 for phone 3, leaf 3 otherwise.
	toPdf := &tree.TableEventMap{Key: tree.PdfClassKey, Table: []tree.EventMap{
		&tree.SplitEventMap{Key: 0, YesSet: []int32{1}, Yes: &tree.ConstantEventMap{Answer: 0}, No: &tree.ConstantEventMap{Answer: 1}},
		&tree.SplitEventMap{Key: 1, YesSet: []int32{3}, Yes: &tree.ConstantEventMap{Answer: 2}, No: &tree.ConstantEventMap{Answer: 3}},
	}}
	ctx := &tree.ContextDependency{ContextWidth: 3, CentralPosition: 1, ToPdf: toPdf}
	tm, err := NewTransitionModelFromTree(ctx, treeModelTopology(t))
	if err != nil {
		t.Fatal(err)
	}
	var got []TransitionTuple
	got = append(got, tm.Tuples...)
	var want []TransitionTuple
	for ph := int32(1); ph <= 3; ph++ {
		want = append(want, TransitionTuple{Phone: ph, HmmState: 0, ForwardPdf: 0, SelfLoopPdf: 0},
			TransitionTuple{Phone: ph, HmmState: 0, ForwardPdf: 1, SelfLoopPdf: 1})
		pdf := int32(3)
		if ph == 3 {
			pdf = 2
		}
		want = append(want, TransitionTuple{Phone: ph, HmmState: 1, ForwardPdf: pdf, SelfLoopPdf: pdf})
	}
	if !slices.Equal(got, want) {
		t.Errorf("tuples\n got %v\nwant %v", got, want)
	}
	if p2n := PhoneToNumPdfClasses(&tm.Topo); !slices.Equal(p2n, []int32{-1, 2, 2, 2}) {
		t.Errorf("PhoneToNumPdfClasses %v", p2n)
	}
	// A tree without a pdf for some state does not fit the topology.
	short := &tree.ContextDependency{ContextWidth: 3, CentralPosition: 1, ToPdf: &tree.TableEventMap{Key: tree.PdfClassKey, Table: toPdf.Table[:1]}}
	if _, err := NewTransitionModelFromTree(short, treeModelTopology(t)); err == nil {
		t.Error("a tree lacking pdf-class 1 accepted")
	}
}
