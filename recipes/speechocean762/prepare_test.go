package speechocean762

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strode-asr/strode/decoder/mkgraph"
	"github.com/strode-asr/strode/features"
	"github.com/strode-asr/strode/internal/shareddata"
	"github.com/strode-asr/strode/recipes/datadir"
)

// toySpeakers are the speakers of toyCorpus: id, gender, age, half.
var toySpeakers = []struct {
	id, gender string
	age        int
	half       string
}{
	{"0001", "m", 6, "train"}, {"0005", "f", 30, "train"}, {"0012", "f", 9, "train"}, {"1027", "m", 37, "train"},
	{"0003", "f", 8, "test"}, {"0040", "m", 22, "test"},
}

// tinyWav is a short 16 kHz RIFF/WAVE file whose samples depend on seed.
func tinyWav(t *testing.T, seed int) []byte {
	t.Helper()
	w := features.WaveData{SampFreq: 16000, Data: [][]float32{make([]float32, 160)}}
	for i := range w.Data[0] {
		w.Data[0][i] = float32((i*seed)%200 - 100)
	}
	var b bytes.Buffer
	if _, err := w.Write(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// toyCorpus writes a corpus laid out as upstream's (tab-separated files, not
// sorted, relative wav.scp paths, WAVE/SPEAKERnnnn/ID.WAV) with two
// utterances a speaker; utterances of speaker 0012 exist only as .flac (as
// in the project's FLAC copy). The test half's second speaker says a word
// the lexicon lacks (ZORP).
func toyCorpus(t *testing.T) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "speechocean762")
	files := map[string]*strings.Builder{}
	add := func(name, format string, a ...any) {
		if files[name] == nil {
			files[name] = &strings.Builder{}
		}
		fmt.Fprintf(files[name], format, a...)
	}
	for i := len(toySpeakers) - 1; i >= 0; i-- { // reversed: upstream's files are not all sorted
		s := toySpeakers[i]
		add(s.half+"/spk2gender", "%s\t%s\n", s.id, s.gender)
		add(s.half+"/spk2age", "%s\t%d\n", s.id, s.age)
		var utts []string
		for u := 1; u <= 2; u++ {
			id := fmt.Sprintf("0%s%04d", s.id, u*7)
			utts = append(utts, id)
			words := "WE CALL IT BEAR"
			if s.id == "0040" && u == 2 {
				words = "WE CALL ZORP"
			}
			add(s.half+"/text", "%s\t%s\n", id, words)
			add(s.half+"/wav.scp", "%s\tWAVE/SPEAKER%s/%s.WAV\n", id, s.id, id)
			add(s.half+"/utt2spk", "%s %s\n", id, s.id)
			ext := ".WAV"
			if s.id == "0012" {
				ext = ".flac" // any bytes: data prep only finds the file
			}
			p := filepath.Join(root, "WAVE", "SPEAKER"+s.id, id+ext)
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, tinyWav(t, u+len(utts)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		add(s.half+"/spk2utt", "%s %s\n", s.id, strings.Join(utts, " "))
	}
	add("resource/lexicon.txt", "A\tAH0\nA\tEY0\nBEAR\tB EH1 R\nCALL\tK AO1 L\nIT\tIH1 T\nIT\tIH T\nWE\tW IY1\n")
	for name, b := range files {
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestPrepare(t *testing.T) {
	corpus := toyCorpus(t)
	data := filepath.Join(t.TempDir(), "data")
	var log bytes.Buffer
	st, err := Prepare(corpus, data, Options{DevSpeakers: []string{"0005"}}, &log)
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	if st.NoTest || len(st.Sets) != 3 || st.DictDir != filepath.Join(data, "local", "dict") {
		t.Fatalf("stats %+v", st)
	}
	for i, want := range []SetStats{
		{Name: "train", Utterances: 6, Speakers: 3, Words: 24, Balance: "child-f 1, child-m 1, adult-f 0, adult-m 1"},
		{Name: "dev", Utterances: 2, Speakers: 1, Words: 8, Balance: "child-f 0, child-m 0, adult-f 1, adult-m 0"},
		{Name: "test", Utterances: 4, Speakers: 2, Words: 15, OOVTokens: 1, OOVTypes: []string{"ZORP"}, Balance: "child-f 1, child-m 0, adult-f 0, adult-m 1"},
	} {
		got := st.Sets[i]
		if got.Name != want.Name || got.Utterances != want.Utterances || got.Speakers != want.Speakers || got.Words != want.Words ||
			got.OOVTokens != want.OOVTokens || strings.Join(got.OOVTypes, " ") != strings.Join(want.OOVTypes, " ") || got.Balance != want.Balance {
			t.Errorf("set %d: %+v, want %+v", i, got, want)
		}
		if err := datadir.Validate(filepath.Join(data, want.Name), datadir.ValidateOptions{NoFeats: true}, nil); err != nil {
			t.Error(err)
		}
	}
	abs, _ := filepath.Abs(corpus)
	for name, want := range map[string]string{
		"train/text":       "000010007 WE CALL IT BEAR\n000010014 WE CALL IT BEAR\n000120007 WE CALL IT BEAR\n000120014 WE CALL IT BEAR\n010270007 WE CALL IT BEAR\n010270014 WE CALL IT BEAR\n",
		"train/utt2spk":    "000010007 0001\n000010014 0001\n000120007 0012\n000120014 0012\n010270007 1027\n010270014 1027\n",
		"train/spk2utt":    "0001 000010007 000010014\n0012 000120007 000120014\n1027 010270007 010270014\n",
		"train/spk2gender": "0001 m\n0012 f\n1027 m\n",
		"train/spk2age":    "0001 6\n0012 9\n1027 37\n",
		"dev/utt2spk":      "000050007 0005\n000050014 0005\n",
		"test/text":        "000030007 WE CALL IT BEAR\n000030014 WE CALL IT BEAR\n000400007 WE CALL IT BEAR\n000400014 WE CALL ZORP\n",
		"dev/wav.scp":      fmt.Sprintf("000050007 %[1]s/WAVE/SPEAKER0005/000050007.WAV\n000050014 %[1]s/WAVE/SPEAKER0005/000050014.WAV\n", abs),
	} {
		if got := readFile(t, filepath.Join(data, name)); got != want {
			t.Errorf("%s:\n%s\nwant:\n%s", name, got, want)
		}
	}
	// The FLAC copy's file is found in place of the missing WAV.
	if wav := readFile(t, filepath.Join(data, "train", "wav.scp")); !strings.Contains(wav, "000120007 "+abs+"/WAVE/SPEAKER0012/000120007.flac\n") {
		t.Errorf("train/wav.scp does not point to the .flac:\n%s", wav)
	}
	if !strings.Contains(log.String(), "--> SUCCESS [validating dictionary directory") || strings.Count(log.String(), "Successfully validated data-directory") != 3 {
		t.Errorf("log:\n%s", log.String())
	}

	// --flac-pipe: Kaldi's pipe for FLAC, plain paths for WAV.
	data2 := filepath.Join(t.TempDir(), "data")
	if _, err := Prepare(corpus, data2, Options{DevSpeakers: []string{"0005"}, FlacPipe: true, DictDir: filepath.Join(data2, "dict")}, nil); err != nil {
		t.Fatal(err)
	}
	wav := readFile(t, filepath.Join(data2, "train", "wav.scp"))
	if !strings.Contains(wav, "000120014 flac -c -d -s "+abs+"/WAVE/SPEAKER0012/000120014.flac |\n") || !strings.Contains(wav, "000010007 "+abs+"/WAVE/SPEAKER0001/000010007.WAV\n") {
		t.Errorf("wav.scp with --flac-pipe:\n%s", wav)
	}
	if _, err := os.Stat(filepath.Join(data2, "dict", "lexicon.txt")); err != nil {
		t.Errorf("--dict-dir not used: %v", err)
	}
}

// Problems in the corpus are errors naming the file and line.
func TestPrepareErrors(t *testing.T) {
	for _, tc := range []struct {
		name   string
		breakf func(root string)
		dev    []string
		want   string
	}{
		{"missing audio", func(root string) { os.Remove(filepath.Join(root, "WAVE/SPEAKER0001/000010014.WAV")) }, nil,
			"train/wav.scp:8: utterance 000010014: no audio file"},
		{"no gender", func(root string) { rewrite(root, "train/spk2gender", "0012\tf\n", "") }, nil,
			"train/spk2age:2: speaker 0012 is not in spk2gender"},
		{"bad gender", func(root string) { rewrite(root, "train/spk2gender", "0012\tf", "0012\tx") }, nil,
			"train/spk2gender:2: speaker 0012 has gender \"x\""},
		{"bad age", func(root string) { rewrite(root, "train/spk2age", "0012\t9", "0012\tnine") }, nil,
			"train/spk2age:2: speaker 0012 has age \"nine\""},
		{"utterance without speaker", func(root string) { rewrite(root, "test/utt2spk", "000030007 0003\n", "") }, nil,
			"test/text:3: utterance 000030007 is not in utt2spk"},
		{"repeated key", func(root string) { rewrite(root, "train/text", "010270007\t", "000010007\tA\n010270007\t") }, nil,
			"train/text:8: 000010007 repeats line 1"},
		{"bad lexicon line", func(root string) { rewrite(root, "resource/lexicon.txt", "WE\tW IY1\n", "WE\n") }, nil,
			"resource/lexicon.txt:7: word WE has no phones"},
		{"unknown dev speaker", func(string) {}, []string{"0003"}, "dev speaker 0003 is not a speaker of"},
		{"every speaker dev", func(string) {}, []string{"0001", "0005", "0012", "1027"}, "the dev list holds 4 of the 4 train speakers"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := toyCorpus(t)
			tc.breakf(root)
			dev := tc.dev
			if dev == nil {
				dev = []string{"0005"}
			}
			_, err := Prepare(root, filepath.Join(t.TempDir(), "data"), Options{DevSpeakers: dev}, nil)
			if !errors.Is(err, ErrCorpus) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want ErrCorpus with %q", err, tc.want)
			}
		})
	}
}

// rewrite replaces old by new in a corpus file.
func rewrite(root, name, old, new string) {
	p := filepath.Join(root, name)
	b, _ := os.ReadFile(p)
	os.WriteFile(p, []byte(strings.Replace(string(b), old, new, 1)), 0o644)
}

func TestPrepareDict(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "dict")
	lex := filepath.Join(t.TempDir(), "lexicon.txt")
	os.WriteFile(lex, []byte("IT\tIH1 T\nA\tAH0\nA\tEY0\nIT\tIH T\nA\tAH0\nBEAR\tB EH1 R\n"), 0o644)
	st, err := PrepareDict(lex, dir)
	if err != nil {
		t.Fatal(err)
	}
	if st.Words != 4 || st.Prons != 6 || !st.AddedUNK || st.Duplicates != 1 || st.BasePhones != 7 || st.Phones != 11 || !st.HasWord("BEAR") || st.HasWord("bear") {
		t.Errorf("stats %+v", st)
	}
	for name, want := range map[string]string{
		"lexicon.txt":           "<UNK> SPN\nA AH0\nA EY0\nBEAR B EH1 R\nIT IH T\nIT IH1 T\n",
		"silence_phones.txt":    "SIL\nSPN\n",
		"optional_silence.txt":  "SIL\n",
		"nonsilence_phones.txt": "AH AH0\nB\nEH EH1\nEY EY0\nIH IH1\nR\nT\n",
		"extra_questions.txt":   "SIL SPN\nAH B EH EY IH R T\nAH0 EY0\nEH1 IH1\n",
	} {
		if got := readFile(t, filepath.Join(dir, name)); got != want {
			t.Errorf("%s:\n%s\nwant:\n%s", name, got, want)
		}
	}
	if err := mkgraph.ValidateDictDir(dir, nil); err != nil {
		t.Error(err)
	}
	// prepare_lang reads it.
	if _, err := mkgraph.ReadDictDir(dir); err != nil {
		t.Error(err)
	}
	// An existing <UNK> is kept, and a stale lexiconp.txt goes.
	os.WriteFile(filepath.Join(dir, "lexiconp.txt"), []byte("A 1.0 AH0\n"), 0o644)
	os.WriteFile(lex, []byte("<UNK>\tSPN\nA\tAH0\n"), 0o644)
	if st, err := PrepareDict(lex, dir); err != nil || st.AddedUNK || st.Prons != 2 {
		t.Errorf("%+v, %v", st, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "lexiconp.txt")); !os.IsNotExist(err) {
		t.Errorf("stale lexiconp.txt kept: %v", err)
	}
	for _, bad := range []struct{ text, want string }{
		{"A\tAH0\nB\tSIL_B\n", "lexicon.txt:2: word B: phone \"SIL_B\" is not an ARPAbet phone"},
		{"A\tAH0\nB\t0\n", "lexicon.txt:2: word B: phone \"0\" is not an ARPAbet phone"},
		{"\n\n", "empty lexicon"},
	} {
		os.WriteFile(lex, []byte(bad.text), 0o644)
		if _, err := PrepareDict(lex, dir); !errors.Is(err, ErrCorpus) || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%q: %v, want %q", bad.text, err, bad.want)
		}
	}
}

