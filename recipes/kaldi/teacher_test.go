package kaldi

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strode-asr/strode/acoustic/am"
)

// TestTeacherKaldiMini: `run.sh --quick --causal true --teacher exp/teacher`
// on kaldi-mini in one go: stage 4 trains the teacher (a bidirectional sru
// on the causal models' online-CMVN'd, left-spliced features), then a
// causal strode whose prior reads it and a causal sru distilled from it;
// both decode offline and online without it, to the same WER. The bar is
// loose: causal models on kaldi-mini's online-CMVN'd fbank (no variance
// normalisation) after 4 epochs are far from the quick run's bidirectional
// ones (measured, one run: distilled sru 20.91 %, teacher-prior and
// distilled strode 23.64 %, online = offline; 35 minutes on 2 loaded cores).
func TestTeacherKaldiMini(t *testing.T) {
	if testing.Short() {
		t.Skip("trains three models and decodes online: minutes (-short skips)")
	}
	dir := copyExperiment(t)
	args := append(quickArgs(), "--causal", "true", "--teacher", "exp/teacher", "--distill-weight", "0.5", "--epochs", "4")
	out, err := recipe(t, dir, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("run.sh: %v\n%s", err, out)
	}
	tf, err := am.Load(filepath.Join(dir, "exp/teacher/final.am"))
	if err != nil {
		t.Fatal(err)
	}
	if !tf.Model.Opts.SRU.Bidirectional || tf.Pipeline.SpliceRight != 0 || tf.Pipeline.CMVN != am.CMVNNone {
		t.Errorf("teacher: options %s, pipeline %s: want a bidirectional sru on the causal features", tf.Model.Opts.JSON(), tf.Pipeline.JSON())
	}
	for _, m := range []string{"sru", "strode"} {
		f, err := am.Load(filepath.Join(dir, "exp", m, "final.am"))
		if err != nil {
			t.Fatal(err)
		}
		if f.Model.Opts.SRU.Bidirectional || (m == "strode") != (f.Model.Opts.PriorInput == am.PriorTeacher) {
			t.Errorf("%s: options %s: want causal, the prior reading the teacher for strode only", m, f.Model.Opts.JSON())
		}
		log, err := os.ReadFile(filepath.Join(dir, "exp", m, "log/train.log"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(log), "--distill-teacher=exp/teacher/final.am --distill-weight=0.5") {
			t.Errorf("%s: not distilled from the teacher:\n%s", m, log)
		}
	}
	res := readResults(t, dir)
	if len(res) != 4 {
		t.Fatalf("%d results, want sru and strode on test, offline and online: %+v", len(res), res)
	}
	const bar = 40
	wer := map[string]float64{}
	for _, r := range res {
		t.Logf("%s %s: %%WER %.2f [ %d / %d ], held-out frame acc %.1f%%", r.Model, r.Set, r.WER, r.Errors, r.Words, r.HeldOutAcc)
		if r.Words != 110 || r.WER > bar {
			t.Errorf("%s %s: %%WER %.2f on %d words; want 110 words and at most %d%%", r.Model, r.Set, r.WER, r.Words, bar)
		}
		wer[r.Model+" "+r.Set] = r.WER
	}
	for _, m := range []string{"sru", "strode"} {
		if on, off := wer[m+" test_online"], wer[m+" test"]; on != off {
			t.Errorf("%s: online %%WER %.2f, offline %.2f", m, on, off)
		}
	}
}

// The options of --teacher are checked before any work.
func TestTeacherOptions(t *testing.T) {
	dir := copyExperiment(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--distill-weight", "0.5"}, "--distill-weight 0.5 needs --teacher DIR"},
		{[]string{"--teacher", "exp/teacher", "--num-jobs-final", "2"}, "--teacher trains in one job per model"},
		{[]string{"--teacher", "exp/teacher", "--teacher-prior", "yes"}, "--teacher-prior takes true or false, not 'yes'"},
		{[]string{"--teacher", "exp/teacher", "--stage", "5", "--realign-iters", "1"}, "exp/teacher/final.am (stage 4: the teacher (--teacher))"},
	} {
		out, err := recipe(t, dir, append(append([]string{}, kaldiMiniArgs...), c.args...)...).CombinedOutput()
		checkFailure(t, out, err, []string{c.want})
	}
}
