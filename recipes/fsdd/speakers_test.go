package fsdd

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strode-asr/strode/internal/testbin"
)

// run.sh stops at stage 0 (strode fsdd-data-prep), before any work, with
// the speakers it found, when a test speaker has no takes in the corpus (a
// held-out speaker's name misspelled, or a partial copy of FSDD) or when no
// speaker would be left to train on.
func TestRunChecksTestSpeakers(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("needs bash")
	}
	fsdd := fakeCorpus(t, "0_anna_0.wav", "1_anna_3.wav", "0_bert_0.wav")
	rec := filepath.Join(fsdd, "recordings")
	strode := testbin.Strode(t)
	for _, tc := range []struct{ speakers, want string }{
		{"carl", "test speaker carl has no takes in " + rec + " (speakers there: anna bert)"},
		{"bert anna", "no training speaker left in " + rec + " once bert anna are held out"},
	} {
		out, err := exec.Command("bash", "run.sh", "--fsdd-dir", fsdd, "--exp-dir", filepath.Join(t.TempDir(), "exp"),
			"--strode", strode, "--test-speakers", tc.speakers).CombinedOutput()
		if err == nil {
			t.Errorf("--test-speakers %q: run.sh succeeded:\n%s", tc.speakers, out)
			continue
		}
		if !strings.Contains(string(out), tc.want) {
			t.Errorf("--test-speakers %q: got\n%s\nwant a line\n%s", tc.speakers, out, tc.want)
		}
	}
}
