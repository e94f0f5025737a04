package main

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strode-asr/strode/features"
)

// TestSpeed: a 500 Hz tone of 8000 samples at 8 kHz sped up by 1.25 lasts
// 6400 samples and has become a 625 Hz tone (zero crossings per second).
func TestSpeed(t *testing.T) {
	dir := t.TempDir()
	const n, rate, hz = 8000, 8000.0, 500.0
	tone := make([]float32, n)
	for i := range tone {
		tone[i] = float32(10000 * math.Sin(2*math.Pi*hz*float64(i)/rate))
	}
	var b bytes.Buffer
	if _, err := (&features.WaveData{SampFreq: rate, Data: [][]float32{tone}}).Write(&b); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(dir, "in.wav")
	if err := os.WriteFile(src, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := run([]string{"1.25", filepath.Join(dir, "out")}, strings.NewReader("k "+src+"\n"), &out); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(dir, "out", "k.wav")
	if got := out.String(); got != "k "+dst+"\n" {
		t.Fatalf("printed %q", got)
	}
	f, err := os.Open(dst)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := features.ReadWave(f)
	if err != nil {
		t.Fatal(err)
	}
	if w.SampFreq != rate || math.Abs(float64(w.NumSamples())-n/1.25) > 2 {
		t.Fatalf("%v Hz, %d samples; want %v Hz, %v samples", w.SampFreq, w.NumSamples(), rate, n/1.25)
	}
	s := w.Data[0]
	cross := 0
	for i := 100; i < len(s)-100; i++ {
		if (s[i-1] < 0) != (s[i] < 0) {
			cross++
		}
	}
	if f := float64(cross) / 2 / (float64(len(s)-200) / rate); math.Abs(f-1.25*hz) > 5 {
		t.Errorf("tone at %.1f Hz, want %.1f", f, 1.25*hz)
	}
}

func TestBadInput(t *testing.T) {
	for _, c := range []struct{ args, in, want string }{
		{"x out", "", "factor"},
		{"1.1 OUT", "a b c\n", "line 1"},
		{"1.1 OUT", "a /nonexistent.wav\n", "line 1 (a)"},
	} {
		args := strings.Fields(strings.ReplaceAll(c.args, "OUT", t.TempDir()))
		err := run(args, strings.NewReader(c.in), &bytes.Buffer{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q with %q: %v, want an error naming %q", c.args, c.in, err, c.want)
		}
	}
}
