package align

import (
	"flag"
	"fmt"
	"slices"

	"github.com/strode-asr/strode/decoder/fst"
	"github.com/strode-asr/strode/decoder/fstalg"
	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/decoder/tree"
)

// TrainingGraphOptions are compile-train-graphs' options (Kaldi's
// TrainingGraphCompilerOptions with that binary's defaults: the scales are
// 0 because align-compiled-mapped adds transition probabilities itself).
type TrainingGraphOptions struct {
	TransitionScale float64 // --transition-scale (0.0)
	SelfLoopScale   float64 // --self-loop-scale (0.0)
	Reorder         bool    // --reorder (true): self-loop after the forward transition
}

// DefaultTrainingGraphOptions are compile-train-graphs' defaults.
func DefaultTrainingGraphOptions() TrainingGraphOptions {
	return TrainingGraphOptions{TransitionScale: 0, SelfLoopScale: 0, Reorder: true}
}

// Register adds the options under Kaldi's names.
func (o *TrainingGraphOptions) Register(fs *flag.FlagSet) {
	fs.Float64Var(&o.TransitionScale, "transition-scale", o.TransitionScale, "Scale of transition probabilities (excluding self-loops)")
	fs.Float64Var(&o.SelfLoopScale, "self-loop-scale", o.SelfLoopScale, "Scale of self-loop vs. non-self-loop probability mass")
	fs.BoolVar(&o.Reorder, "reorder", o.Reorder, "Reorder transition ids for greater decoding efficiency.")
}

// TrainingGraphCompiler makes per-utterance training graphs from a
// lexicon FST, as Kaldi's TrainingGraphCompiler:
// H ∘ C ∘ L ∘ (linear word acceptor), determinized in the log semiring,
// minimised on encoded labels (weights quantized to 1/1024), self-loops
// added. The result is Kaldi's graph up to the numbering of its states:
// the same states with the same arcs in the same order, which is what
// align-equal-compiled's random walk depends on.
type TrainingGraphCompiler struct {
	tm       *hmm.TransitionModel
	tree     *tree.ContextDependency
	lex      *fst.VectorFst
	disambig []int32 // sorted
	opt      TrainingGraphOptions
	hmms     map[string]*hmmFsa
}

// hmmFsa is the HMM of one phone window without self-loops: arcs of each
// emitting HMM state (destination HMM state, transition-id, weight).
type hmmFsa struct {
	arcs          [][]hmmArc // by HMM state; the last state is final
	state0Entered bool       // some transition enters HMM state 0
}

type hmmArc struct {
	dest   int32
	tid    int32
	weight float32
}

// NewTrainingGraphCompiler prepares a compiler. lex is L.fst (it is
// copied and olabel-sorted); disambig lists the disambiguation symbols on
// its input side (--read-disambig-syms), which become epsilons.
func NewTrainingGraphCompiler(tm *hmm.TransitionModel, tree *tree.ContextDependency, lex *fst.VectorFst, disambig []int32, opt TrainingGraphOptions) (*TrainingGraphCompiler, error) {
	if tree.ContextWidth < 1 || tree.ContextWidth > maxContextWidth || tree.CentralPosition < 0 || tree.CentralPosition >= tree.ContextWidth {
		return nil, fmt.Errorf("%w: tree with context width %d, central position %d", fst.ErrUnsupported, tree.ContextWidth, tree.CentralPosition)
	}
	d := slices.Clone(disambig)
	slices.Sort(d)
	d = slices.Compact(d)
	for _, s := range d {
		if _, isPhone := slices.BinarySearch(tm.Phones(), s); isPhone {
			return nil, fmt.Errorf("%w: disambiguation symbol %d is also a phone", hmm.ErrModel, s)
		}
	}
	l := lex.Copy()
	fst.ArcSortOutput(l)
	return &TrainingGraphCompiler{tm: tm, tree: tree, lex: l, disambig: d, opt: opt, hmms: map[string]*hmmFsa{}}, nil
}

// hmmFor returns the HMM of a phone window (Kaldi's GetHmmAsFsa without
// self-loops; weights are transition-scale × -log P(tid | not self-loop)).
func (c *TrainingGraphCompiler) hmmFor(window []int32) (*hmmFsa, error) {
	key := fmt.Sprint(window)
	if h, ok := c.hmms[key]; ok {
		return h, nil
	}
	phone := window[c.tree.CentralPosition]
	entry, err := c.tm.Topo.TopologyForPhone(phone)
	if err != nil {
		return nil, err
	}
	h := &hmmFsa{arcs: make([][]hmmArc, len(entry))}
	for s := 0; s+1 < len(entry); s++ {
		st := entry[s]
		if st.ForwardPdfClass == hmm.NoPdf {
			return nil, fmt.Errorf("%w: phone %d: non-emitting HMM state %d inside the topology is not supported", fst.ErrUnsupported, phone, s)
		}
		fwd, err := c.tree.Compute(window, st.ForwardPdfClass)
		if err != nil {
			return nil, err
		}
		self, err := c.tree.Compute(window, st.SelfLoopPdfClass)
		if err != nil {
			return nil, err
		}
		ts := c.tm.TransitionStateOf(hmm.TransitionTuple{Phone: phone, HmmState: int32(s), ForwardPdf: fwd, SelfLoopPdf: self})
		if ts == 0 {
			return nil, fmt.Errorf("%w: transition model has no state for phone %d hmm-state %d pdfs %d/%d (tree and model disagree)", hmm.ErrModel, phone, s, fwd, self)
		}
		for k, tr := range st.Transitions {
			if tr.Dest == int32(s) {
				continue // self-loops are added later
			}
			tid := c.tm.PairToTransitionID(ts, int32(k))
			w := float32(0)
			if c.opt.TransitionScale != 0 {
				w = float32(-float64(c.tm.TransitionLogProbIgnoringSelfLoops(tid)) * c.opt.TransitionScale)
			}
			h.arcs[s] = append(h.arcs[s], hmmArc{tr.Dest, tid, w})
			if tr.Dest == 0 {
				h.state0Entered = true
			}
		}
	}
	c.hmms[key] = h
	return h, nil
}

