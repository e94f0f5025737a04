package strode

import "math"

// CosineSimilarity is the paper's CS: per sequence, the cosine similarity of
// inferred and true times (t_0 … t_{n−1}), averaged over sequences. It is
// scale-invariant, so inferred times need no normalisation.
func CosineSimilarity(inferred, truth [][]float64) float64 {
	sum := 0.0
	for s := range inferred {
		var dot, a, b float64
		for i := range inferred[s] {
			dot += inferred[s][i] * truth[s][i]
			a += inferred[s][i] * inferred[s][i]
			b += truth[s][i] * truth[s][i]
		}
		if a > 0 && b > 0 {
			sum += dot / math.Sqrt(a*b)
		}
	}
	return sum / float64(len(inferred))
}

// GapCorrelation is gap r: the Pearson correlation of inferred and true gaps
// Δt_i = t_i − t_{i−1}, i = 1 … n−1, pooled over all sequences. It is 0 when
// either side has no spread (e.g. the index baseline's unit gaps).
func GapCorrelation(inferred, truth [][]float64) float64 {
	var n, sx, sy, sxx, syy, sxy float64
	for s := range inferred {
		for i := 1; i < len(inferred[s]); i++ {
			x := inferred[s][i] - inferred[s][i-1]
			y := truth[s][i] - truth[s][i-1]
			n++
			sx += x
			sy += y
			sxx += x * x
			syy += y * y
			sxy += x * y
		}
	}
	vx := sxx - sx*sx/n
	vy := syy - sy*sy/n
	if vx <= 1e-12*sxx || vy <= 0 {
		return 0
	}
	return (sxy - sx*sy/n) / math.Sqrt(vx*vy)
}
