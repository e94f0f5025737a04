package rotmnist

import (
	"bytes"
	"errors"
	"flag"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/strode-asr/strode/internal/shareddata"
)

// synthMNIST makes perClass 28×28 images of each digit, labels cycling
// 0…9, each image a different blob pattern.
func synthMNIST(perClass int) *MNIST {
	mk := func(n int, salt int) (*Images, []uint8) {
		im := &Images{N: n, Rows: 28, Cols: 28, Pixels: make([]uint8, n*784)}
		labels := make([]uint8, n)
		for i := 0; i < n; i++ {
			labels[i] = uint8(i % 10)
			for y := 6; y < 22; y++ {
				for x := 8; x < 20; x++ {
					im.Pixels[i*784+y*28+x] = uint8((i*31 + salt + x*y) % 256)
				}
			}
		}
		return im, labels
	}
	var m MNIST
	m.Train, m.TrainLabels = mk(10*perClass, 0)
	m.Test, m.TestLabels = mk(10*perClass, 101)
	return &m
}

func smallOptions(subset string) DataOptions {
	o := DefaultDataOptions()
	o.Subset, o.NumTrain, o.NumVal, o.NumTest = subset, 40, 10, 10
	return o
}

func encode(t *testing.T, d *Dataset) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := d.Write(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestDataOptions(t *testing.T) {
	o := DefaultDataOptions()
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	o.Register(fs)
	if err := fs.Parse([]string{"--subset=hawkes", "--num-train=200", "--interpolation=nearest"}); err != nil {
		t.Fatal(err)
	}
	if o.Subset != "hawkes" || o.NumTrain != 200 || o.Interpolation != "nearest" || o.Validate() != nil {
		t.Fatalf("parsed %+v: %v", o, o.Validate())
	}
	o.ApplyQuick()
	if o.NumTrain != 200 || o.NumVal != 50 || o.NumTest != 50 {
		t.Fatalf("quick sizes %d/%d/%d", o.NumTrain, o.NumVal, o.NumTest)
	}
	for _, c := range []struct {
		set  func(*DataOptions)
		want string
	}{
		{func(o *DataOptions) { o.Subset = "hks" }, "--subset"},
		{func(o *DataOptions) { o.NumVal = -1 }, "set sizes"},
		{func(o *DataOptions) { o.VideoLength = 0 }, "--video-length"},
		{func(o *DataOptions) { o.NumDigits = 11 }, "--num-digits"},
		{func(o *DataOptions) { o.TestAngleMax = 100 }, "angle ranges"},
		{func(o *DataOptions) { o.HawkesAlpha = 1 }, "α"},
		{func(o *DataOptions) { o.Interpolation = "cubic" }, "interpolation"},
		{func(o *DataOptions) { o.PositionStd = math.NaN() }, "--position-std"},
	} {
		o := DefaultDataOptions()
		o.Subset = "hawkes"
		c.set(&o)
		if err := o.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Validate() = %v, want an error about %s", err, c.want)
		}
	}
}

// Same seed, same bytes; another seed, other bytes; each set's stream is its
// own, so a set's first videos do not depend on the sizes asked for.
func TestGenerateSeeded(t *testing.T) {
	m := synthMNIST(3)
	for _, subset := range []string{"hawkes", "exp"} {
		o := smallOptions(subset)
		a, err := Generate(o, m, 7)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := Generate(o, m, 7)
		c, _ := Generate(o, m, 8)
		if !bytes.Equal(encode(t, a), encode(t, b)) {
			t.Errorf("%s: seed 7 twice gives different files", subset)
		}
		if bytes.Equal(encode(t, a), encode(t, c)) {
			t.Errorf("%s: seeds 7 and 8 give the same file", subset)
		}
		o2 := o
		o2.NumTrain, o2.NumVal = 5, 4
		small, _ := Generate(o2, m, 7)
		if !bytes.Equal(small.Val.Pixels, a.Val.Pixels[:len(small.Val.Pixels)]) ||
			!reflect.DeepEqual(small.Test.Times, a.Test.Times) {
			t.Errorf("%s: smaller sets do not begin with the same videos", subset)
		}
	}
}

