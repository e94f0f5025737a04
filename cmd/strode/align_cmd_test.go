package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strode-asr/strode/internal/shareddata"

	"github.com/strode-asr/strode/internal/kaldicmd"
)

// decoderKaldiMini is kaldi-mini: ../shared's, else the repository's copy in
// testdata/.
func decoderKaldiMini(t *testing.T) string {
	t.Helper()
	return shareddata.Dir(t, "kaldi-mini")
}

// runStrode runs a subcommand in-process and returns stdout, failing the
// test on a non-zero exit.
func runDecoderCmd(t *testing.T, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	code := app.Run(append([]string{"strode"}, args...), kaldicmd.Streams{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb})
	if code != 0 {
		t.Fatalf("strode %s: exit %d\n%s", strings.Join(args, " "), code, errb.String())
	}
	return out.String()
}

func sameDecoderFile(t *testing.T, got, want string) {
	t.Helper()
	a, err := os.ReadFile(got)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(want)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Errorf("%s differs from Kaldi's %s", got, want)
	}
}

// Our ali-to-pdf, ali-to-phones, analyze-counts, show-transitions and
// hmm-info print exactly what Kaldi's did on kaldi-mini.
func TestDecoderToolsMatchKaldi(t *testing.T) {
	k := decoderKaldiMini(t)
	tmp := t.TempDir()
	mdl := filepath.Join(k, "exp/mono/final.mdl")
	ali := "ark:gunzip -c " + filepath.Join(k, "exp/mono/ali.1.gz") + " |"
	if _, err := exec.LookPath("gunzip"); err != nil {
		t.Skip("needs gunzip")
	}
	runDecoderCmd(t, "ali-to-pdf", mdl, ali, "ark,t:"+filepath.Join(tmp, "pdf.txt"))
	sameDecoderFile(t, filepath.Join(tmp, "pdf.txt"), filepath.Join(k, "exp/mono/ali.1.pdf.txt.ark"))
	runDecoderCmd(t, "ali-to-phones", mdl, ali, "ark,t:"+filepath.Join(tmp, "ph.txt"))
	sameDecoderFile(t, filepath.Join(tmp, "ph.txt"), filepath.Join(k, "exp/mono/ali.1.phones.txt.ark"))
	runDecoderCmd(t, "ali-to-phones", "--per-frame=true", mdl, ali, "ark,t:"+filepath.Join(tmp, "phf.txt"))
	sameDecoderFile(t, filepath.Join(tmp, "phf.txt"), filepath.Join(k, "exp/mono/ali.1.phones_perframe.txt.ark"))
	pdfs := "ark:" + filepath.Join(tmp, "pdf.txt")
	runDecoderCmd(t, "analyze-counts", "--binary=false", pdfs, filepath.Join(tmp, "counts.txt"))
	sameDecoderFile(t, filepath.Join(tmp, "counts.txt"), filepath.Join(k, "golden/pdf_counts.txt"))
	runDecoderCmd(t, "analyze-counts", "--binary=true", pdfs, filepath.Join(tmp, "counts.vec"))
	sameDecoderFile(t, filepath.Join(tmp, "counts.vec"), filepath.Join(k, "golden/pdf_counts.vec"))
	if got, want := runDecoderCmd(t, "show-transitions", filepath.Join(k, "data/lang/phones.txt"), mdl), readDecoderString(t, filepath.Join(k, "golden/show-transitions.txt")); got != want {
		t.Error("show-transitions differs from Kaldi's")
	}
	if got, want := runDecoderCmd(t, "hmm-info", mdl), readDecoderString(t, filepath.Join(k, "golden/hmm-info.txt")); got != want {
		t.Errorf("hmm-info: %q want %q", got, want)
	}
}

