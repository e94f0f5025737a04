package kaldi

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestNnetFeatsFmllrKaldiMini runs the recipe from scratch on kaldi-mini up
// the GMM ladder to tri3 with --nnet-feats fmllr --quick: the networks take
// the tri3 system's fMLLR features (40 per frame: LDA+MLLT's dimension), in
// training (data-fmllr/train_tr and _cv, the transforms of align_fmllr.sh)
// and in decoding (data-fmllr/test, the transforms of tri3's decode of the
// test set), with the global CMVN of the training set, and decode the test
// set within the networks' bar. A re-run from stage 4 redoes nothing.
func TestNnetFeatsFmllrKaldiMini(t *testing.T) {
	if testing.Short() {
		t.Skip("trains the GMM ladder and two networks on fMLLR features (about 3 minutes on 2 cores): without -short")
	}
	dir, args, out := runFromScratch(t, "--gmm-ladder", "tri3", "--nnet-feats", "fmllr")
	t.Logf("%s", out)
	for _, want := range []string{
		"train: fMLLR features of 160 of 160 utterances, dim 40, in data-fmllr/train (transforms exp/strode_tri3_ali/trans.*)",
		"test: fMLLR features of 30 of 30 utterances, dim 40, in data-fmllr/test (transforms exp/strode_tri3/decode_test/trans.*)",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q", want)
		}
	}
	read := func(rel string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(dir, rel))
		must(t, err)
		return string(b)
	}
	for _, m := range []string{"sru", "strode"} {
		c := exec.Command(strodeBin(t), "model-info", "exp/"+m+"/final.am")
		c.Dir = dir
		info, err := c.CombinedOutput()
		if err != nil {
			t.Fatalf("model-info exp/%s/final.am: %v\n%s", m, err, info)
		}
		for _, want := range []string{"transform-feats --utt2spk fMLLR of exp/strode_tri3", "raw dim 40;", "CMVN table"} {
			if !strings.Contains(string(info), want) {
				t.Errorf("exp/%s/final.am: the pipeline lacks %q:\n%s", m, want, info)
			}
		}
		train := read("exp/" + m + "/log/train.log")
		for _, want := range []string{"--cmvn=ark:data-fmllr/global_cmvn.ark --utt2spk=ark:data-fmllr/train/utt2global",
			"--cv-feats=scp:data-fmllr/train_cv/feats.scp", "scp:data-fmllr/train_tr/feats.scp"} {
			if !strings.Contains(train, want) {
				t.Errorf("exp/%s/log/train.log: trained without %q", m, want)
			}
		}
		decode := read("exp/" + m + "/decode_test/log/decode.1.log")
		for _, want := range []string{"--cmvn=ark:data-fmllr/global_cmvn.ark --utt2spk=ark:data-fmllr/test/utt2global",
			"scp:data-fmllr/test/split2/1/feats.scp"} {
			if !strings.Contains(decode, want) {
				t.Errorf("exp/%s/decode_test/log/decode.1.log: decoded without %q", m, want)
			}
		}
		// %WER 1.82 [ 2 / 110, 2 ins, 0 del, 0 sub ] exp/sru/decode_test/wer_4_0.0
		fs := strings.Fields(read("exp/" + m + "/decode_test/best_wer"))
		if len(fs) < 6 || fs[0] != "%WER" || fs[5] != "110," {
			t.Fatalf("exp/%s/decode_test/best_wer: %q", m, fs)
		}
		wer, err := strconv.ParseFloat(fs[1], 64)
		must(t, err)
		if wer > fromScratchWERBar {
			t.Errorf("%s on fMLLR features: %.2f %% WER, the networks' bar is %.0f %%", m, wer, fromScratchWERBar)
		}
	}
	// Re-run from stage 4: the features, models and decodes are done.
	out, err := recipe(t, dir, append(args, "--stage", "4", "--stop-stage", "6")...).CombinedOutput()
	if err != nil {
		t.Fatalf("run.sh --stage 4 again: %v\n%s", err, out)
	}
	for _, want := range []string{"train: fMLLR features done before", "test: fMLLR features done before",
		"sru: done before", "strode: done before", "sru test: done before", "tri3 test: done before"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the re-run lacks %q:\n%s", want, out)
		}
	}
}

