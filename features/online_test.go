package features

import (
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"testing"
)

// onlineComputers are the feature configurations the online tests run:
// Kaldi's fbank defaults, --snip-edges=false (frames reflected at both
// ends), magnitude spectra with raw energy and dither, MFCC at 8 kHz.
func onlineComputers(t *testing.T) map[string]Computer {
	t.Helper()
	fb := DefaultFbankOptions()
	fb.Frame.Dither = 0
	snip := fb
	snip.Frame.SnipEdges = false
	mag := DefaultFbankOptions() // dither 1, seeded by the key
	mag.UsePower, mag.UseEnergy, mag.RawEnergy = false, true, true
	mag.Frame.DitherSeed = 3
	mf := DefaultMfccOptions()
	mf.Frame.SampFreq = 8000
	mf.Frame.Dither = 0
	mf.Frame.SnipEdges = false
	out := map[string]Computer{}
	for name, o := range map[string]FbankOptions{"fbank": fb, "fbank-nosnip": snip, "fbank-magnitude-dither": mag} {
		c, err := NewFbank(o)
		if err != nil {
			t.Fatal(err)
		}
		out[name] = c
	}
	c, err := NewMfcc(mf)
	if err != nil {
		t.Fatal(err)
	}
	out["mfcc-8k-nosnip"] = c
	return out
}

// onlineWave is speech when the test wav is there (features/testdata), with
// noise appended so that the length is not a whole number of frames.
func onlineWave(t *testing.T, n int) []float32 {
	t.Helper()
	var wave []float32
	if f, err := os.Open("testdata/s_utt5_8k.wav"); err == nil {
		w, err := ReadWave(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		wave = append(wave, w.Data[0]...)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for len(wave) < n {
		wave = append(wave, float32(math.Round(rng.NormFloat64()*800)))
	}
	return wave[:n]
}

// The online features are Offline's bit for bit, whatever the pieces the
// samples arrive in: one sample at a time, less than a frame shift, a
// prime number of samples, Kaldi's 0.18 s chunks, all at once; and reading
// frames out (Take) between pieces or only at the end changes nothing.
func TestOnlineMatchesOffline(t *testing.T) {
	for name, c := range onlineComputers(t) {
		sf := c.FrameOptions().SampFreq
		wave := onlineWave(t, int(sf*1.3)+37)
		off, err := NewOffline(c.Clone())
		if err != nil {
			t.Fatal(err)
		}
		want, rows, err := off.Compute(nil, "utt", wave, sf, 1)
		if err != nil {
			t.Fatal(err)
		}
		chunks := []int{1, 57, 97, 160, int(sf * 0.18), len(wave)}
		if testing.Short() {
			chunks = chunks[1:]
		}
		for _, chunk := range chunks {
			on, err := NewOnline(c.Clone(), "utt", 1)
			if err != nil {
				t.Fatal(err)
			}
			var got []float32
			var buf []float32
			ready := 0
			for s := 0; s < len(wave); s += chunk {
				if err := on.AcceptWaveform(sf, wave[s:min(s+chunk, len(wave))]); err != nil {
					t.Fatal(err)
				}
				if on.NumFramesReady() < ready {
					t.Fatalf("%s, chunk %d: frames ready went down", name, chunk)
				}
				ready = on.NumFramesReady()
				if chunk%2 == 1 { // take as they come; else all at the end
					var n int
					buf, n = on.Take(buf)
					got = append(got, buf[:n*on.Dim()]...)
				}
			}
			if err := on.InputFinished(); err != nil {
				t.Fatal(err)
			}
			buf, _ = on.Take(buf)
			got = append(got, buf...)
			if on.NumFramesReady() != rows || len(got) != len(want) {
				t.Fatalf("%s, chunk %d: %d frames (%d values), offline %d (%d)", name, chunk, on.NumFramesReady(), len(got), rows, len(want))
			}
			for i := range want {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
					t.Fatalf("%s, chunk %d: frame %d dim %d: online %v, offline %v", name, chunk, i/on.Dim(), i%on.Dim(), got[i], want[i])
				}
			}
			fo := c.FrameOptions()
			if len(on.wave) > 2*fo.WindowSize()+chunk {
				t.Errorf("%s, chunk %d: %d samples kept at the end", name, chunk, len(on.wave))
			}
		}
	}
}

// Frames become ready when their last sample arrives, not before: with
// --snip-edges=true frame f needs samples up to f·shift + length; with
// --snip-edges=false the last frames wait for InputFinished.
func TestOnlineFramesReady(t *testing.T) {
	for _, snip := range []bool{true, false} {
		o := DefaultFbankOptions()
		o.Frame.Dither = 0
		o.Frame.SnipEdges = snip
		c, _ := NewFbank(o)
		on, _ := NewOnline(c, "u", 1)
		// Frame 0 is samples 0…399, or −120…279 reflected at 0.
		end := 400
		if !snip {
			end = 280
		}
		if err := on.AcceptWaveform(16000, make([]float32, end-1)); err != nil {
			t.Fatal(err)
		}
		if on.NumFramesReady() != 0 {
			t.Errorf("snip-edges=%v: %d samples gave %d frames", snip, end-1, on.NumFramesReady())
		}
		on.AcceptWaveform(16000, make([]float32, 1))
		if on.NumFramesReady() != 1 {
			t.Errorf("snip-edges=%v: %d samples gave %d frames, want 1", snip, end, on.NumFramesReady())
		}
		on.AcceptWaveform(16000, make([]float32, 2000-end))
		on.InputFinished()
		total := o.Frame.NumFrames(2000)
		if on.NumFramesReady() != total || !on.IsLastFrame(total-1) {
			t.Errorf("snip-edges=%v: %d frames after InputFinished, want %d", snip, on.NumFramesReady(), total)
		}
	}
}

func TestOnlineErrors(t *testing.T) {
	o := DefaultFbankOptions()
	c, _ := NewFbank(o)
	on, _ := NewOnline(c, "u", 1)
	if err := on.AcceptWaveform(8000, make([]float32, 100)); !errors.Is(err, ErrSampleRate) {
		t.Errorf("8 kHz samples for a 16 kHz extractor: %v", err)
	}
	on.InputFinished()
	if err := on.AcceptWaveform(16000, make([]float32, 100)); err == nil {
		t.Errorf("samples after InputFinished: no error")
	}
	// Silence only: frames come out (floored energies), nothing hangs.
	on, _ = NewOnline(c, "u", 1)
	if err := on.AcceptWaveform(16000, make([]float32, 16000)); err != nil {
		t.Fatal(err)
	}
	on.InputFinished()
	feats, rows := on.Take(nil)
	if rows != 98 {
		t.Fatalf("1 s of silence: %d frames", rows)
	}
	for _, v := range feats {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			t.Fatalf("silence gave %v", v)
		}
	}
}
