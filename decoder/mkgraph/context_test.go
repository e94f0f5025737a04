package mkgraph

import (
	"math"
	"path/filepath"
	"slices"
	"testing"

	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/decoder/tree"
)

// contextBlindTree wraps a monophone tree as a tree of width n with the
// central phone at p whose pdfs ignore the context: every window maps to
// the pdfs of its central phone.
func contextBlindTree(mono *tree.ContextDependency, n, p int32) *tree.ContextDependency {
	table := mono.ToPdf.(*tree.TableEventMap)
	return &tree.ContextDependency{ContextWidth: n, CentralPosition: p, ToPdf: &tree.TableEventMap{Key: p, Table: table.Table}}
}

// TestContextHCLGKaldiMini builds HCLG through the context transducer for
// trees of width 2 and 3 whose pdfs ignore the context: the paths, and so
// the best path and its cost on every golden utterance, must be those of
// the monophone graph (and Kaldi's 1-best), though the graph is larger.
func TestContextHCLGKaldiMini(t *testing.T) {
	dir := sharedDir(t, "kaldi-mini")
	tm, err := hmm.ReadTransitionModel(filepath.Join(dir, "exp/mono/final.mdl"))
	if err != nil {
		t.Fatal(err)
	}
	mono, err := tree.Read(filepath.Join(dir, "exp/mono/tree"))
	if err != nil {
		t.Fatal(err)
	}
	l := mustReadFst(t, filepath.Join(dir, "data/lang/L_disambig.fst"))
	g := mustReadFst(t, filepath.Join(dir, "data/lang_test/G.fst"))
	disambig := mustInts(t, filepath.Join(dir, "data/lang/phones/disambig.int"))
	ref, err := BuildHCLG(tm, mono, l, g, disambig, DefaultMkGraphOptions())
	if err != nil {
		t.Fatal(err)
	}
	want := readIntArchive(t, filepath.Join(dir, "golden/test5_1best.tra"))
	utts := readLoglikes(t, filepath.Join(dir, "golden/test5_loglikes.ark"))
	tid2pdf := tm.TransitionIDToPdfArray()
	for _, np := range [][2]int32{{3, 1}, {2, 1}, {2, 0}} {
		tree := contextBlindTree(mono, np[0], np[1])
		h, err := BuildHCLG(tm, tree, l, g, disambig, DefaultMkGraphOptions())
		if err != nil {
			t.Fatalf("N=%d P=%d: %v", np[0], np[1], err)
		}
		t.Logf("N=%d P=%d: HCLG %d states %d arcs (monophone %d/%d)", np[0], np[1], h.Fst.NumStates(), h.Fst.NumArcs(), ref.Fst.NumStates(), ref.Fst.NumArcs())
		for s := range h.Fst.States {
			for _, a := range h.Fst.States[s].Arcs {
				if a.ILabel > int32(tm.NumTransitionIDs()) {
					t.Fatalf("N=%d P=%d: disambiguation symbol %d left", np[0], np[1], a.ILabel)
				}
			}
		}
		for _, u := range utts {
			got, cost := viterbi(h.Fst, tid2pdf, u.m, 0.083333)
			_, refCost := viterbi(ref.Fst, tid2pdf, u.m, 0.083333)
			if !slices.Equal(got, want[u.key]) || math.Abs(cost-refCost) > 0.01 {
				t.Errorf("N=%d P=%d %s: %v cost %.4f, monophone graph cost %.4f, Kaldi %v", np[0], np[1], u.key, got, cost, refCost, want[u.key])
			}
		}
	}
}
