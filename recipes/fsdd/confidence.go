package fsdd

import (
	"fmt"
	"math"
	"sort"
	"strconv"
)

// Stage 9 of run.sh adapts the models to the test speaker on their own
// 1-best paths, keeping only the utterances the network is surest of: the
// mean, over the frames, of the posterior of the path's pdf
// (get-post-on-ali of the best path).

// MeanWeight is the mean of an utterance's per-frame weights, summed in
// frame order.
func MeanWeight(utt string, w []float64) (float64, error) {
	if len(w) == 0 {
		return 0, fmt.Errorf("utterance %s has no frames", utt)
	}
	s := 0.0
	for _, x := range w {
		s += x
	}
	return s / float64(len(w)), nil
}

// RankByConfidence returns "utt mean" lines, the mean with six significant
// digits (as awk prints a number), most confident first; equal printed
// means in C order of their lines (LC_ALL=C sort -k2,2gr, which the recipe
// used to run).
func RankByConfidence(utts []string, means []float64) []string {
	type row struct {
		line string
		key  float64
	}
	rows := make([]row, len(utts))
	for i, u := range utts {
		m := strconv.FormatFloat(means[i], 'g', 6, 64)
		key, _ := strconv.ParseFloat(m, 64)
		rows[i] = row{u + " " + m, key}
	}
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if a.key != b.key && !(math.IsNaN(a.key) || math.IsNaN(b.key)) {
			return a.key > b.key
		}
		return a.line < b.line
	})
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r.line
	}
	return out
}

// KeepCount is how many of n utterances a fraction keeps: n·fraction
// rounded half up, at least one.
func KeepCount(n int, fraction float64) int {
	k := int(float64(n)*fraction + 0.5)
	if k < 1 {
		return 1
	}
	return k
}
