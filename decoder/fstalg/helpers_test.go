package fstalg

import (
	"fmt"
	"math"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strode-asr/strode/decoder/fst"
)

// randomAcyclic returns a random acyclic transducer with nStates states
// (arcs only go to higher-numbered states), labels in 1..nLabels and
// epsilons with probability pEps on each side.
func randomAcyclic(rng *rand.Rand, nStates, nArcs, nLabels int, pEps float64, acceptor bool) *fst.VectorFst {
	f := fst.NewVectorFst()
	for i := 0; i < nStates; i++ {
		f.AddState()
	}
	f.Start = 0
	label := func() fst.Label {
		if rng.Float64() < pEps {
			return 0
		}
		return fst.Label(1 + rng.Intn(nLabels))
	}
	for k := 0; k < nArcs; k++ {
		s := rng.Intn(nStates - 1)
		t := s + 1 + rng.Intn(nStates-1-s)
		i := label()
		o := label()
		if acceptor {
			o = i
		}
		w := float32(math.Round(rng.Float64()*4*1024) / 1024)
		f.AddArc(fst.StateID(s), fst.Arc{ILabel: i, OLabel: o, Weight: w, NextState: fst.StateID(t)})
	}
	f.SetFinal(fst.StateID(nStates-1), 0.5)
	if nStates > 2 {
		f.SetFinal(fst.StateID(nStates/2), 1.25)
	}
	return f
}

// relation enumerates the paths of an acyclic FST: for each (input,
// output) string pair without epsilons, the sum of its paths' weights in
// the semiring.
func relation(t *testing.T, f *fst.VectorFst, sr Semiring) map[string]float32 {
	t.Helper()
	rel := map[string]float32{}
	if f.Start == fst.NoState {
		return rel
	}
	var in, out []fst.Label
	var walk func(s fst.StateID, w float32, depth int)
	walk = func(s fst.StateID, w float32, depth int) {
		if depth > 64 {
			t.Fatalf("relation: path longer than 64 (cyclic FST?)")
		}
		if fw := f.States[s].Final; fw != fst.WeightZero {
			k := fmt.Sprint(in, "->", out)
			old, ok := rel[k]
			if !ok {
				old = fst.WeightZero
			}
			rel[k] = sr.Plus(old, w+fw)
		}
		for _, a := range f.States[s].Arcs {
			ni, no := len(in), len(out)
			if a.ILabel != 0 {
				in = append(in, a.ILabel)
			}
			if a.OLabel != 0 {
				out = append(out, a.OLabel)
			}
			walk(a.NextState, w+a.Weight, depth+1)
			in, out = in[:ni], out[:no]
		}
	}
	walk(f.Start, 0, 0)
	return rel
}

func sameRelation(t *testing.T, name string, got, want map[string]float32, tol float32) {
	t.Helper()
	for k, w := range want {
		g, ok := got[k]
		if !ok {
			t.Errorf("%s: missing %s (weight %g)", name, k, w)
			continue
		}
		if !approxEqual(g, w, tol) {
			t.Errorf("%s: %s weight %g, want %g", name, k, g, w)
		}
	}
	for k, g := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("%s: extra %s (weight %g)", name, k, g)
		}
	}
}

// openFst runs an OpenFst command-line tool on FSTs written to temporary
// files and reads its binary output; it skips the test when the tool is
// not installed (Debian's libfst-tools).
func openFst(t *testing.T, tool string, args []string, inputs ...*fst.VectorFst) *fst.VectorFst {
	t.Helper()
	path, err := exec.LookPath(tool)
	if err != nil {
		t.Skipf("%s not installed (apt-get install libfst-tools)", tool)
	}
	dir := t.TempDir()
	var files []string
	for i, f := range inputs {
		p := filepath.Join(dir, fmt.Sprintf("in%d.fst", i))
		if err := fst.WriteFile(p, f); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	outPath := filepath.Join(dir, "out.fst")
	cmd := exec.Command(path, append(append(args, files...), outPath)...)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v: %s", tool, err, b)
	}
	g, err := fst.ReadFile(outPath)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// openFstBool runs a tool that answers with its exit status (fstequivalent,
// fstisomorphic): true for 0, false for 2.
func openFstBool(t *testing.T, tool string, args []string, a, b *fst.VectorFst) bool {
	t.Helper()
	path, err := exec.LookPath(tool)
	if err != nil {
		t.Skipf("%s not installed (apt-get install libfst-tools)", tool)
	}
	dir := t.TempDir()
	pa, pb := filepath.Join(dir, "a.fst"), filepath.Join(dir, "b.fst")
	if err := fst.WriteFile(pa, a); err != nil {
		t.Fatal(err)
	}
	if err := fst.WriteFile(pb, b); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(path, append(args, pa, pb)...).CombinedOutput()
	if err == nil {
		return true
	}
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 2 && !strings.Contains(string(out), "ERROR") {
		return false
	}
	t.Fatalf("%s: %v: %s", tool, err, out)
	return false
}

// isInputDeterministic reports whether no state has two arcs with the
// same input label.
func isInputDeterministic(f *fst.VectorFst) bool {
	for s := range f.States {
		seen := map[fst.Label]bool{}
		for _, a := range f.States[s].Arcs {
			if seen[a.ILabel] {
				return false
			}
			seen[a.ILabel] = true
		}
	}
	return true
}

var _ = os.Getenv
