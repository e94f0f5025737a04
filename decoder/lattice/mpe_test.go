package lattice

import (
	"math"
	"math/rand"
	"testing"
)

// TestForwardBackwardMpe checks the expected accuracy and its derivatives
// against every path enumerated: c̄ = Σ_p P(p)·A(p), and for each frame t
// and transition-id i, ∂c̄/∂log w = Σ_p P(p)·[p has i at t]·(A(p) − c̄).
func TestForwardBackwardMpe(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for trial := 0; trial < 20; trial++ {
		T := 2 + rng.Intn(4)
		l := randomLattice(rng, T, 3)
		if err := l.TopSort(); err != nil {
			t.Fatal(err)
		}
		ref := make([]int32, T) // the reference: a transition-id a frame
		for i := range ref {
			ref[i] = int32(1 + rng.Intn(6))
		}
		acc := func(tt int, tid int32) float64 {
			if tid == ref[tt] {
				return 1
			}
			if tid%2 == ref[tt]%2 { // a partial credit, as MPFE's phones give
				return 0.5
			}
			return 0
		}
		type path struct {
			tids []int32
			logp float64
		}
		var paths []path
		satPaths(l, l.Start, nil, 0, func(tids []int32, logp float64) { paths = append(paths, path{tids, logp}) })
		logZ := math.Inf(-1)
		for _, p := range paths {
			logZ = logAdd(logZ, p.logp)
		}
		wantAcc := 0.0
		accOf := make([]float64, len(paths))
		for k, p := range paths {
			for tt, tid := range p.tids {
				accOf[k] += acc(tt, tid)
			}
			wantAcc += math.Exp(p.logp-logZ) * accOf[k]
		}
		want := map[[2]int32]float64{}
		for k, p := range paths {
			for tt, tid := range p.tids {
				want[[2]int32{int32(tt), tid}] += math.Exp(p.logp-logZ) * (accOf[k] - wantAcc)
			}
		}
		post, got, err := l.ForwardBackwardMpe(T, acc)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got-wantAcc) > 1e-9 {
			t.Fatalf("trial %d: expected accuracy %g, enumeration %g", trial, got, wantAcc)
		}
		for tt, row := range post {
			sum := 0.0
			for _, e := range row {
				w := want[[2]int32{int32(tt), e.ID}]
				if math.Abs(float64(e.Weight)-w) > 1e-5 {
					t.Errorf("trial %d frame %d tid %d: derivative %g, enumeration %g", trial, tt, e.ID, e.Weight, w)
				}
				sum += float64(e.Weight)
			}
			if math.Abs(sum) > 1e-5 { // every path crosses frame t once
				t.Errorf("trial %d frame %d: derivatives sum to %g, want 0", trial, tt, sum)
			}
		}
		for k, w := range want {
			if math.Abs(w) > 1e-5 {
				found := false
				for _, e := range post[k[0]] {
					found = found || e.ID == k[1]
				}
				if !found {
					t.Errorf("trial %d frame %d tid %d: enumeration %g, missing", trial, k[0], k[1], w)
				}
			}
		}
	}
	l := randomLattice(rng, 3, 2)
	_ = l.TopSort()
	if _, _, err := l.ForwardBackwardMpe(4, func(int, int32) float64 { return 0 }); err == nil {
		t.Error("a reference one frame longer than the lattice: no error")
	}
}
