package kaldi

import (
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strode-asr/strode/features"
)

// A two-session CHiME-5-shaped corpus (the corpus's JSON schema, binaural
// 16 kHz waves): stage 0 of --corpus chime5 makes data/train_worn and
// data/dev_worn, and stages 1-2 validate them and compute features for
// every segment through extract-segments and the left channel.
func TestChime5FrontEnd(t *testing.T) {
	corpus := t.TempDir()
	write := func(rel, text string) {
		p := filepath.Join(corpus, rel)
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, []byte(text), 0o644))
	}
	write("transcriptions/train/S03.json", `[
 {"start_time": {"original": "0:00:00.20"}, "end_time": {"original": "0:00:01.50"},
  "words": "[noise] What were we talking about?", "speaker": "P09", "session_id": "S03"},
 {"start_time": {"original": "0:00:01.80"}, "end_time": {"original": "0:00:03.05"},
  "words": "Mm-hmm, it's OK.", "speaker": "P10", "session_id": "S03"},
 {"start_time": {"original": "0:00:03.10"}, "end_time": {"original": "0:00:04.00"},
  "words": "my address is [redacted]", "speaker": "P09", "session_id": "S03"}]`)
	write("transcriptions/dev/S02.json", `[
 {"start_time": {"original": "0:00:00.60"}, "end_time": {"original": "0:00:02.38"},
  "words": "Hello there.", "speaker": "P05", "ref": "U02", "location": "kitchen", "session_id": "S02"}]`)
	for _, f := range []string{"audio/train/S03_P09.wav", "audio/train/S03_P10.wav", "audio/dev/S02_P05.wav"} {
		n := 4 * 16000
		w := features.WaveData{SampFreq: 16000, Data: [][]float32{make([]float32, n), make([]float32, n)}}
		for i := 0; i < n; i++ {
			w.Data[0][i] = float32(math.Round(3000 * math.Sin(float64(i)*0.07)))
			w.Data[1][i] = float32(math.Round(500 * math.Sin(float64(i)*0.9)))
		}
		must(t, os.MkdirAll(filepath.Dir(filepath.Join(corpus, f)), 0o755))
		fh, err := os.Create(filepath.Join(corpus, f))
		must(t, err)
		_, err = w.Write(fh)
		must(t, err)
		must(t, fh.Close())
	}
	s5 := t.TempDir()
	out, err := recipe(t, s5, "--corpus", "chime5", "--chime5-dir", corpus, "--stop-stage", "2", "--nj", "2").CombinedOutput()
	if err != nil {
		t.Fatalf("run.sh --corpus chime5: %v\n%s", err, out)
	}
	for _, want := range []string{"== stage 0: CHiME-5", "data/train_worn: 2 utterances, 2 speakers", "data/dev_worn: 1 utterances, 1 speakers",
		"train_worn: 2 of 2 utterances, dim 40", "dev_worn: 1 of 1 utterances, dim 40"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	c := exec.Command(strodeBin(t), "feat-to-len", "scp:data-fbank/train_worn/feats.scp", "ark,t:-")
	c.Dir = s5
	lens, err := c.Output()
	must(t, err)
	// 1.30 s and 1.25 s segments: 128 and 123 frames (25 ms windows, 10 ms shift).
	if got := strings.Join(strings.Fields(string(lens)), " "); got != "P09_S03_NOLOCATION.L-0000020-0000150 128 P10_S03_NOLOCATION.L-0000180-0000305 123" {
		t.Errorf("feature lengths:\n%s", got)
	}
}

// Training utterances without an alignment are counted and skipped, as
// Kaldi does, and any number of ali.N.gz is read: kaldi-mini's alignments
// less three utterances, split in two archives.
func TestMissingAlignmentsCounted(t *testing.T) {
	dir := copyExperiment(t)
	sh := func(script string) {
		c := exec.Command("bash", "-c", script)
		c.Dir = dir
		c.Env = append(os.Environ(), "S="+strodeBin(t))
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", script, err, out)
		}
	}
	sh(`gunzip -c exp/mono/ali.1.gz | $S copy-int-vector ark:- ark,t:- 2>/dev/null | sed 4,6d > ali.txt
	    head -n 80 ali.txt | $S copy-int-vector ark,t:- ark:- 2>/dev/null | gzip -c > exp/mono/ali.1.gz
	    tail -n +81 ali.txt | $S copy-int-vector ark,t:- ark:- 2>/dev/null | gzip -c > exp/mono/ali.2.gz`)
	out, err := recipe(t, dir, append([]string{"--stop-stage", "3", "--nj", "2"}, kaldiMiniArgs...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("run.sh: %v\n%s", err, out)
	}
	for _, want := range []string{"(2 archives) match the graph", "157 alignments; 3 of 160 training utterances have none"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// --seeds trains and decodes every model once per seed and ends with strode
// compare's paired table (minute-long: not with -short).
func TestSeedsCompare(t *testing.T) {
	if testing.Short() {
		t.Skip("four small trainings; run without -short")
	}
	dir := copyExperiment(t)
	out, err := recipe(t, dir, append([]string{"--quick", "--nj", "2", "--seeds", "1 2", "--epochs", "2", "--hidden", "32", "--layers", "1"},
		kaldiMiniArgs...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("run.sh --seeds: %v\n%s", err, out)
	}
	for _, want := range []string{"| sru_seed2 | test |", "| strode_seed1 | test |", "| strode - sru | 2 |"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, f := range []string{"exp/strode_compare.json", "exp/strode_compare.png", "exp/strode_compare.runs"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
}
