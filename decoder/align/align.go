package align

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"slices"

	"github.com/strode-asr/strode/decoder/fst"
	"github.com/strode-asr/strode/decoder/hmm"
)

// Errors of forced alignment, wrapped with the details.
var (
	ErrAlignFailed = errors.New("alignment did not reach a final state")
	ErrEmptyGraph  = errors.New("empty decoding graph")
	ErrZeroLength  = errors.New("zero-length utterance")
	ErrDimMismatch = hmm.ErrDimMismatch // one sentinel with the model's
)

// Options are the options of Kaldi's align-compiled-mapped and
// align-mapped, with their defaults: --beam 200, --retry-beam 0,
// --acoustic-scale 1, --transition-scale 1, --self-loop-scale 1. (Kaldi's
// align scripts pass --beam 10 --retry-beam 40 --acoustic-scale 0.1
// --self-loop-scale 0.1, as our recipes do.)
type Options struct {
	Beam            float64
	RetryBeam       float64
	AcousticScale   float64
	TransitionScale float64
	SelfLoopScale   float64
	// Careful is align-mapped's --careful (Kaldi's AlignConfig): the graph
	// gets a blind alley after its final states (see
	// ModifyGraphForCarefulAlignment), which detects alignment failures
	// better.
	Careful bool
}

// DefaultOptions are align-compiled-mapped's defaults.
func DefaultOptions() Options {
	return Options{Beam: 200, RetryBeam: 0, AcousticScale: 1, TransitionScale: 1, SelfLoopScale: 1}
}

// Register adds the options under Kaldi's names.
func (o *Options) Register(fs *flag.FlagSet) {
	fs.Float64Var(&o.Beam, "beam", o.Beam, "Decoding beam")
	fs.Float64Var(&o.RetryBeam, "retry-beam", o.RetryBeam, "Decoding beam for second try at alignment")
	fs.Float64Var(&o.TransitionScale, "transition-scale", o.TransitionScale, "Transition-probability scale [relative to acoustics]")
	fs.Float64Var(&o.AcousticScale, "acoustic-scale", o.AcousticScale, "Scaling factor for acoustic likelihoods")
	fs.Float64Var(&o.SelfLoopScale, "self-loop-scale", o.SelfLoopScale, "Scale of self-loop versus non-self-loop log probs [relative to acoustics]")
}

// Alignment is the result of aligning one utterance.
type Alignment struct {
	TransitionIDs []int32 // one per frame
	Words         []int32 // output labels on the best path
	// GraphCost and AcousticCost are the best path's costs (negated log
	// probabilities; the acoustic one scaled by the acoustic scale).
	GraphCost, AcousticCost float64
	Retried                 bool // the first beam failed and the retry beam succeeded
}

// LogLike is the path's log-likelihood as align-compiled-mapped reports it:
// -(graph + acoustic cost) / acoustic scale.
func (a *Alignment) LogLike(acousticScale float64) float64 {
	return -(a.GraphCost + a.AcousticCost) / acousticScale
}

// Aligner is Kaldi's forced aligner: FasterDecoder (Viterbi beam search
// with min-active 20 and no max-active) over a training graph to which the
// transition model's scaled log-probabilities are added, scoring frames
// with a log-likelihood matrix mapped through the transition-ids' pdf-ids.
// An Aligner reuses its buffers; it is not safe for concurrent use.
type Aligner struct {
	tm      *hmm.TransitionModel
	opt     Options
	tidCost []float32 // cost added to every arc with this input label
	id2pdf  []int32

	toks    []token
	cur     []int32 // state -> token index in the current frame, -1
	active  []fst.StateID
	prevAct []fst.StateID
	prevTok []int32
	queue   []fst.StateID
	costs   []float64
}

type token struct {
	cost      float64
	prev      int32
	ilabel    int32
	olabel    int32
	graphCost float32
	state     fst.StateID
}

// Kaldi's FasterDecoderOptions defaults (align-compiled-mapped sets only beam).
const (
	fasterMinActive = 20
	fasterBeamDelta = 0.5
)

// NewAligner prepares an aligner for a transition model.
func NewAligner(tm *hmm.TransitionModel, opt Options) (*Aligner, error) {
	if opt.Beam <= 0 {
		return nil, fmt.Errorf("beam %g must be positive", opt.Beam)
	}
	a := &Aligner{tm: tm, opt: opt, id2pdf: tm.TransitionIDToPdfArray()}
	a.tidCost = make([]float32, tm.NumTransitionIDs()+1)
	ts, ss := float32(opt.TransitionScale), float32(opt.SelfLoopScale)
	for tid := int32(1); int(tid) <= tm.NumTransitionIDs(); tid++ {
		// Kaldi's GetScaledTransitionLogProb, in float as there.
		var lp float32
		switch {
		case ts == ss:
			lp = tm.TransitionLogProb(tid) * ts
		case tm.IsSelfLoop(tid):
			lp = ss * tm.TransitionLogProb(tid)
		default:
			lp = ss*tm.NonSelfLoopLogProb(tm.TransitionIDToTransitionState(tid)) + ts*tm.TransitionLogProbIgnoringSelfLoops(tid)
		}
		a.tidCost[tid] = -lp
	}
	return a, nil
}

