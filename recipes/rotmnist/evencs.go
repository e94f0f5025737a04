package rotmnist

import (
	"math"

	"github.com/strode-asr/strode/acoustic/strode"
)

// Evenly spaced times with an offset, the baseline the paper's CS needs.
//
// CS compares inferred times with the frames' angles, which start far from
// 0 (the Hawkes test window begins at 180°, the exp test set at 180°), and
// cosine similarity is not shift-invariant: the sequence c, c+1, …, c+N−1
// scores more the nearer its offset c puts it to the angles' own offset,
// without any timing in it. STRODE's first time is Φ(0, z_0) > 0, so a
// model can reach this by learning one constant. EvenCS is the best such
// score: the CS of c + i maximised over c on a grid (what a model that
// learnt an offset and nothing else scores); only a CS above it, or a gap r
// above 0, shows that timings were learnt.

// evenCSGrid is the offsets tried: 0 to evenCSMax frames in steps of
// evenCSStep, and the limit c → ∞ (constant times).
const (
	evenCSStep = 0.05
	evenCSMax  = 100
)

// EvenCS returns the best CS of evenly spaced times c, c+1, …, c+N−1 (one
// offset c ≥ 0 for every video) against truth, and that offset (+Inf for
// constant times).
func EvenCS(truth [][]float64) (cs, offset float64) {
	seq := make([][]float64, len(truth))
	for s := range truth {
		seq[s] = make([]float64, len(truth[s]))
	}
	set := func(c float64) float64 {
		for s := range seq {
			for i := range seq[s] {
				if math.IsInf(c, 1) {
					seq[s][i] = 1
				} else {
					seq[s][i] = c + float64(i)
				}
			}
		}
		return strode.CosineSimilarity(seq, truth)
	}
	cs, offset = math.Inf(-1), 0
	for k := 0; k <= evenCSMax/evenCSStep; k++ {
		c := float64(k) * evenCSStep
		if v := set(c); v > cs {
			cs, offset = v, c
		}
	}
	if v := set(math.Inf(1)); v > cs {
		cs, offset = v, math.Inf(1)
	}
	return cs, offset
}

// setEven fills sc.EvenCS and sc.EvenOffset for the angles scored.
func (sc *Score) setEven(angles [][]float64) {
	cs, c := EvenCS(angles)
	sc.EvenCS, sc.EvenOffset = cs, c
	if math.IsInf(c, 1) {
		sc.EvenOffset = -1
	}
}
