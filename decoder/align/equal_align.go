package align

import (
	"errors"
	"fmt"

	"github.com/strode-asr/strode/decoder/fst"
)

// ErrEqualAlign is wrapped when an equal alignment cannot be made.
var ErrEqualAlign = errors.New("equal alignment failed")

// glibcRand reproduces glibc's rand() after srand(seed) (the TYPE_3
// additive feedback generator), so that align-equal-compiled chooses the
// same random paths as Kaldi on Linux.
type glibcRand struct {
	r [34]int32 // ring of the last 34 values
	i int
}

func newGlibcRand(seed uint32) *glibcRand {
	g := &glibcRand{}
	if seed == 0 {
		seed = 1
	}
	var r [344]int32
	r[0] = int32(seed)
	for i := 1; i < 31; i++ {
		// 16807 * r[i-1] % 2147483647 without overflow (Schrage), as glibc.
		hi := int64(r[i-1]) / 127773
		lo := int64(r[i-1]) % 127773
		word := 16807*lo - 2836*hi
		if word < 0 {
			word += 2147483647
		}
		r[i] = int32(word)
	}
	for i := 31; i < 34; i++ {
		r[i] = r[i-31]
	}
	for i := 34; i < 344; i++ {
		r[i] = int32(uint32(r[i-31]) + uint32(r[i-3]))
	}
	copy(g.r[:], r[344-34:])
	return g
}

// next returns the next rand() value in [0, 2^31).
func (g *glibcRand) next() int32 {
	// r[n] = r[n-31] + r[n-3]; the ring holds r[n-34..n-1].
	v := int32(uint32(g.r[(g.i+3)%34]) + uint32(g.r[(g.i+31)%34]))
	g.r[g.i] = v
	g.i = (g.i + 1) % 34
	return int32(uint32(v) >> 1)
}

// randInt is Kaldi's RandInt(lo, hi) on glibc: no draw when lo == hi.
func (g *glibcRand) randInt(lo, hi int32) int32 {
	if hi == lo {
		return lo
	}
	return lo + g.next()%(hi+1-lo)
}

// StringHash is Kaldi's StringHasher (×7853 per byte), truncated to int as
// align-equal-compiled does to seed its generator.
func StringHash(s string) int32 {
	var h uint64
	for i := 0; i < len(s); i++ {
		h = h*7853 + uint64(int64(int8(s[i])))
	}
	return int32(h)
}

// EqualAlign makes a flat-start alignment of numFrames frames through a
// training graph, as Kaldi's EqualAlign: it draws a random path (retrying
// up to 10 times while the path needs more frames than there are), then
// spreads the extra frames evenly over the self-loops on that path. The
// generator is seeded with seed (align-equal-compiled uses StringHash of
// the utterance key), so results equal Kaldi's for the same graph.
func EqualAlign(g *fst.VectorFst, numFrames int, seed int32) ([]int32, error) {
	const numRetries = 10
	if g.Start == fst.NoState {
		return nil, fmt.Errorf("%w: %w", ErrEqualAlign, ErrEmptyGraph)
	}
	rng := newGlibcRand(uint32(seed))
	var path []fst.StateID
	var arcOff []int
	var tries []int
	numIlabels := 0
	for try := 0; ; {
		numIlabels = 0
		path = append(path[:0], g.Start)
		arcOff = arcOff[:0]
		for steps := 0; ; steps++ {
			if steps > 100*len(g.States)+numFrames*100 {
				return nil, fmt.Errorf("%w: random path does not end (graph not co-accessible?)", ErrEqualAlign)
			}
			s := path[len(path)-1]
			st := &g.States[s]
			tot := len(st.Arcs)
			if st.Final != fst.WeightZero {
				tot++
			}
			if tot == 0 {
				return nil, fmt.Errorf("%w: state %d has no arcs and is not final", ErrEqualAlign, s)
			}
			off := int(rng.randInt(0, int32(tot-1)))
			if off >= len(st.Arcs) {
				break
			}
			a := st.Arcs[off]
			if a.NextState == s {
				continue // do not take self-loops here
			}
			arcOff = append(arcOff, off)
			path = append(path, a.NextState)
			if a.ILabel != 0 {
				numIlabels++
			}
		}
		tries = append(tries, numIlabels)
		try++
		if try >= numRetries || numIlabels <= numFrames {
			break
		}
	}
	if numIlabels > numFrames {
		return nil, fmt.Errorf("%w: utterance has too few frames %d to align (random paths need %v)", ErrEqualAlign, numFrames, tries)
	}
	selfLoop := make([]int, len(path))
	numSelfLoops := 0
	for i, s := range path {
		selfLoop[i] = -1
		for k, a := range g.States[s].Arcs {
			if a.NextState == s && a.ILabel != 0 {
				selfLoop[i] = k
				numSelfLoops++
				break
			}
		}
	}
	if numSelfLoops == 0 && numIlabels < numFrames {
		return nil, fmt.Errorf("%w: no self-loops on chosen path; cannot match length", ErrEqualAlign)
	}
	extra := numFrames - numIlabels
	minLoops, oneMore := 0, 0
	if extra != 0 {
		minLoops = extra / numSelfLoops
		oneMore = extra - minLoops*numSelfLoops
	}
	ali := make([]int32, 0, numFrames)
	counter := 0
	for i, s := range path {
		if selfLoop[i] >= 0 {
			n := minLoops
			if counter < oneMore {
				n++
			}
			counter++
			for range n {
				ali = append(ali, g.States[s].Arcs[selfLoop[i]].ILabel)
			}
		}
		if i+1 < len(path) {
			if l := g.States[s].Arcs[arcOff[i]].ILabel; l != 0 {
				ali = append(ali, l)
			}
		}
	}
	return ali, nil
}
