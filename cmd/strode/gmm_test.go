package main

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strode-asr/strode/internal/shareddata"
)

// The whole of kaldi-mini's test set through strode alone — wav → MFCC →
// per-speaker CMN → deltas → gmm-compute-likes → latgen-faster-mapped →
// lattice-best-path → compute-wer — against Kaldi's decode of the same set
// (steps/decode.sh with gmm-latgen-faster): the same 1-best for all 30
// utterances at every LM weight of score_kaldi.sh's sweep, and Kaldi's exact
// WER lines.
func TestGmmDecodeOfKaldiMiniTestSetMatchesKaldi(t *testing.T) {
	k := shareddata.Full(t, "kaldi-mini") // the 30 test wavs are in ../shared only
	tmp := t.TempDir()
	p := func(name string) string { return filepath.Join(tmp, name) }

	mdl := filepath.Join(k, "exp/mono/final.mdl")
	words := filepath.Join(k, "exp/mono/graph/words.txt")
	feats := mfccDeltas(t, k, "test", tmp)
	runDecoderCmd(t, "gmm-compute-likes", mdl, feats, "ark:"+p("loglikes.ark"))
	runDecoderCmd(t, "latgen-faster-mapped", "--max-active=7000", "--beam=13.0", "--lattice-beam=6.0",
		"--acoustic-scale=0.083333", "--allow-partial=true", "--word-symbol-table="+words,
		mdl, filepath.Join(k, "exp/mono/graph/HCLG.fst"), "ark:"+p("loglikes.ark"), "ark:"+p("lat.ark"))

	// Kaldi's lattices, unzipped for the in-process tools.
	gunzipTo(t, filepath.Join(k, "exp/mono/decode_test/lat.1.gz"), p("kaldi_lat.ark"))

	bestPath := func(lat string, lmwt int, wip string) map[string]string {
		runDecoderCmd(t, "lattice-scale", fmt.Sprintf("--inv-acoustic-scale=%d", lmwt), "ark:"+lat, "ark:"+p("scaled.ark"))
		runDecoderCmd(t, "lattice-add-penalty", "--word-ins-penalty="+wip, "ark:"+p("scaled.ark"), "ark:"+p("pen.ark"))
		return readTextTable(runDecoderCmd(t, "lattice-best-path", "ark:"+p("pen.ark"), "ark,t:-"))
	}
	for lmwt := 7; lmwt <= 17; lmwt++ {
		for _, wip := range []string{"0.0", "0.5", "1.0"} {
			ours, kaldi := bestPath(p("lat.ark"), lmwt, wip), bestPath(p("kaldi_lat.ark"), lmwt, wip)
			if len(ours) != 30 || len(kaldi) != 30 {
				t.Fatalf("LMWT %d: %d 1-best paths from our lattices, %d from Kaldi's; want 30", lmwt, len(ours), len(kaldi))
			}
			for utt, w := range kaldi {
				if ours[utt] != w {
					t.Errorf("LMWT %d wip %s %s: our 1-best %q, Kaldi's %q", lmwt, wip, utt, ours[utt], w)
				}
			}
		}
	}

	// Kaldi's scoring at LMWT 7, penalty 0: the hypothesis text and
	// compute-wer's lines.
	syms := readSymbols(t, words)
	var hyp strings.Builder
	for utt, ids := range bestPath(p("lat.ark"), 7, "0.0") {
		hyp.WriteString(utt)
		for _, id := range strings.Fields(ids) {
			hyp.WriteString(" " + syms[id])
		}
		hyp.WriteString("\n")
	}
	if err := os.WriteFile(p("hyp.txt"), []byte(hyp.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	wantHyp := readTextTable(readDecoderString(t, filepath.Join(k, "exp/mono/decode_test/hyp_lmwt7_wip0.0.txt")))
	gotHyp := readTextTable(hyp.String())
	for utt, w := range wantHyp {
		if gotHyp[utt] != w {
			t.Errorf("%s: our hypothesis %q, Kaldi's %q", utt, gotHyp[utt], w)
		}
	}
	got := runDecoderCmd(t, "compute-wer", "--text", "--mode=present", "ark:"+filepath.Join(k, "exp/mono/decode_test/ref.txt"), "ark:"+p("hyp.txt"))
	if want := readDecoderString(t, filepath.Join(k, "golden/test5_wer_all30.txt")); got != want {
		t.Errorf("compute-wer:\n%s\nKaldi's:\n%s", got, want)
	}
}

func gunzipTo(t *testing.T, src, dst string) {
	t.Helper()
	f, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	out, err := os.Create(dst)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, zr); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// readTextTable maps each line's first field to the rest of the line,
// fields joined by one space.
func readTextTable(s string) map[string]string {
	m := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) > 0 {
			m[f[0]] = strings.Join(f[1:], " ")
		}
	}
	return m
}

// readSymbols maps integer ids (as text) to symbols.
func readSymbols(t *testing.T, path string) map[string]string {
	t.Helper()
	m := map[string]string{}
	for sym, id := range readTextTable(readDecoderString(t, path)) {
		m[id] = sym
	}
	return m
}
