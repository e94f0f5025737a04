package align

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/strode-asr/strode/decoder/fst"
	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/decoder/tree"
	"github.com/strode-asr/strode/kaldiio"
)

// kaldiMini loads what the alignment checks need from ../shared/kaldi-mini.
type kaldiMini struct {
	dir      string
	tm       *hmm.TransitionModel
	tree     *tree.ContextDependency
	lex      *fst.VectorFst
	disambig []int32
	words    *fst.SymbolTable
}

func loadKaldiMini(t testing.TB) *kaldiMini {
	t.Helper()
	dir := sharedDir(t, "kaldi-mini")
	k := &kaldiMini{dir: dir}
	var err error
	if k.tm, err = hmm.ReadTransitionModel(filepath.Join(dir, "exp/mono/final.mdl")); err != nil {
		t.Fatal(err)
	}
	if k.tree, err = tree.Read(filepath.Join(dir, "exp/mono/tree")); err != nil {
		t.Fatal(err)
	}
	k.lex = mustReadFst(t, filepath.Join(dir, "data/lang/L.fst"))
	if k.disambig, err = fst.ReadIntList(filepath.Join(dir, "data/lang/phones/disambig.int")); err != nil {
		t.Fatal(err)
	}
	k.words = mustSymbols(t, filepath.Join(dir, "data/lang/words.txt"))
	return k
}

func (k *kaldiMini) transcripts(t testing.TB, file string) (keys []string, tra [][]int32) {
	t.Helper()
	fh, err := os.Open(filepath.Join(k.dir, file))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		var ids []int32
		for _, w := range f[1:] {
			id, ok := k.words.Key(w)
			if !ok {
				t.Fatalf("word %q not in words.txt", w)
			}
			ids = append(ids, int32(id))
		}
		keys = append(keys, f[0])
		tra = append(tra, ids)
	}
	return keys, tra
}

func readTable[T any](t testing.TB, rspec string, c kaldiio.Codec[T]) map[string]T {
	t.Helper()
	sr, err := kaldiio.OpenSequentialReader(rspec, c)
	if err != nil {
		t.Fatal(err)
	}
	defer sr.Close()
	m := map[string]T{}
	for sr.Next() {
		m[sr.Key()] = sr.Value()
	}
	if err := sr.Err(); err != nil {
		t.Fatal(err)
	}
	return m
}

// Kaldi's align scripts' settings, as in kaldi-mini's golden commands.
func scriptAlignOptions() Options {
	return Options{Beam: 10, RetryBeam: 40, TransitionScale: 1, SelfLoopScale: 0.1, AcousticScale: 0.1}
}

// Our compile-train-graphs + align-compiled-mapped on kaldi-mini's first
// five test utterances, with Kaldi's GMM log-likelihoods, give Kaldi's
// alignments; so does aligning Kaldi's own graphs.
func TestKaldiMiniAlignment(t *testing.T) {
	k := loadKaldiMini(t)
	keys, tra := k.transcripts(t, "golden/test5.text")
	loglikes := readTable(t, "ark:"+filepath.Join(k.dir, "golden/test5_loglikes.ark"), kaldiio.MatrixCodec)
	want := readTable(t, "ark:"+filepath.Join(k.dir, "golden/test5_align_compiled_mapped.ali"), kaldiio.IntVectorCodec)
	kaldiGraphs := readTable(t, "ark:"+filepath.Join(k.dir, "golden/test5_graphs.fsts"), fst.Codec)
	comp, err := NewTrainingGraphCompiler(k.tm, k.tree, k.lex, k.disambig, DefaultTrainingGraphOptions())
	if err != nil {
		t.Fatal(err)
	}
	al, err := NewAligner(k.tm, scriptAlignOptions())
	if err != nil {
		t.Fatal(err)
	}
	carefulOpt := scriptAlignOptions()
	carefulOpt.Careful = true
	careful, err := NewAligner(k.tm, carefulOpt)
	if err != nil {
		t.Fatal(err)
	}
	for i, key := range keys {
		ll := loglikes[key]
		g, err := comp.CompileText(tra[i])
		if err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		kg := kaldiGraphs[key]
		for _, c := range []struct {
			name string
			g    *fst.VectorFst
		}{{"our graph", g}, {"Kaldi's graph", &kg}} {
			ali, err := al.Align(c.g, ll.Data, ll.Rows, ll.Cols)
			if err != nil {
				t.Fatalf("%s with %s: %v", key, c.name, err)
			}
			if !slices.Equal(ali.TransitionIDs, want[key]) {
				t.Errorf("%s with %s: alignment differs from Kaldi's\n got %v\nwant %v", key, c.name, ali.TransitionIDs, want[key])
			}
			// These utterances align cleanly, so careful alignment agrees.
			cali, err := careful.Align(c.g, ll.Data, ll.Rows, ll.Cols)
			if err != nil || !slices.Equal(cali.TransitionIDs, want[key]) {
				t.Errorf("%s with %s: careful alignment differs (%v)", key, c.name, err)
			}
		}
	}
}

