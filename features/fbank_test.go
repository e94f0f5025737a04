package features

import (
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
)

func TestShortWaveGivesNoFrames(t *testing.T) {
	f, err := NewFbank(DefaultFbankOptions())
	if err != nil {
		t.Fatal(err)
	}
	off, _ := NewOffline(f)
	_, rows, err := off.Compute(nil, "u", make([]float32, 399), 16000, 1)
	if err != nil || rows != 0 {
		t.Fatalf("399 samples: %d rows, %v", rows, err)
	}
	o := DefaultFbankOptions()
	o.Frame.SnipEdges = false
	f, _ = NewFbank(o)
	off, _ = NewOffline(f)
	_, rows, err = off.Compute(nil, "u", make([]float32, 100), 16000, 1)
	if err != nil || rows != 1 { // (100 + 80) / 160 = 1, reflected
		t.Fatalf("snip-edges=false, 100 samples: %d rows, %v", rows, err)
	}
}

// Digital silence with --dither=0: every output is Kaldi's floor log(ε)
// (energies) or log(energy-floor), never NaN or −Inf.
func TestSilenceIsFloored(t *testing.T) {
	for _, mfcc := range []bool{false, true} {
		var c Computer
		var err error
		if mfcc {
			o := DefaultMfccOptions()
			o.Frame.Dither = 0
			c, err = NewMfcc(o)
		} else {
			o := DefaultFbankOptions()
			o.Frame.Dither = 0
			o.UseEnergy = true
			o.EnergyFloor = 1
			c, err = NewFbank(o)
		}
		if err != nil {
			t.Fatal(err)
		}
		off, _ := NewOffline(c)
		data, rows, err := off.Compute(nil, "silence", make([]float32, 16000), 16000, 1)
		if err != nil || rows != 98 {
			t.Fatalf("%d rows, %v", rows, err)
		}
		for i, v := range data {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				t.Fatalf("mfcc=%v: value %d is %v", mfcc, i, v)
			}
		}
		if !mfcc && (data[0] != 0 || math.Abs(float64(data[1])-math.Log(float32Epsilon)) > 1e-6) {
			t.Errorf("fbank of silence: energy %v (want log 1 = 0), bin %v (want log ε)", data[0], data[1])
		}
	}
}

func TestSampleRateMismatch(t *testing.T) {
	f, _ := NewFbank(DefaultFbankOptions())
	off, _ := NewOffline(f)
	_, _, err := off.Compute(nil, "u", make([]float32, 8000), 8000, 1)
	if !errors.Is(err, ErrSampleRate) {
		t.Fatalf("8 kHz wave, 16 kHz config: %v", err)
	}
	o := DefaultFbankOptions()
	o.Frame.AllowUpsample = true
	f, _ = NewFbank(o)
	off, _ = NewOffline(f)
	_, rows, err := off.Compute(nil, "u", make([]float32, 8000), 8000, 1)
	if err != nil || rows != 98 {
		t.Fatalf("upsampled: %d rows, %v", rows, err)
	}
}

// Dither is seeded by --dither-seed and the utterance key only.
func TestDitherIsDeterministic(t *testing.T) {
	o := DefaultFbankOptions()
	o.Frame.DitherSeed = 7
	wave := make([]float32, 4000)
	rng := rand.New(rand.NewPCG(1, 1))
	for i := range wave {
		wave[i] = float32(rng.NormFloat64() * 100)
	}
	run := func(key string) []float32 {
		f, _ := NewFbank(o)
		off, _ := NewOffline(f)
		d, _, err := off.Compute(nil, key, wave, 16000, 1)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	a, b, c := run("x"), run("x"), run("y")
	same, diff := true, false
	for i := range a {
		same = same && a[i] == b[i]
		diff = diff || a[i] != c[i]
	}
	if !same || !diff {
		t.Fatalf("same key same output: %v; other key other output: %v", same, diff)
	}
}

func TestBadOptions(t *testing.T) {
	o := DefaultFbankOptions()
	o.Frame.WindowType = "triangle"
	if _, err := NewFbank(o); !errors.Is(err, ErrOptions) {
		t.Errorf("bad window: %v", err)
	}
	o = DefaultFbankOptions()
	o.Mel.NumBins = 200
	if _, err := NewFbank(o); !errors.Is(err, ErrOptions) {
		t.Errorf("too many bins: %v", err)
	}
	m := DefaultMfccOptions()
	m.NumCeps = 30
	if _, err := NewMfcc(m); !errors.Is(err, ErrOptions) {
		t.Errorf("num-ceps > bins: %v", err)
	}
}

// BenchmarkFbank measures fbank frames per second (16 kHz, 25 ms / 10 ms,
// 40 bins, Kaldi's defaults otherwise, dither 0): the per-frame loop of
// Offline.Compute on 10 s of noise. Run with GOMAXPROCS=1 for one core.
func BenchmarkFbank(b *testing.B) {
	for _, bins := range []int{23, 40} {
		o := DefaultFbankOptions()
		o.Frame.Dither = 0
		o.Mel.NumBins = bins
		f, _ := NewFbank(o)
		off, _ := NewOffline(f)
		wave := make([]float32, 160000)
		rng := rand.New(rand.NewPCG(2, 3))
		for i := range wave {
			wave[i] = float32(rng.NormFloat64() * 1000)
		}
		dst := make([]float32, 0, 1000*bins)
		frames := off.NumFrames(len(wave))
		name := "bins=23"
		if bins == 40 {
			name = "bins=40"
		}
		b.Run(name, func(b *testing.B) {
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
		})
	}
}

// A NaN or infinite option is an error naming it, not NaN features.
func TestNonFiniteOptions(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	cases := []struct {
		name string
		set  func(o *FbankOptions)
	}{
		{"dither", func(o *FbankOptions) { o.Frame.Dither = nan }},
		{"preemphasis-coefficient", func(o *FbankOptions) { o.Frame.PreemphCoeff = nan }},
		{"blackman-coeff", func(o *FbankOptions) { o.Frame.BlackmanCoeff = nan }},
		{"frame-shift", func(o *FbankOptions) { o.Frame.FrameShiftMs = inf }},
		{"sample-frequency", func(o *FbankOptions) { o.Frame.SampFreq = nan }},
		{"vtln-low", func(o *FbankOptions) { o.Mel.VtlnLow = nan }},
		{"high-freq", func(o *FbankOptions) { o.Mel.HighFreq = -inf }},
		{"energy-floor", func(o *FbankOptions) { o.EnergyFloor = nan }},
	}
	for _, c := range cases {
		o := DefaultFbankOptions()
		c.set(&o)
		_, err := NewFbank(o)
		if !errors.Is(err, ErrOptions) || !strings.Contains(err.Error(), "--"+c.name+"=") {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	m := DefaultMfccOptions()
	m.CepstralLifter = inf
	if _, err := NewMfcc(m); !errors.Is(err, ErrOptions) {
		t.Errorf("cepstral-lifter: %v", err)
	}
	if _, err := NewMelBanks(DefaultMelBanksOptions(23), DefaultFrameExtractionOptions(), nan); !errors.Is(err, ErrOptions) {
		t.Errorf("vtln-warp NaN: %v", err)
	}
}