// --nnet-feats fmllr needs the tri3 system's transforms: from scratch with
// --gmm-ladder tri3, offline; it says so before any work.
func TestNnetFeatsOptions(t *testing.T) {
	dir := copyExperiment(t)
	scratch := []string{"--dict", "data/local/dict", "--train", "data/train", "--dev", "", "--test", "data/test",
		"--oov", "<SIL>", "--stop-stage", "0", "--lang", "data/lang_new"}
	for _, c := range []struct {
		args []string
		want string
	}{
		{append(scratch, "--nnet-feats", "fmllr", "--gmm-ladder", "tri2"),
			"--nnet-feats fmllr needs the tri3 (SAT) system's transforms: run from scratch (--dict) with --gmm-ladder tri3 (here: --gmm-ladder tri2)"},
		{append(scratch, "--nnet-feats", "fmllr"), "(here: --gmm-ladder mono)"},
		{[]string{"--nnet-feats", "fmllr", "--stop-stage", "0"}, "--gmm-ladder tri3 (here: no --dict)"},
		{append(scratch, "--nnet-feats", "fmllr", "--gmm-ladder", "tri3", "--causal", "true"),
			"--nnet-feats fmllr and --causal exclude each other"},
		{append(scratch, "--nnet-feats", "mfcc"), "--nnet-feats must be fbank or fmllr, not 'mfcc'"},
	} {
		out, err := recipe(t, dir, c.args...).CombinedOutput()
		checkFailure(t, out, err, []string{c.want})
	}
	if _, err := os.Stat(filepath.Join(dir, "data/lang_new")); err == nil {
		t.Error("a run with bad options made data/lang_new")
	}
}

// TestSpeedPerturbFmllrKaldiMini runs the recipe from scratch on kaldi-mini
// up to tri3 with --speed-perturb true --nnet-feats fmllr --quick, as Kaldi's
// recipes give the perturbed copies fMLLR features: align_fmllr.sh of the
// copy with tri3 (exp/strode_tri3_ali_sp) estimates a transform per speaker
// of the copy, sp0.9-SPK and sp1.1-SPK each a speaker of its own, and the
// networks train on the copy's features through those (data-fmllr/train_sp,
// its _tr and _cv) with the copy's global CMVN, then decode the unperturbed
// test set through tri3's decode within the networks' bar.
func TestSpeedPerturbFmllrKaldiMini(t *testing.T) {
	if testing.Short() {
		t.Skip("trains the GMM ladder and two networks on fMLLR features of 3x kaldi-mini's training set (about 5 minutes on 2 loaded cores): without -short")
	}
	dir, _, out := runFromScratch(t, "--gmm-ladder", "tri3", "--nnet-feats", "fmllr", "--speed-perturb", "true")
	t.Logf("%s", out)
	path := func(p string) string { return filepath.Join(dir, p) }
	if !strings.Contains(string(out), "train_sp: fMLLR features of 480 of 480 utterances, dim 40, in data-fmllr/train_sp (transforms exp/strode_tri3_ali_sp/trans.*)") {
		t.Errorf("output lacks the fMLLR features of the 480 perturbed utterances")
	}

	// One transform per speaker of the copy: 3x the training speakers,
	// each a speaker of data-sp/train_sp.
	spk := readTable(t, path("data-sp/train_sp/spk2utt"))
	train := readTable(t, path("data/train/spk2utt"))
	c := exec.Command("bash", "-c", `cat exp/strode_tri3_ali_sp/trans.* | "$0" copy-matrix ark:- ark,t:- | grep '\[$' | cut -d' ' -f1`, strodeBin(t))
	c.Dir = dir
	keys, err := c.Output()
	if err != nil {
		t.Fatalf("reading exp/strode_tri3_ali_sp/trans.*: %v", err)
	}
	got := map[string]bool{}
	for _, k := range strings.Fields(string(keys)) {
		if _, ok := spk[k]; !ok {
			t.Errorf("exp/strode_tri3_ali_sp/trans.*: %s is not a speaker of data-sp/train_sp", k)
		}
		got[k] = true
	}
	if len(spk) != 3*len(train) || len(got) != len(spk) {
		t.Errorf("%d transforms for the %d speakers of data-sp/train_sp (want 3 x %d)", len(got), len(spk), len(train))
	}
	for s := range train {
		if !got["sp0.9-"+s] || !got["sp1.1-"+s] || !got[s] {
			t.Errorf("speaker %s: no transform for each of its three copies", s)
		}
	}

	for _, m := range []string{"sru", "strode"} {
		b, err := os.ReadFile(path("exp/" + m + "/log/train.log"))
		must(t, err)
		for _, w := range []string{"scp:data-fmllr/train_sp_tr/feats.scp", "--cv-feats=scp:data-fmllr/train_sp_cv/feats.scp",
			"--cmvn=ark:data-fmllr/global_cmvn.ark --utt2spk=ark:data-fmllr/train_sp/utt2global",
			"exp/strode_tri3_ali_sp/ali.*.gz", "training: exp/strode_tri3_ali_sp/trans.*"} {
			if !strings.Contains(string(b), w) {
				t.Errorf("exp/%s/log/train.log does not name %s", m, w)
			}
		}
		fs := strings.Fields(string(readFile(t, path("exp/"+m+"/decode_test/best_wer"))))
		if len(fs) < 6 || fs[0] != "%WER" || fs[5] != "110," {
			t.Fatalf("exp/%s/decode_test/best_wer: %q", m, fs)
		}
		wer, err := strconv.ParseFloat(fs[1], 64)
		must(t, err)
		if wer > fromScratchWERBar {
			t.Errorf("%s on the perturbed copy's fMLLR features: %.2f %% WER, the networks' bar is %.0f %%", m, wer, fromScratchWERBar)
		}
	}
}
