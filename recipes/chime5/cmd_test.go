package chime5

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strode-asr/strode/internal/testbin"
)

// The commands as run.sh runs them: `strode chime5-data-prep`, then
// `strode validate-data-dir` when the binary has it, then
// `extract-segments | compute-fbank-feats` over the data directory (seconds
// with the shared binary: -short runs it).
func TestCommandsEndToEnd(t *testing.T) {
	tmp := t.TempDir()
	bin := testbin.Strode(t)
	corpus := buildCorpus(t)
	run := func(name string, args ...string) string {
		t.Helper()
		out, err := exec.Command(name, args...).CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	// Another part of the project adds validate-data-dir; use it once there.
	hasValidate := exec.Command(bin, "validate-data-dir", "--help").Run() == nil

	for _, c := range []struct {
		name string
		args []string
	}{
		{"train", []string{"--wav-pipe=strode", corpus, "train"}},
		{"train_stereo", []string{"--wav-pipe=strode", "--channels=L,R", "--exclude-speaker-sessions=", corpus, "train"}},
		// prepare_data.sh's argument form: audio dir, JSON dir.
		{"dev", []string{"--wav-pipe=strode", filepath.Join(corpus, "audio", "dev"), filepath.Join(corpus, "transcriptions", "dev")}},
	} {
		data := filepath.Join(tmp, "data", c.name)
		log := run(bin, append(append([]string{"chime5-data-prep"}, c.args...), data)...)
		if !strings.Contains(log, "Wrote "+data) {
			t.Errorf("%s: log lacks the summary:\n%s", c.name, log)
		}
		if hasValidate {
			run(bin, "validate-data-dir", "--no-feats", data)
		} else {
			t.Logf("strode validate-data-dir is not in this binary yet: not run")
		}
		feats := filepath.Join(tmp, "fbank_"+c.name)
		run("bash", "-c", `set -eo pipefail; "$0" extract-segments scp,p:"$1"/wav.scp "$1"/segments ark:- | "$0" compute-fbank-feats ark:- ark,scp:"$2".ark,"$2".scp`,
			bin, data, feats)
		lens := run(bin, "feat-to-len", "scp:"+feats+".scp", "ark,t:-")
		keys, _ := readSegments(t, filepath.Join(data, "segments"))
		var got []string
		for _, l := range strings.Split(lens, "\n") {
			if f := strings.Fields(l); len(f) == 2 && !strings.HasPrefix(l, "strode ") && !strings.HasPrefix(l, "LOG") {
				got = append(got, f[0])
			}
		}
		if strings.Join(got, " ") != strings.Join(keys, " ") {
			t.Errorf("%s: features for %q, want one per segment %q", c.name, got, keys)
		}
	}

	// A bad corpus: a non-zero exit status and the file named.
	bad := t.TempDir()
	os.MkdirAll(filepath.Join(bad, "transcriptions", "dev"), 0o755)
	os.MkdirAll(filepath.Join(bad, "audio", "dev"), 0o755)
	os.WriteFile(filepath.Join(bad, "transcriptions", "dev", "S02.json"), []byte(`[{"words": "a", "start_time": {"original": "0:00:01"}}]`), 0o644)
	out, err := exec.Command(bin, "chime5-data-prep", bad, "dev", filepath.Join(tmp, "bad")).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "no binaural files") {
		t.Errorf("empty audio dir: %v\n%s", err, out)
	}
	writeBinaural(t, filepath.Join(bad, "audio", "dev", "S02_P05.wav"), 5)
	out, err = exec.Command(bin, "chime5-data-prep", bad, "dev", filepath.Join(tmp, "bad")).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "S02.json") || !strings.Contains(string(out), "utterance 0") {
		t.Errorf("malformed JSON: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(tmp, "bad", "text")); err == nil {
		t.Errorf("a failed run wrote text")
	}
}
