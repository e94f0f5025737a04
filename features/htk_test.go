package features

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strode-asr/strode/kaldiio"
)

// testWav is the self-contained 8 kHz test wave (see testdata/README.md).
const testWav = "testdata/s_utt5_8k.wav"

func writeScp(t *testing.T, dir string, n int) string {
	t.Helper()
	abs, err := filepath.Abs(testWav)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString("u" + string(rune('a'+i/26)) + string(rune('a'+i%26)) + " " + abs + "\n")
	}
	scp := filepath.Join(dir, "wav.scp")
	if err := os.WriteFile(scp, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return scp
}

// --output-format=htk writes, per utterance, the key, a space and
// WriteHtk's bytes: the big-endian header Kaldi builds (frames, 100000,
// 4·dim, FBANK or MFCC with _0, or _E with --use-energy) and big-endian
// floats, the same numbers as the Kaldi-format output.
func TestComputeFeatsHtkOutput(t *testing.T) {
	dir := t.TempDir()
	scp := writeScp(t, dir, 2)
	fo := DefaultFbankOptions()
	fo.Frame.Dither = 0
	fo.Frame.SampFreq = 8000
	mo := DefaultMfccOptions()
	mo.Frame = fo.Frame
	mo.UseEnergy = true
	fbank, _ := NewFbank(fo)
	mfcc, _ := NewMfcc(mo)
	for _, c := range []struct {
		name string
		comp Computer
		kind uint16
	}{
		{"fbank", fbank, 007 | 020000},
		{"mfcc", mfcc, 006 | 0100},
	} {
		co := DefaultComputeFeatsOptions()
		kaldiArk := filepath.Join(dir, c.name+".ark")
		if _, _, err := ComputeFeats(c.comp, co, "scp:"+scp, "ark:"+kaldiArk, &testLog{}); err != nil {
			t.Fatal(err)
		}
		co.OutputFormat = "htk"
		htkArk := filepath.Join(dir, c.name+"_htk.ark")
		if done, _, err := ComputeFeats(c.comp, co, "scp:"+scp, "ark:"+htkArk, &testLog{}); err != nil || done != 2 {
			t.Fatalf("%s: done %d, %v", c.name, done, err)
		}
		want := readMatrices(t, "ark:"+kaldiArk)
		raw, _ := os.ReadFile(htkArk)
		m := want[0]
		if !bytes.HasPrefix(raw, []byte("uaa ")) {
			t.Fatalf("%s: archive starts %q", c.name, raw[:8])
		}
		h := raw[4:16]
		be := binary.BigEndian
		if got := [4]uint32{be.Uint32(h[0:]), be.Uint32(h[4:]), uint32(be.Uint16(h[8:])), uint32(be.Uint16(h[10:]))}; got != [4]uint32{uint32(m.Rows), 100000, uint32(4 * m.Cols), uint32(c.kind)} {
			t.Fatalf("%s: header %v, want %d frames, 100000, %d bytes, kind %#o", c.name, got, m.Rows, 4*m.Cols, c.kind)
		}
		if x := math.Float32frombits(be.Uint32(raw[16:])); x != m.Data[0] {
			t.Fatalf("%s: first value %v, want %v", c.name, x, m.Data[0])
		}
		sr, err := kaldiio.OpenSequentialReader("ark:"+htkArk, HtkMatrixCodec)
		if err != nil {
			t.Fatal(err)
		}
		i := 0
		for ; sr.Next(); i++ {
			v := sr.Value()
			if v.Header.SampleKind != c.kind || v.Rows != want[i].Rows || v.Cols != want[i].Cols || !equalFloats(v.Data, want[i].Data) {
				t.Fatalf("%s: utterance %d read back differs", c.name, i)
			}
		}
		if err := sr.Close(); err != nil || i != 2 {
			t.Fatalf("%s: read %d utterances, %v", c.name, i, err)
		}
	}
	// ark,scp: the scp offsets point at the HTK header (no binary marker).
	co := DefaultComputeFeatsOptions()
	co.OutputFormat = "htk"
	ark, scpOut := filepath.Join(dir, "h.ark"), filepath.Join(dir, "h.scp")
	if _, _, err := ComputeFeats(fbank, co, "scp:"+scp, "ark,scp:"+ark+","+scpOut, &testLog{}); err != nil {
		t.Fatal(err)
	}
	sr, err := kaldiio.OpenSequentialReader("scp:"+scpOut, HtkMatrixCodec)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for ; sr.Next(); n++ {
		if v := sr.Value(); v.Header.SampleKind != HtkFbank|HtkZeroth || v.Rows == 0 {
			t.Fatalf("scp entry %d: header %+v", n, v.Header)
		}
	}
	if err := sr.Close(); err != nil || n != 2 {
		t.Fatalf("read %d entries through the scp: %v", n, err)
	}
	co.OutputFormat = "sphinx"
	if _, _, err := ComputeFeats(fbank, co, "scp:"+scp, "ark:/dev/null", &testLog{}); !errors.Is(err, ErrOutputFormat) {
		t.Fatalf("--output-format=sphinx: %v", err)
	}
	co.OutputFormat = "htk"
	if _, _, err := ComputeFeats(fbank, co, "scp:"+scp, "ark,t:/dev/null", &testLog{}); err == nil {
		t.Fatal("text HTK output: no error")
	}
}

func readMatrices(t *testing.T, rspec string) []kaldiio.Matrix {
	t.Helper()
	sr, err := kaldiio.OpenSequentialReader(rspec, kaldiio.MatrixCodec)
	if err != nil {
		t.Fatal(err)
	}
	defer sr.Close()
	var ms []kaldiio.Matrix
	for sr.Next() {
		v := sr.Value()
		ms = append(ms, kaldiio.Matrix{Rows: v.Rows, Cols: v.Cols, Data: append([]float32(nil), v.Data...)})
	}
	if err := sr.Err(); err != nil {
		t.Fatal(err)
	}
	return ms
}

