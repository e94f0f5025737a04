package rotmnist

import (
	"math"
	"testing"

	"github.com/strode-asr/strode/acoustic/strode"
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

// TestPoseCSMNIST measures PoseTimes on 300 test videos of each subset
// (angles 180–360°, which no training video shows): their CS against the
// index baseline's, and how the first frame's pose sits against its true
// angle (within ±30° of it, or of it + 180°: the moments' canonical pose is
// the digit's upright one for some digits and upside down for others).
func TestPoseCSMNIST(t *testing.T) {
	if testing.Short() {
		t.Skip("about 20 s: not with -short")
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
		s := &d.Test
		times := PoseTimes(s, 0)
		var angles, index, zero [][]float64
		near, flipped := 0, 0
		reg := RegistrationTimes(s, 0)
		for v := range times {
			a := s.VideoAngles(v)
			angles = append(angles, a)
			ix := make([]float64, s.Frames)
			for i := range ix {
				ix[i] = float64(i)
			}
			index = append(index, ix)
			zero = append(zero, reg[v])
			k := math.Mod(times[v][0]-a[0]+720, 360)
			switch {
			case k < 30 || k > 330:
				near++
			case k > 150 && k < 210:
				flipped++
			}
		}
		cs, ics, zcs := strode.CosineSimilarity(times, angles), strode.CosineSimilarity(index, angles), strode.CosineSimilarity(zero, angles)
		t.Logf("%s: pose-started registration CS %.3f (from 0: %.3f; index %.3f); first pose within ±30° of its angle %d/300, of its angle + 180° %d/300",
			subset, cs, zcs, ics, near, flipped)
		if cs <= ics {
			t.Errorf("%s: CS %.3f not above the index baseline's %.3f", subset, cs, ics)
		}
	}
}
