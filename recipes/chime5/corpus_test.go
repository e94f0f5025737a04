package chime5

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/strode-asr/strode/features"
)

// The small CHiME-5-shaped corpus the tests build: JSON in the corpus's
// schema (per-device start/end times with "original", session_id, speaker,
// words; location and ref in dev) and short synthetic binaural waves whose
// left and right channels differ, so a test can tell which one it got.

const testRate = 16000

// testAudioSeconds is the length of every synthetic binaural file.
const testAudioSeconds = 6

const trainS03 = `[
  {
    "end_time": {"original": "0:00:01.50", "U01": "0:00:01.4953125", "P09": "0:00:01.5002500", "P10": "0:00:01.4999375"},
    "start_time": {"original": "0:00:00.20", "U01": "0:00:00.1953125", "P09": "0:00:00.2002500", "P10": "0:00:00.1999375"},
    "words": "[noise] What were we talking about again? [inaudible 0:00:58.96]",
    "speaker": "P09",
    "session_id": "S03"
  },
  {
    "end_time": {"original": "0:00:03.05"},
    "start_time": {"original": "0:00:01.80"},
    "words": "Mm-hmm, it's  \"OK\" - I guess. [laughs]",
    "speaker": "P10",
    "session_id": "S03"
  },
  {
    "end_time": {"original": "0:00:04.00"},
    "start_time": {"original": "0:00:03.10"},
    "words": "my address is [redacted] okay",
    "speaker": "P09",
    "session_id": "S03"
  },
  {
    "end_time": {"original": "0:00:02.00"},
    "start_time": {"original": "0:00:02.00"},
    "words": "zero length",
    "speaker": "P09",
    "session_id": "S03"
  },
  {
    "end_time": {"original": "0:00:05.90"},
    "start_time": {"original": "0:00:04.25"},
    "words": "- So; yeah: TWO  thousand!",
    "speaker": "P09",
    "session_id": "S03"
  },
  {
    "end_time": {"original": "0:00:02.50"},
    "start_time": {"original": "0:00:00.50"},
    "words": "dropped with P11 in S03",
    "speaker": "P11",
    "session_id": "S03"
  },
  {
    "end_time": {"original": "0:00:05.00"},
    "start_time": {"original": "0:00:04.10"},
    "words": "...",
    "speaker": "P10",
    "session_id": "S03"
  }
]
`

const devS02 = `[
  {"end_time": {"original": "0:00:04.38", "U02": "0:00:04.3712500", "P05": "0:00:04.3800000"},
   "start_time": {"original": "0:00:00.60", "U02": "0:00:00.5912500", "P05": "0:00:00.6000000"},
   "words": "Hello there.", "speaker": "P05", "ref": "U02", "location": "kitchen", "session_id": "S02"},
  {"end_time": {"original": "0:00:05.99"}, "start_time": {"original": "0:00:04.50"},
   "words": "[laughs] mm-hmm", "speaker": "P06", "ref": "U02", "location": "dining", "session_id": "S02"}
]
`

// binauralSamples are the two channels of a synthetic binaural file: a sine
// of 200+seed Hz on the left, a weaker 1.5 kHz sine on the right, so a test
// can tell which channel it got.
func binauralSamples(seed int) [2][]float32 {
	n := testAudioSeconds * testRate
	out := [2][]float32{make([]float32, n), make([]float32, n)}
	for i := 0; i < n; i++ {
		ti := float64(i) / testRate
		out[0][i] = float32(math.Round(3000 * math.Sin(2*math.Pi*(200+float64(seed))*ti)))
		out[1][i] = float32(math.Round(800 * math.Sin(2*math.Pi*1500*ti)))
	}
	return out
}

// writeBinaural writes binauralSamples(seed) as a 16-bit stereo wave.
func writeBinaural(t testing.TB, path string, seed int) {
	t.Helper()
	s := binauralSamples(seed)
	w := features.WaveData{SampFreq: testRate, Data: [][]float32{s[0], s[1]}}
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

// buildCorpus lays out <dir>/audio/{train,dev} and
// <dir>/transcriptions/{train,dev} and returns dir.
func buildCorpus(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	mk := func(parts ...string) string {
		p := filepath.Join(append([]string{dir}, parts...)...)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	if err := os.WriteFile(mk("transcriptions", "train", "S03.json"), []byte(trainS03), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(mk("transcriptions", "dev", "S02.json"), []byte(devS02), 0o644); err != nil {
		t.Fatal(err)
	}
	writeBinaural(t, mk("audio", "train", "S03_P09.wav"), 9)
	writeBinaural(t, mk("audio", "train", "S03_P10.wav"), 10)
	writeBinaural(t, mk("audio", "train", "S03_P11.wav"), 11) // excluded speaker_session
	writeBinaural(t, mk("audio", "train", "S03_P12.wav"), 12) // no utterances
	// Array microphones are ignored.
	if err := os.WriteFile(mk("audio", "train", "S03_U01.CH1.wav"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	writeBinaural(t, mk("audio", "dev", "S02_P05.wav"), 5)
	writeBinaural(t, mk("audio", "dev", "S02_P06.wav"), 6)
	return dir
}
