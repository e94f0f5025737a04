package gmm

import (
	"fmt"
	"math"
	"slices"

	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/decoder/tree"
	"github.com/strode-asr/strode/kaldiio"
)

// InitModelResult is what gmm-init-model makes: the model and, per pdf,
// the count of frames (its --write-occs).
type InitModelResult struct {
	Model    Model
	Occs     kaldiio.Vector
	Warnings []string
}

// InitModel is gmm-init-model (Kaldi's InitAmGmm): the transition model of
// the tree and topology, and per pdf one Gaussian with the mean and floored
// variance of the tree stats of its leaf (a leaf without stats gets the
// global mean and variance, with a warning, as in Kaldi). The float
// arithmetic follows Kaldi's so the model file is the same.
func InitModel(ctx *tree.ContextDependency, topo hmm.Topology, stats tree.BuildTreeStats, varFloor float32) (*InitModelResult, error) {
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
	tm, err := hmm.NewTransitionModelFromTree(ctx, topo)
	if err != nil {
		return nil, err
	}
	res := &InitModelResult{Model: Model{Trans: *tm}}
	split, err := tree.SplitStatsByMap(stats, ctx.ToPdf)
	if err != nil {
		return nil, fmt.Errorf("tree stats do not fit the tree: %w", err)
	}
	numPdfs := ctx.NumPdfs()
	if len(split) > numPdfs {
		return nil, fmt.Errorf("tree stats map to pdf %d of a tree with %d pdfs", len(split)-1, numPdfs)
	}
	split = append(split, make([]tree.BuildTreeStats, numPdfs-len(split))...)
	for i, s := range split {
		if len(s) == 0 {
			res.Warnings = append(res.Warnings, fmt.Sprintf("Tree has pdf-id %d with no stats; corresponding phone list: %v", i, phonesForPdf(tm, int32(i))))
		}
	}
	summed := make([]*tree.GaussClusterable, len(split))
	var avg *tree.GaussClusterable
	for i, s := range split {
		summed[i] = tree.SumStats(s)
		if summed[i] != nil {
			if avg == nil {
				avg = summed[i].Copy()
			} else {
				avg.Add(summed[i])
			}
		}
	}
	if avg == nil {
		return nil, fmt.Errorf("no stats available in gmm-init-model")
	}
	dim := avg.Dim()
	res.Model.AM = AmDiagGmm{Dim: dim}
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
		g := DiagGmm{Dim: dim, Weights: []float32{1}, MeansInvVars: make([]float32, dim), InvVars: make([]float32, dim)}
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
func phonesForPdf(tm *hmm.TransitionModel, pdf int32) []int32 {
	var out []int32
	for _, t := range tm.Tuples {
		if t.ForwardPdf == pdf || t.SelfLoopPdf == pdf {
			out = append(out, t.Phone)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// InitModelFromOld is gmm-init-model with an old tree and model (Kaldi's
// InitAmGmmFromOld): each new pdf copies the old model's Gaussians of the
// old pdf that shares most frames of tree statistics with it (the lowest
// such old pdf on ties). The old tree must need no wider context.
func InitModelFromOld(ctx *tree.ContextDependency, topo hmm.Topology, stats tree.BuildTreeStats, oldCtx *tree.ContextDependency, oldAM *AmDiagGmm) (*InitModelResult, error) {
	tm, err := hmm.NewTransitionModelFromTree(ctx, topo)
	if err != nil {
		return nil, err
	}
	split, err := tree.SplitStatsByMap(stats, ctx.ToPdf)
	if err != nil {
		return nil, fmt.Errorf("tree stats do not fit the tree: %w", err)
	}
	if len(split) != ctx.NumPdfs() {
		return nil, fmt.Errorf("tree may have final leaf with no stats: modify your roots file as necessary to fix this")
	}
	res := &InitModelResult{Model: Model{Trans: *tm, AM: AmDiagGmm{Dim: oldAM.Dim}}}
	res.Occs = make(kaldiio.Vector, len(split))
	for pdf, s := range split {
		if len(s) == 0 {
			return nil, fmt.Errorf("tree has leaves with no stats (pdf %d): modify your roots file as necessary to fix this", pdf)
		}
		conv, err := tree.ConvertStats(s, ctx.ContextWidth, ctx.CentralPosition, oldCtx.ContextWidth, oldCtx.CentralPosition)
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
		res.Model.AM.Pdfs = append(res.Model.AM.Pdfs, DiagGmm{Dim: old.Dim, Gconsts: slices.Clone(old.Gconsts), Weights: slices.Clone(old.Weights),
			MeansInvVars: slices.Clone(old.MeansInvVars), InvVars: slices.Clone(old.InvVars)})
	}
	return res, nil
}
