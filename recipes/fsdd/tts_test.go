package fsdd

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strode-asr/strode/internal/testbin"
)

// fakeCorpus is an FSDD directory of empty takes (stage 0 only lists them
// when no speed perturbation is asked for).
func fakeCorpus(t *testing.T, names ...string) string {
	fsdd := t.TempDir()
	rec := filepath.Join(fsdd, "recordings")
	if err := os.Mkdir(rec, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		if err := os.WriteFile(filepath.Join(rec, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return fsdd
}

// TestRunTTSVoices: --tts-voices adds espeak-ng speakers ttsNN to the
// training data, every digit --tts-takes times, with numbered takes from 10
// up (never held out), and out-of-range values stop run.sh at stage 0
// (strode fsdd-data-prep checks them).
func TestRunTTSVoices(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("needs bash")
	}
	fsdd := fakeCorpus(t, "0_anna_12.wav", "1_anna_30.wav", "0_bert_0.wav")
	strode := testbin.Strode(t)
	for _, tc := range []struct{ opts, want string }{
		{"--tts-voices 29", "--tts-voices=29: espeak-ng gives this recipe at most 28 voices"},
		{"--tts-voices 2 --tts-takes 0", "--tts-takes must be at least 1"},
		{"--tts-voices -1", "--tts-voices and --tts-takes take whole numbers"},
	} {
		args := append([]string{"run.sh", "--fsdd-dir", fsdd, "--exp-dir", filepath.Join(t.TempDir(), "exp"),
			"--strode", strode, "--test-speakers", "bert"}, strings.Fields(tc.opts)...)
		out, err := exec.Command("bash", args...).CombinedOutput()
		if err == nil || !strings.Contains(string(out), tc.want) {
			t.Errorf("%s: err %v, output\n%s\nwant a line\n%s", tc.opts, err, out, tc.want)
		}
	}
	if _, err := exec.LookPath("espeak-ng"); err != nil {
		t.Skip("espeak-ng not installed (apt-get install espeak-ng): the synthetic voices are not checked")
	}
	exp := filepath.Join(t.TempDir(), "exp")
	out, err := exec.Command("bash", "run.sh", "--fsdd-dir", fsdd, "--exp-dir", exp, "--strode", strode,
		"--test-speakers", "bert", "--speeds", "1.0", "--tts-voices", "2", "--tts-takes", "2", "--stop-stage", "0").CombinedOutput()
	if err != nil {
		t.Fatalf("run.sh: %v\n%s", err, out)
	}
	text, err := os.ReadFile(filepath.Join(exp, "data", "train", "text"))
	if err != nil {
		t.Fatal(err)
	}
	tts := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(text)), "\n") {
		if strings.HasPrefix(line, "tts") {
			tts[line] = true
		}
	}
	for _, want := range []string{"tts00_0_10 zero", "tts00_9_11 nine", "tts01_3_10 three", "tts01_7_11 seven"} {
		if !tts[want] {
			t.Errorf("training text lacks %q", want)
		}
	}
	if len(tts) != 2*2*10 {
		t.Errorf("%d synthetic utterances, want 40 (2 voices x 2 takes x 10 digits):\n%s", len(tts), text)
	}
	for _, name := range []string{"0_tts00_10.wav", "9_tts01_11.wav"} {
		if st, err := os.Stat(filepath.Join(exp, "tts", "recordings", name)); err != nil || st.Size() < 1000 {
			t.Errorf("%s: %v (a spoken digit is several kB)", name, err)
		}
	}
}