// Every video: labels in 0 … NumDigits−1, the frame at each angle is the
// source digit rendered there, times and angles tied by the subset's rule,
// pixels scaled to [0, 1] by Batch.
func TestGenerateContent(t *testing.T) {
	m := synthMNIST(3)
	for _, subset := range []string{"hawkes", "exp"} {
		o := smallOptions(subset)
		d, err := Generate(o, m, 3)
		if err != nil {
			t.Fatal(err)
		}
		splits, names := d.Splits()
		for k, s := range splits {
			im, lo, hi := m.Train, o.TrainAngleMin, o.TrainAngleMax
			if k == 2 {
				im, lo, hi = m.Test, o.TestAngleMin, o.TestAngleMax
			}
			if s.Videos != [3]int{40, 10, 10}[k] || len(s.Pixels) != s.Videos*6*64*64 {
				t.Fatalf("%s %s: %d videos, %d bytes", subset, names[k], s.Videos, len(s.Pixels))
			}
			for v := 0; v < s.Videos; v++ {
				if s.Labels[v] >= 9 || m.TrainLabels[s.Sources[v]] != s.Labels[v] {
					t.Fatalf("%s %s video %d: label %d, source %d", subset, names[k], v, s.Labels[v], s.Sources[v])
				}
				ts, as := s.VideoTimes(v), s.VideoAngles(v)
				for f := range ts {
					var want float64
					if subset == "hawkes" {
						want = 100 * ts[f]
						if !(want > lo && want < hi) || (f > 0 && !(ts[f] > ts[f-1])) {
							t.Fatalf("%s video %d: hawkes times %v", names[k], v, ts)
						}
					} else {
						want = lo + 10*ts[f]
					}
					if math.Abs(as[f]-want) > 1e-9 {
						t.Fatalf("%s %s video %d frame %d: angle %v, time %v", subset, names[k], v, f, as[f], ts[f])
					}
				}
				f := v % 6
				frame := make([]uint8, 64*64)
				digit := Digit{Pixels: im.Image(int(s.Sources[v])), Rows: 28, Cols: 28}
				RenderFrame(frame, 64, digit, int(s.X0[v]), int(s.Y0[v]), as[f], Bilinear)
				if !bytes.Equal(frame, s.Video(v)[f*4096:(f+1)*4096]) {
					t.Fatalf("%s %s video %d frame %d is not the digit at %v°", subset, names[k], v, f, as[f])
				}
			}
			batch := s.Batch(nil, []int{1, 0})
			if len(batch) != 2*6*4096 || batch[6*4096+100] != float32(s.Video(0)[100])/255 {
				t.Fatalf("batch of %d values", len(batch))
			}
		}
	}
}

func TestSaveLoad(t *testing.T) {
	d, err := Generate(smallOptions("hawkes"), synthMNIST(2), 1)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "rotmnist.bin")
	if err := d.Save(path); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, d) {
		t.Fatal("Load(Save(d)) differs from d")
	}
	good, _ := os.ReadFile(path)
	pixels := len(good) - 4 - 10*6*4096 // a byte in the test set's pixels
	edit := func(f func(b []byte) []byte) []byte { return f(append([]byte(nil), good...)) }
	cases := []struct {
		name string
		in   []byte
		want string
	}{
		{"empty", nil, "offset 0: truncated: magic"},
		{"magic", edit(func(b []byte) []byte { b[0] = 'X'; return b }), "offset 0: bad magic"},
		{"version", edit(func(b []byte) []byte { b[8] = 2; return b }), "offset 8: version 2"},
		{"options json", edit(func(b []byte) []byte { b[16] = '['; return b }), "offset 16: options"},
		{"truncated header", good[:40], "truncated: options needs"},
		{"truncated pixels", good[:pixels], "truncated: test pixels needs 245760 bytes"},
		{"no checksum", good[:len(good)-2], "truncated: checksum"},
		{"flipped pixel", edit(func(b []byte) []byte { b[pixels] ^= 0x40; return b }), "the file is corrupt"},
		{"trailing", append(append([]byte(nil), good...), 0), "trailing data"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "bad.bin")
			os.WriteFile(p, c.in, 0o644)
			_, err := Load(p)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), p+": offset ") {
				t.Fatalf("error %v, want %s: offset …%s", err, p, c.want)
			}
		})
	}
}

