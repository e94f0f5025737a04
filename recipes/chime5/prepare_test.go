package chime5

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

type testLog struct{ logs, warns []string }

func (l *testLog) Log(f string, a ...any)  { l.logs = append(l.logs, fmt.Sprintf(f, a...)) }
func (l *testLog) Warn(f string, a ...any) { l.warns = append(l.warns, fmt.Sprintf(f, a...)) }

func readDataDir(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, f := range []string{"text", "segments", "utt2spk", "spk2utt", "wav.scp"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		out[f] = string(b)
	}
	return out
}

func sedPaths(s, corpus, strode string) string {
	return strings.NewReplacer(corpus, "CORPUS", strode, "STRODE").Replace(s)
}

// Kaldi's prepare_data.sh --mictype worn (both channels, nothing excluded:
// prepare_data.sh alone) on the test corpus. These files are what Kaldi's
// json2text.py, seds, perl and awk made of the same JSON (wav.scp less the
// unused S03_P12.wav, which validate_data_dir.sh would reject).
var kaldiTrainLR = map[string]string{
	"text": `P09_S03_NOLOCATION.L-0000020-0000150 [noise] what were we talking about again [inaudible]
P09_S03_NOLOCATION.L-0000425-0000590 so yeah two thousand
P09_S03_NOLOCATION.R-0000020-0000150 [noise] what were we talking about again [inaudible]
P09_S03_NOLOCATION.R-0000425-0000590 so yeah two thousand
P10_S03_NOLOCATION.L-0000180-0000305 mmhmm it's ok i guess [laughs]
P10_S03_NOLOCATION.L-0000410-0000500
P10_S03_NOLOCATION.R-0000180-0000305 mmhmm it's ok i guess [laughs]
P10_S03_NOLOCATION.R-0000410-0000500
P11_S03_NOLOCATION.L-0000050-0000250 dropped with p11 in s03
P11_S03_NOLOCATION.R-0000050-0000250 dropped with p11 in s03
`,
	"segments": `P09_S03_NOLOCATION.L-0000020-0000150 P09_S03.L 00000.20 00001.50
P09_S03_NOLOCATION.L-0000425-0000590 P09_S03.L 00004.25 00005.90
P09_S03_NOLOCATION.R-0000020-0000150 P09_S03.R 00000.20 00001.50
P09_S03_NOLOCATION.R-0000425-0000590 P09_S03.R 00004.25 00005.90
P10_S03_NOLOCATION.L-0000180-0000305 P10_S03.L 00001.80 00003.05
P10_S03_NOLOCATION.L-0000410-0000500 P10_S03.L 00004.10 00005.00
P10_S03_NOLOCATION.R-0000180-0000305 P10_S03.R 00001.80 00003.05
P10_S03_NOLOCATION.R-0000410-0000500 P10_S03.R 00004.10 00005.00
P11_S03_NOLOCATION.L-0000050-0000250 P11_S03.L 00000.50 00002.50
P11_S03_NOLOCATION.R-0000050-0000250 P11_S03.R 00000.50 00002.50
`,
	"utt2spk": `P09_S03_NOLOCATION.L-0000020-0000150 P09
P09_S03_NOLOCATION.L-0000425-0000590 P09
P09_S03_NOLOCATION.R-0000020-0000150 P09
P09_S03_NOLOCATION.R-0000425-0000590 P09
P10_S03_NOLOCATION.L-0000180-0000305 P10
P10_S03_NOLOCATION.L-0000410-0000500 P10
P10_S03_NOLOCATION.R-0000180-0000305 P10
P10_S03_NOLOCATION.R-0000410-0000500 P10
P11_S03_NOLOCATION.L-0000050-0000250 P11
P11_S03_NOLOCATION.R-0000050-0000250 P11
`,
	"spk2utt": `P09 P09_S03_NOLOCATION.L-0000020-0000150 P09_S03_NOLOCATION.L-0000425-0000590 P09_S03_NOLOCATION.R-0000020-0000150 P09_S03_NOLOCATION.R-0000425-0000590
P10 P10_S03_NOLOCATION.L-0000180-0000305 P10_S03_NOLOCATION.L-0000410-0000500 P10_S03_NOLOCATION.R-0000180-0000305 P10_S03_NOLOCATION.R-0000410-0000500
P11 P11_S03_NOLOCATION.L-0000050-0000250 P11_S03_NOLOCATION.R-0000050-0000250
`,
	"wav.scp": `P09_S03.L sox CORPUS/audio/train/S03_P09.wav -t wav - remix 1 |
P09_S03.R sox CORPUS/audio/train/S03_P09.wav -t wav - remix 2 |
P10_S03.L sox CORPUS/audio/train/S03_P10.wav -t wav - remix 1 |
P10_S03.R sox CORPUS/audio/train/S03_P10.wav -t wav - remix 2 |
P11_S03.L sox CORPUS/audio/train/S03_P11.wav -t wav - remix 1 |
P11_S03.R sox CORPUS/audio/train/S03_P11.wav -t wav - remix 2 |
`,
}

