package main

import (
	"io"

	"fmt"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/strode-asr/strode/internal/shareddata"
)

// absWavScp writes kaldi-mini's SET/wav.scp with absolute paths into dir.
func absWavScp(t *testing.T, k, set, dir string) string {
	t.Helper()
	scp, err := os.ReadFile(filepath.Join(k, "data", set, "wav.scp"))
	if err != nil {
		t.Fatal(err)
	}
	var abs strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(string(scp)), "\n") {
		f := strings.Fields(line)
		fmt.Fprintf(&abs, "%s %s\n", f[0], filepath.Join(k, f[1]))
	}
	path := filepath.Join(dir, set+"_wav.scp")
	if err := os.WriteFile(path, []byte(abs.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// mfccDeltas makes kaldi-mini's features of SET as Kaldi's recipe did
// (conf/mfcc.conf, compressed, per-speaker CMN, deltas) into
// dir/SET_feats.ark.
func mfccDeltas(t *testing.T, k, set, dir string) string {
	t.Helper()
	p := func(n string) string { return filepath.Join(dir, set+"_"+n) }
	// Compressed as steps/make_mfcc.sh stores them (copy-feats
	// --compress=true): Kaldi's exp/mono trained and decoded on those.
	runDecoderCmd(t, "compute-mfcc-feats", "--config="+filepath.Join(k, "conf/mfcc.conf"), "scp:"+absWavScp(t, k, set, dir), "ark:"+p("raw.ark"))
	runDecoderCmd(t, "copy-feats", "--compress=true", "ark:"+p("raw.ark"), "ark:"+p("mfcc.ark"))
	runDecoderCmd(t, "compute-cmvn-stats", "--spk2utt=ark:"+filepath.Join(k, "data", set, "spk2utt"), "ark:"+p("mfcc.ark"), "ark:"+p("cmvn.ark"))
	runDecoderCmd(t, "apply-cmvn", "--utt2spk=ark:"+filepath.Join(k, "data", set, "utt2spk"), "ark:"+p("cmvn.ark"), "ark:"+p("mfcc.ark"), "ark:"+p("cmn.ark"))
	runDecoderCmd(t, "add-deltas", "ark:"+p("cmn.ark"), "ark:"+p("feats.ark"))
	return "ark:" + p("feats.ark")
}

// Kaldi's steps/train_mono.sh (--totgauss 400, as kaldi-mini's recipe ran
// it) with strode's GMM tools alone, on kaldi-mini's training set: the
// likelihood rises, the model has Kaldi's size, every training utterance
// gets the phone sequence of Kaldi's alignment and at least 95 % of the
// frames its phone (measured 98.0 %: the flat start is Kaldi's, from
// Kaldi's graphs and compressed features), and the test set decodes.
//
// The test WER is not Kaldi's 0.91 % (measured 19.1 %, 21 insertions of a
// word over trailing silence): our MFCCs differ from Kaldi's by ~1e-5,
// enough to move compression's quantisation, and the EM is chaotic in its
// details. What decides the WER is which Gaussians of SIL's first state
// cover the test speakers' digitally silent frames: after per-speaker CMN
// each speaker's are one point, fit by variance-floored Gaussians in
// training, and the test set's CMN moves that point. Kaldi's model kept one
// broad Gaussian there (C0 variance 6.2); ours, point masses only.

func TestTrainMonoOnKaldiMini(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a monophone GMM for 40 iterations (about 15 s); runs without -short")
	}
	k := shareddata.Full(t, "kaldi-mini")
	tmp := t.TempDir()
	p := func(n string) string { return filepath.Join(tmp, n) }
	lang := filepath.Join(k, "data/lang")
	feats := mfccDeltas(t, k, "train", tmp)
	runDecoderCmd(t, "gmm-init-mono", "--shared-phones="+filepath.Join(lang, "phones/sets.int"), "--train-feats="+feats,
		filepath.Join(lang, "topo"), "39", p("0.mdl"), p("tree"))
	textInt := runDecoderCmd(t, "sym2int", "--map-oov="+strings.TrimSpace(readDecoderString(t, filepath.Join(lang, "oov.int"))), "--field=2-",
		filepath.Join(lang, "words.txt"), filepath.Join(k, "data/train/text"))
	writeFileT(t, p("text.int"), textInt)
	runDecoderCmd(t, "compile-train-graphs", "--read-disambig-syms="+filepath.Join(lang, "phones/disambig.int"), p("tree"), p("0.mdl"),
		filepath.Join(lang, "L.fst"), "ark:"+p("text.int"), "ark:"+p("fsts"))
	runDecoderCmd(t, "align-equal-compiled", "ark:"+p("fsts"), feats, "ark:"+p("ali"))
	runDecoderCmd(t, "gmm-acc-stats-ali", p("0.mdl"), feats, "ark:"+p("ali"), p("0.acc"))
	runDecoderCmd(t, "gmm-sum-accs", p("0.sum"), p("0.acc"))
	runDecoderCmd(t, "gmm-est", "--min-gaussian-occupancy=3", "--mix-up=62", "--power=0.25", p("0.mdl"), p("0.sum"), p("1.mdl"))
	realign := map[int]bool{}
	for _, x := range []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 14, 16, 18, 20, 23, 26, 29, 32, 35, 38} {
		realign[x] = true
	}
	const iters, totGauss, maxInc = 40, 400, 30
	numGauss, incGauss := 62, (totGauss-62)/maxInc
	beam := 6
	var likes []float64
	overall := regexp.MustCompile(`avg like per frame = ([-0-9.e+]+)`)
	for x := 1; x < iters; x++ {
		mdl := p(fmt.Sprintf("%d.mdl", x))
		if realign[x] {
			runDecoderCmd(t, "gmm-align-compiled", "--transition-scale=1.0", "--acoustic-scale=0.1", "--self-loop-scale=0.1",
				"--beam="+strconv.Itoa(beam), "--retry-beam="+strconv.Itoa(4*beam), mdl, "ark:"+p("fsts"), feats, "ark:"+p("ali"))
		}
		runDecoderCmd(t, "gmm-acc-stats-ali", mdl, feats, "ark:"+p("ali"), p("acc"))
		var errb strings.Builder
		code := app.Run([]string{"strode", "gmm-est", "--mix-up=" + strconv.Itoa(numGauss), "--power=0.25", mdl, p("acc"), p(fmt.Sprintf("%d.mdl", x+1))},
			kaldicmdStreams(&errb))
		if code != 0 {
			t.Fatalf("gmm-est iteration %d: %s", x, errb.String())
		}
		m := overall.FindStringSubmatch(errb.String())
		if m == nil {
			t.Fatalf("gmm-est printed no likelihood:\n%s", errb.String())
		}
		l, _ := strconv.ParseFloat(m[1], 64)
		likes = append(likes, l)
		if x <= maxInc {
			numGauss += incGauss
		}
		beam = 10
	}
	final := p(fmt.Sprintf("%d.mdl", iters))
	if likes[len(likes)-1] < likes[0]+30 {
		t.Errorf("likelihood per frame %g at iteration 1, %g at the end: EM did not climb", likes[0], likes[len(likes)-1])
	}
	info := runDecoderCmd(t, "gmm-info", final)
	if !strings.Contains(info, "number of gaussians 39") { // 390-399, Kaldi's 396
		t.Errorf("gmm-info:\n%s", info)
	}

	// The alignment against Kaldi's: same phones in order everywhere, most frames.
	ours := readTextTable(runDecoderCmd(t, "ali-to-phones", "--per-frame=true", final, "ark:"+p("ali"), "ark,t:-"))
	kaldi := readTextTable(readDecoderString(t, filepath.Join(k, "exp/mono/ali.1.phones_perframe.txt.ark")))
	same, frames, sameSeq := 0, 0, 0
	for utt, want := range kaldi {
		w, g := strings.Fields(want), strings.Fields(ours[utt])
		if len(w) != len(g) {
			t.Fatalf("%s: %d frames aligned, Kaldi %d", utt, len(g), len(w))
		}
		for i := range w {
			if w[i] == g[i] {
				same++
			}
		}
		frames += len(w)
		if collapse(w) == collapse(g) {
			sameSeq++
		}
	}
	if sameSeq != len(kaldi) || float64(same) < 0.95*float64(frames) {
		t.Errorf("phone sequences equal to Kaldi's in %d of %d utterances, frames on Kaldi's phone %d of %d", sameSeq, len(kaldi), same, frames)
	}

	// Decoding the test set with the model.
	lt := p("lang_test")
	for _, f := range []string{"words.txt", "phones.txt", "topo", "L.fst", "L_disambig.fst", "oov.int", "oov.txt"} {
		copyFileT(t, filepath.Join(lang, f), filepath.Join(lt, f))
	}
	copyDirT(t, filepath.Join(lang, "phones"), filepath.Join(lt, "phones"))
	copyFileT(t, filepath.Join(k, "data/lang_test/G.fst"), filepath.Join(lt, "G.fst"))
	copyFileT(t, final, p("exp/final.mdl"))
	copyFileT(t, p("tree"), p("exp/tree"))
	runDecoderCmd(t, "mkgraph", lt, p("exp"), p("exp/graph"))
	tfeats := mfccDeltas(t, k, "test", tmp)
	runDecoderCmd(t, "gmm-compute-likes", final, tfeats, "ark:"+p("test_loglikes"))
	runDecoderCmd(t, "latgen-faster-mapped", "--acoustic-scale=0.083333", "--allow-partial=true", final, p("exp/graph/HCLG.fst"),
		"ark:"+p("test_loglikes"), "ark:"+p("lat"))
	runDecoderCmd(t, "lattice-best-path", "--lm-scale=7", "ark:"+p("lat"), "ark,t:"+p("hyp.int"))
	writeFileT(t, p("hyp.txt"), runDecoderCmd(t, "int2sym", "--field=2-", p("exp/graph/words.txt"), p("hyp.int")))
	wer := runDecoderCmd(t, "compute-wer", "--mode=present", "ark:"+filepath.Join(k, "data/test/text"), "ark:"+p("hyp.txt"))
	m := regexp.MustCompile(`%WER ([0-9.]+)`).FindStringSubmatch(wer)
	if m == nil {
		t.Fatalf("compute-wer:\n%s", wer)
	}
	if w, _ := strconv.ParseFloat(m[1], 64); w > 20 {
		t.Errorf("test WER %g %%, want at most 20 %% (Kaldi's model: 0.91 %%)", w)
	}
	t.Logf("likelihood per frame %.2f -> %.2f; %d of %d frames on Kaldi's phone; %s", likes[0], likes[len(likes)-1], same, frames, strings.SplitN(wer, "\n", 2)[0])
}

// collapse is a per-frame phone string with repeats removed.
func collapse(frames []string) string {
	var out []string
	for i, f := range frames {
		if i == 0 || f != frames[i-1] {
			out = append(out, f)
		}
	}
	return strings.Join(out, " ")
}

// kaldicmdStreams runs a command in process with its stderr in errb.
func kaldicmdStreams(errb *strings.Builder) kaldicmd.Streams {
	return kaldicmd.Streams{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: errb}
}

func copyFileT(t *testing.T, src, dst string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func copyDirT(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		copyFileT(t, path, filepath.Join(dst, rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func writeFileT(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}
