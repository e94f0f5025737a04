package fsdd

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// testLog is a Logger for tests.
type testLog struct{ t *testing.T }

func (l testLog) Log(format string, a ...any)  { l.t.Logf(format, a...) }
func (l testLog) Warn(format string, a ...any) { l.t.Logf("WARNING: "+format, a...) }

// writeWave writes an 8 kHz 16-bit one-channel wave of n samples (a ramp).
func writeWave(t *testing.T, path string, n int) {
	t.Helper()
	b := make([]byte, 44+2*n)
	copy(b[0:], "RIFF")
	binary.LittleEndian.PutUint32(b[4:], uint32(36+2*n))
	copy(b[8:], "WAVEfmt ")
	binary.LittleEndian.PutUint32(b[16:], 16)
	binary.LittleEndian.PutUint16(b[20:], 1)
	binary.LittleEndian.PutUint16(b[22:], 1)
	binary.LittleEndian.PutUint32(b[24:], 8000)
	binary.LittleEndian.PutUint32(b[28:], 16000)
	binary.LittleEndian.PutUint16(b[32:], 2)
	binary.LittleEndian.PutUint16(b[34:], 16)
	copy(b[36:], "data")
	binary.LittleEndian.PutUint32(b[40:], uint32(2*n))
	for i := 0; i < n; i++ {
		binary.LittleEndian.PutUint16(b[44+2*i:], uint16(int16(i*37%2000-1000)))
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// smallCorpus is an FSDD folder of eight short takes of anna and bert.
func smallCorpus(t *testing.T) string {
	dir := filepath.Join(t.TempDir(), "fsdd")
	rec := filepath.Join(dir, "recordings")
	if err := os.MkdirAll(rec, 0o755); err != nil {
		t.Fatal(err)
	}
	for i, n := range []string{"0_anna_0", "0_anna_5", "0_anna_6", "1_anna_5", "0_anna_30", "0_bert_0", "0_bert_5", "1_bert_0"} {
		writeWave(t, filepath.Join(rec, n+".wav"), 400+40*i)
	}
	return dir
}

// dataPrepWant is what recipes/fsdd/run.sh's stage 0 wrote in awk before
// strode fsdd-data-prep (run.sh --quick --test-takes 1 --test-speakers bert
// --speeds "0.9 1.0" --warps "0.9 1.0" on smallCorpus), byte for byte;
// CORPUS is the corpus folder, DATA the data folder.
var dataPrepWant = map[string]string{
	"train/wav.scp": `anna_0_5 CORPUS/recordings/0_anna_5.wav
anna_0_6 CORPUS/recordings/0_anna_6.wav
anna_1_5 CORPUS/recordings/1_anna_5.wav
sp0.9-anna_0_5 DATA/train/sp0.9.ark:15
sp0.9-anna_0_6 DATA/train/sp0.9.ark:1052
sp0.9-anna_1_5 DATA/train/sp0.9.ark:2179
w0.9-anna_0_5 CORPUS/recordings/0_anna_5.wav
w0.9-anna_0_6 CORPUS/recordings/0_anna_6.wav
w0.9-anna_1_5 CORPUS/recordings/1_anna_5.wav
`,
	"train/text": `anna_0_5 zero
anna_0_6 zero
anna_1_5 one
sp0.9-anna_0_5 zero
sp0.9-anna_0_6 zero
sp0.9-anna_1_5 one
w0.9-anna_0_5 zero
w0.9-anna_0_6 zero
w0.9-anna_1_5 one
`,
	"train/utt2spk": `anna_0_5 anna
anna_0_6 anna
anna_1_5 anna
sp0.9-anna_0_5 sp0.9-anna
sp0.9-anna_0_6 sp0.9-anna
sp0.9-anna_1_5 sp0.9-anna
w0.9-anna_0_5 w0.9-anna
w0.9-anna_0_6 w0.9-anna
w0.9-anna_1_5 w0.9-anna
`,
	"train/utt2warp": `anna_0_5 1.0
anna_0_6 1.0
anna_1_5 1.0
sp0.9-anna_0_5 1.0
sp0.9-anna_0_6 1.0
sp0.9-anna_1_5 1.0
w0.9-anna_0_5 0.9
w0.9-anna_0_6 0.9
w0.9-anna_1_5 0.9
`,
	"train/spk2utt": `anna anna_0_5 anna_0_6 anna_1_5
sp0.9-anna sp0.9-anna_0_5 sp0.9-anna_0_6 sp0.9-anna_1_5
w0.9-anna w0.9-anna_0_5 w0.9-anna_0_6 w0.9-anna_1_5
`,
	"train/cv.list": `anna_0_5
anna_0_6
anna_1_5
sp0.9-anna_0_5
sp0.9-anna_0_6
sp0.9-anna_1_5
w0.9-anna_0_5
w0.9-anna_0_6
w0.9-anna_1_5
`,
	"train/cv_heldout.list": `anna_0_5
anna_0_6
anna_1_5
`,
	"train/sp0.9.list": `sp0.9-anna_0_5 CORPUS/recordings/0_anna_5.wav
sp0.9-anna_0_6 CORPUS/recordings/0_anna_6.wav
sp0.9-anna_1_5 CORPUS/recordings/1_anna_5.wav
`,
	"train/sp0.9.scp": `sp0.9-anna_0_5 DATA/train/sp0.9.ark:15
sp0.9-anna_0_6 DATA/train/sp0.9.ark:1052
sp0.9-anna_1_5 DATA/train/sp0.9.ark:2179
`,
	"test/wav.scp": `bert_0_0 CORPUS/recordings/0_bert_0.wav
bert_1_0 CORPUS/recordings/1_bert_0.wav
`,
	"test/text":     "bert_0_0 zero\nbert_1_0 one\n",
	"test/utt2spk":  "bert_0_0 bert\nbert_1_0 bert\n",
	"test/utt2warp": "bert_0_0 1.0\nbert_1_0 1.0\n",
	"test/spk2utt":  "bert bert_0_0 bert_1_0\n",
}

// dataPrepArkSHA256 is the SHA-256 of the awk stage's train/sp0.9.ark.
const dataPrepArkSHA256 = "9b04f630bb9ae68c917b7c24b9a3bd2842663f7bd261e6da3452a4a613d71a2d"

func TestDataPrepSameAsShell(t *testing.T) {
	corpus := smallCorpus(t)
	data := filepath.Join(t.TempDir(), "data")
	o := DefaultOptions()
	o.TestSpeakers, o.TrainTakes, o.TestTakes, o.Speeds, o.Warps = "bert", "5-24", "0", "0.9 1.0", "0.9 1.0"
	// A stale list of a speed no longer asked for goes, as run.sh removed it.
	if err := os.MkdirAll(filepath.Join(data, "train"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(data, "train", "sp1.1.list"), []byte("x y\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sets, err := DataPrep(o, corpus, data, testLog{t})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(sets); got != "[{train 9 [anna sp0.9-anna w0.9-anna]} {test 2 [bert]}]" {
		t.Errorf("summary %s", got)
	}
	for name, want := range dataPrepWant {
		want = strings.NewReplacer("CORPUS", corpus, "DATA", data).Replace(want)
		got, err := os.ReadFile(filepath.Join(data, name))
		if err != nil {
			t.Error(err)
			continue
		}
		if string(got) != want {
			t.Errorf("%s:\n%s\nwant\n%s", name, got, want)
		}
	}
	ark, err := os.ReadFile(filepath.Join(data, "train", "sp0.9.ark"))
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprintf("%x", sha256.Sum256(ark)); got != dataPrepArkSHA256 {
		t.Errorf("train/sp0.9.ark: sha256 %s, want %s", got, dataPrepArkSHA256)
	}
	if _, err := os.Stat(filepath.Join(data, "train", "sp1.1.list")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("stale train/sp1.1.list: %v", err)
	}
	for _, f := range []string{"lexicon.txt", "silence_phones.txt", "nonsilence_phones.txt", "optional_silence.txt", "extra_questions.txt"} {
		if _, err := os.Stat(filepath.Join(data, "local", "dict", f)); err != nil {
			t.Error(err)
		}
	}
}

func TestDataPrepErrors(t *testing.T) {
	corpus := smallCorpus(t)
	rec := filepath.Join(corpus, "recordings")
	for _, tc := range []struct {
		name string
		opts func(*Options)
		want string
	}{
		{"unknown test speaker", func(o *Options) { o.TestSpeakers = "carl" },
			"test speaker carl has no takes in " + rec + " (speakers there: anna bert)"},
		{"nobody left", func(o *Options) { o.TestSpeakers = "bert anna" },
			"no training speaker left in " + rec + " once bert anna are held out"},
		{"no test speaker", func(o *Options) { o.TestSpeakers = " " }, "--test-speakers is empty"},
		{"bad takes", func(o *Options) { o.TestTakes = "0-x" }, `--test-takes=0-x: "0-x" is not a take`},
		{"reversed takes", func(o *Options) { o.TrainTakes = "9-5" }, `--train-takes=9-5: "9-5" is not a take`},
		{"bad speed", func(o *Options) { o.Speeds = "0.9 fast" }, `--speeds: "fast" is not a positive factor`},
		{"zero warp", func(o *Options) { o.Warps = "0" }, `--warps: "0" is not a positive factor`},
		{"too many voices", func(o *Options) { o.TTSVoices = 29 }, "--tts-voices=29: espeak-ng gives this recipe at most 28 voices"},
		{"no takes", func(o *Options) { o.TTSVoices, o.TTSTakes = 2, 0 }, "--tts-takes must be at least 1"},
		{"negative voices", func(o *Options) { o.TTSVoices = -1 }, "--tts-voices and --tts-takes take whole numbers"},
		{"voices without a folder", func(o *Options) { o.TTSVoices = 1 }, "--tts-voices needs --tts-dir"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := DefaultOptions()
			o.TestSpeakers = "bert"
			tc.opts(&o)
			data := filepath.Join(t.TempDir(), "data")
			_, err := DataPrep(o, corpus, data, testLog{t})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
			if _, err := os.Stat(data); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("bad options, yet %s was made: %v", data, err)
			}
		})
	}
}

func TestDataPrepBadName(t *testing.T) {
	corpus := smallCorpus(t)
	bad := filepath.Join(corpus, "recordings", "zero_anna_1.wav")
	writeWave(t, bad, 10)
	_, err := DataPrep(DefaultOptions(), corpus, t.TempDir(), testLog{t})
	if err == nil || !strings.Contains(err.Error(), bad+": not an FSDD recording name") {
		t.Fatalf("error %v, want one naming %s", err, bad)
	}
}

func TestParseRecording(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"7_george_12.wav", "{/r/7_george_12.wav 7 george 12}"},
		{"0_a_b_3.wav", "{/r/0_a_b_3.wav 0 a_b 3}"}, // the speaker runs to the last underscore
		{"7_george.wav", ""},
		{"12_george_1.wav", ""},
		{"7__1.wav", ""},
		{"7_george_x.wav", ""},
	} {
		r, err := parseRecording("/r", tc.name)
		if got := fmt.Sprint(r); (err == nil) != (tc.want != "") || (err == nil && got != tc.want) {
			t.Errorf("%s: %s, %v; want %q", tc.name, got, err, tc.want)
		}
	}
}

func TestParseTakes(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int // how many takes, -1 for an error
	}{{"5-49", 45}, {"0", 1}, {"0,2,4-6", 5}, {"0 1", 2}, {"", -1}, {"3-", -1}, {"-3", -1}, {"a", -1}} {
		got, err := parseTakes("x", tc.in)
		if n := len(got); (err != nil) != (tc.want < 0) || (err == nil && n != tc.want) {
			t.Errorf("%q: %d takes, %v; want %d", tc.in, n, err, tc.want)
		}
	}
}
