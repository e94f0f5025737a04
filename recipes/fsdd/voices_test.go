package fsdd

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// The synthetic takes: voices in accent-major order, every digit per
// take, takes numbered from 10, three pitches and three rates.
func TestTTSTakes(t *testing.T) {
	got := ttsTakes(5, 2)
	if len(got) != 5*2*10 {
		t.Fatalf("%d takes, want 100", len(got))
	}
	for _, tc := range []struct {
		i    int
		want ttsTake
	}{
		{0, ttsTake{"tts00", "en-us", "male1", 0, 10, 30, 130}},
		{19, ttsTake{"tts00", "en-us", "male1", 9, 11, 50, 150}},
		{20, ttsTake{"tts01", "en-us", "male3", 0, 10, 30, 150}},
		{99, ttsTake{"tts04", "en-gb", "male1", 9, 11, 50, 170}},
	} {
		if got[tc.i] != tc.want {
			t.Errorf("take %d: %+v, want %+v", tc.i, got[tc.i], tc.want)
		}
	}
	if n := len(ttsTakes(MaxVoices+5, 1)); n != MaxVoices*10 {
		t.Errorf("%d takes for more voices than there are, want %d", n, MaxVoices*10)
	}
}

func TestSynthesizeVoices(t *testing.T) {
	if _, err := exec.LookPath("espeak-ng"); err != nil {
		t.Skip("espeak-ng not installed (apt-get install espeak-ng): the synthetic voices are not checked")
	}
	dir := filepath.Join(t.TempDir(), "tts")
	recs, err := synthesizeVoices(dir, 1, 1, testLog{t})
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 10 || recs[3].path != filepath.Join(dir, "3_tts00_10.wav") || recs[3].speaker != "tts00" || recs[3].take != "10" {
		t.Errorf("recordings %+v", recs)
	}
}
