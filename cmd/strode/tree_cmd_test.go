package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strode-asr/strode/decoder/align"
	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/decoder/tree"
	"github.com/strode-asr/strode/internal/shareddata"
	"github.com/strode-asr/strode/kaldiio"
)

// steps/train_deltas.sh's tree stage on kaldi-mini, with strode's tools
// only: MFCC + per-speaker CMN + deltas, tree statistics over the monophone
// alignment, automatic questions, a tree of at most 60 leaves, its model,
// and the alignment converted to it. The tree must read back in both forms,
// give every seen context a pdf, and the converted alignment must carry, on
// every frame, the tree's pdf for that frame's phone window and pdf-class.
func TestTreeBuildingOnKaldiMini(t *testing.T) {
	k := shareddata.Full(t, "kaldi-mini")
	if _, err := exec.LookPath("gunzip"); err != nil {
		t.Skip("needs gunzip")
	}
	d := t.TempDir()
	p := func(name string) string { return filepath.Join(d, name) }
	// wav.scp with absolute paths.
	scp, err := os.ReadFile(filepath.Join(k, "data/train/wav.scp"))
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(string(scp)), "\n") {
		f := strings.Fields(l)
		lines = append(lines, f[0]+" "+filepath.Join(k, f[1]))
	}
	if err := os.WriteFile(p("wav.scp"), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	lang := filepath.Join(k, "data/lang")
	mono := filepath.Join(k, "exp/mono/final.mdl")
	ali := "ark:gunzip -c " + filepath.Join(k, "exp/mono/ali.1.gz") + " |"
	runDecoderCmd(t, "compute-mfcc-feats", "--config="+filepath.Join(k, "conf/mfcc.conf"), "scp:"+p("wav.scp"), "ark,scp:"+p("raw.ark")+","+p("raw.scp"))
	runDecoderCmd(t, "compute-cmvn-stats", "--spk2utt=ark:"+filepath.Join(k, "data/train/spk2utt"), "scp:"+p("raw.scp"), "ark:"+p("cmvn.ark"))
	runDecoderCmd(t, "apply-cmvn", "--norm-vars=false", "--utt2spk=ark:"+filepath.Join(k, "data/train/utt2spk"), "ark:"+p("cmvn.ark"), "scp:"+p("raw.scp"), "ark:"+p("cmn.ark"))
	runDecoderCmd(t, "add-deltas", "ark:"+p("cmn.ark"), "ark:"+p("feats.ark"))
	runDecoderCmd(t, "acc-tree-stats", "--ci-phones=1", mono, "ark:"+p("feats.ark"), ali, p("1.treeacc"))
	runDecoderCmd(t, "sum-tree-stats", p("treeacc"), p("1.treeacc"))
	runDecoderCmd(t, "cluster-phones", p("treeacc"), filepath.Join(lang, "phones/sets.int"), p("questions.int"))
	runDecoderCmd(t, "compile-questions", filepath.Join(lang, "topo"), p("questions.int"), p("questions.qst"))
	runDecoderCmd(t, "build-tree", "--max-leaves=60", p("treeacc"), filepath.Join(lang, "phones/roots.int"), p("questions.qst"), filepath.Join(lang, "topo"), p("tree"))
	runDecoderCmd(t, "gmm-init-model", "--write-occs="+p("1.occs"), p("tree"), p("treeacc"), filepath.Join(lang, "topo"), p("1.mdl"))
	runDecoderCmd(t, "convert-ali", mono, p("1.mdl"), p("tree"), ali, "ark:"+p("ali.1"))
	// Initialised from the monophone system instead: its Gaussians, the
	// same transition model.
	runDecoderCmd(t, "gmm-init-model", p("tree"), p("treeacc"), filepath.Join(lang, "topo"), p("2.mdl"), filepath.Join(k, "exp/mono/tree"), mono)
	if info := runDecoderCmd(t, "gmm-info", p("2.mdl")); !strings.Contains(info, "number of gaussians") || strings.Contains(info, "number of gaussians 56\n") {
		t.Errorf("model initialised from the monophone one: %s", info)
	}

	// The new model with the old tree: a mismatch, not a silent conversion.
	if code, _, stderr := runStrode(t, "", "convert-ali", mono, p("1.mdl"), filepath.Join(k, "exp/mono/tree"), ali, "ark:"+p("bad.ali")); code == 0 || !strings.Contains(stderr, "model and tree do not match") {
		t.Errorf("convert-ali with a tree of another model: exit %d, %q", code, stderr)
	}

	stats, err := tree.ReadBuildTreeStats(p("treeacc"))
	if err != nil {
		t.Fatal(err)
	}
	if d, _ := stats.Dim(); d != 39 || len(stats) < 100 {
		t.Fatalf("%d stats of dimension %d", len(stats), d)
	}
	ctx, err := tree.Read(p("tree"))
	if err != nil {
		t.Fatal(err)
	}
	n := ctx.NumPdfs()
	if n > 60 || n%8 != 0 || n <= 20 {
		t.Errorf("tree has %d pdfs: want more than the 20 roots, at most 60, a multiple of 8", n)
	}
	t.Logf("kaldi-mini tree: %d pdfs from %d stats", n, len(stats))
	for _, st := range stats {
		if _, ok := ctx.ToPdf.Map(st.Event); !ok {
			t.Errorf("tree has no pdf for seen context %v", st.Event)
		}
	}
	// Text and binary forms read back to the same tree.
	runDecoderCmd(t, "copy-tree", "--binary=false", p("tree"), p("tree.txt"))
	runDecoderCmd(t, "copy-tree", p("tree.txt"), p("tree.bin"))
	sameDecoderFile(t, p("tree.bin"), p("tree"))

	tm, err := hmm.ReadTransitionModel(p("1.mdl"))
	if err != nil {
		t.Fatal(err)
	}
	if tm.NumPdfs() != n {
		t.Errorf("model has %d pdfs, tree %d", tm.NumPdfs(), n)
	}
	runDecoderCmd(t, "ali-to-pdf", p("1.mdl"), "ark:"+p("ali.1"), "ark,t:"+p("pdf.txt"))
	runDecoderCmd(t, "ali-to-phones", mono, ali, "ark,t:"+p("phones.old"))
	runDecoderCmd(t, "ali-to-phones", p("1.mdl"), "ark:"+p("ali.1"), "ark,t:"+p("phones.new"))
	sameDecoderFile(t, p("phones.new"), p("phones.old"))
	pdfs := readIntTable(t, p("pdf.txt"))
	alis, err := kaldiio.OpenSequentialReader("ark:"+p("ali.1"), kaldiio.IntVectorCodec)
	if err != nil {
		t.Fatal(err)
	}
	defer alis.Close()
	utts, frames := 0, 0
	for alis.Next() {
		a := alis.Value()
		split, ok, err := align.SplitToPhones(tm, a)
		if err != nil || !ok {
			t.Fatalf("%s: converted alignment does not split into phones (%v)", alis.Key(), err)
		}
		phones := make([]int32, len(split))
		for i, s := range split {
			phones[i] = tm.TransitionIDToPhone(s[0])
		}
		f := 0
		for i, s := range split {
			window := []int32{0, phones[i], 0}
			if i > 0 {
				window[0] = phones[i-1]
			}
			if i+1 < len(phones) {
				window[2] = phones[i+1]
			}
			for _, tid := range s {
				entry, _ := tm.Topo.TopologyForPhone(phones[i])
				pc := entry[tm.TransitionIDToHmmState(tid)].ForwardPdfClass
				want, err := ctx.Compute(window, pc)
				if err != nil || pdfs[alis.Key()][f] != want {
					t.Fatalf("%s frame %d: ali-to-pdf gives %d, the tree %d for %v pdf-class %d (%v)", alis.Key(), f, pdfs[alis.Key()][f], want, window, pc, err)
				}
				f++
			}
		}
		utts++
		frames += f
	}
	if err := alis.Err(); err != nil {
		t.Fatal(err)
	}
	if utts != 160 {
		t.Errorf("converted %d alignments, want 160", utts)
	}
	t.Logf("checked %d frames of %d utterances", frames, utts)
}

func readIntTable(t *testing.T, path string) map[string][]int32 {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	out := map[string][]int32{}
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		var v []int32
		for _, s := range f[1:] {
			var x int32
			for _, c := range s {
				x = 10*x + int32(c-'0')
			}
			v = append(v, x)
		}
		out[f[0]] = v
	}
	return out
}
