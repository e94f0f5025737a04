package trainer

import (
	"errors"
	"math"
	"path/filepath"
	"testing"

	"github.com/strode-asr/strode/acoustic/am"
)

// iterToy trains a copy of the tiny model of kind on toy data for one
// iteration job (a few minibatches) and returns the job's model.
func iterToy(t *testing.T, kind string, start *am.File, seed int64, job int) *am.File {
	t.Helper()
	f := copyFile(t, start)
	to := DefaultTrainOptions()
	to.BatchUtts, to.Quantum = 4, 10
	tr, err := NewTrainer(f, to)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	if _, err := tr.RunIteration(toyData(12, int64(job), f.Model.Opts), IterationOptions{LearningRate: 0.01, Seed: seed, Iter: 0, Job: job, NumMinibatches: 3}); err != nil {
		t.Fatal(err)
	}
	return f
}

// copyFile round-trips f through a model file, so the copy shares nothing.
func copyFile(t *testing.T, f *am.File) *am.File {
	t.Helper()
	p := filepath.Join(t.TempDir(), "m.mdl")
	if err := f.Save(p); err != nil {
		t.Fatal(err)
	}
	g, err := am.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func toyStart(t *testing.T, kind string) *am.File {
	t.Helper()
	o := tinyOptions(kind)
	o.SRU.Hidden, o.NumPdfs, o.InputDim = 8, 3, 6
	m, err := am.New(o, 5)
	if err != nil {
		t.Fatal(err)
	}
	return &am.File{Model: m, Pipeline: am.Pipeline{RawDim: 6, CMVN: am.CMVNNone}}
}

// tensorsOf lists every tensor of f (parameters, then optimizer state) by name.
func tensorsOf(f *am.File) map[string][]float64 {
	out := map[string][]float64{}
	for _, p := range f.Model.Params.List {
		out[p.Name] = p.Data
	}
	for _, t := range f.Tensors {
		out[t.Name] = t.Data
	}
	return out
}

// Averaging K copies of a model (with Adam's state) is the identity, bit for bit.
func TestAverageIdentical(t *testing.T) {
	for _, kind := range []string{am.KindSRU, am.KindSTRODE} {
		a := iterToy(t, kind, toyStart(t, kind), 1, 1)
		for _, k := range []int{1, 2, 3, 5} {
			files, names := make([]*am.File, k), make([]string, k)
			for i := range files {
				files[i], names[i] = copyFile(t, a), "copy"
			}
			avg, err := Average(files, names)
			if err != nil {
				t.Fatal(err)
			}
			want, got := tensorsOf(a), tensorsOf(avg)
			if len(got) != len(want) || len(a.Tensors) == 0 {
				t.Fatalf("%s K=%d: %d tensors, want %d (optimizer state %d)", kind, k, len(got), len(want), len(a.Tensors))
			}
			for name, w := range want {
				for j := range w {
					if got[name][j] != w[j] {
						t.Fatalf("%s K=%d: %s[%d] = %v, want %v", kind, k, name, j, got[name][j], w[j])
					}
				}
			}
		}
	}
}

// The average of two jobs' models is the elementwise mean of every
// parameter and every moment tensor; Adam's step count is the rounded mean.
func TestAverageOfTwoIsMean(t *testing.T) {
	for _, kind := range []string{am.KindSRU, am.KindSTRODE} {
		start := toyStart(t, kind)
		a, b := iterToy(t, kind, start, 1, 1), iterToy(t, kind, start, 1, 2)
		avg, err := Average([]*am.File{a, b}, []string{"a", "b"})
		if err != nil {
			t.Fatal(err)
		}
		ta, tb, tv := tensorsOf(a), tensorsOf(b), tensorsOf(avg)
		if len(tv) != len(ta) {
			t.Fatalf("%s: %d tensors, want %d", kind, len(tv), len(ta))
		}
		differ := 0
		for name, x := range ta {
			y, v := tb[name], tv[name]
			if len(v) != len(x) {
				t.Fatalf("%s: %s has %d values, want %d", kind, name, len(v), len(x))
			}
			for j := range x {
				want := (x[j] + y[j]) / 2
				if name == adamStepTensor {
					want = math.Round(want)
				}
				if math.Abs(v[j]-want) > 1e-12*math.Max(1, math.Abs(want)) {
					t.Fatalf("%s: %s[%d] = %v, want (%v + %v)/2 = %v", kind, name, j, v[j], x[j], y[j], want)
				}
				if x[j] != y[j] {
					differ++
				}
			}
		}
		if differ == 0 {
			t.Fatalf("%s: the two jobs' models are identical: the test proves nothing", kind)
		}
		st, ok, err := IterationStatsOf(avg)
		if err != nil || !ok || st.Jobs != 2 || st.Minibatches != 6 {
			t.Errorf("%s: averaged stats %+v ok %v err %v: want 2 jobs, 6 minibatches", kind, st, ok, err)
		}
		// The average loads and passes the sign-set check.
		copyFile(t, avg)
	}
}

func TestAverageRefusesMismatch(t *testing.T) {
	a := iterToy(t, am.KindSRU, toyStart(t, am.KindSRU), 1, 1)
	other := toyStart(t, am.KindSRU)
	other.Model.Opts.SRU.Hidden = 9
	m, err := am.New(other.Model.Opts, 1)
	if err != nil {
		t.Fatal(err)
	}
	other.Model = m
	if _, err := Average([]*am.File{a, other}, []string{"a", "b"}); !errors.Is(err, ErrIncompatible) {
		t.Errorf("different sizes: %v, want ErrIncompatible", err)
	}
	fresh := copyFile(t, a)
	fresh.Tensors = nil // no optimizer state
	if _, err := Average([]*am.File{a, fresh}, []string{"a", "b"}); !errors.Is(err, ErrIncompatible) {
		t.Errorf("optimizer state in one model only: %v, want ErrIncompatible", err)
	}
	p := copyFile(t, a)
	p.Pipeline.SpliceLeft = 1
	if _, err := Average([]*am.File{a, p}, []string{"a", "b"}); !errors.Is(err, ErrIncompatible) {
		t.Errorf("different pipelines: %v, want ErrIncompatible", err)
	}
}

// A job re-run with the same (seed, iter, job) gives the same model bit
// for bit; another job number gives another.
func TestRunIterationDeterministic(t *testing.T) {
	start := toyStart(t, am.KindSTRODE)
	a, b, c := iterToy(t, am.KindSTRODE, start, 3, 1), iterToy(t, am.KindSTRODE, start, 3, 1), iterToy(t, am.KindSTRODE, start, 4, 1)
	ta, tb, tc := tensorsOf(a), tensorsOf(b), tensorsOf(c)
	same := true
	for name, x := range ta {
		for j := range x {
			if tb[name][j] != x[j] {
				t.Fatalf("%s[%d]: %v then %v", name, j, x[j], tb[name][j])
			}
			same = same && tc[name][j] == x[j]
		}
	}
	if same {
		t.Error("another seed gave the same model")
	}
}
