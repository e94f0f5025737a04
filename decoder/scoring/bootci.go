package scoring

import (
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/strode-asr/strode/internal/glibcrand"
)

// ErrNothingScored is compute-wer-bootci with no utterance to resample.
var ErrNothingScored = errors.New("no utterance was scored")

// UttErrors are one utterance's word errors (the edit distance) and
// reference words, the unit compute-wer-bootci resamples.
type UttErrors struct {
	Errs, Words int
}

// Bootstrap collects compute-wer-bootci's per-utterance errors for one or
// two hypothesis sets scored against the same references.
type Bootstrap struct {
	Mode Mode
	Sets [][]UttErrors // one per hypothesis set, in reference order
}

// NewBootstrap is a Bootstrap for sets hypothesis sets (1 or 2).
func NewBootstrap(mode Mode, sets int) *Bootstrap {
	return &Bootstrap{Mode: mode, Sets: make([][]UttErrors, sets)}
}

// Add scores one reference utterance against each set's hypothesis; hyps[i]
// is set i's words and ok[i] says whether set i has the key at all. As
// compute-wer-bootci: in Strict mode a key missing from any set is an error,
// in Present mode such a key is skipped for every set, and in All mode a
// missing hypothesis counts every reference word as an error.
func (b *Bootstrap) Add(key string, ref []string, hyps [][]string, ok []bool) error {
	for i := range b.Sets {
		if ok[i] {
			continue
		}
		switch b.Mode {
		case Strict:
			if len(b.Sets) == 1 {
				return missingHypothesis(key)
			}
			return fmt.Errorf("%w: No hypothesis for key %s in both transcripts comparison is not possible.", ErrMissingHypothesis, key)
		case Present:
			return nil
		}
	}
	for i := range b.Sets {
		e := UttErrors{Errs: len(ref), Words: len(ref)}
		if ok[i] {
			e.Errs = EditDistance(ref, hyps[i]).Total()
		}
		b.Sets[i] = append(b.Sets[i], e)
	}
	return nil
}

// BootstrapInterval is Kaldi's GetBootstrapWERInterval: replications times,
// draw len(edits) utterances with replacement (Kaldi's RandInt on g) and take
// the WER of the draw; return the mean WER over the draws and 1.96 times
// their standard deviation. The arithmetic is Kaldi's, in single precision
// (BaseFloat), so that the printed numbers match its for the same draws.
func BootstrapInterval(edits []UttErrors, replications int, g *glibcrand.Rand) (mean, interval float32) {
	var accum, multAccum float32
	hi := int32(len(edits) - 1)
	for range replications {
		var errs, words int32
		for range edits {
			e := edits[g.RandInt(0, hi)]
			errs += int32(e.Errs)
			words += int32(e.Words)
		}
		rep := float32(errs) / float32(words)
		accum += rep
		multAccum += float32(rep * rep) // conversion: no fused multiply-add
	}
	mean = accum / float32(replications)
	variance := multAccum/float32(replications) - float32(mean*mean)
	// Kaldi's sqrt of a float: the double sqrt, times 1.96 in double,
	// stored as float.
	interval = float32(1.96 * math.Sqrt(float64(variance)))
	return mean, interval
}

// BootstrapImprovement is Kaldi's GetBootstrapWERTwoSystemComparison: the
// share of replications in which set 2 makes fewer errors than set 1 on
// the same draw of utterances.
func BootstrapImprovement(set1, set2 []UttErrors, replications int, g *glibcrand.Rand) float32 {
	improv := int32(0)
	hi := int32(len(set1) - 1)
	for range replications {
		var errs int32
		for range set1 {
			k := g.RandInt(0, hi)
			errs += int32(set1[k].Errs - set2[k].Errs)
		}
		if errs > 0 {
			improv++
		}
	}
	return float32(improv) / float32(replications)
}

// Run draws the bootstrap as compute-wer-bootci does — set 1's interval,
// then set 2's, then their comparison, all from one glibc rand() stream of
// seed 1 (Kaldi never seeds it) — and prints its lines:
//
//	Set1: %WER 0.92 95% Conf Interval [ -0.91, 2.76 ]
//	Set2: %WER ...
//	Probability of Set2 improving Set1: 12.34
func (b *Bootstrap) Run(w io.Writer, replications int) error {
	if len(b.Sets) == 0 || len(b.Sets[0]) == 0 {
		// Kaldi's RandInt(0, -1) would abort on its assertion.
		return ErrNothingScored
	}
	if replications <= 0 {
		return fmt.Errorf("--replications must be positive, got %d", replications)
	}
	g := glibcrand.New(1)
	type ci struct{ mean, interval float32 }
	cis := make([]ci, len(b.Sets))
	for i, set := range b.Sets {
		cis[i].mean, cis[i].interval = BootstrapInterval(set, replications, g)
	}
	var out string
	for i, c := range cis {
		// 100*mean ± 100*interval in float, as Kaldi prints them.
		m, d := float32(100*c.mean), float32(100*c.interval)
		out += fmt.Sprintf("Set%d: %%WER %s 95%% Conf Interval [ %s, %s ]\n", i+1,
			formatPercent(m), formatPercent(m-d), formatPercent(m+d))
	}
	if len(b.Sets) == 2 {
		p := BootstrapImprovement(b.Sets[0], b.Sets[1], replications, g)
		out += fmt.Sprintf("Probability of Set2 improving Set1: %s\n", formatPercent(float32(100*p)))
	}
	_, err := io.WriteString(w, out)
	return err
}
