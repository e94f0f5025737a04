package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/strode-asr/strode/decoder/gmm"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/internal/shareddata"
	"github.com/strode-asr/strode/kaldiio"
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
// The test WER is not Kaldi's 0.91 % (measured 18.18 %: 20 insertions, 18
// of them "three" over an utterance's trailing silence). Where that comes
// from is asserted here and in TestKaldiMonoDecodeHingesOnOneGaussian:
// strode decodes Kaldi's own model at 0.91 %, so features, CMN, graph and
// decoder are not it; our model with only SIL's first state (pdf 0) taken
// from Kaldi's decodes at 0.91 %; and strode's EM continued from Kaldi's
// model and alignment keeps Kaldi's WER, so the update does not undo
// Kaldi's solution. What differs is which of SIL's states ends up with each
// utterance's trailing run of digitally silent frames (after per-speaker CMN
// one point per speaker, fit by variance-floored point masses): the two
// states compete with near-equal likelihoods, and Kaldi's run left one
// broad Gaussian in pdf 0 that covers the test speakers' points, ours only
// point masses. 14 variants of this loop that keep mixing up's draws
// (uncompressed features, jobs 2 and 4, features perturbed by ±2e-5 before
// compression, likelihoods in double) all land at 18-21 %; other draws land
// anywhere from 1.82 % to 19 % (TestTrainMonoMixUpLottery).
func TestTrainMonoOnKaldiMini(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a monophone GMM for 40 iterations (about 15 s); runs without -short")
	}
	k := shareddata.Full(t, "kaldi-mini")
	tmp := t.TempDir()
	p := func(n string) string { return filepath.Join(tmp, n) }
	feats := mfccDeltas(t, k, "train", tmp)
	final, likes := trainMonoKaldiMini(t, k, feats, tmp)
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

	// strode's EM continued from Kaldi's model and its alignment (three
	// rounds of realignment and update, mixing up to train_mono.sh's last
	// target) keeps pdf 0's broad Gaussian; decoded below.
	kmdl := p("k0.mdl")
	copyFileT(t, filepath.Join(k, "exp/mono/final.mdl"), kmdl)
	writeFileT(t, p("kali.txt"), readDecoderString(t, filepath.Join(k, "exp/mono/ali.1.txt.ark")))
	kali := "ark:" + p("kali.txt")
	for x := 0; x < 3; x++ {
		if x > 0 {
			runDecoderCmd(t, "gmm-align-compiled", "--transition-scale=1.0", "--acoustic-scale=0.1", "--self-loop-scale=0.1",
				"--beam=10", "--retry-beam=40", kmdl, "ark:"+p("fsts"), feats, "ark:"+p("kali"))
			kali = "ark:" + p("kali")
		}
		runDecoderCmd(t, "gmm-acc-stats-ali", kmdl, feats, kali, p("kacc"))
		runDecoderCmd(t, "gmm-est", "--mix-up=392", "--power=0.25", kmdl, p("kacc"), kmdl)
	}

	// Decoding the test set with the model.
	lang := filepath.Join(k, "data/lang")
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
	ourWER, ourLine := decodeKaldiMiniTest(t, final, p("exp/graph"), tfeats, p("dec"))
	if ourWER > 20 {
		t.Errorf("test WER %g %%, want at most 20 %% (Kaldi's model: 0.91 %%)", ourWER)
	}
	// What the WER hinges on: our model with the GMM of SIL's first state
	// (pdf 0) taken from Kaldi's model, the other 61 pdfs and the
	// transitions ours, decodes at Kaldi's WER.
	swapped := p("swapped.mdl")
	editModel(t, final, swapped, func(m *gmm.Model) {
		km, err := gmm.ReadModel(filepath.Join(k, "exp/mono/final.mdl"))
		if err != nil {
			t.Fatal(err)
		}
		m.AM.Pdfs[0] = km.AM.Pdfs[0]
	})
	if w, line := decodeKaldiMiniTest(t, swapped, p("exp/graph"), tfeats, p("dec_swapped")); w > 0.91 {
		t.Errorf("our model with Kaldi's pdf 0: %s; want Kaldi's 0.91 %%", line)
	}
	if w, line := decodeKaldiMiniTest(t, kmdl, filepath.Join(k, "exp/mono/graph"), tfeats, p("dec_kaldi_cont")); w > 0.91 {
		t.Errorf("strode's EM continued from Kaldi's model: %s; want Kaldi's 0.91 %%", line)
	}
	t.Logf("likelihood per frame %.2f -> %.2f; %d of %d frames on Kaldi's phone; %s", likes[0], likes[len(likes)-1], same, frames, ourLine)
}