// CheckGraph returns an error if an input label of g is neither epsilon nor
// a transition-id of the model.
func (a *Aligner) CheckGraph(g *fst.VectorFst) error {
	n := int32(a.tm.NumTransitionIDs())
	for s := range g.States {
		for _, arc := range g.States[s].Arcs {
			if arc.ILabel < 0 || arc.ILabel > n {
				return fmt.Errorf("%w: graph state %d has input label %d, beyond the model's %d transition-ids", hmm.ErrModel, s, arc.ILabel, n)
			}
		}
	}
	return nil
}

// Align aligns one utterance: loglikes is a rows × cols row-major matrix of
// log-likelihoods, cols the model's number of pdfs.
func (a *Aligner) Align(g *fst.VectorFst, loglikes []float32, rows, cols int) (*Alignment, error) {
	if cols != a.tm.NumPdfs() {
		return nil, fmt.Errorf("%w: log-likelihoods have %d columns but the transition model has %d pdfs", ErrDimMismatch, cols, a.tm.NumPdfs())
	}
	if len(loglikes) != rows*cols {
		return nil, fmt.Errorf("%w: %d values for a %d×%d matrix", ErrDimMismatch, len(loglikes), rows, cols)
	}
	if rows == 0 {
		return nil, ErrZeroLength
	}
	if g.Start == fst.NoState {
		return nil, ErrEmptyGraph
	}
	if err := a.CheckGraph(g); err != nil {
		return nil, err
	}
	if a.opt.Careful {
		g = ModifyGraphForCarefulAlignment(g)
	}
	best := a.decode(g, loglikes, rows, cols, a.opt.Beam)
	retried := false
	if best < 0 && a.opt.RetryBeam != 0 {
		retried = true
		best = a.decode(g, loglikes, rows, cols, a.opt.RetryBeam)
	}
	if best < 0 {
		return nil, fmt.Errorf("%w (beam %g, retry-beam %g, %d frames)", ErrAlignFailed, a.opt.Beam, a.opt.RetryBeam, rows)
	}
	ali := &Alignment{Retried: retried, TransitionIDs: make([]int32, 0, rows)}
	ali.GraphCost = float64(g.States[a.toks[best].state].Final)
	for t := best; t >= 0; t = a.toks[t].prev {
		tk := &a.toks[t]
		if tk.prev < 0 {
			break // the start token carries no arc
		}
		if tk.ilabel != 0 {
			ali.TransitionIDs = append(ali.TransitionIDs, tk.ilabel)
		}
		if tk.olabel != 0 {
			ali.Words = append(ali.Words, tk.olabel)
		}
		ali.GraphCost += float64(tk.graphCost)
	}
	slices.Reverse(ali.TransitionIDs)
	slices.Reverse(ali.Words)
	ali.AcousticCost = a.toks[best].cost + float64(g.States[a.toks[best].state].Final) - ali.GraphCost
	return ali, nil
}

// decode runs the beam search and returns the index of the best token in a
// final state after the last frame, or -1.
func (a *Aligner) decode(g *fst.VectorFst, loglikes []float32, rows, cols int, beam float64) int32 {
	n := len(g.States)
	a.toks = a.toks[:0]
	if cap(a.cur) < n {
		a.cur = make([]int32, n)
	}
	a.cur = a.cur[:n]
	for i := range a.cur {
		a.cur[i] = -1
	}
	a.active = a.active[:0]
	a.toks = append(a.toks, token{prev: -1, state: g.Start})
	a.cur[g.Start] = 0
	a.active = append(a.active, g.Start)
	a.processNonemitting(g, math.MaxFloat32)
	scale := float32(a.opt.AcousticScale)
	for frame := 0; frame < rows; frame++ {
		row := loglikes[frame*cols : (frame+1)*cols]
		cutoff := a.processEmitting(g, row, scale, beam)
		a.processNonemitting(g, cutoff)
	}
	best, bestCost := int32(-1), math.Inf(1)
	for _, s := range a.active {
		fw := g.States[s].Final
		if fw == fst.WeightZero {
			continue
		}
		t := a.cur[s]
		if c := a.toks[t].cost + float64(fw); c < bestCost {
			best, bestCost = t, c
		}
	}
	return best
}

// getCutoff is FasterDecoder::GetCutoff with max-active unlimited.
func (a *Aligner) getCutoff(beam float64) (cutoff, adaptiveBeam float64, best fst.StateID) {
	bestCost := math.Inf(1)
	best = fst.NoState
	a.costs = a.costs[:0]
	for _, s := range a.prevAct {
		c := a.toks[a.prevTok[s]].cost
		a.costs = append(a.costs, c)
		if c < bestCost {
			bestCost, best = c, s
		}
	}
	beamCutoff := bestCost + beam
	minActiveCutoff := math.Inf(1)
	if len(a.costs) > fasterMinActive {
		minActiveCutoff = nthSmallest(a.costs, fasterMinActive)
	}
	if minActiveCutoff > beamCutoff {
		return minActiveCutoff, minActiveCutoff - bestCost + fasterBeamDelta, best
	}
	return beamCutoff, beam, best
}

