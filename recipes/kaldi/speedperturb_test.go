package kaldi

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// readTable reads a Kaldi table file (KEY VALUE... a line) into a map of the
// key to the rest of its line.
func readTable(t *testing.T, path string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(path)
	must(t, err)
	m := map[string]string{}
	for i, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		fs := strings.Fields(l)
		if len(fs) == 0 {
			t.Fatalf("%s: line %d is empty", path, i+1)
		}
		m[fs[0]] = strings.Join(fs[1:], " ")
	}
	return m
}

// TestSpeedPerturbKaldiMini runs the recipe from scratch on kaldi-mini with
// --speed-perturb true --quick (as TestFromScratchKaldiMini, the GMM ladder
// left at mono): the 3-way copy of the training set has 3x its utterances,
// the monophone GMM's alignments of it (exp/strode_mono_ali_sp) cover at
// least 95 % of them, the networks train on it, the held-out set shares no
// utt2uniq group with the training set, and the test set (unperturbed)
// decodes within the bar of the networks without perturbation. A re-run
// skips every finished unit.
func TestSpeedPerturbKaldiMini(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a GMM and two networks on 3x kaldi-mini's training set (about 3 minutes on 2 loaded cores): without -short")
	}
	dir, args, out := runFromScratch(t, "--speed-perturb", "true")
	t.Logf("%s", out)
	path := func(p string) string { return filepath.Join(dir, p) }

	// The copy: 3x the utterances, every copy mapped to its original, and
	// the user's data dir untouched (no utt2dur written into it).
	train := readTable(t, path("data/train/utt2spk"))
	sp := readTable(t, path("data-sp/train_sp/utt2spk"))
	if len(sp) != 3*len(train) {
		t.Errorf("data-sp/train_sp has %d utterances, want 3 x %d", len(sp), len(train))
	}
	uniq := readTable(t, path("data-fbank/train_sp/utt2uniq"))
	for u := range sp {
		if _, ok := train[uniq[u]]; !ok {
			t.Errorf("data-fbank/train_sp/utt2uniq: %s maps to %q, not an utterance of data/train", u, uniq[u])
			break
		}
	}
	// (kaldi-mini's data/train has no utt2dur; the perturbation makes one in
	// its source, which is the recipe's copy in exp/strode_sp.)
	if _, err := os.Stat(path("data/train/utt2dur")); err == nil {
		t.Error("the recipe wrote data/train/utt2dur into the user's data dir")
	}

	// The alignments of the copy cover at least 95 % of it.
	c := exec.Command("bash", "-c", `gunzip -c exp/strode_mono_ali_sp/ali.*.gz | "$0" copy-int-vector ark:- ark,t:- | cut -d' ' -f1`, strodeBin(t))
	c.Dir = dir
	keys, err := c.Output()
	if err != nil {
		t.Fatalf("reading exp/strode_mono_ali_sp: %v", err)
	}
	aligned := 0
	for _, k := range strings.Fields(string(keys)) {
		if _, ok := sp[k]; ok {
			aligned++
		}
	}
	if aligned*100 < 95*len(sp) {
		t.Errorf("exp/strode_mono_ali_sp aligns %d of %d perturbed utterances, want at least 95 %%", aligned, len(sp))
	}

	// The networks trained on the perturbed set and its alignments.
	for _, m := range []string{"sru", "strode"} {
		b, err := os.ReadFile(path("exp/" + m + "/log/train.log"))
		must(t, err)
		for _, w := range []string{"scp:data-fbank/train_sp_tr/feats.scp", "exp/strode_mono_ali_sp/ali.*.gz", "--cv-feats=scp:data-fbank/train_sp_cv/feats.scp"} {
			if !strings.Contains(string(b), w) {
				t.Errorf("exp/%s/log/train.log does not name %s", m, w)
			}
		}
	}
	if !strings.Contains(string(out), "speed-perturbed: training on data-fbank/train_sp_tr") {
		t.Errorf("stage 4 does not say it trains on the perturbed set")
	}

	// No utt2uniq group on both sides of the held-out split.
	trUtts := readTable(t, path("data-fbank/train_sp_tr/utt2spk"))
	cvUtts := readTable(t, path("data-fbank/train_sp_cv/utt2spk"))
	if len(cvUtts) == 0 || len(trUtts)+len(cvUtts) != len(sp) {
		t.Errorf("training %d + held-out %d utterances, want %d with some held out", len(trUtts), len(cvUtts), len(sp))
	}
	heldOut := map[string]bool{}
	for u := range cvUtts {
		heldOut[uniq[u]] = true
	}
	for u := range trUtts {
		if heldOut[uniq[u]] {
			t.Errorf("%s is trained on, and a copy of its original %s is held out", u, uniq[u])
		}
	}

	// The unperturbed test set decodes within the networks' bar.
	for _, m := range []string{"sru", "strode"} {
		fs := strings.Fields(string(readFile(t, path("exp/"+m+"/decode_test/best_wer"))))
		if len(fs) < 6 || fs[0] != "%WER" {
			t.Fatalf("exp/%s/decode_test/best_wer: %q is not a best_wer line", m, fs)
		}
		wer, err := strconv.ParseFloat(fs[1], 64)
		must(t, err)
		if fs[5] != "110," || wer > fromScratchWERBar {
			t.Errorf("%s: %s; want 110 words and at most %.0f%%", m, strings.Join(fs, " "), fromScratchWERBar)
		}
	}

	// A re-run does nothing again.
	out, err = recipe(t, dir, append(args, "--stage", "2", "--stop-stage", "4")...).CombinedOutput()
	if err != nil {
		t.Fatalf("re-run: %v\n%s", err, out)
	}
	for _, w := range []string{"data-sp/train_sp: done before", "train_sp: done before", "exp/strode_mono_ali_sp: done before", "sru: done before", "strode: done before"} {
		if !strings.Contains(string(out), w) {
			t.Errorf("re-run output lacks %q:\n%s", w, out)
		}
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	must(t, err)
	return b
}

