package mkgraph

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestPrepareLangKaldiMini makes a lang directory from kaldi-mini's
// data/local/dict and compares it with Kaldi's data/lang: every text file
// byte for byte, L.fst and L_disambig.fst arc for arc.
func TestPrepareLangKaldiMini(t *testing.T) {
	dir := sharedDir(t, "kaldi-mini")
	d, err := ReadDictDir(filepath.Join(dir, "data/local/dict"))
	if err != nil {
		t.Fatal(err)
	}
	lang, err := PrepareLang(d, "<SIL>", positionIndependent())
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	if err := lang.Write(out); err != nil {
		t.Fatal(err)
	}
	ref := filepath.Join(dir, "data/lang")
	files := []string{"phones.txt", "words.txt", "topo", "oov.txt", "oov.int"}
	for _, base := range []string{"silence", "nonsilence", "optional_silence", "disambig", "context_indep"} {
		for _, ext := range []string{".txt", ".int", ".csl"} {
			files = append(files, "phones/"+base+ext)
		}
	}
	for _, base := range []string{"sets", "roots", "extra_questions", "align_lexicon"} {
		files = append(files, "phones/"+base+".txt", "phones/"+base+".int")
	}
	files = append(files, "phones/wdisambig.txt", "phones/wdisambig_phones.int", "phones/wdisambig_words.int")
	for _, f := range files {
		got, err := os.ReadFile(filepath.Join(out, f))
		if err != nil {
			t.Error(err)
			continue
		}
		want, err := os.ReadFile(filepath.Join(ref, f))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs:\n got %q\nwant %q", f, got, want)
		}
	}
	for _, f := range []string{"L.fst", "L_disambig.fst"} {
		got := mustReadFst(t, filepath.Join(out, f))
		want := mustReadFst(t, filepath.Join(ref, f))
		if !got.Equal(want) {
			t.Errorf("%s differs from Kaldi's:\n%s", f, fstText(t, got))
		}
	}
}

func TestShareSilencePhones(t *testing.T) {
	d := DigitsDict(false)
	d.SilencePhones = [][]string{{"SIL"}, {"NSN"}}
	d.Lexicon = append(d.Lexicon, LexEntry{"<NOISE>", 1, []string{"NSN"}})
	opt := positionIndependent()
	opt.ShareSilencePhones = true
	lang, err := PrepareLang(d, "<SIL>", opt)
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	if err := lang.Write(out); err != nil {
		t.Fatal(err)
	}
	roots, _ := os.ReadFile(filepath.Join(out, "phones/roots.txt"))
	if !bytes.HasPrefix(roots, []byte("not-shared not-split SIL NSN\nshared split AH\n")) {
		t.Errorf("roots.txt:\n%s", roots)
	}
	sets := lang.PhoneSets()
	if len(sets[0]) != 2 {
		t.Fatalf("first set %v, want both silence phones", sets[0])
	}
	tree, err := MonophoneTree(&lang.Topo, sets)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := tree.Compute([]int32{sets[0][0]}, 2)
	b, _ := tree.Compute([]int32{sets[0][1]}, 2)
	if a != b {
		t.Errorf("silence phones have pdfs %d and %d, want shared", a, b)
	}
}