// Save replaces an existing file whole and leaves no temporary file; a Save
// that cannot write names the path.
func TestSaveReplaces(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "d.bin")
	os.WriteFile(path, []byte("old"), 0o644)
	d, _ := Generate(smallOptions("exp"), synthMNIST(1), 2)
	if err := d.Save(path); err != nil {
		t.Fatal(err)
	}
	if got, err := Load(path); err != nil || !reflect.DeepEqual(got, d) {
		t.Fatalf("Load after overwrite: %v", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Fatalf("%d files in the folder, want 1", len(ents))
	}
	bad := filepath.Join(path, "x.bin") // path is a file, not a folder
	if err := d.Save(bad); err == nil || !strings.Contains(err.Error(), bad) {
		t.Fatalf("Save(%s) = %v", bad, err)
	}
}

func TestGenerateWithoutMNIST(t *testing.T) {
	o := DefaultDataOptions()
	o.MNISTDir = t.TempDir()
	_, err := GenerateFromDir(o, 1)
	if !errors.Is(err, ErrNoMNIST) {
		t.Fatalf("error %v", err)
	}
	for _, want := range append(MNISTFiles[:], "--mnist-dir", "http://yann.lecun.com/exdb/mnist/") {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %s", err, want)
		}
	}
	if _, err := Generate(o, nil, 1); err == nil || !strings.Contains(err.Error(), "--mnist-dir") {
		t.Errorf("Generate(nil MNIST) = %v", err)
	}
}

// The real thing (skipped without ../shared): both subsets at --quick size
// from the project's MNIST copy; subset statistics in their bands (DATA.md):
// hawkes mean gap 0.217 train / 0.212 test (± 0.03 over 250 videos), exp
// residual std 0.5 ± 0.05, positions 18 ± 0.4 on average.
func TestRealData(t *testing.T) {
	dir := shareddata.Full(t, "data/mnist")
	for _, subset := range []string{"hawkes", "exp"} {
		o := DefaultDataOptions()
		o.Subset, o.MNISTDir = subset, dir
		o.ApplyQuick()
		start := time.Now()
		d, err := GenerateFromDir(o, 1)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: generated %d/%d/%d videos in %v", subset, d.Train.Videos, d.Val.Videos, d.Test.Videos, time.Since(start))
		splits, names := d.Splits()
		for k, s := range splits {
			var gap, res2, pos float64
			var n int
			for v := 0; v < s.Videos; v++ {
				ts := s.VideoTimes(v)
				for f := range ts {
					if f > 0 {
						gap += ts[f] - ts[f-1]
					}
					r := ts[f] - math.Exp(0.57*float64(f))
					res2 += r * r
					n++
				}
				pos += float64(s.X0[v]+s.Y0[v]) / 2
			}
			pos /= float64(s.Videos)
			if math.Abs(pos-18) > 0.4 {
				t.Errorf("%s %s: mean corner %.2f", subset, names[k], pos)
			}
			if subset == "hawkes" {
				want := [3]float64{0.217, 0.217, 0.212}[k]
				if m := gap / float64(s.Videos*5); math.Abs(m-want) > 0.03 {
					t.Errorf("%s: mean gap %.4f, want %.3f ± 0.03", names[k], m, want)
				}
			} else if sd := math.Sqrt(res2 / float64(n)); math.Abs(sd-0.5) > 0.05 {
				t.Errorf("%s: residual std %.3f, want 0.5 ± 0.05", names[k], sd)
			}
		}
	}
}

func BenchmarkGenerate(b *testing.B) {
	m := synthMNIST(10)
	o := smallOptions("hawkes")
	for i := 0; i < b.N; i++ {
		if _, err := Generate(o, m, int64(i)); err != nil {
			b.Fatal(err)
		}
	}
}
