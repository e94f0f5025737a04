package tree

import (
	"fmt"
	"math"
	"slices"

	"github.com/strode-asr/strode/decoder"
	"github.com/strode-asr/strode/decoder/gmm"
	"github.com/strode-asr/strode/kaldiio"
)

// NewTransitionModel is Kaldi's TransitionModel(ctx_dep, topo): one
// transition-state per (phone, HMM state, forward pdf, self-loop pdf) the
// tree can produce, with the topology's transition probabilities. For an
// ordinary HMM topology the pdfs of (phone, pdf-class) are every leaf the
// tree reaches with the other context positions free (ContextDependency::
// GetPdfInfo); when forward and self-loop pdf-classes differ, the pairs
// are enumerated context by context as Kaldi's EnumeratePairs does.
func NewTransitionModel(ctx *decoder.ContextDependency, topo decoder.HmmTopology) (*decoder.TransitionModel, error) {
	if ctx.ToPdf == nil {
		return nil, fmt.Errorf("empty tree")
	}
	p := ctx.CentralPosition
	hmm := topo.IsHmm()
	pdfsOf := func(phone, pdfClass int32, window []int32) []int32 {
		ev := EventType{{Key: decoder.PdfClassKey, Value: pdfClass}}
		for i, ph := range window {
			if ph >= 0 {
				ev = append(ev, decoder.EventPair{Key: int32(i), Value: ph})
			}
		}
		out := multiMap(ctx.ToPdf, ev, nil)
		slices.Sort(out)
		return slices.Compact(out)
	}
	var missing error
	tm, err := decoder.NewTransitionModelMulti(topo, func(phone, state int32) ([][2]int32, error) {
		entry, _ := topo.TopologyForPhone(phone)
		fc, sc := entry[state].ForwardPdfClass, entry[state].SelfLoopPdfClass
		window := make([]int32, ctx.ContextWidth)
		for i := range window {
			window[i] = -1
		}
		window[p] = phone
		var pairs [][2]int32
		if hmm {
			for _, pdf := range pdfsOf(phone, fc, window) {
				pairs = append(pairs, [2]int32{pdf, pdf})
			}
		} else {
			set := map[[2]int32]bool{}
			enumeratePairs(ctx, topo.Phones, sc, fc, window, pdfsOf, set)
			for pr := range set {
				pairs = append(pairs, pr)
			}
		}
		if len(pairs) == 0 && missing == nil {
			missing = fmt.Errorf("the tree gives no pdf for phone %d, HMM state %d (pdf-class %d): tree and topology do not match", phone, state, fc)
		}
		return pairs, nil
	})
	if err != nil {
		return nil, err
	}
	if missing != nil {
		return nil, missing
	}
	return tm, nil
}

// enumeratePairs is ContextDependency::EnumeratePairs: the (forward,
// self-loop) pdf pairs of a phone window in which -1 marks free positions,
// filling the free position nearest the centre with each phone (and 0)
// while both pdfs are still ambiguous.
func enumeratePairs(ctx *decoder.ContextDependency, phones []int32, selfClass, fwdClass int32, window []int32, pdfsOf func(phone, pdfClass int32, window []int32) []int32, pairs map[[2]int32]bool) {
	p := int(ctx.CentralPosition)
	fwd := pdfsOf(window[p], fwdClass, window)
	self := pdfsOf(window[p], selfClass, window)
	if len(fwd) == 1 || len(self) == 1 {
		for _, f := range fwd {
			for _, s := range self {
				pairs[[2]int32{f, s}] = true
			}
		}
		return
	}
	n := int(ctx.ContextWidth)
	position, minDist := 0, n-1
	for i := 0; i < n; i++ {
		d := p - i
		if d < 0 {
			d = -d
		}
		if window[i] == -1 && d < minDist {
			position, minDist = i, d
		}
	}
	next := slices.Clone(window)
	next[position] = 0
	enumeratePairs(ctx, phones, selfClass, fwdClass, next, pdfsOf, pairs)
	for _, ph := range phones {
		next[position] = ph
		enumeratePairs(ctx, phones, selfClass, fwdClass, next, pdfsOf, pairs)
	}
}