// The defaults: run.sh stage 5 on top (left channel only, P11_S03 dropped).
var defaultTrain = map[string]string{
	"text": `P09_S03_NOLOCATION.L-0000020-0000150 [noise] what were we talking about again [inaudible]
P09_S03_NOLOCATION.L-0000425-0000590 so yeah two thousand
P10_S03_NOLOCATION.L-0000180-0000305 mmhmm it's ok i guess [laughs]
P10_S03_NOLOCATION.L-0000410-0000500
`,
	"segments": `P09_S03_NOLOCATION.L-0000020-0000150 P09_S03.L 00000.20 00001.50
P09_S03_NOLOCATION.L-0000425-0000590 P09_S03.L 00004.25 00005.90
P10_S03_NOLOCATION.L-0000180-0000305 P10_S03.L 00001.80 00003.05
P10_S03_NOLOCATION.L-0000410-0000500 P10_S03.L 00004.10 00005.00
`,
	"utt2spk": `P09_S03_NOLOCATION.L-0000020-0000150 P09
P09_S03_NOLOCATION.L-0000425-0000590 P09
P10_S03_NOLOCATION.L-0000180-0000305 P10
P10_S03_NOLOCATION.L-0000410-0000500 P10
`,
	"spk2utt": `P09 P09_S03_NOLOCATION.L-0000020-0000150 P09_S03_NOLOCATION.L-0000425-0000590
P10 P10_S03_NOLOCATION.L-0000180-0000305 P10_S03_NOLOCATION.L-0000410-0000500
`,
	"wav.scp": `P09_S03.L STRODE wav-select-channel --print-args=false --channel=0 CORPUS/audio/train/S03_P09.wav - |
P10_S03.L STRODE wav-select-channel --print-args=false --channel=0 CORPUS/audio/train/S03_P10.wav - |
`,
}

var defaultDev = map[string]string{
	"text": `P05_S02_KITCHEN.L-0000060-0000438 hello there
P06_S02_DINING.L-0000450-0000599 [laughs] mmhmm
`,
	"segments": `P05_S02_KITCHEN.L-0000060-0000438 P05_S02.L 00000.60 00004.38
P06_S02_DINING.L-0000450-0000599 P06_S02.L 00004.50 00005.99
`,
	"utt2spk": `P05_S02_KITCHEN.L-0000060-0000438 P05
P06_S02_DINING.L-0000450-0000599 P06
`,
	"spk2utt": `P05 P05_S02_KITCHEN.L-0000060-0000438
P06 P06_S02_DINING.L-0000450-0000599
`,
	"wav.scp": `P05_S02.L STRODE wav-select-channel --print-args=false --channel=0 CORPUS/audio/dev/S02_P05.wav - |
P06_S02.L STRODE wav-select-channel --print-args=false --channel=0 CORPUS/audio/dev/S02_P06.wav - |
`,
}

