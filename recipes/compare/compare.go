package compare

import (
	"errors"
	"fmt"
	"math"
)

// Options control a comparison.
type Options struct {
	// Baseline, when set, pairs every other model with it (model − baseline);
	// when empty every pair of models is reported, later − earlier in the
	// order models first appear in the runs.
	Baseline string
	// Confidence of the paired intervals, in (0, 1).
	Confidence float64
}

// DefaultOptions are all pairs at 95% confidence.
func DefaultOptions() Options { return Options{Confidence: 0.95} }

// ErrNoRuns is returned when there is nothing to compare.
var ErrNoRuns = errors.New("no runs")

// tieTolerance: paired WERs closer than this (in points) count as a tie;
// compute-wer prints two decimals, so real differences are ≥ 0.005.
const tieTolerance = 1e-9

// ModelSummary is one model's WER over all its runs.
type ModelSummary struct {
	Model string
	Runs  []Run
	WER   Summary // mean ± s.e. of the runs' WERs (each run weighs the same)
	// Pooled is 100·ΣErrors/ΣWords when every run has counts, else NaN: the
	// WER of all test words together, which weighs runs by their size.
	Pooled        float64
	Errors, Words int
	// Conditions are the per-condition means over seeds, in first-seen order;
	// OverConditions summarises those means (each condition weighs the same,
	// however many seeds it has; its s.e. treats conditions as the sample).
	Conditions     []ConditionMean
	OverConditions Summary
}

// RepeatsConditions reports whether some condition has more than one run.
func (m *ModelSummary) RepeatsConditions() bool {
	return len(m.Conditions) < len(m.Runs)
}

// ConditionMean is a model's mean WER on one condition over its seeds.
type ConditionMean struct {
	Condition string
	Runs      int
	Mean      float64
}

// PairedRun is one (condition, seed) run by both models of a pair.
type PairedRun struct {
	Condition, Seed string
	A, B            float64 // the two WERs
	Diff            float64 // B − A, WER points
}

// Unmatched is a run of one model of a pair with no run of the other model on
// the same condition and seed; it is left out of that pair's statistics.
type Unmatched struct {
	Run     Run
	Missing string // the model without a matching run
}

// Pair is the paired comparison of two models: B − A.
type Pair struct {
	A, B   string
	Paired []PairedRun // in the order of A's runs
	Diff   Summary     // over Paired[i].Diff
	// OverConditions summarises the per-condition means of the paired
	// differences (n = conditions): the speaker, not the run, as the unit,
	// which is the conservative interval when a condition has several seeds
	// (N = 0 when no condition has more than one paired run).
	OverConditions Summary
	Better         int // B has the lower WER
	Worse          int // B has the higher WER
	Ties           int
	Unmatched      []Unmatched
}

// Report is everything Compare finds.
type Report struct {
	Options Options
	Models  []ModelSummary // in first-seen order
	Pairs   []Pair
}

// Compare summarises each model's runs and pairs the models' runs on
// (condition, seed). Pairing removes what the two runs share, the held-out
// speaker's difficulty and (with the same seed on the same alignments) part
// of the seed's luck, so the paired differences vary far less than the WERs
// themselves. The interval treats the pairs as independent, which they are
// not quite: pairs on the same speaker share that speaker.
func Compare(runs []Run, o Options) (*Report, error) {
	if len(runs) == 0 {
		return nil, ErrNoRuns
	}
	if !(o.Confidence > 0 && o.Confidence < 1) {
		return nil, fmt.Errorf("confidence %v is not in (0, 1)", o.Confidence)
	}
	rep := &Report{Options: o}
	index := map[string]int{}
	for _, r := range runs {
		i, ok := index[r.Model]
		if !ok {
			i = len(rep.Models)
			index[r.Model] = i
			rep.Models = append(rep.Models, ModelSummary{Model: r.Model})
		}
		rep.Models[i].Runs = append(rep.Models[i].Runs, r)
	}
	if o.Baseline != "" {
		if _, ok := index[o.Baseline]; !ok {
			return nil, fmt.Errorf("baseline model %q has no runs (models: %v)", o.Baseline, rep.modelNames())
		}
	}
	for i := range rep.Models {
		summarizeModel(&rep.Models[i], o.Confidence)
	}
	for i := range rep.Models {
		for j := i + 1; j < len(rep.Models); j++ {
			a, b := &rep.Models[i], &rep.Models[j]
			switch o.Baseline {
			case "":
			case a.Model:
			case b.Model:
				a, b = b, a
			default:
				continue
			}
			rep.Pairs = append(rep.Pairs, pairModels(a, b, o.Confidence))
		}
	}
	return rep, nil
}

