package kaldinnet

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/strode-asr/strode/acoustic/am"
	"github.com/strode-asr/strode/kaldiio"
)

func nolog(string, ...any) {}

// toyTables writes a toy task (train: 6 speakers, held-out: 2 more).
func toyTables(t *testing.T) (train, valid ToyData) {
	t.Helper()
	dir := t.TempDir()
	td, vd := filepath.Join(dir, "train"), filepath.Join(dir, "cv")
	os.Mkdir(td, 0o755)
	os.Mkdir(vd, 0o755)
	var err error
	if train, err = WriteToyData(td, ToyOptions{Speakers: 6, UttsPerSpeaker: 5, Dim: 4, NumPdfs: 3, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	if valid, err = WriteToyData(vd, ToyOptions{Speakers: 2, UttsPerSpeaker: 3, Dim: 4, NumPdfs: 3, Seed: 2}); err != nil {
		t.Fatal(err)
	}
	return train, valid
}

func toyEgsOptions(d ToyData) EgsOptions {
	o := DefaultEgsOptions()
	o.Data.CMVN, o.Data.Utt2spk, o.Data.NormVars = d.CMVN, d.Utt2spk, true
	o.Data.LeftContext, o.Data.RightContext = 2, 1
	o.Seed = 3
	return o
}

func keysOf(t *testing.T, rspec string) []string {
	t.Helper()
	sr, err := kaldiio.OpenSequentialReader(rspec, EgCodec{})
	if err != nil {
		t.Fatal(err)
	}
	defer sr.Close()
	var out []string
	for sr.Next() {
		out = append(out, sr.Key())
	}
	if err := sr.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// The archives hold every training utterance exactly once, within one
// utterance of each other in size, shuffled; spliced by ReadEgs they are
// what kaldinnet.Load gives for the same options, value for value.
func TestGetEgsCoversEveryUtteranceOnce(t *testing.T) {
	train, valid := toyTables(t)
	dir := t.TempDir()
	o := toyEgsOptions(train)
	o.NumArchives, o.NumUttsSubset = 4, 7
	o.ValidFeats, o.ValidTargets = valid.Feats, valid.Targets
	// The held-out set has its own speakers' CMVN stats: use per-utterance CMVN for both here.
	o.Data.CMVN, o.Data.Utt2spk, o.Data.UttCMVN = "", "", true
	info, err := GetEgs(train.Feats, train.Targets, dir, o, nolog)
	if err != nil {
		t.Fatal(err)
	}
	if info.NumArchives != 4 || info.NumUtts != 30 || info.FeatDim != 4 || info.NumPdfs != 3 || info.Pipeline.SpliceLeft != 2 || info.Pipeline.InputDim() != 16 {
		t.Fatalf("info %+v", info)
	}
	if back, err := ReadEgsInfo(dir); err != nil || back.Pipeline.JSON() != info.Pipeline.JSON() || back.NumFrames != info.NumFrames {
		t.Fatalf("info read back %+v, %v; wrote %+v", back, err, info)
	}
	seen := map[string]int{}
	var all []string
	for k := 1; k <= 4; k++ {
		keys := keysOf(t, "ark:"+EgsArchive(dir, k))
		if n := len(keys); n < 7 || n > 8 {
			t.Errorf("archive %d has %d utterances, want 7 or 8 (30 over 4)", k, n)
		}
		if sort.StringsAreSorted(keys) {
			t.Errorf("archive %d is in sorted order: not shuffled", k)
		}
		for _, key := range keys {
			seen[key]++
		}
		all = append(all, keys...)
	}
	for _, key := range train.Keys {
		if seen[key] != 1 {
			t.Errorf("%s is in %d archives, want 1", key, seen[key])
		}
	}
	if len(seen) != len(train.Keys) {
		t.Errorf("%d distinct utterances in the archives, want %d", len(seen), len(train.Keys))
	}
	if got := keysOf(t, "ark:"+ValidDiagnostic(dir)); strings.Join(got, " ") != strings.Join(valid.Keys, " ") {
		t.Errorf("valid_diagnostic.ark has %v, want %v", got, valid.Keys)
	}
	if sub := keysOf(t, "ark:"+TrainDiagnostic(dir)); len(sub) != 7 {
		t.Errorf("train_diagnostic.ark has %d utterances, want 7", len(sub))
	}

	// Spliced back, the examples are kaldinnet.Load's utterances.
	p := info.Pipeline
	want, _, err := Load(train.Feats, train.Targets, o.Data, &p, 3, &warnLog{})
	if err != nil {
		t.Fatal(err)
	}
	byKey := map[string]*am.Utterance{}
	for k := 1; k <= 4; k++ {
		utts, err := ReadEgs("ark:"+EgsArchive(dir, k), info.Pipeline, 3)
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range utts {
			byKey[u.Key] = u
		}
	}
	for _, w := range want {
		g := byKey[w.Key]
		if g == nil || g.Rows != w.Rows || len(g.Feats) != len(w.Feats) || len(g.Targets) != len(w.Targets) {
			t.Fatalf("%s: got %+v", w.Key, g)
		}
		for i := range w.Feats {
			if g.Feats[i] != w.Feats[i] {
				t.Fatalf("%s value %d: %v, Load %v", w.Key, i, g.Feats[i], w.Feats[i])
			}
		}
		for i := range w.Targets {
			if g.Targets[i] != w.Targets[i] {
				t.Fatalf("%s frame %d: pdf %d, Load %d", w.Key, i, g.Targets[i], w.Targets[i])
			}
		}
	}

	// Same seed, same archives, byte for byte; another seed shuffles otherwise.
	dir2 := t.TempDir()
	if _, err := GetEgs(train.Feats, train.Targets, dir2, o, nolog); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(EgsArchive(dir, 2))
	b, _ := os.ReadFile(EgsArchive(dir2, 2))
	if !bytes.Equal(a, b) {
		t.Error("the same seed wrote different archives")
	}
	o.Seed = 4
	if _, err := GetEgs(train.Feats, train.Targets, dir2, o, nolog); err != nil {
		t.Fatal(err)
	}
	if strings.Join(keysOf(t, "ark:"+EgsArchive(dir2, 1)), " ") == strings.Join(keysOf(t, "ark:"+EgsArchive(dir, 1)), " ") {
		t.Error("another seed wrote the same archive")
	}
	if _, err := os.Stat(filepath.Join(dir2, "tmp.ark")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the temporary archive is left behind: %v", err)
	}
}

// Without --cv-feats, held-out training utterances leave the archives: the
// held-out set and the archives partition the training set.
func TestGetEgsHoldsOutTrainingUtterances(t *testing.T) {
	train, _ := toyTables(t)
	dir := t.TempDir()
	o := toyEgsOptions(train)
	o.NumArchives = 2
	info, err := GetEgs(train.Feats, train.Targets, dir, o, nolog)
	if err != nil {
		t.Fatal(err)
	}
	held := keysOf(t, "ark:"+ValidDiagnostic(dir))
	if len(held) != 3 || info.NumUtts != 27 { // a tenth of 30
		t.Fatalf("%d held out, %d in the archives", len(held), info.NumUtts)
	}
	seen := map[string]int{}
	for _, k := range held {
		seen[k]++
	}
	for k := 1; k <= 2; k++ {
		for _, key := range keysOf(t, "ark:"+EgsArchive(dir, k)) {
			seen[key]++
		}
	}
	for _, key := range train.Keys {
		if seen[key] != 1 {
			t.Errorf("%s appears %d times in held-out set and archives, want 1", key, seen[key])
		}
	}
	for _, key := range keysOf(t, "ark:"+TrainDiagnostic(dir)) {
		for _, h := range held {
			if key == h {
				t.Errorf("held-out %s is in train_diagnostic.ark", key)
			}
		}
	}
}

// An interrupted get-egs (no info/num_archives) is refused by readers.
func TestEgsIncomplete(t *testing.T) {
	train, _ := toyTables(t)
	dir := t.TempDir()
	o := toyEgsOptions(train)
	o.NumArchives = 2
	if _, err := GetEgs(train.Feats, train.Targets, dir, o, nolog); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, "info", "num_archives"))
	if _, err := ReadEgsInfo(dir); !errors.Is(err, ErrEgsIncomplete) {
		t.Errorf("got %v, want ErrEgsIncomplete", err)
	}
}

func TestEgCodecRoundTrip(t *testing.T) {
	e := Eg{Feats: kaldiio.Matrix{Rows: 3, Cols: 2, Data: []float32{1, -2, 3.5, 4, 0.25, -6}}, Pdfs: []int32{0, 7, 2}}
	for _, spec := range []string{"ark", "ark,t"} {
		for _, compress := range []bool{false, true} {
			path := filepath.Join(t.TempDir(), "egs.ark")
			w, err := kaldiio.OpenTableWriter(spec+":"+path, EgCodec{Compress: compress})
			if err != nil {
				t.Fatal(err)
			}
			if err := w.Write("utt1", e); err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			sr, err := kaldiio.OpenSequentialReader("ark:"+path, EgCodec{})
			if err != nil {
				t.Fatal(err)
			}
			if !sr.Next() {
				t.Fatalf("%s compress=%v: %v", spec, compress, sr.Err())
			}
			g := sr.Value()
			tol := 0.0
			if compress && spec == "ark" {
				tol = 0.05 // 8 bits per value over [-6, 4]
			}
			for i, v := range e.Feats.Data {
				if math.Abs(float64(g.Feats.Data[i]-v)) > tol {
					t.Errorf("%s compress=%v: value %d %v, want %v", spec, compress, i, g.Feats.Data[i], v)
				}
			}
			if g.Feats.Rows != 3 || g.Feats.Cols != 2 || len(g.Pdfs) != 3 || g.Pdfs[1] != 7 {
				t.Errorf("%s compress=%v: %+v", spec, compress, g)
			}
			sr.Close()
		}
	}
	// Fewer pdf-ids than rows: an error on write.
	bad := e
	bad.Pdfs = bad.Pdfs[:2]
	w, _ := kaldiio.OpenTableWriter("ark:"+filepath.Join(t.TempDir(), "x.ark"), EgCodec{})
	if err := w.Write("u", bad); err == nil {
		t.Error("an example with 3 rows and 2 pdf-ids was written")
	}
	w.Abort()
}

// Bad archives give errors naming the file and the key, never a panic.
func FuzzEgCodec(f *testing.F) {
	var buf bytes.Buffer
	w := kaldiio.NewWriter(&buf)
	EgCodec{}.Write(w, true, &Eg{Feats: kaldiio.Matrix{Rows: 2, Cols: 2, Data: []float32{1, 2, 3, 4}}, Pdfs: []int32{1, 2}})
	w.Flush()
	f.Add(buf.Bytes())
	f.Add([]byte("<StrodeEg> <Feats> [ 1 2\n 3 4 ]\n<Pdfs> [ 1 2 ]\n</StrodeEg> "))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, binary := range []bool{true, false} {
			var e Eg
			r := kaldiio.NewReader(bytes.NewReader(data), "fuzz.ark")
			if err := (EgCodec{}).Read(r, binary, &e); err == nil && len(e.Pdfs) != e.Feats.Rows {
				t.Fatalf("accepted %d rows with %d pdf-ids", e.Feats.Rows, len(e.Pdfs))
			}
		}
	})
}
