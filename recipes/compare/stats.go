package compare

import (
	"math"
	"sort"

	"gonum.org/v1/gonum/stat/distuv"
)

// Summary is the mean of a sample with its standard error and a Student-t
// confidence interval for the mean. SE, Lo, Hi, T and P are NaN when the
// sample has fewer than two values (no spread to estimate).
type Summary struct {
	N      int     // number of values
	Mean   float64 // arithmetic mean (NaN when N is 0)
	SD     float64 // sample standard deviation, n−1 in the denominator
	SE     float64 // SD/√N
	DF     int     // degrees of freedom of the interval, N−1
	TQuant float64 // t quantile at (1+confidence)/2 with DF degrees of freedom
	Lo, Hi float64 // Mean ∓ TQuant·SE
	T      float64 // Mean/SE, the paired t statistic when the values are differences
	P      float64 // two-sided p-value of T under Student's t with DF degrees of freedom
}

// Summarize returns the mean, standard error and the two-sided confidence
// interval (confidence in (0, 1), e.g. 0.95) of xs. The interval is
// Mean ± t_{(1+confidence)/2, n−1}·SE, exact for independent normal values.
func Summarize(xs []float64, confidence float64) Summary {
	nan := math.NaN()
	s := Summary{N: len(xs), Mean: nan, SD: nan, SE: nan, TQuant: nan, Lo: nan, Hi: nan, T: nan, P: nan}
	if s.N == 0 {
		return s
	}
	sum := 0.0
	for _, x := range xs {
		sum += x
	}
	s.Mean = sum / float64(s.N)
	if s.N < 2 {
		return s
	}
	ss := 0.0
	for _, x := range xs {
		ss += (x - s.Mean) * (x - s.Mean)
	}
	s.SD = math.Sqrt(ss / float64(s.N-1))
	s.SE = s.SD / math.Sqrt(float64(s.N))
	s.DF = s.N - 1
	s.TQuant = TQuantile((1+confidence)/2, s.DF)
	s.Lo, s.Hi = s.Mean-s.TQuant*s.SE, s.Mean+s.TQuant*s.SE
	if s.SE > 0 {
		s.T = s.Mean / s.SE
		t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(s.DF)}
		s.P = 2 * t.Survival(math.Abs(s.T))
	} else if s.Mean == 0 {
		s.T, s.P = 0, 1 // every value zero: no difference, no spread
	}
	return s
}

// TQuantile is the p-quantile of Student's t distribution with df degrees of
// freedom (t_{0.975,4} = 2.776445).
func TQuantile(p float64, df int) float64 {
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(df)}.Quantile(p)
}

// MeanSD is the mean of xs and its sample standard deviation (n−1 in the
// denominator; 0 for fewer than two values, where Summarize gives NaN),
// for tables of mean ± std over seeds.
func MeanSD(xs []float64) (mean, sd float64) {
	s := Summarize(xs, 0.95)
	if s.N < 2 {
		return s.Mean, 0
	}
	return s.Mean, s.SD
}

// Median is the middle value of xs (the mean of the two middle ones for an
// even count), 0 for none; xs is left as it is.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
