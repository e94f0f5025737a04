package features

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/strode-asr/strode/internal/shareddata"
)

// bitCount counts the values of a golden float32 archive our features
// reproduce bit for bit.
type bitCount struct {
	same, n int
	maxAbs  float64
}

func (b *bitCount) add(got []float32, want []float64) {
	for i := range want {
		if got[i] == float32(want[i]) && math.Signbit(float64(got[i])) == math.Signbit(want[i]) {
			b.same++
		}
		b.maxAbs = max(b.maxAbs, math.Abs(float64(got[i])-want[i]))
		b.n++
	}
}

func (b *bitCount) frac() float64 { return float64(b.same) / float64(max(b.n, 1)) }

func (b *bitCount) String() string {
	return fmt.Sprintf("%d/%d bit-identical (%.2f%%), max |diff| %.3g", b.same, b.n, 100*b.frac(), b.maxAbs)
}

// bitExactGolden computes comp's features of the utterances of scp (paths
// relative to dir) and counts the values identical to Kaldi's binary
// archive ark.
func bitExactGolden(t *testing.T, comp Computer, dir, scp, ark string) *bitCount {
	t.Helper()
	off, err := NewOffline(comp)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]binMatrix{}
	for _, m := range readBinaryArk(t, ark) {
		want[m.key] = m
	}
	var bc bitCount
	for _, kv := range readScp(t, scp) {
		w := readWaveFile(t, filepath.Join(dir, kv[1]))
		data, rows, err := off.Compute(nil, kv[0], w.Data[0], w.SampFreq, 1)
		if err != nil {
			t.Fatal(err)
		}
		m, ok := want[kv[0]]
		if !ok || m.rows != rows || m.cols != off.Dim() {
			t.Fatalf("%s: shape %dx%d, Kaldi's %dx%d", kv[0], rows, off.Dim(), m.rows, m.cols)
		}
		bc.add(data, m.data)
	}
	return &bc
}

// TestBitExactFraction measures how many feature values are bit-identical
// to Kaldi's float32 archives (kaldi-golden's binary fbanks, kaldi-mini's
// test5 MFCCs) and fails if the fraction drops below what the code
// reaches, so a change to the numerics cannot silently move away from
// Kaldi's rounding.
func TestBitExactFraction(t *testing.T) {
	cases := []struct {
		set, name, scp, ark string
		mfcc                bool
		edit                func(f *FbankOptions, m *MfccOptions)
		min                 float64
	}{
		{set: "kaldi-golden", name: "fbank23", scp: "wav.scp", ark: "fbank23.ark", min: 0.974},
		{set: "kaldi-golden", name: "fbank40", scp: "wav.scp", ark: "fbank40.ark", edit: func(f *FbankOptions, _ *MfccOptions) { f.Mel.NumBins = 40 }, min: 0.975},
		{set: "kaldi-golden", name: "fbank40e", scp: "wav.scp", ark: "fbank40e.ark", edit: func(f *FbankOptions, _ *MfccOptions) { f.Mel.NumBins = 40; f.UseEnergy = true }, min: 0.975},
		{set: "kaldi-golden", name: "fbank23_8k", scp: "wav_8k.scp", ark: "fbank23_8k.ark", edit: func(f *FbankOptions, _ *MfccOptions) { f.Frame.SampFreq = 8000 }, min: 0.956},
		// The same utterance from the repository's testdata, so a bare
		// clone checks it too.
		{set: "testdata", name: "testdata_fbank23_8k", scp: "wav_8k.scp", ark: "fbank23_8k.ark", edit: func(f *FbankOptions, _ *MfccOptions) { f.Frame.SampFreq = 8000 }, min: 0.956},
		{set: "kaldi-mini", name: "test5_mfcc", scp: "golden/test5.wav.scp", ark: "golden/test5_mfcc.ark", mfcc: true,
			edit: func(_ *FbankOptions, m *MfccOptions) { m.UseEnergy = false }, min: 0.471},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := "testdata"
			if c.set != "testdata" {
				dir = shareddata.Dir(t, c.set)
			}
			scp := filepath.Join(dir, c.scp)
			ark := filepath.Join(dir, c.ark)
			if !fileExists(scp) || !fileExists(ark) {
				t.Skipf("%s: no %s or %s", c.set, c.scp, c.ark)
			}
			fo, mo := DefaultFbankOptions(), DefaultMfccOptions()
			fo.Frame.Dither, mo.Frame.Dither = 0, 0
			if c.edit != nil {
				c.edit(&fo, &mo)
			}
			var comp Computer
			var err error
			if c.mfcc {
				comp, err = NewMfcc(mo)
			} else {
				comp, err = NewFbank(fo)
			}
			if err != nil {
				t.Fatal(err)
			}
			bc := bitExactGolden(t, comp, dir, scp, ark)
			t.Logf("%s %s: %v", c.set, strings.TrimSuffix(c.ark, ".ark"), bc)
			if bc.frac() < c.min {
				t.Errorf("%s: bit-identical fraction %.4f below %.4f", c.name, bc.frac(), c.min)
			}
		})
	}
}

// logf must give glibc's logf bit for bit: testdata/glibc_logf.txt holds
// glibc 2.36's results (Debian 12, x86-64 with FMA, the library Kaldi's
// golden runs used), 300 of them on values where logf is not the correctly
// rounded log.
func TestLogfMatchesGlibc(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "glibc_logf.txt"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(string(b), "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		var x, y uint32
		if _, err := fmt.Sscanf(line, "%x %x", &x, &y); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		if got := logf(math.Float32frombits(x)); math.Float32bits(got) != y {
			t.Errorf("logf(%v) = %v, glibc %v", math.Float32frombits(x), got, math.Float32frombits(y))
		}
		n++
	}
	if n != 600 {
		t.Fatalf("%d values, want 600", n)
	}
	for _, x := range []float32{1, float32Epsilon, 1e-40, 3.4e38} {
		if got, want := logf(x), float32(math.Log(float64(x))); got != want {
			t.Errorf("logf(%v) = %v, want %v", x, got, want)
		}
	}
}

// BenchmarkMfcc measures MFCC frames per second (16 kHz, 25 ms / 10 ms,
// Kaldi's defaults, dither 0) on 10 s of noise, per second of this
// thread's CPU time where the platform reports it. Run with GOMAXPROCS=1
// for one core.
func BenchmarkMfcc(b *testing.B) {
	o := DefaultMfccOptions()
	o.Frame.Dither = 0
	m, _ := NewMfcc(o)
	off, _ := NewOffline(m)
	wave := make([]float32, 160000)
	rng := rand.New(rand.NewPCG(2, 3))
	for i := range wave {
		wave[i] = float32(rng.NormFloat64() * 1000)
	}
	dst := make([]float32, 0, 1000*13)
	frames := off.NumFrames(len(wave))
	b.ReportAllocs()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c0 := threadCPU()
	for b.Loop() {
		dst, _, _ = off.Compute(dst, "u", wave, 16000, 1)
	}
	b.ReportMetric(float64(frames)*float64(b.N)/b.Elapsed().Seconds(), "frames/s")
	if c := threadCPU() - c0; c > 0 {
		b.ReportMetric(float64(frames)*float64(b.N)/c.Seconds(), "frames/cpu-s")
	}
}
