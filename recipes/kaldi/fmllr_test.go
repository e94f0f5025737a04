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

// stage0Args are kaldi-mini's from-scratch options up to stage 0 (lang, LM,
// graph), with the lang dir in data/lang_new; a fresh slice each call.
func stage0Args() []string {
	return []string{"--dict", "data/local/dict", "--train", "data/train", "--dev", "", "--test", "data/test",
		"--oov", "<SIL>", "--stop-stage", "0", "--lang", "data/lang_new"}
}

// --nnet-feats fmllr needs the tri3 system's transforms: from scratch with
// --gmm-ladder tri3, offline; it says so before any work.
func TestNnetFeatsOptions(t *testing.T) {
	dir := copyExperiment(t)
	scratch := stage0Args()
	for _, c := range []struct {
		args []string
		want string
	}{
		{append(scratch, "--nnet-feats", "fmllr", "--gmm-ladder", "tri2"),
			"--nnet-feats fmllr needs the tri3 (SAT) system's transforms: run from scratch (--dict) with --gmm-ladder tri3 (here: --gmm-ladder tri2)"},
		{append(scratch, "--nnet-feats", "fmllr", "--quick"), "(here: --gmm-ladder mono)"}, // --quick keeps the monophone
		{append(scratch, "--nnet-feats", "fmllr", "--gmm-ladder", "tri3", "--causal", "true"),
			"--nnet-feats fmllr and --causal exclude each other"},
		{[]string{"--nnet-feats", "fmllr", "--stop-stage", "0"}, "--gmm-ladder tri3 (here: no --dict)"},
		{append(scratch, "--nnet-feats", "mfcc"), "--nnet-feats must be fbank, fmllr or auto, not 'mfcc'"},
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

// TestSpeedPerturbFmllrFeatsWiring (-short; TestSpeedPerturbFmllrKaldiMini
// is the whole run): with --speed-perturb true --nnet-feats fmllr, stage 4
// makes the fMLLR features of the perturbed copy (data-fmllr/train_sp, all
// 480 utterances) with the copy's own transforms (exp/strode_tri3_ali_sp,
// one per sp0.9-SPK, SPK, sp1.1-SPK), its global CMVN and the networks'
// training and held-out sets from them. A made-up finished run up to stage
// 3: kaldi-mini's MFCC under the copies' keys, a tri3 with a 40 x 91
// final.mat and [I|0] transforms, the networks done.
func TestSpeedPerturbFmllrFeatsWiring(t *testing.T) {
	dir := copyExperiment(t)
	c := exec.Command("bash", "-c", `set -euo pipefail
S=$0
mkdir -p mfcc data-sp/train_sp data-mfcc/train_sp data-fbank exp/strode_mono exp/strode_tri3 exp/strode_tri3_ali_sp exp/sru exp/strode
$S compute-mfcc-feats --config=conf/mfcc.conf scp:data/train/wav.scp ark,scp:$PWD/mfcc/raw_train.ark,mfcc/raw_train.scp 2>/dev/null
for p in sp0.9- "" sp1.1-; do
  awk -v p=$p '{print p $1, p $2}' data/train/utt2spk >> data-sp/train_sp/utt2spk.u
  awk -v p=$p '{print p $1, $1}' data/train/utt2spk >> data-sp/train_sp/utt2uniq.u
  awk -v p=$p '{$1 = p $1; print}' data/train/text >> data-sp/train_sp/text.u
  awk -v p=$p '{print p $0}' mfcc/raw_train.scp >> data-sp/train_sp/feats.scp.u
done
for f in utt2spk utt2uniq text feats.scp; do LC_ALL=C sort data-sp/train_sp/$f.u > data-sp/train_sp/$f; rm data-sp/train_sp/$f.u; done
$S utt2spk-to-spk2utt data-sp/train_sp/utt2spk > data-sp/train_sp/spk2utt 2>/dev/null
cp data-sp/train_sp/feats.scp data-sp/train_sp/feats.scp.keep; rm data-sp/train_sp/feats.scp
touch data-sp/train_sp/.done
cp -r data-sp/train_sp data-fbank/train_sp; mv data-fbank/train_sp/feats.scp.keep data-fbank/train_sp/feats.scp; rm data-sp/train_sp/feats.scp.keep
cp -r data-fbank/train_sp data-mfcc/
$S compute-cmvn-stats --spk2utt=ark:data-mfcc/train_sp/spk2utt scp:data-mfcc/train_sp/feats.scp ark,scp:$PWD/mfcc/cmvn_sp.ark,data-mfcc/train_sp/cmvn.scp 2>/dev/null
cp exp/mono/final.mdl exp/strode_mono/
echo "--left-context=3 --right-context=3" > exp/strode_tri3/splice_opts; touch exp/strode_tri3/cmvn_opts
awk 'BEGIN { print "["; for (i = 0; i < 40; i++) { for (j = 0; j < 91; j++) printf " %d", i == j; print (i == 39 ? " ]" : "") } }' > exp/strode_tri3/final.mat
cut -d' ' -f1 data-mfcc/train_sp/spk2utt | awk '{ print $1, "["; for (i = 0; i < 40; i++) { for (j = 0; j < 41; j++) printf " %d", i == j; print (i == 39 ? " ]" : "") } }' |
  $S copy-matrix ark,t:- ark:exp/strode_tri3_ali_sp/trans.1 2>/dev/null
touch exp/strode_tri3_ali_sp/.done exp/sru/.done exp/strode/.done`, strodeBin(t))
	c.Dir = dir
	if out, err := c.CombinedOutput(); err != nil {
		t.Fatalf("making the run: %v\n%s", err, out)
	}
	args := append(append([]string{}, fromScratchArgs...), "--lang", "data/lang", "--gmm-ladder", "tri3", "--nnet-feats", "fmllr",
		"--speed-perturb", "true", "--stage", "4", "--stop-stage", "4")
	out, err := recipe(t, dir, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("run.sh --speed-perturb true --nnet-feats fmllr --stage 4: %v\n%s", err, out)
	}
	for _, w := range []string{
		"train_sp: fMLLR features of 480 of 480 utterances, dim 40, in data-fmllr/train_sp (transforms exp/strode_tri3_ali_sp/trans.*)",
		"data-fmllr/train_sp_tr: ", "speed-perturbed: training on data-fmllr/train_sp_tr", "sru: done before",
	} {
		if !strings.Contains(string(out), w) {
			t.Errorf("stage 4 does not say %q:\n%s", w, out)
		}
	}
	for _, f := range []string{"data-fmllr/global_cmvn.ark", "data-fmllr/train_sp/utt2global", "data-fmllr/train_sp_cv/feats.scp"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
}

// The defaults from scratch: up the ladder to tri3, the networks on its
// alignments and fMLLR features; --quick keeps the monophone and fbank, and
// --causal (online decoding computes fbank) keeps fbank on tri3's alignments.
func TestNnetFeatsAuto(t *testing.T) {
	dir := copyExperiment(t)
	scratch := stage0Args()
	for _, c := range []struct {
		extra []string
		want  string
	}{
		{nil, "the GMM ladder up to tri3; the networks on tri3's alignments, fmllr inputs"},
		{[]string{"--quick"}, "the GMM ladder up to mono; the networks on mono's alignments, fbank inputs"},
		{[]string{"--causal", "true"}, "the GMM ladder up to tri3; the networks on tri3's alignments, fbank inputs"},
	} {
		if testing.Short() && c.extra != nil {
			continue // -short: the default only (each run of stage 0 is about 5 s on 2 idle cores)
		}
		out, err := recipe(t, dir, append(append([]string{}, scratch...), c.extra...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("run.sh %v: %v\n%s", c.extra, err, out)
		}
		if !strings.Contains(string(out), c.want) {
			t.Errorf("run.sh %v: output lacks %q:\n%s", c.extra, c.want, out)
		}
	}
}