// InitModelResult is what gmm-init-model makes: the model and, per pdf,
// the count of frames (its --write-occs).
type InitModelResult struct {
	Model    gmm.Model
	Occs     kaldiio.Vector
	Warnings []string
}

// InitModel is gmm-init-model (Kaldi's InitAmGmm): the transition model of
// the tree and topology, and per pdf one Gaussian with the mean and floored
// variance of the tree stats of its leaf (a leaf without stats gets the
// global mean and variance, with a warning, as in Kaldi). The float
// arithmetic follows Kaldi's so the model file is the same.
func InitModel(ctx *decoder.ContextDependency, topo decoder.HmmTopology, stats BuildTreeStats, varFloor float32) (*InitModelResult, error) {
	if ctx.ContextWidth < 1 {
		return nil, fmt.Errorf("tree has context width %d", ctx.ContextWidth)
	}
	for i, st := range stats {
		if st.Stats == nil {
			return nil, fmt.Errorf("tree stats entry %d (event %v) has no statistics", i, st.Event)
		}
	}
	if _, err := stats.Dim(); err != nil {
		return nil, err
	}
	tm, err := NewTransitionModel(ctx, topo)
	if err != nil {
		return nil, err
	}
	res := &InitModelResult{Model: gmm.Model{Trans: *tm}}
	split, err := splitStatsByMap(stats, ctx.ToPdf)
	if err != nil {
		return nil, fmt.Errorf("tree stats do not fit the tree: %w", err)
	}
	numPdfs := ctx.NumPdfs()
	if len(split) > numPdfs {
		return nil, fmt.Errorf("tree stats map to pdf %d of a tree with %d pdfs", len(split)-1, numPdfs)
	}
	split = append(split, make([]BuildTreeStats, numPdfs-len(split))...)
	for i, s := range split {
		if len(s) == 0 {
			res.Warnings = append(res.Warnings, fmt.Sprintf("Tree has pdf-id %d with no stats; corresponding phone list: %v", i, phonesForPdf(tm, int32(i))))
		}
	}
	summed := sumStatsVec(split)
	avg := sumClusterable(summed)
	if avg == nil {
		return nil, fmt.Errorf("no stats available in gmm-init-model")
	}
	dim := avg.Dim()
	res.Model.AM = gmm.AmDiagGmm{Dim: dim}
	res.Occs = make(kaldiio.Vector, numPdfs)
	for i, s := range summed {
		var occ float32
		for _, st := range split[i] {
			occ += st.Stats.Normalizer()
		}
		res.Occs[i] = occ
		c := s
		if c == nil {
			c = avg
		}
		count := float32(c.Count)
		if count < 100 {
			res.Warnings = append(res.Warnings, fmt.Sprintf("Very small count for state %d: %g; corresponding phone list: %v", i, count, phonesForPdf(tm, int32(i))))
		}
		// Vector<BaseFloat> copies of the double stats, Scale(1.0/count)
		// with a float factor, AddVec2(-1.0, x), ApplyFloor, InvertElements.
		scale := float32(1.0 / float64(count))
		g := gmm.DiagGmm{Dim: dim, Weights: []float32{1}, MeansInvVars: make([]float32, dim), InvVars: make([]float32, dim)}
		for d := 0; d < dim; d++ {
			x := float32(c.X[d]) * scale
			x2 := float32(c.X2[d]) * scale
			x2 += -1.0 * x * x
			if x2 < varFloor {
				x2 = varFloor
			}
			inv := 1 / x2
			if !(inv > 0) || math.IsInf(float64(inv), 0) {
				return nil, fmt.Errorf("pdf %d: variance %g of dimension %d cannot be inverted", i, x2, d)
			}
			g.InvVars[d] = inv
			g.MeansInvVars[d] = x * inv
		}
		if _, err := g.ComputeGconsts(); err != nil {
			return nil, fmt.Errorf("pdf %d: %w", i, err)
		}
		res.Model.AM.Pdfs = append(res.Model.AM.Pdfs, g)
	}
	return res, nil
}

