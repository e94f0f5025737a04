package tree

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/strode-asr/strode/decoder"
	"github.com/strode-asr/strode/kaldiio"
)

// testTopoText is a Kaldi text topology: phones 1..4 with three emitting
// states (transition index 0 the self-loop, 1 the forward transition).
const testTopoText = `<Topology>
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

func testTopo(t testing.TB) decoder.HmmTopology {
	t.Helper()
	var topo decoder.HmmTopology
	r := kaldiio.NewReader(strings.NewReader(testTopoText), "topo")
	if err := decoder.HmmTopologyCodec.Read(r, false, &topo); err != nil {
		t.Fatal(err)
	}
	return topo
}

// testMonoTM is a monophone model of testTopo: pdf = 3·(phone−1) + state.
func testMonoTM(t testing.TB) *decoder.TransitionModel {
	t.Helper()
	tm, err := decoder.NewTransitionModel(testTopo(t), func(phone, state int32) (int32, int32, error) {
		pdf := 3*(phone-1) + state
		return pdf, pdf, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return tm
}

// tid is the transition-id of (phone, state, self-loop?) in a model whose
// tuples have a single pdf pair per (phone, state).
func tid(t testing.TB, tm *decoder.TransitionModel, phone, state int32, selfLoop bool) int32 {
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

// phoneAli is the alignment of phone with the given number of frames in
// each of its three states (each ≥ 1; the self-loops first, Kaldi's
// non-reordered order is not what aligners write, so the forward
// transition comes last in each state: reordered).
func phoneAli(t testing.TB, tm *decoder.TransitionModel, phone int32, frames [3]int) []int32 {
	var ali []int32
	for s := int32(0); s < 3; s++ {
		ali = append(ali, tid(t, tm, phone, s, false))
		for range frames[s] - 1 {
			ali = append(ali, tid(t, tm, phone, s, true))
		}
	}
	return ali
}

func near(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

func writeBytes[T any](t testing.TB, c kaldiio.Codec[T], binary bool, v *T) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := kaldiio.NewWriter(&buf)
	if binary {
		w.WriteBinaryHeader()
	}
	if err := c.Write(w, binary, v); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func readBytes[T any](t testing.TB, c kaldiio.Codec[T], b []byte) (*T, error) {
	t.Helper()
	r := kaldiio.NewReader(bytes.NewReader(b), "test")
	binary, err := r.ReadBinaryHeader()
	if err != nil {
		return nil, err
	}
	v := new(T)
	if err := c.Read(r, binary, v); err != nil {
		return nil, err
	}
	return v, nil
}
