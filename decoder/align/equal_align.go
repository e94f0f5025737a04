package align

import (
	"errors"
	"fmt"

	"github.com/strode-asr/strode/decoder/fst"
	"github.com/strode-asr/strode/internal/glibcrand"
)

// ErrEqualAlign is wrapped when an equal alignment cannot be made.
var ErrEqualAlign = errors.New("equal alignment failed")

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
	rng := glibcrand.New(uint32(seed))
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
			off := int(rng.RandInt(0, int32(tot-1)))
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
