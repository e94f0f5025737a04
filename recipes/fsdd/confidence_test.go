package fsdd

import (
	"math"
	"reflect"
	"testing"
)

func TestRankByConfidence(t *testing.T) {
	utts := []string{"c", "a", "b", "d", "e"}
	// b and d print alike (0.9) and keep their C order; e is 1: awk prints "1".
	means := []float64{0.25, 0.5, 0.9000000001, 0.9, 1}
	got := RankByConfidence(utts, means)
	want := []string{"e 1", "b 0.9", "d 0.9", "a 0.5", "c 0.25"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := RankByConfidence([]string{"x"}, []float64{0.123456789}); got[0] != "x 0.123457" {
		t.Errorf("six significant digits: %q", got[0])
	}
}

func TestKeepCount(t *testing.T) {
	for _, c := range []struct {
		n    int
		f    float64
		want int
	}{{100, 0.8, 80}, {10, 0.8, 8}, {7, 0.5, 4}, {3, 0.1, 1}, {0, 0.8, 1}, {5, 1, 5}} {
		if got := KeepCount(c.n, c.f); got != c.want {
			t.Errorf("KeepCount(%d, %g) = %d, want %d", c.n, c.f, got, c.want)
		}
	}
}

func TestMeanWeight(t *testing.T) {
	m, err := MeanWeight("u", []float64{0.5, 1, 0})
	if err != nil || math.Abs(m-0.5) > 1e-15 {
		t.Errorf("mean %g, %v", m, err)
	}
	if _, err := MeanWeight("u7", nil); err == nil {
		t.Error("no frames: no error")
	}
}
