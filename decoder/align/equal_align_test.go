package align

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"testing"

	"github.com/strode-asr/strode/decoder/fst"
	"github.com/strode-asr/strode/kaldiio"
)

// align-equal-compiled on Kaldi's graphs of kaldi-mini's five test
// utterances gives Kaldi's alignments.
func TestEqualAlignKaldiMini(t *testing.T) {
	dir := sharedDir(t, "kaldi-mini")
	graphs := readTable(t, "ark:../fst/testdata/test5_graphs.fsts", fst.Codec)
	feats := readTable(t, "ark:"+filepath.Join(dir, "golden/test5_feats.ark"), kaldiio.MatrixCodec)
	want := readTable(t, "ark:"+filepath.Join(dir, "golden/test5_align_equal.ali"), kaldiio.IntVectorCodec)
	if len(want) != 5 {
		t.Fatalf("%d golden alignments", len(want))
	}
	for key, w := range want {
		g := graphs[key]
		ali, err := EqualAlign(&g, feats[key].Rows, StringHash(key))
		if err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		if !slices.Equal(ali, w) {
			t.Errorf("%s: equal alignment differs from Kaldi's\n got %v\nwant %v", key, ali, []int32(w))
		}
	}
}

// Our compiled graphs are Kaldi's up to state numbering (the same states,
// the same arcs in the same order at each), so align-equal-compiled's random
// walk through them, and with it the flat start of train_mono.sh, is Kaldi's.
func TestEqualAlignOurGraphs(t *testing.T) {
	k := loadKaldiMini(t)
	keys, tra := k.transcripts(t, "golden/test5.text")
	loglikes := readTable(t, "ark:"+filepath.Join(k.dir, "golden/test5_loglikes.ark"), kaldiio.MatrixCodec)
	want := readTable(t, "ark:"+filepath.Join(k.dir, "golden/test5_align_equal.ali"), kaldiio.IntVectorCodec)
	kaldiGraphs := readTable(t, "ark:"+filepath.Join(k.dir, "golden/test5_graphs.fsts"), fst.Codec)
	comp, err := NewTrainingGraphCompiler(k.tm, k.tree, k.lex, k.disambig, DefaultTrainingGraphOptions())
	if err != nil {
		t.Fatal(err)
	}
	for i, key := range keys {
		g, err := comp.CompileText(tra[i])
		if err != nil {
			t.Fatal(err)
		}
		kg := kaldiGraphs[key]
		if err := sameShape(g, &kg); err != nil {
			t.Errorf("%s: our graph is not Kaldi's: %v", key, err)
		}
		rows := loglikes[key].Rows
		ali, err := EqualAlign(g, rows, StringHash(key))
		if err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		if !slices.Equal(ali, want[key]) {
			t.Errorf("%s: equal alignment differs from Kaldi's\n got %v\nwant %v", key, ali, []int32(want[key]))
		}
	}
	// Too few frames: an error, not a panic.
	g, _ := comp.CompileText(tra[0])
	if _, err := EqualAlign(g, 3, 1); err == nil {
		t.Error("3 frames for a 6-word utterance aligned")
	}
}

// sameShape reports how a and b differ as graphs whose states are matched
// from the start, arc by arc in order (labels, weights within 1e-3, and the
// matched next states, final weights): equal up to the numbering of states.
func sameShape(a, b *fst.VectorFst) error {
	if len(a.States) != len(b.States) {
		return fmt.Errorf("%d states, want %d", len(a.States), len(b.States))
	}
	m := map[fst.StateID]fst.StateID{a.Start: b.Start}
	queue := []fst.StateID{a.Start}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		sa, sb := a.States[s], b.States[m[s]]
		if math.Abs(float64(sa.Final-sb.Final)) > 1e-3 && sa.Final != sb.Final {
			return fmt.Errorf("state %d: final %g, want %g", s, sa.Final, sb.Final)
		}
		if len(sa.Arcs) != len(sb.Arcs) {
			return fmt.Errorf("state %d: %d arcs, want %d", s, len(sa.Arcs), len(sb.Arcs))
		}
		for i, x := range sa.Arcs {
			y := sb.Arcs[i]
			if x.ILabel != y.ILabel || x.OLabel != y.OLabel || math.Abs(float64(x.Weight-y.Weight)) > 1e-3 {
				return fmt.Errorf("state %d arc %d: %d:%d/%g, want %d:%d/%g", s, i, x.ILabel, x.OLabel, x.Weight, y.ILabel, y.OLabel, y.Weight)
			}
			if n, ok := m[x.NextState]; ok {
				if n != y.NextState {
					return fmt.Errorf("state %d arc %d: next state matched to %d, want %d", s, i, n, y.NextState)
				}
				continue
			}
			m[x.NextState] = y.NextState
			queue = append(queue, x.NextState)
		}
	}
	return nil
}