func TestPrepareAsKaldi(t *testing.T) {
	corpus := buildCorpus(t)
	out := t.TempDir()
	const strode = "/opt/strode/bin/strode"
	for _, c := range []struct {
		name, set string
		opts      func(*Options)
		want      map[string]string
		sum       Summary
	}{
		{"prepare_data.sh", "train", func(o *Options) { o.Channels, o.ExcludeSpeakerSessions, o.WavPipe = "L,R", "", "sox" }, kaldiTrainLR,
			Summary{Files: 1, Entries: 7, Redacted: 1, Empty: 1, Kept: 5, EmptyText: 1, Utterances: 10, Speakers: 3, Recordings: 6}},
		{"defaults train", "train", func(o *Options) { o.WavPipe = "strode" }, defaultTrain,
			Summary{Files: 1, Entries: 7, Redacted: 1, Empty: 1, Excluded: 1, Kept: 4, EmptyText: 1, Utterances: 4, Speakers: 2, Recordings: 2}},
		{"defaults dev", "dev", func(o *Options) { o.WavPipe = "strode" }, defaultDev,
			Summary{Files: 1, Entries: 2, Kept: 2, Utterances: 2, Speakers: 2, Recordings: 2}},
	} {
		o := DefaultOptions()
		o.Strode = strode
		c.opts(&o)
		audio, transcripts, err := SetDirs(corpus, c.set)
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(out, c.name)
		log := &testLog{}
		sum, err := Prepare(o, audio, transcripts, dir, log)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got := readDataDir(t, dir)
		for f, want := range c.want {
			if g := sedPaths(got[f], corpus, strode); g != want {
				t.Errorf("%s: %s:\n%s\nwant\n%s", c.name, f, g, want)
			}
		}
		s := *sum
		s.UnusedAudio, s.WavPipe, s.AudioDir, s.TranscriptDir = nil, "", "", ""
		if !reflect.DeepEqual(s, c.sum) {
			t.Errorf("%s: summary %+v, want %+v", c.name, s, c.sum)
		}
	}
}

func TestPrepareWarnsAboutUnusedAudio(t *testing.T) {
	corpus := buildCorpus(t)
	audio, transcripts, _ := SetDirs(corpus, "train")
	log := &testLog{}
	if _, err := Prepare(DefaultOptions(), audio, transcripts, t.TempDir(), log); err != nil {
		t.Fatal(err)
	}
	if len(log.warns) != 1 || !strings.Contains(log.warns[0], "S03_P12.wav") {
		t.Errorf("warnings %q: want one about S03_P12.wav (no utterances)", log.warns)
	}
	if !strings.Contains(strings.Join(log.logs, "\n"), "S03_P11.wav: speaker_session P11_S03 excluded") {
		t.Errorf("logs %q should say S03_P11.wav is excluded", log.logs)
	}
}

