package hmm

import (
	"fmt"
	"math/rand"

	"github.com/strode-asr/strode/kaldiio"
)

// ProbToPost turns a matrix of probabilities (one row per frame, e.g. a
// network's softmax output over pdf-ids) into Kaldi's sparse Posterior, as
// prob-to-post does: entries of at least minPost are kept; smaller ones are
// dropped, or, with randomPrune, kept as minPost with probability p/minPost
// (which preserves the expectation). rnd draws those choices and may be nil
// when randomPrune is false. minPost 0 keeps every entry.
func ProbToPost(m kaldiio.Matrix, minPost float32, randomPrune bool, rnd *rand.Rand) kaldiio.Posterior {
	post := make(kaldiio.Posterior, m.Rows)
	for i := range post {
		row := m.Data[i*m.Cols : (i+1)*m.Cols]
		for j, p := range row {
			switch {
			case p >= minPost:
				post[i] = append(post[i], kaldiio.PostEntry{ID: int32(j), Weight: p})
			case randomPrune && p/minPost >= rnd.Float32():
				post[i] = append(post[i], kaldiio.PostEntry{ID: int32(j), Weight: minPost})
			}
		}
	}
	return post
}

// PostOnAli is get-post-on-ali: for every frame, the posterior of the
// alignment's index on that frame (the first entry with that id), or 0 if
// the frame's posterior does not hold it. Posteriors and alignment must
// index the same things (both pdf-ids, or both transition-ids). Kaldi
// asserts equal lengths; a mismatch is an error here.
func PostOnAli(post kaldiio.Posterior, ali []int32) ([]float32, error) {
	if len(post) != len(ali) {
		return nil, fmt.Errorf("posterior has %d frames, alignment %d", len(post), len(ali))
	}
	w := make([]float32, len(ali))
	for i, frame := range post {
		for _, e := range frame {
			if e.ID == ali[i] {
				w[i] = e.Weight
				break
			}
		}
	}
	return w, nil
}
