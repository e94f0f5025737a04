package features

import (
	"math"
	"math/rand/v2"
	"testing"
)

// extractBatch must give every frame bit for bit what extract gives.
func TestExtractBatchMatchesExtract(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	wave := make([]float32, 4000)
	for i := range wave {
		wave[i] = float32(math.Round(rng.NormFloat64() * 3000))
	}
	cases := []struct {
		name string
		set  func(o *FrameExtractionOptions)
	}{
		{"defaults", func(o *FrameExtractionOptions) {}},
		{"no dc", func(o *FrameExtractionOptions) { o.RemoveDCOffset = false }},
		{"no preemphasis", func(o *FrameExtractionOptions) { o.PreemphCoeff = 0 }},
		{"snip-edges=false", func(o *FrameExtractionOptions) { o.SnipEdges = false }},
		{"hamming 8k", func(o *FrameExtractionOptions) { o.WindowType = "hamming"; o.SampFreq = 8000 }},
		{"dither", func(o *FrameExtractionOptions) { o.Dither = 1 }},
	}
	for _, c := range cases {
		o := DefaultFrameExtractionOptions()
		o.Dither = 0
		c.set(&o)
		for _, wantEnergy := range []bool{false, true} {
			a, err := newFrameExtractor(o)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := newFrameExtractor(o)
			a.seed("u")
			b.seed("u")
			rows := o.NumFrames(len(wave))
			frames := make([][]float32, batchLanes)
			for i := range frames {
				frames[i] = make([]float32, a.padded)
			}
			one := make([]float32, a.padded)
			energies := make([]float32, batchLanes)
			for r0 := 0; r0 < rows; r0 += batchLanes {
				k := min(batchLanes, rows-r0)
				a.extractBatch(wave, r0, frames[:k], wantEnergy, energies[:k])
				for i := 0; i < k; i++ {
					e := b.extract(wave, r0+i, one, wantEnergy)
					if math.Float32bits(e) != math.Float32bits(energies[i]) {
						t.Fatalf("%s energy=%v frame %d: energy %v, want %v", c.name, wantEnergy, r0+i, energies[i], e)
					}
					for j := range one {
						if math.Float32bits(one[j]) != math.Float32bits(frames[i][j]) {
							t.Fatalf("%s energy=%v frame %d sample %d: %v, want %v", c.name, wantEnergy, r0+i, j, frames[i][j], one[j])
						}
					}
				}
			}
		}
	}
}

// pcm16ToFloat decodes every int16 value exactly, at every length.
func TestPcm16ToFloat(t *testing.T) {
	for _, n := range []int{0, 1, 7, 8, 9, 63, 64, 65, 70000} {
		b := make([]byte, 2*n)
		want := make([]float32, n)
		for i := 0; i < n; i++ {
			v := int16(uint32(i)*2654435761 + 12345)
			switch i % 5 {
			case 1:
				v = -32768
			case 2:
				v = 32767
			}
			b[2*i], b[2*i+1] = byte(uint16(v)), byte(uint16(v)>>8)
			want[i] = float32(v)
		}
		got := make([]float32, n)
		pcm16ToFloat(got, b)
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("n=%d sample %d: %v, want %v", n, i, got[i], want[i])
			}
		}
	}
}

// Offline.Compute through the batched path (eight frames per FFT, mel
// filters on the element-major spectra) gives the one-frame path's
// features: the FFT and framing are bit-identical, and the mel sums differ
// only in the order of double additions, which float rounding hides (any
// difference is at most one float ulp).
func TestBatchedFeaturesMatchOneFrame(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	wave := make([]float32, 16000*2+123)
	for i := range wave {
		wave[i] = float32(math.Round(rng.NormFloat64() * 2000 * (1 + math.Sin(float64(i)/3000))))
	}
	fb := DefaultFbankOptions()
	fb.Frame.Dither = 0
	fbE := fb
	fbE.UseEnergy, fbE.RawEnergy, fbE.HTKCompat = true, false, true
	fbMag := fb
	fbMag.UsePower = false
	mf := DefaultMfccOptions()
	mf.Frame.Dither = 0
	mf8k := mf
	mf8k.Frame.SampFreq = 8000
	var comps []Computer
	for _, o := range []FbankOptions{fb, fbE, fbMag} {
		c, err := NewFbank(o)
		if err != nil {
			t.Fatal(err)
		}
		comps = append(comps, c)
	}
	for _, o := range []MfccOptions{mf, mf8k} {
		c, err := NewMfcc(o)
		if err != nil {
			t.Fatal(err)
		}
		comps = append(comps, c)
	}
	for ci, c := range comps {
		off, err := NewOffline(c)
		if err != nil {
			t.Fatal(err)
		}
		sf := c.FrameOptions().SampFreq
		got, rows, err := off.Compute(nil, "u", wave, sf, 1)
		if err != nil {
			t.Fatal(err)
		}
		ext, _ := newFrameExtractor(c.FrameOptions())
		frame := make([]float32, ext.padded)
		dim := c.Dim()
		want := make([]float32, dim)
		one := c.Clone()
		for r := 0; r < rows; r++ {
			e := ext.extract(wave, r, frame, one.NeedRawLogEnergy())
			if err := one.ComputeFrame(e, 1, frame, want); err != nil {
				t.Fatal(err)
			}
			for d, w := range want {
				g := got[r*dim+d]
				if g != w && math.Abs(float64(g-w)) > math.Abs(float64(math.Nextafter32(w, float32(math.Inf(1)))-w))*1.01 {
					t.Fatalf("computer %d frame %d dim %d: batched %v, one-frame %v", ci, r, d, g, w)
				}
			}
		}
	}
}
