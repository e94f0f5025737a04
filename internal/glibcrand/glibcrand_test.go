package glibcrand

import (
	"math"
	"testing"
)

// The reference sequences were printed by a C program built against glibc
// (rand() after srand(seed)).
func TestRandMatchesGlibc(t *testing.T) {
	cases := []struct {
		seed uint32
		want []int
	}{
		{0, []int{1804289383, 846930886, 1681692777, 1714636915, 1957747793}},
		{1, []int{1804289383, 846930886, 1681692777, 1714636915, 1957747793}},
		{7, []int{1045618677, 1863967299, 1272579899, 461085871, 21961325}},
		{3000000000, []int{2058147116, 854483408, 922419988}},
	}
	for _, c := range cases {
		g := New(c.seed)
		for i, w := range c.want {
			if got := g.Rand(); got != w {
				t.Errorf("seed %d: draw %d = %d, want %d", c.seed, i, got, w)
			}
		}
	}
}

func TestRandIntRange(t *testing.T) {
	g := New(1)
	if got := g.RandInt(5, 5); got != 5 {
		t.Fatalf("RandInt(5, 5) = %d", got)
	}
	// 1804289383 % 10 = 3
	if got := g.RandInt(0, 9); got != 3 {
		t.Fatalf("RandInt(0, 9) = %d, want 3", got)
	}
}

// RandGauss of seed 1 is Box–Muller of glibc's first two draws.
func TestRandGaussFirstDraw(t *testing.T) {
	u1 := (1804289383.0 + 1) / (2147483647.0 + 2)
	u2 := (846930886.0 + 1) / (2147483647.0 + 2)
	want := math.Sqrt(-2*math.Log(u1)) * math.Cos(2*math.Pi*u2)
	if got := New(1).RandGauss(); math.Abs(float64(got)-want) > 1e-5 {
		t.Fatalf("RandGauss() = %g, want %g", got, want)
	}
}