// The options of --speed-perturb are checked before any work.
func TestSpeedPerturbOptions(t *testing.T) {
	dir := copyExperiment(t)
	scratch := stage0Args()
	for _, c := range []struct {
		args []string
		want string
	}{
		{append(scratch, "--speed-perturb", "yes"), "--speed-perturb takes true or false, not 'yes'"},
		// Without a GMM: the equal flat start and no ladder above it.
		{append(scratch, "--speed-perturb", "true", "--flat-start", "equal", "--gmm-ladder", "mono"), "--speed-perturb true aligns the perturbed copies with a GMM"},
		{append(append([]string{}, kaldiMiniArgs...), "--speed-perturb", "true", "--stop-stage", "1"), "--speed-perturb true needs --dict"},
	} {
		out, err := recipe(t, dir, c.args...).CombinedOutput()
		checkFailure(t, out, err, []string{c.want})
	}
	if _, err := os.Stat(filepath.Join(dir, "data/lang_new")); err == nil {
		t.Error("a run with bad options made data/lang_new")
	}
}

// TestSpeedPerturbUnalignedCopy: a perturbed copy the GMM could not align
// (here sp0.9 of the first training utterance) is dropped from the
// networks' training set with a count, as Kaldi's get_egs.sh drops an
// utterance without an alignment with a warning and goes on (the drop
// itself, with its warning, is acoustic/kaldinnet's TestLoadErrors). Stage
// 3 alone, from scratch, on a made-up finished run: kaldi-mini's monophone
// system as the flat start's, a 3-way copy of the training set's keys as the
// perturbed fbank, and Kaldi's alignments under each copy's key less one.
func TestSpeedPerturbUnalignedCopy(t *testing.T) {
	dir := copyExperiment(t)
	sh := func(script string) string {
		t.Helper()
		c := exec.Command("bash", "-c", "set -euo pipefail\n"+script, strodeBin(t))
		c.Dir = dir
		out, err := c.CombinedOutput()
		if err != nil {
			t.Fatalf("%v\n%s\n%s", err, script, out)
		}
		return string(out)
	}
	first := strings.Fields(lines(t, filepath.Join(dir, "data/train/utt2spk"))[0])[0]
	sh(`S=$0
mkdir -p exp/strode_mono exp/strode_mono_ali0 exp/strode_mono_ali_sp data-fbank/train_sp data-sp/train_sp
cp exp/mono/final.mdl exp/strode_mono/; cp exp/mono/final.mdl exp/strode_mono_ali0/; touch exp/strode_mono_ali0/.done
for p in sp0.9- "" sp1.1-; do awk -v p=$p '{print p $1, "/nonexistent.ark:0"}' data/train/utt2spk; done | LC_ALL=C sort > data-fbank/train_sp/feats.scp
cp exp/mono/final.mdl exp/strode_mono_ali_sp/; echo 1 > exp/strode_mono_ali_sp/num_jobs; touch data-sp/train_sp/.done
gunzip -c exp/mono/ali.*.gz | $S copy-int-vector ark:- ark,t:- 2>/dev/null > ali.txt
for p in sp0.9- "" sp1.1-; do awk -v p=$p '{print p $0}' ali.txt; done | grep -v "^sp0.9-` + first + ` " |
  $S copy-int-vector ark,t:- "ark:| gzip -c > exp/strode_mono_ali_sp/ali.1.gz" 2>/dev/null
touch exp/strode_mono_ali_sp/.done`)
	n := len(readTable(t, filepath.Join(dir, "data/train/utt2spk")))
	args := append(append([]string{}, fromScratchArgs...), "--lang", "data/lang", "--gmm-ladder", "mono", "--num-leaves", "0",
		"--speed-perturb", "true", "--stage", "3", "--stop-stage", "3")
	out, err := recipe(t, dir, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("run.sh --speed-perturb true --stage 3 --stop-stage 3: %v\n%s", err, out)
	}
	for _, w := range []string{
		fmt.Sprintf("exp/strode_mono_ali_sp: %d alignments of %d perturbed utterances", 3*n-1, 3*n),
		fmt.Sprintf("1 of %d training utterances have none and are skipped in training", 3*n),
	} {
		if !strings.Contains(string(out), w) {
			t.Errorf("stage 3 does not say %q:\n%s", w, out)
		}
	}
}