func readDecoderString(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// compile-train-graphs + align-compiled-mapped, align-mapped and
// align-equal-compiled on kaldi-mini's five golden test utterances equal
// Kaldi's alignments.
func TestDecoderAlignmentCommandsMatchKaldi(t *testing.T) {
	k := decoderKaldiMini(t)
	tmp := t.TempDir()
	mdl := filepath.Join(k, "exp/mono/final.mdl")
	tree := filepath.Join(k, "exp/mono/tree")
	lex := filepath.Join(k, "data/lang/L.fst")
	disambig := "--read-disambig-syms=" + filepath.Join(k, "data/lang/phones/disambig.int")
	// The integer transcripts (what utils/sym2int.pl makes of golden/test5.text).
	words := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(readDecoderString(t, filepath.Join(k, "data/lang/words.txt"))), "\n") {
		f := strings.Fields(l)
		words[f[0]] = f[1]
	}
	var tra strings.Builder
	for _, l := range strings.Split(strings.TrimSpace(readDecoderString(t, filepath.Join(k, "golden/test5.text"))), "\n") {
		f := strings.Fields(l)
		tra.WriteString(f[0])
		for _, w := range f[1:] {
			tra.WriteString(" " + words[w])
		}
		tra.WriteString("\n")
	}
	traFile := filepath.Join(tmp, "test5.tra")
	os.WriteFile(traFile, []byte(tra.String()), 0o644)
	graphs := filepath.Join(tmp, "graphs.fsts")
	runDecoderCmd(t, "compile-train-graphs", disambig, tree, mdl, lex, "ark:"+traFile, "ark:"+graphs)
	loglikes := "ark:" + filepath.Join(k, "golden/test5_loglikes.ark")
	script := []string{"--beam=10", "--retry-beam=40", "--transition-scale=1.0", "--self-loop-scale=0.1", "--acoustic-scale=0.1"}
	runDecoderCmd(t, append(append([]string{"align-compiled-mapped"}, script...), mdl, "ark:"+graphs, loglikes, "ark,t:"+filepath.Join(tmp, "acm.ali"))...)
	sameDecoderFile(t, filepath.Join(tmp, "acm.ali"), filepath.Join(k, "golden/test5_align_compiled_mapped.ali"))
	runDecoderCmd(t, append(append([]string{"align-mapped", disambig}, script...), tree, mdl, lex, loglikes, "ark:"+traFile, "ark,t:"+filepath.Join(tmp, "am.ali"))...)
	sameDecoderFile(t, filepath.Join(tmp, "am.ali"), filepath.Join(k, "golden/test5_align_mapped.ali"))
	// gmm-align-compiled computes the likelihoods itself, from Kaldi's features.
	runDecoderCmd(t, append(append([]string{"gmm-align-compiled"}, script...), mdl, "ark:"+graphs, "ark:"+filepath.Join(k, "golden/test5_feats.ark"), "ark,t:"+filepath.Join(tmp, "gmm.ali"))...)
	sameDecoderFile(t, filepath.Join(tmp, "gmm.ali"), filepath.Join(k, "golden/test5_gmm_align.ali"))
	// Equal alignment depends on the graph's arc order, so use Kaldi's graphs.
	runDecoderCmd(t, "align-equal-compiled", "ark:"+filepath.Join(k, "golden/test5_graphs.fsts"), "ark:"+filepath.Join(k, "golden/test5_feats.ark"), "ark,t:"+filepath.Join(tmp, "eq.ali"))
	sameDecoderFile(t, filepath.Join(tmp, "eq.ali"), filepath.Join(k, "golden/test5_align_equal.ali"))
}

// copy-transition-model and copy-tree round trips are byte-identical.
func TestDecoderModelCopiesByteIdentical(t *testing.T) {
	k := decoderKaldiMini(t)
	tmp := t.TempDir()
	runDecoderCmd(t, "copy-tree", filepath.Join(k, "exp/mono/tree"), filepath.Join(tmp, "tree"))
	sameDecoderFile(t, filepath.Join(tmp, "tree"), filepath.Join(k, "exp/mono/tree"))
	runDecoderCmd(t, "copy-tree", "--binary=false", filepath.Join(k, "exp/mono/tree"), filepath.Join(tmp, "tree.txt"))
	sameDecoderFile(t, filepath.Join(tmp, "tree.txt"), filepath.Join(k, "exp/mono/tree.txt"))
	runDecoderCmd(t, "copy-transition-model", filepath.Join(k, "exp/mono/final.mdl"), filepath.Join(tmp, "tm"))
	mdl := readDecoderString(t, filepath.Join(k, "exp/mono/final.mdl"))
	if got := readDecoderString(t, filepath.Join(tmp, "tm")); !strings.HasPrefix(mdl, got) || len(got) < 1000 {
		t.Error("copied transition model is not the head of final.mdl")
	}
}

