package align

import (
	"strings"
	"testing"

	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/decoder/tree"
	"github.com/strode-asr/strode/kaldiio"
)

// treeTopoText is a Kaldi text topology: phones 1..4 with three emitting
// states (transition index 0 the self-loop, 1 the forward transition).
const treeTopoText = `<Topology>
<TopologyEntry>
<ForPhones>
1 2 3 4
</ForPhones>
<State> 0 <PdfClass> 0 <Transition> 0 0.75 <Transition> 1 0.25 </State>
<State> 1 <PdfClass> 1 <Transition> 1 0.75 <Transition> 2 0.25 </State>
<State> 2 <PdfClass> 2 <Transition> 2 0.75 <Transition> 3 0.25 </State>
<State> 3 </State>
</TopologyEntry>
</Topology>
`

func treeTopo(t testing.TB) hmm.Topology {
	t.Helper()
	var topo hmm.Topology
	r := kaldiio.NewReader(strings.NewReader(treeTopoText), "topo")
	if err := hmm.TopologyCodec.Read(r, false, &topo); err != nil {
		t.Fatal(err)
	}
	return topo
}

// treeMonoTM is a monophone model of treeTopo: pdf = 3·(phone−1) + state.
func treeMonoTM(t testing.TB) *hmm.TransitionModel {
	t.Helper()
	tm, err := hmm.NewTransitionModel(treeTopo(t), func(phone, state int32) (int32, int32, error) {
		pdf := 3*(phone-1) + state
		return pdf, pdf, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return tm
}

// treeTid is the transition-id of (phone, state, self-loop?) in a model
// with one pdf pair per (phone, state).
func treeTid(t testing.TB, tm *hmm.TransitionModel, phone, state int32, selfLoop bool) int32 {
	t.Helper()
	for ts := int32(1); int(ts) <= tm.NumTransitionStates(); ts++ {
		tu := tm.Tuples[ts-1]
		if tu.Phone == phone && tu.HmmState == state {
			if selfLoop {
				return tm.PairToTransitionID(ts, 0)
			}
			return tm.PairToTransitionID(ts, 1)
		}
	}
	t.Fatalf("no transition-state for phone %d state %d", phone, state)
	return 0
}

// treePhoneAli is the alignment of phone with the given number of frames
// in each of its three states, each state's forward transition first and
// its self-loops after (Kaldi's "reordered" alignments, as aligners write).
func treePhoneAli(t testing.TB, tm *hmm.TransitionModel, phone int32, frames [3]int) []int32 {
	var ali []int32
	for s := int32(0); s < 3; s++ {
		ali = append(ali, treeTid(t, tm, phone, s, false))
		for range frames[s] - 1 {
			ali = append(ali, treeTid(t, tm, phone, s, true))
		}
	}
	return ali
}

// treeHandTree is a triphone tree over treeTopo: per central phone and
// pdf-class, one leaf when the left phone is 1 and another otherwise.
func treeHandTree() *tree.ContextDependency {
	byPhone := &tree.TableEventMap{Key: 1, Table: make([]tree.EventMap, 5)}
	leaf := int32(0)
	for ph := 1; ph <= 4; ph++ {
		byClass := &tree.TableEventMap{Key: tree.PdfClassKey}
		for pc := 0; pc < 3; pc++ {
			byClass.Table = append(byClass.Table, &tree.SplitEventMap{Key: 0, YesSet: []int32{1},
				Yes: &tree.ConstantEventMap{Answer: leaf}, No: &tree.ConstantEventMap{Answer: leaf + 1}})
			leaf += 2
		}
		byPhone.Table[ph] = byClass
	}
	return &tree.ContextDependency{ContextWidth: 3, CentralPosition: 1, ToPdf: byPhone}
}