// phonesForPdf lists the phones whose transition-states use pdf (Kaldi's
// GetPhonesForPdfs, for warnings).
func phonesForPdf(tm *decoder.TransitionModel, pdf int32) []int32 {
	var out []int32
	for _, t := range tm.Tuples {
		if t.ForwardPdf == pdf || t.SelfLoopPdf == pdf {
			out = append(out, t.Phone)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// convertStats narrows the events of stats from a window (oldN, oldP) to
// (newN, newP), dropping the positions outside (Kaldi's ConvertStats); the
// result shares the statistics.
func convertStats(stats BuildTreeStats, oldN, oldP, newN, newP int32) (BuildTreeStats, error) {
	if newN > oldN {
		return nil, fmt.Errorf("cannot convert stats to larger context: %d > %d", newN, oldN)
	}
	shift := newP - oldP
	out := make(BuildTreeStats, len(stats))
	for i, st := range stats {
		var ev EventType
		for _, pr := range st.Event {
			if pr.Key >= 0 && pr.Key < oldN {
				if k := pr.Key + shift; k >= 0 && k < newN {
					ev = append(ev, decoder.EventPair{Key: k, Value: pr.Value})
				}
			} else {
				ev = append(ev, pr)
			}
		}
		out[i] = Stat{Event: ev, Stats: st.Stats}
	}
	return out, nil
}

// InitModelFromOld is gmm-init-model with an old tree and model (Kaldi's
// InitAmGmmFromOld): each new pdf copies the old model's Gaussians of the
// old pdf that shares most frames of tree statistics with it (the lowest
// such old pdf on ties). The old tree must need no wider context.
func InitModelFromOld(ctx *decoder.ContextDependency, topo decoder.HmmTopology, stats BuildTreeStats, oldCtx *decoder.ContextDependency, oldAM *gmm.AmDiagGmm) (*InitModelResult, error) {
	tm, err := NewTransitionModel(ctx, topo)
	if err != nil {
		return nil, err
	}
	split, err := splitStatsByMap(stats, ctx.ToPdf)
	if err != nil {
		return nil, fmt.Errorf("tree stats do not fit the tree: %w", err)
	}
	if len(split) != ctx.NumPdfs() {
		return nil, fmt.Errorf("tree may have final leaf with no stats: modify your roots file as necessary to fix this")
	}
	res := &InitModelResult{Model: gmm.Model{Trans: *tm, AM: gmm.AmDiagGmm{Dim: oldAM.Dim}}}
	res.Occs = make(kaldiio.Vector, len(split))
	for pdf, s := range split {
		if len(s) == 0 {
			return nil, fmt.Errorf("tree has leaves with no stats (pdf %d): modify your roots file as necessary to fix this", pdf)
		}
		conv, err := convertStats(s, ctx.ContextWidth, ctx.CentralPosition, oldCtx.ContextWidth, oldCtx.CentralPosition)
		if err != nil {
			return nil, fmt.Errorf("old system has wider context so cannot convert stats: %w", err)
		}
		counts := map[int32]float32{}
		for _, st := range conv {
			if st.Stats == nil {
				return nil, fmt.Errorf("tree stats entry with event %v has no statistics", st.Event)
			}
			a, ok := oldCtx.ToPdf.Map(st.Event)
			if !ok {
				return nil, fmt.Errorf("could not map context %v using old tree", st.Event)
			}
			counts[a] += st.Stats.Normalizer()
			res.Occs[pdf] += st.Stats.Normalizer()
		}
		keys := make([]int32, 0, len(counts))
		for k := range counts {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		best, bestCount := int32(-1), float32(0)
		for _, k := range keys {
			if counts[k] > bestCount {
				best, bestCount = k, counts[k]
			}
		}
		if best < 0 || int(best) >= oldAM.NumPdfs() {
			return nil, fmt.Errorf("new pdf %d: no old pdf with frames in common (old model has %d pdfs)", pdf, oldAM.NumPdfs())
		}
		old := oldAM.Pdfs[best]
		res.Model.AM.Pdfs = append(res.Model.AM.Pdfs, gmm.DiagGmm{Dim: old.Dim, Gconsts: slices.Clone(old.Gconsts), Weights: slices.Clone(old.Weights),
			MeansInvVars: slices.Clone(old.MeansInvVars), InvVars: slices.Clone(old.InvVars)})
	}
	return res, nil
}
