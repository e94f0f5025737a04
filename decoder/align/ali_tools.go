package align

import (
	"fmt"

	"github.com/strode-asr/strode/decoder/hmm"
)

// AliToPdf maps an alignment of transition-ids to pdf-ids (ali-to-pdf).
func AliToPdf(tm *hmm.TransitionModel, ali []int32) ([]int32, error) {
	if err := tm.CheckAlignment(ali); err != nil {
		return nil, err
	}
	out := make([]int32, len(ali))
	for i, tid := range ali {
		out[i] = tm.TransitionIDToPdf(tid)
	}
	return out, nil
}

// isReordered tells whether an alignment has self-loops after the forward
// transition (Kaldi's IsReordered).
func isReordered(tm *hmm.TransitionModel, ali []int32) bool {
	for i := 0; i+1 < len(ali); i++ {
		t1, t2 := tm.TransitionIDToTransitionState(ali[i]), tm.TransitionIDToTransitionState(ali[i+1])
		if t1 != t2 {
			if tm.IsSelfLoop(ali[i]) {
				return true
			}
			if tm.IsSelfLoop(ali[i+1]) {
				return false
			}
		}
	}
	if len(ali) == 0 {
		return false
	}
	if tm.IsSelfLoop(ali[0]) {
		return false
	}
	return tm.IsSelfLoop(ali[len(ali)-1])
}

// SplitToPhones splits an alignment into the transition-ids of each phone
// (Kaldi's SplitToPhones, reordered or not). ok is false when the
// alignment does not look like whole phones (Kaldi then warns); the split
// is still returned.
func SplitToPhones(tm *hmm.TransitionModel, ali []int32) (split [][]int32, ok bool, err error) {
	if err := tm.CheckAlignment(ali); err != nil {
		return nil, false, err
	}
	if len(ali) == 0 {
		return nil, true, nil
	}
	reordered := isReordered(tm, ali)
	ok = true
	var ends []int
	for i := 0; i < len(ali); i++ {
		tid := ali[i]
		switch {
		case tm.IsFinal(tid):
			if reordered {
				for i+1 < len(ali) && tm.IsSelfLoop(ali[i+1]) {
					if tm.TransitionIDToTransitionState(ali[i]) != tm.TransitionIDToTransitionState(ali[i+1]) {
						return nil, false, fmt.Errorf("%w: self-loop %d at frame %d follows transition-id %d of another state", hmm.ErrModel, ali[i+1], i+1, ali[i])
					}
					i++
				}
			}
			ends = append(ends, i+1)
		case i+1 == len(ali):
			ok = false
			ends = append(ends, i+1)
		default:
			s1, s2 := tm.TransitionIDToTransitionState(tid), tm.TransitionIDToTransitionState(ali[i+1])
			if s1 != s2 && tm.Tuples[s1-1].Phone != tm.Tuples[s2-1].Phone {
				ok = false
				ends = append(ends, i+1)
			}
		}
	}
	cur := 0
	for _, e := range ends {
		ts := tm.TransitionIDToTransitionState(ali[cur])
		phone := tm.Tuples[ts-1].Phone
		entry, _ := tm.Topo.TopologyForPhone(phone)
		if entry[0].ForwardPdfClass != hmm.NoPdf && tm.Tuples[ts-1].HmmState != 0 {
			ok = false
		}
		split = append(split, ali[cur:e])
		cur = e
	}
	return split, ok, nil
}

// AliToPhones gives the phone sequence of an alignment (ali-to-phones), or
// with perFrame the phone of every frame.
func AliToPhones(tm *hmm.TransitionModel, ali []int32, perFrame bool) (phones []int32, ok bool, err error) {
	split, ok, err := SplitToPhones(tm, ali)
	if err != nil {
		return nil, false, err
	}
	for _, p := range split {
		ph := tm.TransitionIDToPhone(p[0])
		if perFrame {
			for range p {
				phones = append(phones, ph)
			}
		} else {
			phones = append(phones, ph)
		}
	}
	return phones, ok, nil
}

// PhoneLengths gives (phone, number of frames) per phone of an alignment
// (ali-to-phones --write-lengths).
func PhoneLengths(tm *hmm.TransitionModel, ali []int32) (pairs [][2]int32, ok bool, err error) {
	split, ok, err := SplitToPhones(tm, ali)
	if err != nil {
		return nil, false, err
	}
	for _, p := range split {
		pairs = append(pairs, [2]int32{tm.TransitionIDToPhone(p[0]), int32(len(p))})
	}
	return pairs, ok, nil
}

// Counts accumulates analyze-counts' element counts.
type Counts struct {
	Counts []float64
}

// NewCounts starts counts of dimension dim (--counts-dim); it grows to fit
// larger labels.
func NewCounts(dim int) *Counts { return &Counts{Counts: make([]float64, dim)} }

// Add counts the labels of one vector, each with weight utt×frame[i]
// (frameWeights may be nil). A negative label is an error.
func (c *Counts) Add(labels []int32, uttWeight float64, frameWeights []float32) error {
	if frameWeights != nil && len(frameWeights) != len(labels) {
		return fmt.Errorf("%w: %d frame weights for %d labels", ErrDimMismatch, len(frameWeights), len(labels))
	}
	for i, l := range labels {
		if l < 0 {
			return fmt.Errorf("negative label %d at position %d", l, i)
		}
		for int(l) >= len(c.Counts) {
			c.Counts = append(c.Counts, 0)
		}
		if frameWeights != nil {
			c.Counts[l] += 1.0 * uttWeight * float64(frameWeights[i])
		} else {
			c.Counts[l] += 1.0 * uttWeight
		}
	}
	return nil
}

// Zero lists the labels never counted (Kaldi warns about each).
func (c *Counts) Zero() []int {
	var z []int
	for i, v := range c.Counts {
		if v == 0 {
			z = append(z, i)
		}
	}
	return z
}

// Smoothed returns the counts plus half a frame each, what analyze-counts
// writes so that no count is zero.
func (c *Counts) Smoothed() []float64 {
	out := make([]float64, len(c.Counts))
	for i, v := range c.Counts {
		out[i] = v + 0.5
	}
	return out
}
