package compare

import (
	"math"
	"testing"
)

// Student t quantiles from printed tables (e.g. NIST/SEMATECH e-Handbook,
// table 1.4.2.3), six decimals.
func TestTQuantile(t *testing.T) {
	for _, c := range []struct {
		p    float64
		df   int
		want float64
	}{
		{0.975, 1, 12.706205},
		{0.975, 2, 4.302653},
		{0.975, 4, 2.776445},
		{0.975, 11, 2.200985},
		{0.975, 30, 2.042272},
		{0.995, 4, 4.604095},
		{0.95, 10, 1.812461},
		{0.5, 7, 0},
	} {
		if got := TQuantile(c.p, c.df); math.Abs(got-c.want) > 1e-5 {
			t.Errorf("t_{%v,%d} = %.7f, want %.6f", c.p, c.df, got, c.want)
		}
	}
}

func TestSummarize(t *testing.T) {
	nan := math.NaN()
	const tol = 1e-6
	for _, c := range []struct {
		name                      string
		xs                        []float64
		conf                      float64
		mean, sd, se, lo, hi, tst float64
	}{
		// mean 3, sd √2.5, se √0.5, half-width 2.776445·√0.5 = 1.963243
		{"1..5", []float64{1, 2, 3, 4, 5}, 0.95, 3, 1.5811388, 0.7071068, 1.0367570, 4.9632430, 4.2426407},
		// two values: sd |a−b|/√2, se |a−b|/2, t_{0.975,1} = 12.706205
		{"two", []float64{10, 12}, 0.95, 11, 1.4142136, 1, 11 - 12.706205, 11 + 12.706205, 11},
		// 99%: t_{0.995,4} = 4.604095
		{"1..5 at 99%", []float64{1, 2, 3, 4, 5}, 0.99, 3, 1.5811388, 0.7071068, 3 - 4.604095*0.7071068, 3 + 4.604095*0.7071068, 4.2426407},
		// session 7's twelve strode − sru differences (recipes/fsdd/RESULTS.md):
		// mean 16.4/12, sd 4.5333779, se 1.3086735, t_{0.975,11} = 2.200985
		{"fsdd session 7", []float64{5.8, -0.6, -2.4, -1.2, -6.2, 4.0, -1.2, 2.0, -1.0, 0.4, 6.8, 10.0}, 0.95,
			1.3666667, 4.5333779, 1.3086735, -1.5137040, 4.2470374, 1.0443145},
		{"one value", []float64{7}, 0.95, 7, nan, nan, nan, nan, nan},
		{"none", nil, 0.95, nan, nan, nan, nan, nan, nan},
		{"no spread", []float64{2, 2, 2}, 0.95, 2, 0, 0, 2, 2, nan},
		{"all zero", []float64{0, 0}, 0.95, 0, 0, 0, 0, 0, 0},
	} {
		s := Summarize(c.xs, c.conf)
		for _, v := range []struct {
			what      string
			got, want float64
		}{{"mean", s.Mean, c.mean}, {"sd", s.SD, c.sd}, {"se", s.SE, c.se}, {"lo", s.Lo, c.lo}, {"hi", s.Hi, c.hi}, {"t", s.T, c.tst}} {
			if math.IsNaN(v.want) != math.IsNaN(v.got) || math.Abs(v.got-v.want) > tol {
				t.Errorf("%s: %s = %.7f, want %.7f", c.name, v.what, v.got, v.want)
			}
		}
		if s.N != len(c.xs) {
			t.Errorf("%s: n = %d", c.name, s.N)
		}
	}
}

// The two-sided p-value of t = t_{0.975,df} is 0.05 by definition.
func TestSummarizePValue(t *testing.T) {
	// 1..5 shifted so that mean/se = t_{0.975,4} (their se is √0.5).
	xs := []float64{1, 2, 3, 4, 5}
	shift := 2.776445*math.Sqrt(0.5) - 3
	for i := range xs {
		xs[i] += shift
	}
	s := Summarize(xs, 0.95)
	if math.Abs(s.T-2.776445) > 1e-6 || math.Abs(s.P-0.05) > 1e-6 {
		t.Errorf("t = %.7f, p = %.7f; want 2.776445, 0.05", s.T, s.P)
	}
	if math.Abs(s.Lo) > 1e-6 { // the interval's lower end is then exactly 0
		t.Errorf("lo = %g, want 0", s.Lo)
	}
}

// TestMeanSDMedian: the small helpers for tables over seeds.
func TestMeanSDMedian(t *testing.T) {
	const tol = 1e-12
	for _, tc := range []struct {
		xs               []float64
		mean, sd, median float64
	}{
		{[]float64{2, 4, 4, 4, 5, 5, 7, 9}, 5, math.Sqrt(32.0 / 7), 4.5},
		{[]float64{3, 1, 2}, 2, 1, 2},
		{[]float64{7}, 7, 0, 7},
	} {
		m, sd := MeanSD(tc.xs)
		if math.Abs(m-tc.mean) > tol || math.Abs(sd-tc.sd) > tol {
			t.Errorf("MeanSD(%v) = %v, %v, want %v, %v", tc.xs, m, sd, tc.mean, tc.sd)
		}
		if md := Median(tc.xs); math.Abs(md-tc.median) > tol {
			t.Errorf("Median(%v) = %v, want %v", tc.xs, md, tc.median)
		}
	}
	if Median(nil) != 0 {
		t.Error("Median(nil) != 0")
	}
}
