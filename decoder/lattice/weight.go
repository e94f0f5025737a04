package lattice

import "math"

// Weight is Kaldi's LatticeWeight: graph (LM + transition) cost and acoustic
// cost, both negated log-probabilities.
type Weight struct {
	Graph, Acoustic float32
}

var inf32 = float32(math.Inf(1))

// Zero is the semiring zero (no path), One the identity.
var (
	Zero = Weight{inf32, inf32}
	One  = Weight{}
)

// IsZero reports whether w is Zero (Kaldi tests the first value only).
func (w Weight) IsZero() bool { return w.Graph == inf32 }

// Cost is graph + acoustic: the quantity best paths minimise.
func (w Weight) Cost() float32 { return w.Graph + w.Acoustic }

// Times adds the costs.
func Times(a, b Weight) Weight { return Weight{a.Graph + b.Graph, a.Acoustic + b.Acoustic} }

// Compare returns 1 when a is better than b (smaller total cost, then smaller
// graph cost), -1 when worse and 0 when equal, as Kaldi's Compare.
func Compare(a, b Weight) int {
	fa, fb := a.Graph+a.Acoustic, b.Graph+b.Acoustic
	switch {
	case fa < fb:
		return 1
	case fa > fb:
		return -1
	case a.Graph < b.Graph:
		return 1
	case a.Graph > b.Graph:
		return -1
	}
	return 0
}

// Plus returns the better of a and b (a on ties).
func Plus(a, b Weight) Weight {
	if Compare(a, b) >= 0 {
		return a
	}
	return b
}

// Scale returns the weight with costs mixed by the 2×2 matrix Kaldi's
// ScaleLattice takes: graph' = s[0][0]·graph + s[0][1]·acoustic,
// acoustic' = s[1][0]·graph + s[1][1]·acoustic, computed in double precision.
// Zero stays Zero (0·Inf would be NaN).
func (w Weight) Scale(s [2][2]float64) Weight {
	if w.Graph == inf32 {
		return w
	}
	g, a := float64(w.Graph), float64(w.Acoustic)
	return Weight{float32(s[0][0]*g + s[0][1]*a), float32(s[1][0]*g + s[1][1]*a)}
}

// CompactWeight is Kaldi's CompactLatticeWeight: a Weight and the string of
// transition-ids consumed along the arc.
type CompactWeight struct {
	W    Weight
	Tids []int32
}

// CompactZero and CompactOne are the semiring's zero and one.
var (
	CompactZero = CompactWeight{W: Zero}
	CompactOne  = CompactWeight{W: One}
)

// CompareCompact orders compact weights as Kaldi's Compare: by Weight, then
// the shorter string is better, then (oddly, but that is Kaldi's rule) the
// lexicographically greater string is better.
func CompareCompact(a, b CompactWeight) int {
	if c := Compare(a.W, b.W); c != 0 {
		return c
	}
	if len(a.Tids) != len(b.Tids) {
		if len(a.Tids) < len(b.Tids) {
			return 1
		}
		return -1
	}
	// Kaldi's order: on equal cost and length, the lexicographically
	// greater string compares as better.
	for i := range a.Tids {
		if a.Tids[i] != b.Tids[i] {
			if a.Tids[i] < b.Tids[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}

// TimesCompact multiplies compact weights: costs add, strings concatenate.
func TimesCompact(a, b CompactWeight) CompactWeight {
	if a.W.IsZero() || b.W.IsZero() {
		return CompactZero
	}
	t := make([]int32, 0, len(a.Tids)+len(b.Tids))
	t = append(append(t, a.Tids...), b.Tids...)
	return CompactWeight{W: Times(a.W, b.W), Tids: t}
}