// CompileText compiles the graph of one transcript (word ids).
func (c *TrainingGraphCompiler) CompileText(words []int32) (*fst.VectorFst, error) {
	for i, w := range words {
		if w <= 0 {
			return nil, fmt.Errorf("%w: transcript word %d at position %d is not a word id", fst.ErrBadFst, w, i)
		}
	}
	return c.Compile(fst.MakeLinearAcceptor(words))
}

// Compile compiles the graph of a word acceptor.
func (c *TrainingGraphCompiler) Compile(wordFst *fst.VectorFst) (*fst.VectorFst, error) {
	lw, err := fst.ComposeWithEpsFreeRight(c.lex, wordFst)
	if err != nil {
		return nil, err
	}
	if lw.Start == fst.NoState {
		return nil, fmt.Errorf("%w: lexicon composed with the transcript is empty (a word missing from the lexicon?)", fst.ErrBadFst)
	}
	wins := newPhoneWindows(int(c.tree.ContextWidth))
	clw, err := expandContext(lw, int(c.tree.ContextWidth), int(c.tree.CentralPosition), c.disambig, wins)
	if err != nil {
		return nil, err
	}
	if clw.Start == fst.NoState {
		return nil, fmt.Errorf("%w: context expansion of the transcript is empty", fst.ErrBadFst)
	}
	g, err := c.expandHmms(clw, wins)
	if err != nil {
		return nil, err
	}
	// Kaldi's TrainingGraphCompiler::CompileGraphs: determinized in the log
	// semiring (DeterminizeStarInLog), then MinimizeEncoded. The graph's
	// shape is not only cosmetic: align-equal-compiled walks it at random
	// (one draw per state, choosing among its arcs in order), so the flat
	// start's alignment, and the whole monophone training after it, are
	// Kaldi's only on Kaldi's graph.
	g, err = fstalg.DeterminizeStar(g, fstalg.DeterminizeOptions{Semiring: fstalg.Log, Delta: fst.KDelta})
	if err != nil {
		return nil, err
	}
	if g.Start == fst.NoState {
		return nil, fmt.Errorf("%w: training graph is empty", fst.ErrBadFst)
	}
	fstalg.MinimizeEncoded(g, fst.KDelta)
	sortArcsAsEncoded(g)
	if err := hmm.AddSelfLoops(c.tm, g, float32(c.opt.SelfLoopScale), c.opt.Reorder); err != nil {
		return nil, err
	}
	return g, nil
}

// expandHmms replaces every phone-window arc of clw (C ∘ L ∘ W) by the
// HMM of its central phone with the tree's pdfs for that window: H ∘ C ∘
// L ∘ W.
func (c *TrainingGraphCompiler) expandHmms(lw *fst.VectorFst, wins *phoneWindows) (*fst.VectorFst, error) {
	g := &fst.VectorFst{Start: lw.Start, States: make([]fst.State, len(lw.States))}
	for s := range lw.States {
		g.States[s].Final = lw.States[s].Final
	}
	for s := range lw.States {
		for _, a := range lw.States[s].Arcs {
			if a.ILabel == 0 {
				g.AddArc(fst.StateID(s), a)
				continue
			}
			h, err := c.hmmFor(wins.info[a.ILabel])
			if err != nil {
				return nil, err
			}
			n := len(h.arcs)
			ids := make([]fst.StateID, n)
			for k := 1; k < n-1; k++ {
				ids[k] = g.AddState()
			}
			ids[n-1] = a.NextState
			ids[0] = fst.NoState
			if h.state0Entered {
				ids[0] = g.AddState()
			}
			for k := 0; k < n-1; k++ {
				for _, ha := range h.arcs[k] {
					arc := fst.Arc{ILabel: ha.tid, Weight: ha.weight, NextState: ids[ha.dest]}
					if k == 0 {
						// Leaving the phone's first state from the lexicon
						// state carries the lexicon arc's word and weight.
						first := arc
						first.OLabel = a.OLabel
						first.Weight = a.Weight + ha.weight
						g.AddArc(fst.StateID(s), first)
						if ids[0] != fst.NoState {
							g.AddArc(ids[0], arc)
						}
						continue
					}
					g.AddArc(ids[k], arc)
				}
			}
		}
	}
	return g, nil
}

// sortArcsAsEncoded orders each state's arcs as OpenFst's encoded
// minimisation leaves them (Kaldi's MinimizeEncoded ends in
// AcceptorMinimize, whose ArcUniqueMapper sorts arcs by their encoded
// label): encoded labels are numbered in the order the determinized graph
// first shows each (ilabel, olabel, weight), state by state, and the
// determinized graph's arcs are label-sorted, which for training graphs
// (one transcript, silence or word at each step) is the order of
// (ilabel, olabel, weight).
func sortArcsAsEncoded(g *fst.VectorFst) {
	for s := range g.States {
		slices.SortStableFunc(g.States[s].Arcs, func(x, y fst.Arc) int {
			switch {
			case x.ILabel != y.ILabel:
				return int(x.ILabel) - int(y.ILabel)
			case x.OLabel != y.OLabel:
				return int(x.OLabel) - int(y.OLabel)
			case x.Weight < y.Weight:
				return -1
			case x.Weight > y.Weight:
				return 1
			}
			return int(x.NextState) - int(y.NextState)
		})
	}
}