// Bad input: a graph for which the log-likelihoods have the wrong number of
// columns is reported per utterance and counted; nothing panics.
func TestDecoderAlignBadInput(t *testing.T) {
	k := decoderKaldiMini(t)
	tmp := t.TempDir()
	var out, errb bytes.Buffer
	// Alignments given where log-likelihoods are expected: wrong object.
	code := app.Run([]string{"strode", "align-compiled-mapped", filepath.Join(k, "exp/mono/final.mdl"),
		"ark:" + filepath.Join(k, "golden/test5_graphs.fsts"), "ark:" + filepath.Join(k, "golden/test5_feats.ark"),
		"ark,t:" + filepath.Join(tmp, "x.ali")}, kaldicmd.Streams{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb})
	if code == 0 || !strings.Contains(errb.String(), "39 columns but the transition model has 62 pdfs") || !strings.Contains(errb.String(), "other errors on 5") {
		t.Errorf("features as log-likelihoods: exit %d\n%s", code, errb.String())
	}
}

// ali-to-phones --ctm-output: one line per phone, durations adding up to the
// utterance length at 10 ms per frame.
func TestDecoderAliToPhonesCtm(t *testing.T) {
	k := decoderKaldiMini(t)
	tmp := t.TempDir()
	ctm := filepath.Join(tmp, "x.ctm")
	runDecoderCmd(t, "ali-to-phones", "--ctm-output=true", filepath.Join(k, "exp/mono/final.mdl"),
		"ark:"+filepath.Join(k, "golden/test5_align_compiled_mapped.ali"), ctm)
	lines := strings.Split(strings.TrimSpace(readDecoderString(t, ctm)), "\n")
	phones := strings.Fields(readDecoderString(t, filepath.Join(k, "golden/test5_ali_phones.txt.ark")))
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "spk00-test012 1 0 ") {
		t.Fatalf("ctm starts %q", lines[0])
	}
	// Phones in the ctm equal ali-to-phones' (keys removed).
	var got []string
	for _, l := range lines {
		got = append(got, strings.Fields(l)[4])
	}
	var want []string
	for _, f := range phones {
		if !strings.HasPrefix(f, "spk") {
			want = append(want, f)
		}
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("ctm phones differ from ali-to-phones'")
	}
}

// Truncated or wrong-magic model and FST files fail with an error naming
// the file, never a panic.
func TestDecoderBadFiles(t *testing.T) {
	k := decoderKaldiMini(t)
	tmp := t.TempDir()
	mdl, _ := os.ReadFile(filepath.Join(k, "exp/mono/final.mdl"))
	badMdl := filepath.Join(tmp, "truncated.mdl")
	os.WriteFile(badMdl, mdl[:500], 0o644)
	lex, _ := os.ReadFile(filepath.Join(k, "data/lang/L.fst"))
	badLex := filepath.Join(tmp, "wrongmagic.fst")
	os.WriteFile(badLex, append([]byte{0, 0, 0, 0}, lex[4:]...), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"hmm-info", badMdl}, badMdl},
		{[]string{"compile-train-graphs", filepath.Join(k, "exp/mono/tree"), filepath.Join(k, "exp/mono/final.mdl"), badLex, "ark:/dev/null", "ark:/dev/null"}, badLex},
		{[]string{"ali-to-pdf", badMdl, "ark:/dev/null", "ark:/dev/null"}, badMdl},
	} {
		var out, errb bytes.Buffer
		code := app.Run(append([]string{"strode"}, c.args...), kaldicmd.Streams{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb})
		if code == 0 || !strings.Contains(errb.String(), c.want) || !strings.Contains(errb.String(), "ERROR (strode ") {
			t.Errorf("%s: exit %d, stderr %q", c.args[0], code, errb.String())
		}
	}
}
