package rotmnist

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"github.com/strode-asr/strode/acoustic/strode"
	"image/png"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// fakeMNIST is a tiny MNIST stand-in: 40 random 28×28 "digits" per set,
// four of each class.
func fakeMNIST(seed int64) *MNIST {
	rng := rand.New(rand.NewSource(seed))
	set := func() (*Images, []uint8) {
		im := &Images{N: 40, Rows: 28, Cols: 28, Pixels: make([]uint8, 40*28*28)}
		for i := range im.Pixels {
			if rng.Intn(5) == 0 {
				im.Pixels[i] = uint8(rng.Intn(256))
			}
		}
		labels := make([]uint8, 40)
		for i := range labels {
			labels[i] = uint8(i % 10)
		}
		return im, labels
	}
	m := &MNIST{}
	m.Train, m.TrainLabels = set()
	m.Test, m.TestLabels = set()
	return m
}

// tinyRun is a run small enough for a unit test: 20/10/10 videos of 6
// frames in batches of 10, ndf 2, 2 epochs.
func tinyRun(t *testing.T, model, subset string) (Options, *Dataset) {
	t.Helper()
	o := DefaultOptions()
	o.Subset, o.NumTrain, o.NumVal, o.NumTest, o.BatchSize, o.Epochs = subset, 20, 10, 10, 10, 2
	o.Net.Model, o.Net.NDF, o.Net.ODEHidden, o.Net.PhiHidden = model, 2, 8, 8
	if err := o.Validate(); err != nil {
		t.Fatal(err)
	}
	d, err := Generate(o.DataOptions, fakeMNIST(3), 5)
	if err != nil {
		t.Fatal(err)
	}
	return o, d
}

