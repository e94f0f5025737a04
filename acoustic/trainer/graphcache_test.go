package trainer

import (
	"testing"

	"github.com/strode-asr/strode/acoustic/am"
)

// Training must not depend on which graphs happen to be cached: a graph
// rebuilt after eviction and one reused from the cache compute the same
// minibatch bit for bit (no state left over from the previous minibatch).
func TestTrainingIndependentOfGraphCache(t *testing.T) {
	params := func(capacity int) [][]float64 {
		var out [][]float64
		f, _ := trainToyWith(t, am.KindSTRODE, 2, "", false, func(_ *am.Options, o *TrainOptions) { o.GraphCache = capacity })
		for _, p := range f.Model.Params.List {
			out = append(out, p.Data)
		}
		return out
	}
	all, one := params(0), params(1)
	for i := range all {
		for j := range all[i] {
			if all[i][j] != one[i][j] {
				t.Fatalf("parameter %d[%d]: %v with every graph cached, %v with one", i, j, all[i][j], one[i][j])
			}
		}
	}
}