// Kaldi's own monophone model (kaldi-mini's exp/mono/final.mdl) decoded by
// strode on strode's MFCCs of the test set, as steps/decode.sh and
// score_kaldi.sh do (gmm-compute-likes | latgen-faster-mapped, LM weight 7),
// gives Kaldi's 0.91 %: strode's features, CMN, graph and decoder are not
// what keeps a model trained by strode from it. And the 0.91 % rests on one
// Gaussian: SIL's first state (pdf 0) has ten, nine of them point masses
// (variance floored at 0.001) on training speakers' digitally silent
// frames, one broad (C0 variance 6.2, weight 0.014) between two speakers'.
// Per-speaker CMN moves a speaker's silent point between training and test,
// so only the broad one covers the test set's: without it, trailing
// silence decodes as a word (insertions, 13.6 %).
func TestKaldiMonoDecodeHingesOnOneGaussian(t *testing.T) {
	k := shareddata.Full(t, "kaldi-mini")
	tmp := t.TempDir()
	feats := mfccDeltas(t, k, "test", tmp)
	mdl, graph := filepath.Join(k, "exp/mono/final.mdl"), filepath.Join(k, "exp/mono/graph")
	if w, line := decodeKaldiMiniTest(t, mdl, graph, feats, filepath.Join(tmp, "kaldi")); w != 0.91 {
		t.Errorf("Kaldi's model decoded by strode: %s; want Kaldi's 0.91 %%", line)
	}
	without := filepath.Join(tmp, "without.mdl")
	editModel(t, mdl, without, func(m *gmm.Model) {
		g := &m.AM.Pdfs[0]
		broad := 0
		for i := range g.Weights {
			if g.InvVars[i*g.Dim] < g.InvVars[broad*g.Dim] {
				broad = i
			}
		}
		if v := 1 / g.InvVars[broad*g.Dim]; v < 1 || g.Weights[broad] > 0.05 {
			t.Fatalf("pdf 0's broadest Gaussian has C0 variance %g, weight %g: not the model described", v, g.Weights[broad])
		}
		g.RemoveComponents([]int{broad})
		if _, err := g.ComputeGconsts(); err != nil {
			t.Fatal(err)
		}
	})
	w, line := decodeKaldiMiniTest(t, without, graph, feats, filepath.Join(tmp, "without"))
	if w < 10 || !strings.Contains(line, " 0 del, 0 sub ") {
		t.Errorf("Kaldi's model without pdf 0's broad Gaussian: %s; want at least 10 %%, insertions only", line)
	}
	t.Logf("without pdf 0's broad Gaussian: %s", line)
}

// trainMonoKaldiMini runs steps/train_mono.sh --totgauss 400 on feats
// (kaldi-mini's training set) in dir with strode's GMM commands: the final
// model's path and gmm-est's likelihood per frame of each iteration.
func trainMonoKaldiMini(t *testing.T, k, feats, dir string) (string, []float64) {
	t.Helper()
	p := func(n string) string { return filepath.Join(dir, n) }
	lang := filepath.Join(k, "data/lang")
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
	return p(fmt.Sprintf("%d.mdl", iters)), likes
}