// The project's copy of the train half: 2,240 train and 260 dev
// utterances, the dict dir of the 2,604-word lexicon, every word known.
func TestPrepareShared(t *testing.T) {
	corpus := shareddata.Full(t, "data/speechocean762")
	data := filepath.Join(t.TempDir(), "data")
	st, err := Prepare(corpus, data, Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !st.NoTest || len(st.Sets) != 2 {
		t.Fatalf("%+v: want train and dev only", st)
	}
	tr, dev := st.Sets[0], st.Sets[1]
	if tr.Utterances != 2240 || tr.Speakers != 112 || dev.Utterances != 260 || dev.Speakers != 13 || tr.OOVTokens+dev.OOVTokens != 0 || tr.Words+dev.Words != 15849 {
		t.Errorf("train %+v, dev %+v", tr, dev)
	}
	if d := st.Dict; d.Words != 2605 || d.Prons != 2862 || d.BasePhones != 39 || !d.AddedUNK {
		t.Errorf("dict %+v", d)
	}
	if wav := readFile(t, filepath.Join(data, "dev", "wav.scp")); !strings.HasPrefix(wav, "000480") || !strings.Contains(wav, ".flac\n") {
		t.Errorf("dev/wav.scp starts %q", wav[:min(80, len(wav))])
	}
}