func TestPrepareErrors(t *testing.T) {
	corpus := buildCorpus(t)
	audio, transcripts, _ := SetDirs(corpus, "dev")
	write := func(t *testing.T, js string) string {
		d := t.TempDir()
		if err := os.WriteFile(filepath.Join(d, "S02.json"), []byte(js), 0o644); err != nil {
			t.Fatal(err)
		}
		return d
	}
	entry := func(spk, start, end string) string {
		return fmt.Sprintf(`{"start_time": {"original": %q}, "end_time": {"original": %q}, "words": "hi", "speaker": %q, "session_id": "S02"}`, start, end, spk)
	}
	// Speakers P5 and P50: utterance order (P50_... < P5_...) and speaker
	// order (P5 < P50) disagree.
	twoSpeakers := t.TempDir()
	writeBinaural(t, filepath.Join(twoSpeakers, "S02_P5.wav"), 5)
	writeBinaural(t, filepath.Join(twoSpeakers, "S02_P50.wav"), 50)
	for _, c := range []struct {
		name        string
		opts        func(*Options)
		audio, json string
		want        []string
		is          error
	}{
		{"mictype", func(o *Options) { o.MicType = "u01" }, audio, transcripts, []string{"--mictype=u01", "worn"}, nil},
		{"channels", func(o *Options) { o.Channels = "left" }, audio, transcripts, []string{"--channels=left"}, nil},
		{"wav pipe", func(o *Options) { o.WavPipe = "ffmpeg" }, audio, transcripts, []string{"--wav-pipe=ffmpeg"}, nil},
		{"no json", nil, audio, t.TempDir(), []string{"no *.json"}, ErrLayout},
		{"no json dir", nil, audio, filepath.Join(corpus, "nope"), []string{"transcription directory"}, ErrLayout},
		{"no audio", nil, t.TempDir(), transcripts, []string{"no binaural files"}, ErrLayout},
		{"missing speaker audio", nil, audio, write(t, "["+entry("P07", "0:00:01.00", "0:00:02.00")+"]"),
			[]string{"S02_P07.wav", "utterance 0", "1 binaural file(s) missing"}, ErrLayout},
		{"duplicate id", nil, audio, write(t, "["+entry("P05", "0:00:01.00", "0:00:02.00")+","+entry("P05", "0:00:01.004", "0:00:02.009")+"]"),
			[]string{"P05_S02_NOLOCATION-0000100-0000200 twice", "utterance 0", "utterance 1"}, nil},
		{"bad time", nil, audio, write(t, "["+entry("P05", "0:00:01.00", "0:00:02")+"]"),
			[]string{"S02.json", "utterance 0", `"end_time"`}, ErrTime},
		{"nothing left", nil, audio, write(t, `[{"words": "[redacted]"}]`), []string{"no utterances left", "1 redacted"}, nil},
		{"speaker order", nil, twoSpeakers, write(t, "["+entry("P5", "0:00:01.00", "0:00:02.00")+","+entry("P50", "0:00:01.00", "0:00:02.00")+"]"),
			[]string{"speakers P50 and P5"}, nil},
	} {
		o := DefaultOptions()
		if c.opts != nil {
			c.opts(&o)
		}
		_, err := Prepare(o, c.audio, c.json, t.TempDir(), &testLog{})
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		if c.is != nil && !errors.Is(err, c.is) {
			t.Errorf("%s: %v should wrap %v", c.name, err, c.is)
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not mention %q", c.name, err, w)
			}
		}
	}
}

// A mono file cannot give the right channel.
func TestPrepareMonoFile(t *testing.T) {
	corpus := buildCorpus(t)
	audio, transcripts, _ := SetDirs(corpus, "dev")
	raw, _ := stereoWave(t, 100)
	mono := append([]byte(nil), raw[:44]...)
	// Rewrite the header as one channel of the same bytes.
	mono[22], mono[32] = 1, 2
	mono[28], mono[29], mono[30], mono[31] = 0x00, 0x7d, 0x00, 0x00 // 32000 bytes/s
	mono = append(mono, raw[44:]...)
	if err := os.WriteFile(filepath.Join(audio, "S02_P05.wav"), mono, 0o644); err != nil {
		t.Fatal(err)
	}
	o := DefaultOptions()
	if _, err := Prepare(o, audio, transcripts, t.TempDir(), &testLog{}); err != nil {
		t.Fatalf("left channel of a one-channel file: %v", err)
	}
	o.Channels = "L,R"
	_, err := Prepare(o, audio, transcripts, t.TempDir(), &testLog{})
	if !errors.Is(err, ErrWave) || !strings.Contains(err.Error(), "S02_P05.wav") {
		t.Errorf("right channel of a one-channel file: %v", err)
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"/a/b/S02_P05.wav":  "/a/b/S02_P05.wav",
		"/a b/S02_P05.wav":  "'/a b/S02_P05.wav'",
		"/it's/x.wav":       `'/it'\''s/x.wav'`,
		"/a/$HOME/x.wav":    "'/a/$HOME/x.wav'",
		"/a/x.wav|rm -rf /": "'/a/x.wav|rm -rf /'",
	} {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}