func equalFloats(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return false
		}
	}
	return true
}

// ReadHtk's errors: Kaldi's refusals and truncation, never a panic.
func TestHtkReadErrors(t *testing.T) {
	hdr := func(n, period uint32, size, kind uint16) []byte {
		b := make([]byte, 12)
		binary.BigEndian.PutUint32(b, n)
		binary.BigEndian.PutUint32(b[4:], period)
		binary.BigEndian.PutUint16(b[8:], size)
		binary.BigEndian.PutUint16(b[10:], kind)
		return b
	}
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"short header", []byte{0, 0, 0}, "Could not read header"},
		{"compressed", hdr(1, 100000, 4, 006|02000), "compressed"},
		{"waveform", hdr(1, 100000, 4, 0), "unsupported type"},
		{"discrete", hdr(1, 100000, 4, 10), "unsupported type"},
		{"negative", hdr(0xFFFFFFFF, 100000, 4, 007), "negative size"},
		{"truncated data", append(hdr(1000000, 100000, 160, 007), make([]byte, 100)...), "Could not read data"},
	}
	for _, c := range cases {
		f := filepath.Join(t.TempDir(), "x.ark")
		os.WriteFile(f, append([]byte("k "), c.data...), 0o644)
		sr, err := kaldiio.OpenSequentialReader("ark:"+f, HtkMatrixCodec)
		if err != nil {
			t.Fatal(err)
		}
		for sr.Next() {
		}
		err = sr.Close()
		if err == nil || !errors.Is(err, ErrHtk) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), f) {
			t.Errorf("%s: %v, want an ErrHtk naming %s and saying %q", c.name, err, f, c.want)
		}
	}
}

func FuzzHtkRead(f *testing.F) {
	var good bytes.Buffer
	good.Write([]byte{0, 0, 0, 2, 0, 1, 0x86, 0xa0, 0, 8, 0x20, 7})
	good.Write(make([]byte, 16))
	f.Add(good.Bytes())
	f.Add([]byte{0x7f, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0x7f, 0xff, 0, 6})
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		p := filepath.Join(dir, "x.ark")
		os.WriteFile(p, append([]byte("k "), data...), 0o644)
		sr, err := kaldiio.OpenSequentialReader("ark:"+p, HtkMatrixCodec)
		if err != nil {
			return
		}
		for sr.Next() {
			v := sr.Value()
			if len(v.Data) != v.Rows*v.Cols {
				t.Fatalf("%d values for %d×%d", len(v.Data), v.Rows, v.Cols)
			}
		}
		if err := sr.Close(); err != nil && !errors.Is(err, ErrHtk) && !errors.Is(err, kaldiio.ErrFormat) {
			// kaldiio's own key/archive errors are fine too; only panics fail.
			_ = err
		}
	})
}

// --write-utt2dur writes each written utterance's duration (Kaldi's float
// WaveData::Duration), and progress is logged as Kaldi does: every 10
// utterances, each key at verbose level 2, a summary at level 1.
func TestComputeFeatsUtt2durAndProgress(t *testing.T) {
	dir := t.TempDir()
	scp := writeScp(t, dir, 25)
	fo := DefaultFbankOptions()
	fo.Frame.SampFreq = 8000
	fbank, _ := NewFbank(fo)
	for _, threads := range []int{1, 2} {
		co := DefaultComputeFeatsOptions()
		co.NumThreads = threads
		dur := filepath.Join(dir, "utt2dur")
		co.WriteUtt2dur = "ark,t:" + dur
		log := &verboseLog{}
		if done, _, err := ComputeFeats(fbank, co, "scp:"+scp, "ark:/dev/null", log); err != nil || done != 25 {
			t.Fatalf("done %d, %v", done, err)
		}
		w, err := os.Open(testWav)
		if err != nil {
			t.Fatal(err)
		}
		wave, err := ReadWave(w)
		w.Close()
		if err != nil {
			t.Fatal(err)
		}
		want := float64(float32(wave.NumSamples()) / 8000)
		sr, err := kaldiio.OpenSequentialReader("ark:"+dur, kaldiio.DoubleCodec)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for ; sr.Next(); n++ {
			if got := sr.Value(); math.Abs(got-want) > 1e-6 {
				t.Fatalf("duration %v, want %v", got, want)
			}
		}
		if err := sr.Close(); err != nil || n != 25 {
			t.Fatalf("%d durations, %v", n, err)
		}
		if got := strings.Join(log.logs, "|"); got != "Processed 10 utterances|Processed 20 utterances" {
			t.Errorf("threads=%d: LOG lines %q", threads, got)
		}
		if len(log.vlogs[2]) != 25 || log.vlogs[2][0] != "Processed features for key uaa" || len(log.vlogs[1]) != 1 || !strings.Contains(log.vlogs[1][0], "real-time factor") {
			t.Errorf("threads=%d: VLOG lines %v", threads, log.vlogs)
		}
	}
}

type verboseLog struct {
	logs  []string
	vlogs map[int][]string
}

func (l *verboseLog) Log(f string, a ...any) { l.logs = append(l.logs, fmt.Sprintf(f, a...)) }
func (l *verboseLog) Warn(string, ...any)    {}
func (l *verboseLog) Vlog(level int, f string, a ...any) {
	if l.vlogs == nil {
		l.vlogs = map[int][]string{}
	}
	l.vlogs[level] = append(l.vlogs[level], fmt.Sprintf(f, a...))
}
