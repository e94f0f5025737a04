package mkgraph

import (
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/strode-asr/strode/decoder/fst"
	"github.com/strode-asr/strode/decoder/fstalg"
	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/decoder/tree"
)

// TestHCLGaIsomorphicToKaldi checks our determinization and minimization
// against Kaldi's on kaldi-mini: Kaldi's HCLG.fst with add-self-loops
// undone (the self-loops removed, the -0.1·log(1-p) factor taken off each
// state's outgoing arcs, and the states that AddSelfLoops split off — one
// epsilon arc out — bypassed) is fstisomorphic to our HCLGa.
func TestHCLGaIsomorphicToKaldi(t *testing.T) {
	dir := sharedDir(t, "kaldi-mini")
	iso, err := exec.LookPath("fstisomorphic")
	if err != nil {
		t.Skip("needs OpenFst's fstisomorphic (apt-get install libfst-tools)")
	}
	tm, err := hmm.ReadTransitionModel(filepath.Join(dir, "exp/mono/final.mdl"))
	if err != nil {
		t.Fatal(err)
	}
	tree, err := tree.Read(filepath.Join(dir, "exp/mono/tree"))
	if err != nil {
		t.Fatal(err)
	}
	l := mustReadFst(t, filepath.Join(dir, "data/lang/L_disambig.fst"))
	g := mustReadFst(t, filepath.Join(dir, "data/lang_test/G.fst"))
	disambig := mustInts(t, filepath.Join(dir, "data/lang/phones/disambig.int"))
	lg, err := ComposeLG(l, g, 0)
	if err != nil {
		t.Fatal(err)
	}
	h, err := MakeH(tm, tree, disambig, 1.0)
	if err != nil {
		t.Fatal(err)
	}
	ours, err := fstalg.Compose(h.Fst, lg, fstalg.DefaultComposeOptions())
	if err != nil {
		t.Fatal(err)
	}
	if ours, err = fstalg.DeterminizeStar(ours, fstalg.DefaultDeterminizeOptions()); err != nil {
		t.Fatal(err)
	}
	fstalg.RemoveSymbols(ours, h.DisambigTids)
	fstalg.RemoveEpsLocal(ours)
	fstalg.MinimizeEncoded(ours, fst.KDelta)

	k := mustReadFst(t, filepath.Join(dir, "exp/mono/graph/HCLG.fst"))
	undoSelfLoops(t, k, tm, 0.1)
	t.Logf("our HCLGa %d states %d arcs; Kaldi's HCLG without self-loops %d states %d arcs", ours.NumStates(), ours.NumArcs(), k.NumStates(), k.NumArcs())
	dirOut := t.TempDir()
	pa, pb := filepath.Join(dirOut, "ours.fst"), filepath.Join(dirOut, "kaldi.fst")
	if err := fst.WriteFile(pa, ours); err != nil {
		t.Fatal(err)
	}
	if err := fst.WriteFile(pb, k); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(iso, "--delta=0.002", pa, pb).CombinedOutput(); err != nil {
		t.Errorf("fstisomorphic: our HCLGa and Kaldi's differ (%v) %s", err, out)
	}
}

// undoSelfLoops reverses Kaldi's add-self-loops (reorder) on g.
func undoSelfLoops(t *testing.T, g *fst.VectorFst, tm *hmm.TransitionModel, scale float32) {
	class := make([]int32, len(g.States))
	for s := range g.States {
		for _, a := range g.States[s].Arcs {
			if a.ILabel != 0 {
				class[a.NextState] = tm.TransitionIDToTransitionState(a.ILabel)
			}
		}
	}
	for s := range g.States {
		st := &g.States[s]
		w := float32(0)
		if c := class[s]; c > 0 {
			w = -tm.NonSelfLoopLogProb(c) * scale
		}
		kept := st.Arcs[:0]
		for _, a := range st.Arcs {
			if a.ILabel != 0 && tm.IsSelfLoop(a.ILabel) {
				continue
			}
			a.Weight -= w
			kept = append(kept, a)
		}
		st.Arcs = kept
		if st.Final != fst.WeightZero {
			st.Final -= w
		}
	}
	fst.Quantize(g, fst.KDelta)
	// The split-off states have one epsilon arc (weight now 0) and no
	// final weight: bypass them.
	fstalg.RemoveEpsLocal(g)
}