func (a *Aligner) processEmitting(g *fst.VectorFst, row []float32, scale float32, beam float64) float64 {
	// Move the current frame's tokens to "previous".
	a.prevAct = append(a.prevAct[:0], a.active...)
	if cap(a.prevTok) < len(a.cur) {
		a.prevTok = make([]int32, len(a.cur))
	}
	a.prevTok = a.prevTok[:len(a.cur)]
	for _, s := range a.prevAct {
		a.prevTok[s] = a.cur[s]
		a.cur[s] = -1
	}
	a.active = a.active[:0]
	cutoff, adaptiveBeam, bestState := a.getCutoff(beam)
	next := math.Inf(1)
	if bestState != fst.NoState {
		tc := a.toks[a.prevTok[bestState]].cost
		for _, arc := range g.States[bestState].Arcs {
			if arc.ILabel == 0 {
				continue
			}
			ac := -(scale * row[a.id2pdf[arc.ILabel]])
			w := float64(arc.Weight+a.tidCost[arc.ILabel]) + tc + float64(ac)
			if w+adaptiveBeam < next {
				next = w + adaptiveBeam
			}
		}
	}
	for _, s := range a.prevAct {
		ti := a.prevTok[s]
		tc := a.toks[ti].cost
		if !(tc < cutoff) {
			continue
		}
		for _, arc := range g.States[s].Arcs {
			if arc.ILabel == 0 {
				continue
			}
			gw := arc.Weight + a.tidCost[arc.ILabel]
			ac := -(scale * row[a.id2pdf[arc.ILabel]])
			w := float64(gw) + tc + float64(ac)
			if !(w < next) {
				continue
			}
			if w+adaptiveBeam < next {
				next = w + adaptiveBeam
			}
			if old := a.cur[arc.NextState]; old >= 0 {
				if !(a.toks[old].cost > w) {
					continue
				}
				a.toks[old] = token{cost: w, prev: ti, ilabel: arc.ILabel, olabel: arc.OLabel, graphCost: gw, state: arc.NextState}
				continue
			}
			a.cur[arc.NextState] = int32(len(a.toks))
			a.toks = append(a.toks, token{cost: w, prev: ti, ilabel: arc.ILabel, olabel: arc.OLabel, graphCost: gw, state: arc.NextState})
			a.active = append(a.active, arc.NextState)
		}
	}
	return next
}

func (a *Aligner) processNonemitting(g *fst.VectorFst, cutoff float64) {
	a.queue = append(a.queue[:0], a.active...)
	for len(a.queue) > 0 {
		s := a.queue[len(a.queue)-1]
		a.queue = a.queue[:len(a.queue)-1]
		ti := a.cur[s]
		tc := a.toks[ti].cost
		if tc > cutoff {
			continue
		}
		for _, arc := range g.States[s].Arcs {
			if arc.ILabel != 0 {
				continue
			}
			w := tc + float64(arc.Weight)
			if w > cutoff {
				continue
			}
			nt := token{cost: w, prev: ti, olabel: arc.OLabel, graphCost: arc.Weight, state: arc.NextState}
			if old := a.cur[arc.NextState]; old >= 0 {
				if !(a.toks[old].cost > w) {
					continue
				}
				// A fresh token, so tokens already pointing at the old one
				// keep their history.
				a.cur[arc.NextState] = int32(len(a.toks))
				a.toks = append(a.toks, nt)
			} else {
				a.cur[arc.NextState] = int32(len(a.toks))
				a.toks = append(a.toks, nt)
				a.active = append(a.active, arc.NextState)
			}
			a.queue = append(a.queue, arc.NextState)
		}
	}
}

// nthSmallest returns the k-th smallest (0-based) of xs, reordering xs
// (std::nth_element: quickselect, expected linear time).
func nthSmallest(xs []float64, k int) float64 {
	lo, hi := 0, len(xs)-1
	for lo < hi {
		// Median-of-three pivot, Hoare partition.
		mid := lo + (hi-lo)/2
		if xs[mid] < xs[lo] {
			xs[mid], xs[lo] = xs[lo], xs[mid]
		}
		if xs[hi] < xs[lo] {
			xs[hi], xs[lo] = xs[lo], xs[hi]
		}
		if xs[hi] < xs[mid] {
			xs[hi], xs[mid] = xs[mid], xs[hi]
		}
		p := xs[mid]
		i, j := lo, hi
		for i <= j {
			for xs[i] < p {
				i++
			}
			for xs[j] > p {
				j--
			}
			if i <= j {
				xs[i], xs[j] = xs[j], xs[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return xs[k]
		}
	}
	return xs[k]
}