// The test WER of the same training is a lottery over mixing up's random
// draws: with glibc seeds other than Kaldi's 1 the loop lands anywhere
// between Kaldi's WER and 20 % (measured over seeds 2-9: 10.00, 8.18,
// 19.09, 17.27, 18.18, 15.45, 16.36, 1.82 %), and fewer frames on Kaldi's
// phone (94-95 %) than with Kaldi's seed (98.0 %). So Kaldi's 0.91 % is one
// draw, and the seed-1 run matching Kaldi's alignment best is what ties
// strode's draws to Kaldi's.
func TestTrainMonoMixUpLottery(t *testing.T) {
	if testing.Short() {
		t.Skip("trains two monophone GMMs (about 10 s); runs without -short")
	}
	k := shareddata.Full(t, "kaldi-mini")
	tmp := t.TempDir()
	feats := mfccDeltas(t, k, "train", tmp)
	tfeats := mfccDeltas(t, k, "test", tmp)
	defer func() { gmm.MixUpSeed = 1 }()
	for _, c := range []struct {
		seed    uint32
		wantWER float64
	}{{3, 8.18}, {9, 1.82}} {
		gmm.MixUpSeed = c.seed
		dir := filepath.Join(tmp, fmt.Sprint("seed", c.seed))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		final, _ := trainMonoKaldiMini(t, k, feats, dir)
		w, line := decodeKaldiMiniTest(t, final, filepath.Join(k, "exp/mono/graph"), tfeats, filepath.Join(dir, "dec"))
		if w != c.wantWER {
			t.Errorf("mixing-up seed %d: %s; want %.2f %%", c.seed, line, c.wantWER)
		}
		t.Logf("mixing-up seed %d: %s", c.seed, line)
	}
}

// decodeKaldiMiniTest decodes feats (kaldi-mini's test set) with mdl and
// graphDir's HCLG as steps/decode.sh does (latgen-faster-mapped on
// gmm-compute-likes, its default beams, acoustic scale 0.083333), takes the
// best path at LM weight 7 and scores it against data/test/text: the %WER
// and compute-wer's line.
func decodeKaldiMiniTest(t *testing.T, mdl, graphDir, feats, dir string) (float64, string) {
	t.Helper()
	k := shareddata.Full(t, "kaldi-mini")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := func(n string) string { return filepath.Join(dir, n) }
	runDecoderCmd(t, "gmm-compute-likes", mdl, feats, "ark:"+p("loglikes"))
	runDecoderCmd(t, "latgen-faster-mapped", "--max-active=7000", "--beam=13.0", "--lattice-beam=6.0", "--acoustic-scale=0.083333",
		"--allow-partial=true", mdl, filepath.Join(graphDir, "HCLG.fst"), "ark:"+p("loglikes"), "ark:"+p("lat"))
	runDecoderCmd(t, "lattice-best-path", "--lm-scale=7", "ark:"+p("lat"), "ark,t:"+p("hyp.int"))
	writeFileT(t, p("hyp.txt"), runDecoderCmd(t, "int2sym", "--field=2-", filepath.Join(graphDir, "words.txt"), p("hyp.int")))
	out := runDecoderCmd(t, "compute-wer", "--mode=present", "ark:"+filepath.Join(k, "data/test/text"), "ark:"+p("hyp.txt"))
	line := strings.SplitN(out, "\n", 2)[0]
	m := regexp.MustCompile(`%WER ([0-9.]+)`).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("compute-wer:\n%s", out)
	}
	w, _ := strconv.ParseFloat(m[1], 64)
	return w, line
}

// editModel reads the GMM model in, applies edit and writes it to out.
func editModel(t *testing.T, in, out string, edit func(*gmm.Model)) {
	t.Helper()
	m, err := gmm.ReadModel(in)
	if err != nil {
		t.Fatal(err)
	}
	edit(m)
	if err := kaldiio.WriteObject(out, gmm.ModelCodec, true, m); err != nil {
		t.Fatal(err)
	}
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
