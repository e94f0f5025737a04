package trainer

import (
	"math/rand"
	"sort"

	"github.com/strode-asr/strode/acoustic/am"
)

// Batches groups utterances of similar length: sorted by length (stable, so
// ties keep their order), cut into groups of at most maxUtts utterances and
// maxFrames padded frames (longest · count), then the groups are shuffled
// with rng (nil: kept in order).
func Batches(utts []*am.Utterance, maxUtts, maxFrames int, rng *rand.Rand) [][]*am.Utterance {
	s := append([]*am.Utterance(nil), utts...)
	sort.SliceStable(s, func(i, j int) bool { return s[i].Rows < s[j].Rows })
	var out [][]*am.Utterance
	var cur []*am.Utterance
	for _, u := range s {
		if len(cur) > 0 && (len(cur) >= maxUtts || u.Rows*(len(cur)+1) > maxFrames) {
			out = append(out, cur)
			cur = nil
		}
		cur = append(cur, u)
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	if rng != nil {
		rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	}
	return out
}