// TestTrainReproducible: the same seed gives the same figures, bit for
// bit, twice in a row (initialisation, minibatch order, BatchNorm
// statistics); another seed gives others; the history has one entry per
// epoch and the test times are increasing for STRODE.
func TestTrainReproducible(t *testing.T) {
	for _, model := range []string{"node", "strode-rnn"} {
		o, d := tinyRun(t, model, "hawkes")
		a, err := Train(o, d, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Train(o, d, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a.Test, b.Test) || !reflect.DeepEqual(a.TestTimes, b.TestTimes) {
			t.Errorf("%s: same seed, different results: %+v vs %+v", model, a.Test, b.Test)
		}
		o.Seed = 2
		c, err := Train(o, d, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if c.Test.MSE == a.Test.MSE {
			t.Errorf("%s: seeds 1 and 2 give the same MSE %v", model, a.Test.MSE)
		}
		if len(a.History) != o.Epochs || a.BestEpoch < 1 || len(a.TestTimes) != o.NumTest || len(a.Examples) != 2 {
			t.Errorf("%s: history %d epochs, best %d, %d test times, %d examples", model, len(a.History), a.BestEpoch, len(a.TestTimes), len(a.Examples))
		}
		if model == "node" && a.Test.CS != a.Test.IndexCS {
			t.Errorf("node: CS %v, index CS %v: index times must score the index CS", a.Test.CS, a.Test.IndexCS)
		}
		for _, ts := range a.TestTimes {
			for i := 1; i < len(ts); i++ {
				if !(ts[i] > ts[i-1]) {
					t.Fatalf("%s: test times %v not increasing", model, ts)
				}
			}
		}
		if !(a.Test.BlankMSE > 0) || a.Test.NextMSE <= 0 {
			t.Errorf("%s: %+v", model, a.Test)
		}
	}
}

// TestRunWritesFiles: Run with cached data writes results.json, the strip
// (PNG and SVG) and the model; Table summarises two seeds with a ± column.
func TestRunWritesFiles(t *testing.T) {
	o, d := tinyRun(t, "strode", "exp")
	o.Net.Variant = strode.VariantPaper // the paper's figures sit beside its rows
	root := t.TempDir()
	o.DataDir = filepath.Join(root, "data")
	o.MNISTDir = filepath.Join(root, "no-mnist-here")
	if _, _, err := LoadOrGenerate(o.DataOptions, o.DataSeed, o.DataDir, nil); err == nil || !errors.Is(err, ErrNoMNIST) {
		t.Fatalf("no MNIST and no data file: want ErrNoMNIST, got %v", err)
	}
	// Put the data set where LoadOrGenerate looks, so Run needs no MNIST.
	path := DataPath(o.DataOptions, o.DataSeed, o.DataDir)
	if err := os.MkdirAll(o.DataDir, 0o755); err != nil {
		t.Fatal(err)
	}
	d.Options = o.DataOptions
	if err := d.Save(path); err != nil {
		t.Fatal(err)
	}
	for _, seed := range []int64{1, 2} {
		o.Seed, o.Out = seed, filepath.Join(root, "exp", "strode", "seed"+string(rune('0'+seed)))
		var out bytes.Buffer
		res, err := Run(o, &out, nil, func(string, ...any) {})
		if err != nil {
			t.Fatal(err)
		}
		if res.DataFile != path || !strings.Contains(out.String(), "test CS") {
			t.Errorf("data file %s (want %s), stdout %q", res.DataFile, path, out.String())
		}
		var back Result
		b, err := os.ReadFile(filepath.Join(o.Out, "results.json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &back); err != nil || back.Test != res.Test || back.Paper == nil {
			t.Errorf("results.json: %v, %+v", err, back)
		}
		f, err := os.Open(filepath.Join(o.Out, "strip.png"))
		if err != nil {
			t.Fatal(err)
		}
		if img, err := png.Decode(f); err != nil || img.Bounds().Dx() < 500 {
			t.Errorf("strip.png: %v", err)
		}
		f.Close()
		for _, name := range []string{"strip.svg", "model.safetensors"} {
			if _, err := os.Stat(filepath.Join(o.Out, name)); err != nil {
				t.Error(err)
			}
		}
	}
	// A results.json from before the evenly spaced baseline: Table fills it
	// in from the data file.
	seed1 := filepath.Join(root, "exp", "strode", "seed1", "results.json")
	b, err := os.ReadFile(seed1)
	if err != nil {
		t.Fatal(err)
	}
	var old Result
	if err := json.Unmarshal(b, &old); err != nil {
		t.Fatal(err)
	}
	even := old.Test.EvenCS
	old.Test.EvenCS = 0
	if b, err = json.Marshal(old); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(seed1, b, 0o644); err != nil {
		t.Fatal(err)
	}
	table, err := Table(filepath.Join(root, "exp"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(table, "| exp | strode | 2 | ") || !strings.Contains(table, " ± ") || !strings.Contains(table, "0.973 ± 0.003") ||
		!strings.Contains(table, fmt.Sprintf("| %.3f ± 0.000 |", even)) {
		t.Errorf("table (evenly spaced CS %.3f in both runs):\n%s", even, table)
	}
	if _, err := Table(t.TempDir()); err == nil {
		t.Error("Table of an empty folder: no error")
	}
}

// TestQuickKeepsExplicit: --quick shrinks only what the command line did
// not set.
func TestQuickKeepsExplicit(t *testing.T) {
	o := DefaultOptions()
	fs := flag.NewFlagSet("rotmnist", flag.ContinueOnError)
	o.Register(fs)
	if err := fs.Parse([]string{"--quick", "--epochs=6", "--num-train=400"}); err != nil {
		t.Fatal(err)
	}
	o.SetExplicit(fs)
	o.ApplyQuick()
	if o.Epochs != 6 || o.NumTrain != 400 || o.NumVal != 50 || o.Net.NDF != quickNDF {
		t.Errorf("after --quick: epochs %d, sets %d/%d, ndf %d", o.Epochs, o.NumTrain, o.NumVal, o.Net.NDF)
	}
}

func TestOptionsValidate(t *testing.T) {
	for name, edit := range map[string]func(*Options){
		"canvas":     func(o *Options) { o.CanvasSize = 32 },
		"one frame":  func(o *Options) { o.VideoLength = 1 },
		"batch":      func(o *Options) { o.BatchSize = 30 },
		"model":      func(o *Options) { o.Net.Model = "rnn" },
		"epochs":     func(o *Options) { o.Epochs = 0 },
		"learn rate": func(o *Options) { o.Adam.LearningRate = 0 },
	} {
		o := DefaultOptions()
		edit(&o)
		if err := o.Validate(); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if err := DefaultOptions().Validate(); err != nil {
		t.Errorf("defaults: %v", err)
	}
}
