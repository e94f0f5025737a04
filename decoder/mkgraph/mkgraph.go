package mkgraph

import (
	"flag"
	"fmt"

	"github.com/strode-asr/strode/decoder/fst"
	"github.com/strode-asr/strode/decoder/fstalg"
	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/decoder/tree"
)

// MkGraphOptions are utils/mkgraph.sh's options, with its defaults.
type MkGraphOptions struct {
	TransitionScale float64 // --transition-scale (1.0)
	SelfLoopScale   float64 // --self-loop-scale (0.1)
	Reorder         bool    // --reorder (true): self-loops after the forward transition
	// MaxStates bounds each intermediate graph (0: none), so an input that
	// cannot be determinized fails instead of exhausting memory.
	MaxStates int
}

// DefaultMkGraphOptions are mkgraph.sh's defaults.
func DefaultMkGraphOptions() MkGraphOptions {
	return MkGraphOptions{TransitionScale: 1.0, SelfLoopScale: 0.1, Reorder: true}
}

// Register adds the options under Kaldi's names.
func (o *MkGraphOptions) Register(fs *flag.FlagSet) {
	fs.Float64Var(&o.TransitionScale, "transition-scale", o.TransitionScale, "Scale of transition probabilities (excluding self-loops) in H")
	fs.Float64Var(&o.SelfLoopScale, "self-loop-scale", o.SelfLoopScale, "Scale of self-loop vs. non-self-loop probability mass (add-self-loops)")
	fs.BoolVar(&o.Reorder, "reorder", o.Reorder, "Put self-loops after the forward transition (Kaldi's --reorder)")
	fs.IntVar(&o.MaxStates, "max-states", o.MaxStates, "Fail when an intermediate graph exceeds this many states (0: no limit)")
}

// ComposeLG makes LG as mkgraph.sh does: fsttablecompose L_disambig G |
// fstdeterminizestar --use-log=true | fstminimizeencoded |
// fstpushspecial (which only redistributes weight along paths, so that
// beam search sees the LM cost early).
func ComposeLG(lDisambig, g *fst.VectorFst, maxStates int) (*fst.VectorFst, error) {
	lg, err := fstalg.Compose(lDisambig, g, fstalg.ComposeOptions{Connect: true, MaxStates: maxStates})
	if err != nil {
		return nil, fmt.Errorf("L∘G: %w", err)
	}
	if lg.Start == fst.NoState {
		return nil, fmt.Errorf("%w: L∘G is empty (do L's words and G's words share words.txt?)", fst.ErrBadFst)
	}
	det := fstalg.DefaultDeterminizeOptions()
	det.MaxStates = maxStates
	lg, err = fstalg.DeterminizeStar(lg, det)
	if err != nil {
		return nil, fmt.Errorf("determinizing LG: %w", err)
	}
	fstalg.MinimizeEncoded(lg, fst.KDelta)
	fstalg.PushSpecial(lg, float64(fst.KDelta), 0)
	return lg, nil
}

// HCLG is a built decoding graph and the symbols it was built with.
type HCLG struct {
	Fst *fst.VectorFst
	// DisambigTids are the transition-id-space disambiguation symbols
	// that were removed (disambig_tid.int).
	DisambigTids []int32
}

// BuildHCLG runs mkgraph.sh's pipeline on L_disambig.fst (phones → words, with the phone disambiguation
// symbols phoneDisambig on its input) and G.fst:
//
//	LG    = pushspecial(minimize(determinize_log(L_disambig ∘ G)))
//	HCLGa = minimize(rmepslocal(rmsymbols(determinize_log(Ha ∘ C ∘ LG))))
//	HCLG  = add-self-loops(HCLGa)
//
// with C the context transducer of the tree (the identity for a context
// width of 1; ComposeContext otherwise).
func BuildHCLG(tm *hmm.TransitionModel, tree *tree.ContextDependency, lDisambig, g *fst.VectorFst, phoneDisambig []int32, opt MkGraphOptions) (*HCLG, error) {
	lg, err := ComposeLG(lDisambig, g, opt.MaxStates)
	if err != nil {
		return nil, err
	}
	return BuildHCLGFromLG(tm, tree, lg, phoneDisambig, opt)
}

// BuildHCLGFromLG runs the C and H part of BuildHCLG on a ready LG. For a
// tree of context width 1, C is the identity and H reads phones directly;
// otherwise CLG is ComposeContext(LG) and H is built over its window
// labels (MakeHContext).
func BuildHCLGFromLG(tm *hmm.TransitionModel, tree *tree.ContextDependency, lg *fst.VectorFst, phoneDisambig []int32, opt MkGraphOptions) (*HCLG, error) {
	var h *HTransducer
	var err error
	clg := lg
	if tree.ContextWidth == 1 && tree.CentralPosition == 0 {
		h, err = MakeH(tm, tree, phoneDisambig, opt.TransitionScale)
	} else {
		var labels *ContextLabels
		if clg, labels, err = ComposeContext(lg, int(tree.ContextWidth), int(tree.CentralPosition), phoneDisambig); err != nil {
			return nil, err
		}
		h, err = MakeHContext(tm, tree, labels, opt.TransitionScale)
	}
	if err != nil {
		return nil, err
	}
	hclg, err := fstalg.Compose(h.Fst, clg, fstalg.ComposeOptions{Connect: true, MaxStates: opt.MaxStates})
	if err != nil {
		return nil, fmt.Errorf("H∘CLG: %w", err)
	}
	if hclg.Start == fst.NoState {
		return nil, fmt.Errorf("%w: H∘LG is empty (LG uses phones the model does not have?)", fst.ErrBadFst)
	}
	det := fstalg.DefaultDeterminizeOptions()
	det.MaxStates = opt.MaxStates
	hclg, err = fstalg.DeterminizeStar(hclg, det)
	if err != nil {
		return nil, fmt.Errorf("determinizing HCLG: %w", err)
	}
	fstalg.RemoveSymbols(hclg, h.DisambigTids)
	fstalg.RemoveEpsLocal(hclg)
	fstalg.MinimizeEncoded(hclg, fst.KDelta)
	if err := hmm.AddSelfLoops(tm, hclg, float32(opt.SelfLoopScale), opt.Reorder); err != nil {
		return nil, fmt.Errorf("adding self-loops: %w", err)
	}
	return &HCLG{Fst: hclg, DisambigTids: h.DisambigTids}, nil
}
