package features

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strode-asr/strode/kaldiio"
)

// toneWave is amp·sin(2π·hz·t), n samples at rate Hz.
func toneWave(n int, rate, hz float64) WaveData {
	s := make([]float32, n)
	for i := range s {
		s[i] = float32(10000 * math.Sin(2*math.Pi*hz*float64(i)/rate))
	}
	return WaveData{SampFreq: rate, Data: [][]float32{s}}
}

// zeroCrossingHz estimates a tone's frequency from its zero crossings, away
// from the filter's edge effects.
func zeroCrossingHz(s []float32, rate float64) float64 {
	cross := 0
	for i := 100; i < len(s)-100; i++ {
		if (s[i-1] < 0) != (s[i] < 0) {
			cross++
		}
	}
	return float64(cross) / 2 / (float64(len(s)-200) / rate)
}

// TestSpeedPerturb: a 500 Hz tone of 8000 samples at 8 kHz sped up by F
// lasts 8000/F samples and has become a 500·F Hz tone.
func TestSpeedPerturb(t *testing.T) {
	const n, rate, hz = 8000, 8000.0, 500.0
	for _, c := range []struct{ speed, tolSamples, tolHz float64 }{
		{0.9, 2, 5}, {1.1, 2, 5}, {1.25, 2, 5},
	} {
		w, err := SpeedPerturb(toneWave(n, rate, hz), c.speed)
		if err != nil {
			t.Fatal(err)
		}
		if w.SampFreq != rate || math.Abs(float64(w.NumSamples())-n/c.speed) > c.tolSamples {
			t.Errorf("speed %v: %v Hz, %d samples; want %v Hz, %v samples", c.speed, w.SampFreq, w.NumSamples(), rate, n/c.speed)
		}
		if f := zeroCrossingHz(w.Data[0], rate); math.Abs(f-c.speed*hz) > c.tolHz {
			t.Errorf("speed %v: tone at %.1f Hz, want %.1f", c.speed, f, c.speed*hz)
		}
	}
	if _, err := SpeedPerturb(toneWave(10, rate, hz), 0); err == nil {
		t.Error("speed 0: no error")
	}
}

// TestSpeedPerturbWaves runs the table tool: scp of wave files in, ark,scp
// out, keys kept, an unreadable wave named by key.
func TestSpeedPerturbWaves(t *testing.T) {
	dir := t.TempDir()
	var scp strings.Builder
	for i, key := range []string{"a", "b"} {
		w := toneWave(4000+1000*i, 8000, 400)
		path := filepath.Join(dir, key+".wav")
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(f); err != nil {
			t.Fatal(err)
		}
		f.Close()
		scp.WriteString(key + " " + path + "\n")
	}
	in := filepath.Join(dir, "in.scp")
	if err := os.WriteFile(in, []byte(scp.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	ark, outScp := filepath.Join(dir, "sp.ark"), filepath.Join(dir, "sp.scp")
	o := SpeedPerturbOptions{Speed: 1.1}
	done, err := SpeedPerturbWaves(o, "scp:"+in, "ark,scp:"+ark+","+outScp, &testLog{})
	if err != nil || done != 2 {
		t.Fatalf("done %d, %v", done, err)
	}
	got := map[string]int{}
	n, err := mapWaves("scp:"+outScp, "ark:/dev/null", &testLog{}, func(key string, w WaveData) (WaveData, error) {
		got[key] = w.NumSamples()
		return w, nil
	})
	if err != nil || n != 2 {
		t.Fatalf("reading back: %d, %v", n, err)
	}
	for key, want := range map[string]float64{"a": 4000 / 1.1, "b": 5000 / 1.1} {
		if math.Abs(float64(got[key])-want) > 2 {
			t.Errorf("%s: %d samples, want %.0f", key, got[key], want)
		}
	}

	bad := filepath.Join(dir, "bad.scp")
	os.WriteFile(bad, []byte("x "+filepath.Join(dir, "missing.wav")+"\n"), 0o644)
	if _, err := SpeedPerturbWaves(o, "scp:"+bad, "ark:/dev/null", &testLog{}); err == nil || !strings.Contains(err.Error(), "missing.wav") {
		t.Errorf("missing wave: %v, want an error naming the file", err)
	}
	if _, err := SpeedPerturbWaves(SpeedPerturbOptions{Speed: -1}, "scp:"+in, "ark:/dev/null", &testLog{}); err == nil {
		t.Error("negative speed: no error")
	}
}

// TestSpeedPerturbSingleWave runs the one-wave form a wav.scp pipe uses: a
// file or standard input in, standard output out; a table with a single
// file is refused; wav-to-duration reads the result's length.
func TestSpeedPerturbSingleWave(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.wav")
	var buf bytes.Buffer
	w := toneWave(8000, 8000, 400)
	if _, err := w.Write(&buf); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		in    string
		stdin []byte
	}{{path, nil}, {"-", buf.Bytes()}, {"cat " + path + " |", nil}} {
		var out bytes.Buffer
		done, err := SpeedPerturbWaves(SpeedPerturbOptions{Speed: 0.9}, c.in, "-", &testLog{},
			kaldiio.WithStdin(bytes.NewReader(c.stdin)), kaldiio.WithStdout(&out))
		if err != nil || done != 1 {
			t.Fatalf("%q: done %d, %v", c.in, done, err)
		}
		got, err := ReadWave(&out)
		if err != nil {
			t.Fatalf("%q: output: %v", c.in, err)
		}
		if n := got.NumSamples(); math.Abs(float64(n)-8000/0.9) > 1 || got.SampFreq != 8000 {
			t.Errorf("%q: %d samples at %v Hz, want %.0f at 8000", c.in, n, got.SampFreq, 8000/0.9)
		}
	}
	if _, err := SpeedPerturbWaves(SpeedPerturbOptions{Speed: 0.9}, path, "ark:/dev/null", &testLog{}); !errors.Is(err, kaldiio.ErrMixed) {
		t.Errorf("file in, table out: %v, want ErrMixed", err)
	}
	if _, err := SpeedPerturbWaves(SpeedPerturbOptions{Speed: 0.9}, filepath.Join(dir, "none.wav"), "-", &testLog{}); err == nil || !strings.Contains(err.Error(), "none.wav") {
		t.Errorf("missing file: %v, want an error naming it", err)
	}
	scp := filepath.Join(dir, "wav.scp")
	os.WriteFile(scp, []byte("a "+path+"\n"), 0o644)
	var durs bytes.Buffer
	st, err := WavToDuration("scp:"+scp, "ark,t:-", &testLog{}, kaldiio.WithStdout(&durs))
	if err != nil || st.Done != 1 || st.Mean != 1 {
		t.Fatalf("wav-to-duration: %+v, %v", st, err)
	}
	if f := strings.Fields(durs.String()); len(f) != 2 || f[0] != "a" || f[1] != "1" {
		t.Errorf("wav-to-duration wrote %q, want \"a 1\"", durs.String())
	}
}
