package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/strode-asr/strode/internal/shareddata"
)

// TestTrainMMI: on kaldi-mini's five golden test utterances (Kaldi's
// features and GMM alignments, the monophone model and its pdf counts)
// strode train makes a tiny sru by cross-entropy, its denominator lattices
// come from latgen-faster-mapped on kaldi-mini's graph (Kaldi's own
// lattices of these utterances hold little more than one path: no
// gradient), and MMI (--den-lats) fine-tunes it for three epochs: the
// objective it logs rises, and the model decodes with forward. Without
// --init-model, --class-frame-counts or a lattice for every utterance it
// fails naming what is missing, and writes no model.
func TestTrainMMI(t *testing.T) {
	g := filepath.Join("..", "..", "testdata", "kaldi-mini")
	graph := filepath.Dir(shareddata.File(t, "kaldi-mini", "exp/mono/graph/HCLG.fst"))
	feats := "ark:" + filepath.Join(g, "golden", "test5_feats.ark")
	ali := "ark:" + filepath.Join(g, "golden", "test5_gmm_align.ali")
	mdl := filepath.Join(g, "exp", "mono", "final.mdl")
	counts := filepath.Join(g, "golden", "pdf_counts.vec")
	dir := t.TempDir()
	lats := "ark:" + filepath.Join(dir, "den.lat")
	common := []string{"--preset=small", "--model=sru", "--sru-hidden=16", "--sru-layers=1", "--bidirectional=true",
		"--minibatch-utts=2", "--left-context=1", "--right-context=1", "--utt-cmvn=true", "--seed=3",
		"--transition-model=" + mdl, "--cv-feats=" + feats}
	train := func(out string, extra ...string) (int, string) {
		args := append(append(append([]string{"train"}, common...), extra...), feats, ali, filepath.Join(dir, out))
		code, _, stderr := runStrode(t, "", args...)
		return code, stderr
	}
	code, stderr := train("ce.am", "--max-iters=6", "--learning-rate=0.01")
	if code != 0 {
		t.Fatalf("cross-entropy: exit %d\n%s", code, stderr)
	}
	ce := filepath.Join(dir, "ce.am")
	loglikes := "ark:" + filepath.Join(dir, "loglikes.ark")
	if code, _, stderr := runStrode(t, "", "forward", "--no-softmax=true", "--class-frame-counts="+counts, ce, feats, loglikes); code != 0 {
		t.Fatalf("forward: exit %d\n%s", code, stderr)
	}
	if code, _, stderr := runStrode(t, "", "latgen-faster-mapped", "--acoustic-scale=0.1", "--beam=15", "--lattice-beam=10",
		mdl, filepath.Join(graph, "HCLG.fst"), loglikes, lats); code != 0 {
		t.Fatalf("latgen-faster-mapped: exit %d\n%s", code, stderr)
	}
	mmi := []string{"--init-model=" + ce, "--den-lats=" + lats, "--class-frame-counts=" + counts,
		"--newbob=false", "--keep-last=true", "--max-iters=3", "--learning-rate=0.003"}
	code, stderr = train("mmi.am", mmi...)
	if code != 0 {
		t.Fatalf("MMI: exit %d\n%s", code, stderr)
	}
	re := regexp.MustCompile(`epoch (\d+): MMI objective (\S+) per frame over 877 frames of 5 utterances`)
	var objf []float64
	for _, m := range re.FindAllStringSubmatch(stderr, -1) {
		v, err := strconv.ParseFloat(m[2], 64)
		if err != nil {
			t.Fatal(err)
		}
		objf = append(objf, v)
	}
	if len(objf) != 3 || objf[2] <= objf[0] {
		t.Fatalf("MMI objective per epoch %v: want 3 epochs, rising\n%s", objf, stderr)
	}
	t.Logf("MMI objective per frame by epoch: %v", objf)
	// sMBR (nnet-train-mpe-sequential --do-smbr), train_mpe.sh's silence
	// handling: its expected frame accuracy rises.
	code, stderr = train("smbr.am", append(mmi, "--criterion=smbr", "--silence-phones=1", "--one-silence-class=true")...)
	if code != 0 {
		t.Fatalf("sMBR: exit %d\n%s", code, stderr)
	}
	var acc []float64
	for _, m := range regexp.MustCompile(`epoch (\d+): sMBR objective (\S+) per frame over 877 frames of 5 utterances`).FindAllStringSubmatch(stderr, -1) {
		v, err := strconv.ParseFloat(m[2], 64)
		if err != nil {
			t.Fatal(err)
		}
		acc = append(acc, v)
	}
	if len(acc) != 3 || acc[2] <= acc[0] || acc[2] > 1 {
		t.Fatalf("sMBR frame accuracy per epoch %v: want 3 epochs, rising, at most 1\n%s", acc, stderr)
	}
	t.Logf("sMBR expected frame accuracy by epoch: %v", acc)
	code, out, fstderr := runStrode(t, "", "forward", "--no-softmax=true", "--class-frame-counts="+counts, filepath.Join(dir, "mmi.am"), feats, "ark,t:-")
	if code != 0 || strings.Count(out, "[") != 5 {
		t.Errorf("forward of the MMI model: exit %d, %d utterances\n%s", code, strings.Count(out, "["), fstderr)
	}
	// What MMI cannot run without.
	// The first utterance's lattice alone, in text form (a lattice ends at an empty line).
	code, text, stderr := runStrode(t, "", "lattice-copy", lats, "ark,t:-")
	if code != 0 {
		t.Fatalf("lattice-copy: exit %d\n%s", code, stderr)
	}
	first, _, _ := strings.Cut(text, "\n\n")
	onlyOne := filepath.Join(dir, "one.lat")
	if err := os.WriteFile(onlyOne, []byte(first+"\n\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	onlyOne = "ark:" + onlyOne
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--den-lats=" + lats, "--class-frame-counts=" + counts}, "--den-lats (MMI) fine-tunes a cross-entropy model: give it with --init-model"},
		{[]string{"--init-model=" + ce, "--den-lats=" + lats}, "--den-lats needs --class-frame-counts"},
		{[]string{"--init-model=" + ce, "--den-lats=" + lats, "--class-frame-counts=" + counts, "--criterion=mpe"}, `--criterion="mpe": must be mmi or smbr`},
		{[]string{"--init-model=" + ce, "--den-lats=" + lats, "--class-frame-counts=" + counts, "--criterion=smbr", "--silence-phones=1:x"}, `--silence-phones="1:x"`},
		{[]string{"--init-model=" + ce, "--den-lats=" + onlyOne, "--class-frame-counts=" + counts}, "no denominator lattice for 4 of 5 training utterances (the first: spk00-test018)"},
	} {
		if code, stderr := train("bad.am", append(c.args, "--max-iters=1")...); code == 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, want a failure and %q\n%s", c.args, code, c.want, stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "bad.am")); err == nil {
		t.Error("a refused training wrote its model")
	}
}