func (rep *Report) modelNames() []string {
	var s []string
	for _, m := range rep.Models {
		s = append(s, m.Model)
	}
	return s
}

func summarizeModel(m *ModelSummary, confidence float64) {
	wers := make([]float64, len(m.Runs))
	counts := true
	byCond := map[string]int{}
	sums := []float64{}
	for i, r := range m.Runs {
		wers[i] = r.WER
		if r.HasCounts() {
			m.Errors += r.Errors
			m.Words += r.Words
		} else {
			counts = false
		}
		c, ok := byCond[r.Condition]
		if !ok {
			c = len(m.Conditions)
			byCond[r.Condition] = c
			m.Conditions = append(m.Conditions, ConditionMean{Condition: r.Condition})
			sums = append(sums, 0)
		}
		m.Conditions[c].Runs++
		sums[c] += r.WER
	}
	m.WER = Summarize(wers, confidence)
	m.Pooled = math.NaN()
	if counts {
		m.Pooled = 100 * float64(m.Errors) / float64(m.Words)
	} else {
		m.Errors, m.Words = 0, 0
	}
	means := make([]float64, len(m.Conditions))
	for c := range m.Conditions {
		m.Conditions[c].Mean = sums[c] / float64(m.Conditions[c].Runs)
		means[c] = m.Conditions[c].Mean
	}
	m.OverConditions = Summarize(means, confidence)
}

// pairModels matches a's and b's runs on (condition, seed).
func pairModels(a, b *ModelSummary, confidence float64) Pair {
	p := Pair{A: a.Model, B: b.Model}
	type key struct{ cond, seed string }
	bRuns := map[key]Run{}
	for _, r := range b.Runs {
		bRuns[key{r.Condition, r.Seed}] = r
	}
	matched := map[key]bool{}
	var diffs []float64
	for _, ra := range a.Runs {
		k := key{ra.Condition, ra.Seed}
		rb, ok := bRuns[k]
		if !ok {
			p.Unmatched = append(p.Unmatched, Unmatched{Run: ra, Missing: b.Model})
			continue
		}
		matched[k] = true
		d := rb.WER - ra.WER
		p.Paired = append(p.Paired, PairedRun{Condition: ra.Condition, Seed: ra.Seed, A: ra.WER, B: rb.WER, Diff: d})
		diffs = append(diffs, d)
		switch {
		case math.Abs(d) <= tieTolerance:
			p.Ties++
		case d < 0:
			p.Better++
		default:
			p.Worse++
		}
	}
	for _, rb := range b.Runs {
		if !matched[key{rb.Condition, rb.Seed}] {
			p.Unmatched = append(p.Unmatched, Unmatched{Run: rb, Missing: a.Model})
		}
	}
	p.Diff = Summarize(diffs, confidence)
	p.OverConditions = overConditions(p.Paired, confidence)
	return p
}

// overConditions averages the paired differences of each condition (in
// first-seen order) and summarises those means; it returns N = 0 when every
// condition has one paired run (the per-run summary is then the same).
func overConditions(paired []PairedRun, confidence float64) Summary {
	var order []string
	sum, n := map[string]float64{}, map[string]int{}
	repeated := false
	for _, r := range paired {
		if n[r.Condition] == 0 {
			order = append(order, r.Condition)
		}
		sum[r.Condition] += r.Diff
		n[r.Condition]++
		repeated = repeated || n[r.Condition] > 1
	}
	if !repeated {
		return Summary{}
	}
	means := make([]float64, len(order))
	for i, c := range order {
		means[i] = sum[c] / float64(n[c])
	}
	return Summarize(means, confidence)
}