// Training graphs we write pass OpenFst's fstinfo and survive
// fstprint | fstcompile unchanged.
func TestCompiledGraphPassesOpenFstTools(t *testing.T) {
	needTool(t, "fstinfo")
	needTool(t, "fstequal")
	k := loadKaldiMini(t)
	_, tra := k.transcripts(t, "golden/test5.text")
	comp, err := NewTrainingGraphCompiler(k.tm, k.tree, k.lex, k.disambig, DefaultTrainingGraphOptions())
	if err != nil {
		t.Fatal(err)
	}
	g, err := comp.CompileText(tra[0])
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "g.fst")
	if err := fst.WriteFile(p, g); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("fstinfo", p).CombinedOutput(); err != nil || !strings.Contains(string(out), "# of states") {
		t.Fatalf("fstinfo: %v\n%s", err, out)
	}
	rt := p + ".rt"
	if out, err := exec.Command("sh", "-c", "fstprint "+p+" | fstcompile --keep_state_numbering - "+rt).CombinedOutput(); err != nil {
		t.Fatalf("fstprint | fstcompile: %v\n%s", err, out)
	}
	if out, err := exec.Command("fstequal", p, rt).CombinedOutput(); err != nil {
		t.Errorf("fstequal: %v\n%s", err, out)
	}
	if !mustReadFst(t, rt).ApproxEqual(g, 0) {
		t.Error("round trip through fstprint | fstcompile changed the graph")
	}
}

// A transcript word the lexicon does not have is an error, not a panic or
// an empty graph silently written.
func TestCompileUnknownWord(t *testing.T) {
	k := loadKaldiMini(t)
	comp, err := NewTrainingGraphCompiler(k.tm, k.tree, k.lex, k.disambig, DefaultTrainingGraphOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, words := range [][]int32{{7, 999}, {0}, {-3}} {
		if _, err := comp.CompileText(words); !errors.Is(err, fst.ErrBadFst) {
			t.Errorf("%v: %v", words, err)
		}
	}
}

// Transition probabilities put into the graph by compile-train-graphs
// (--transition-scale=1 --self-loop-scale=0.1) and aligned without adding
// them again give the alignments of the usual split (graph scales 0, align
// scales 1 and 0.1).
func TestGraphScalesEquivalentToAlignScales(t *testing.T) {
	k := loadKaldiMini(t)
	keys, tra := k.transcripts(t, "golden/test5.text")
	loglikes := readTable(t, "ark:"+filepath.Join(k.dir, "golden/test5_loglikes.ark"), kaldiio.MatrixCodec)
	want := readTable(t, "ark:"+filepath.Join(k.dir, "golden/test5_align_compiled_mapped.ali"), kaldiio.IntVectorCodec)
	gopt := DefaultTrainingGraphOptions()
	gopt.TransitionScale, gopt.SelfLoopScale = 1, 0.1
	comp, err := NewTrainingGraphCompiler(k.tm, k.tree, k.lex, k.disambig, gopt)
	if err != nil {
		t.Fatal(err)
	}
	aopt := scriptAlignOptions()
	aopt.TransitionScale, aopt.SelfLoopScale = 0, 0
	al, err := NewAligner(k.tm, aopt)
	if err != nil {
		t.Fatal(err)
	}
	for i, key := range keys {
		g, err := comp.CompileText(tra[i])
		if err != nil {
			t.Fatal(err)
		}
		ll := loglikes[key]
		ali, err := al.Align(g, ll.Data, ll.Rows, ll.Cols)
		if err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		if !slices.Equal(ali.TransitionIDs, want[key]) {
			t.Errorf("%s: alignment with probabilities in the graph differs", key)
		}
	}
}
