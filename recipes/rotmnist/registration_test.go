package rotmnist

import (
	"testing"

	"github.com/strode-asr/strode/internal/shareddata"
)

// TestRegistrationGapR: the label-free estimator reads the gaps of
// generated videos (synthetic digits) on both subsets.
func TestRegistrationGapR(t *testing.T) {
	m := synthMNIST(3)
	for _, subset := range []string{"hawkes", "exp"} {
		d, err := Generate(smallOptions(subset), m, 7)
		if err != nil {
			t.Fatal(err)
		}
		r := RegistrationGapR(&d.Test, 0)
		t.Logf("%s: registration gap r %.3f over %d test videos", subset, r, d.Test.Videos)
		if r < 0.8 {
			t.Errorf("%s: registration gap r %.3f, want ≥ 0.8", subset, r)
		}
	}
}

// TestRegistrationGapRMNIST measures the estimator on 300 test videos of
// real MNIST digits (RESULTS.md, "What the frames allow").
func TestRegistrationGapRMNIST(t *testing.T) {
	if testing.Short() {
		t.Skip("about 50 s: not with -short")
	}
	dir := shareddata.Dir(t, "data/mnist")
	mn, err := LoadMNIST(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, subset := range []string{"hawkes", "exp"} {
		o := DefaultDataOptions()
		o.Subset, o.NumTrain, o.NumVal, o.NumTest = subset, 10, 10, 300
		d, err := Generate(o, mn, 112)
		if err != nil {
			t.Fatal(err)
		}
		r := RegistrationGapR(&d.Test, 0)
		var times [][]float64
		for v := range d.Test.Videos {
			times = append(times, d.Test.Times[v*d.Test.Frames:(v+1)*d.Test.Frames])
		}
		t.Logf("%s: registration gap r %.3f, fixed schedule %.3f (300 test videos, data seed 112)", subset, r, ScheduleGapR(times))
		if r < 0.9 {
			t.Errorf("%s: registration gap r %.3f, want ≥ 0.9", subset, r)
		}
	}
}
