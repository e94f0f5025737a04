package main

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strode-asr/strode/features"
)

// writeTestWave writes a 0.5 s 16 kHz tone, enough for a few frames.
func writeTestWave(t *testing.T, path string) {
	t.Helper()
	w := features.WaveData{SampFreq: 16000, Data: [][]float32{make([]float32, 8000)}}
	for i := range w.Data[0] {
		w.Data[0][i] = float32(1000 * math.Sin(float64(i)*0.3))
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(f); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// A wav.scp whose file is missing, read "scp,p:": the utterance is skipped
// with a WARNING that names its key, and the closing line counts it, so
// "Done 2 out of 3" shows the loss (Kaldi's reader would hide it: 2 out of
// 2). Then apply-cmvn and compute-cmvn-stats over a feats.scp with a
// missing archive count the skipped key in their errors.
func TestPermissiveReadCountsSkippedKeys(t *testing.T) {
	dir := t.TempDir()
	writeTestWave(t, filepath.Join(dir, "a.wav"))
	writeTestWave(t, filepath.Join(dir, "c.wav"))
	scp := filepath.Join(dir, "wav.scp")
	if err := os.WriteFile(scp, []byte("a "+filepath.Join(dir, "a.wav")+"\nb "+filepath.Join(dir, "b.wav")+"\nc "+filepath.Join(dir, "c.wav")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	feats := filepath.Join(dir, "feats")
	for _, tool := range []string{"compute-mfcc-feats", "compute-fbank-feats"} {
		code, _, stderr := runStrode(t, "", tool, "--dither=0", "scp,p:"+scp, "ark,scp:"+feats+".ark,"+feats+".scp")
		if code != 0 {
			t.Fatalf("%s: exit %d\n%s", tool, code, stderr)
		}
		for _, want := range []string{
			"WARNING (strode " + tool + ") reading scp,p:" + scp + ": skipping key b, which cannot be read",
			"b.wav",
			" Done 2 out of 3 utterances.",
		} {
			if !strings.Contains(stderr, want) {
				t.Errorf("%s: no %q in stderr:\n%s", tool, want, stderr)
			}
		}
	}
	// feats.scp with one entry pointing at an archive that is gone.
	fscp, _ := os.ReadFile(feats + ".scp")
	lost := string(fscp) + "d " + filepath.Join(dir, "gone.ark") + ":10\n"
	if err := os.WriteFile(feats+".scp", []byte(lost), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"compute-cmvn-stats", "scp,p:" + feats + ".scp", "ark:" + filepath.Join(dir, "cmvn.ark")}, "Done accumulating CMVN stats for 2 utterances; 1 had errors."},
		{[]string{"apply-cmvn", "ark:" + filepath.Join(dir, "cmvn.ark"), "scp,p:" + feats + ".scp", "ark:/dev/null"}, "Applied cepstral mean normalization to 2 utterances, errors on 1"},
		{[]string{"apply-cmvn", "--norm-vars=true", "ark:" + filepath.Join(dir, "cmvn.ark"), "scp,p:" + feats + ".scp", "ark:/dev/null"}, "Applied cepstral mean and variance normalization to 2 utterances, errors on 1"},
		{[]string{"copy-feats", "scp,p:" + feats + ".scp", "ark:/dev/null"}, "Copied 2 feature matrices."},
	} {
		code, _, stderr := runStrode(t, "", c.args...)
		if code != 0 || !strings.Contains(stderr, c.want) || !strings.Contains(stderr, "skipping key d, which cannot be read") {
			t.Errorf("%v: exit %d, want %q and the skipped key d in stderr:\n%s", c.args, code, c.want, stderr)
		}
	}
}
