package features

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strode-asr/strode/kaldiio"
)

// segmentsFixture writes a one-second 8 kHz recording "rec" into a wave
// archive and returns its rspecifier.
func segmentsFixture(t testing.TB, dir string) string {
	t.Helper()
	w := WaveData{SampFreq: 8000, Data: [][]float32{make([]float32, 8000)}}
	for i := range w.Data[0] {
		w.Data[0][i] = float32(i % 1000)
	}
	ark := filepath.Join(dir, "wav.ark")
	tw, err := kaldiio.OpenTableWriter("ark:"+ark, WaveCodec)
	if err != nil {
		t.Fatal(err)
	}
	if err := tw.Write("rec", w); err != nil {
		t.Fatal(err)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return "ark:" + ark
}

// Lines with non-finite times are Kaldi's "Invalid line" warnings (a NaN
// start once reached the sample arithmetic and panicked).
func TestExtractSegmentsBadTimes(t *testing.T) {
	dir := t.TempDir()
	wavs := segmentsFixture(t, dir)
	seg := filepath.Join(dir, "segments")
	lines := []string{
		"a rec NaN 0.5", "b rec 0.1 NaN", "c rec -Inf 0.5", "d rec 0.1 +Inf", "e rec 0.1 inf",
		"f rec 0.25 0.5",
	}
	os.WriteFile(seg, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	log := &testLog{}
	done, n, err := ExtractSegments(DefaultExtractSegmentsOptions(), wavs, seg, "ark:/dev/null", log)
	if err != nil || done != 1 || n != len(lines) || len(log.warnings) != 5 {
		t.Fatalf("done %d of %d lines, warnings %q: %v", done, n, log.warnings, err)
	}
}

func FuzzExtractSegments(f *testing.F) {
	f.Add("s1 rec 0.1 0.5\ns2 rec 0 -1\ns3 rec 0.2 0.3 0\n")
	f.Add("x rec 0.9 1.2\ny rec 1e308 1e309\nz other 0 1\n")
	dir := f.TempDir()
	wavs := segmentsFixture(f, dir)
	f.Fuzz(func(t *testing.T, segments string) {
		seg := filepath.Join(t.TempDir(), "segments")
		os.WriteFile(seg, []byte(segments), 0o644)
		out := filepath.Join(t.TempDir(), "out.ark")
		ExtractSegments(DefaultExtractSegmentsOptions(), wavs, seg, "ark:"+out, &testLog{})
		sr, err := kaldiio.OpenSequentialReader("ark:"+out, WaveCodec)
		if err != nil {
			return
		}
		defer sr.Close()
		for sr.Next() {
			v := sr.Value()
			if n := v.NumSamples(); n > 8000 {
				t.Fatalf("segment of %d samples from a recording of 8000", n)
			}
		}
	})
}

// Consecutive segments of one recording read it once (as Kaldi's script
// reader keeps its last object): a wav.scp pipe that counts its runs is run
// once for three segments of "rec", and again only when "rec" comes back
// after another recording.
func TestExtractSegmentsReadsEachRecordingOnce(t *testing.T) {
	dir := t.TempDir()
	ark := strings.TrimPrefix(segmentsFixture(t, dir), "ark:")
	count := filepath.Join(dir, "count")
	// Both recordings are the fixture's wave (its archive less the key "rec ").
	pipe := "echo run >> " + count + "; tail -c +5 " + ark + " |"
	scp := filepath.Join(dir, "wav.scp")
	os.WriteFile(scp, []byte("rec "+pipe+"\nrec2 "+pipe+"\n"), 0o644)
	seg := filepath.Join(dir, "segments")
	os.WriteFile(seg, []byte("a rec 0 0.25\nb rec 0.25 0.5\nc rec 0.5 0.75\nd rec2 0 0.5\ne rec 0 0.1\n"), 0o644)
	out := filepath.Join(dir, "out.ark")
	done, _, err := ExtractSegments(DefaultExtractSegmentsOptions(), "scp:"+scp, seg, "ark:"+out, &testLog{})
	if err != nil || done != 5 {
		t.Fatalf("done %d: %v", done, err)
	}
	b, _ := os.ReadFile(count)
	if n := strings.Count(string(b), "run"); n != 3 {
		t.Errorf("the wav.scp pipes ran %d times for rec, rec, rec, rec2, rec; want 3", n)
	}
	sr, err := kaldiio.OpenSequentialReader("ark:"+out, WaveCodec)
	if err != nil {
		t.Fatal(err)
	}
	defer sr.Close()
	for want := 0; sr.Next(); want++ {
		w := sr.Value()
		if len(w.Data[0]) == 0 || w.Data[0][0] != float32((map[string]int{"a": 0, "b": 2000, "c": 4000, "d": 0, "e": 0}[sr.Key()])%1000) {
			t.Errorf("%s: first sample %v", sr.Key(), w.Data[0][:1])
		}
	}
}
