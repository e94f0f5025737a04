package lattice

import (
	"cmp"
	"math"
	"slices"

	"github.com/strode-asr/strode/decoder/fst"
)

// FromFst returns g read in the lattice semiring, each cost becoming a
// graph cost with no acoustic part (Kaldi's StdToLatticeMapper), so that an
// LM FST can be composed with lattices.
func FromFst(g *fst.VectorFst) *Lattice {
	l := &Lattice{Start: g.Start, States: make([]State, len(g.States))}
	w := func(c float32) Weight {
		if math.IsInf(float64(c), 1) {
			return Zero
		}
		return Weight{Graph: c}
	}
	for s := range g.States {
		st := &l.States[s]
		st.Final = w(g.States[s].Final)
		st.Arcs = make([]Arc, len(g.States[s].Arcs))
		for i, a := range g.States[s].Arcs {
			st.Arcs[i] = Arc{ILabel: a.ILabel, OLabel: a.OLabel, W: w(a.Weight), Next: a.NextState}
		}
	}
	return l
}

// Composer is the right-hand side of compositions l ∘ b (an LM read with
// FromFst, or a word lattice), indexed once for matching on its input
// labels so that it can serve many lattices, as Kaldi's
// TableComposeCache does for lattice-lmrescore.
type Composer struct {
	b        *Lattice
	labelled [][]Arc // per state, arcs with an input label, sorted by it
	eps      [][]Arc // per state, arcs with input epsilon
}

// NewComposer indexes b.
func NewComposer(b *Lattice) *Composer {
	c := &Composer{b: b, labelled: make([][]Arc, len(b.States)), eps: make([][]Arc, len(b.States))}
	for s := range b.States {
		for _, a := range b.States[s].Arcs {
			if a.ILabel == 0 {
				c.eps[s] = append(c.eps[s], a)
			} else {
				c.labelled[s] = append(c.labelled[s], a)
			}
		}
		slices.SortStableFunc(c.labelled[s], func(x, y Arc) int { return cmp.Compare(x.ILabel, y.ILabel) })
	}
	return c
}

// Compose returns a ∘ b, a's output labels (words) matched against b's
// input labels, trimmed to the states on successful paths (OpenFst's
// Compose with connect). Epsilons follow OpenFst's sequence filter, as
// Kaldi's TableCompose uses: on an output epsilon of a, a moves alone, only
// while b has not moved alone since the last match; on an input epsilon of
// b (an LM's back-off arc once fstproject has put epsilon there), b moves
// alone unless a can only move on epsilons; a matched epsilon pair is never
// taken. Each pair of paths is then built once.
func (c *Composer) Compose(a *Lattice) *Lattice {
	out := &Lattice{Start: NoState}
	b := c.b
	if a.Start < 0 || b.Start < 0 || int(a.Start) >= len(a.States) || int(b.Start) >= len(b.States) {
		return out
	}
	type triple struct {
		s1, s2 int32
		fs     int8
	}
	ids := map[triple]int32{}
	var queue []triple
	get := func(t triple) int32 {
		if id, ok := ids[t]; ok {
			return id
		}
		id := out.AddState()
		ids[t] = id
		queue = append(queue, t)
		return id
	}
	out.Start = get(triple{a.Start, b.Start, 0})
	for head := 0; head < len(queue); head++ {
		t := queue[head]
		src := ids[t]
		sa, sb := &a.States[t.s1], &b.States[t.s2]
		if !sa.Final.IsZero() && !sb.Final.IsZero() {
			out.States[src].Final = Times(sa.Final, sb.Final)
		}
		nEps, nLab := 0, 0
		for _, x := range sa.Arcs {
			if x.OLabel == 0 {
				nEps++
			} else {
				nLab++
			}
		}
		// a moves alone on an output epsilon.
		if t.fs == 0 && nEps > 0 {
			for _, x := range sa.Arcs {
				if x.OLabel == 0 {
					out.States[src].Arcs = append(out.States[src].Arcs, Arc{ILabel: x.ILabel, W: x.W, Next: get(triple{x.Next, t.s2, 0})})
				}
			}
		}
		// b moves alone on an input epsilon.
		if len(c.eps[t.s2]) > 0 && !(nLab == 0 && sa.Final.IsZero()) {
			fs := int8(1)
			if nEps == 0 {
				fs = 0
			}
			for _, y := range c.eps[t.s2] {
				out.States[src].Arcs = append(out.States[src].Arcs, Arc{OLabel: y.OLabel, W: y.W, Next: get(triple{t.s1, y.Next, fs})})
			}
		}
		// Matching words.
		ys := c.labelled[t.s2]
		for _, x := range sa.Arcs {
			if x.OLabel == 0 {
				continue
			}
			i, _ := slices.BinarySearchFunc(ys, x.OLabel, func(y Arc, l int32) int { return cmp.Compare(y.ILabel, l) })
			for ; i < len(ys) && ys[i].ILabel == x.OLabel; i++ {
				y := ys[i]
				out.States[src].Arcs = append(out.States[src].Arcs, Arc{ILabel: x.ILabel, OLabel: y.OLabel, W: Times(x.W, y.W), Next: get(triple{x.Next, y.Next, 0})})
			}
		}
	}
	out.Connect()
	return out
}

// DeterministicFst is an on-demand FST over words with at most one arc per
// word from each state, such as an n-gram LM looked up by its history
// (Kaldi's DeterministicOnDemandFst<StdArc>; decoder/lm's ConstArpaFst).
// Costs are tropical (negated natural-log probabilities); +Inf is no final
// weight.
type DeterministicFst interface {
	Start() int32
	Final(s int32) float32
	GetArc(s, word int32) (next int32, cost float32, ok bool)
}

// ComposeDeterministic returns c ∘ f on c's words as Kaldi's
// ComposeCompactLatticeDeterministic: pairs of states are numbered in
// breadth-first order from the start; an arc with no word moves c alone, a
// word arc is kept when f has an arc for the word, its graph cost plus f's
// cost; final weights add f's final cost. The result is trimmed (Connect).
func ComposeDeterministic(c *CompactLattice, f DeterministicFst) *CompactLattice {
	out := &CompactLattice{Start: NoState}
	if c.Start < 0 || int(c.Start) >= len(c.States) {
		return out
	}
	type pair struct{ s1, s2 int32 }
	ids := map[pair]int32{}
	var queue []pair
	get := func(p pair) int32 {
		if id, ok := ids[p]; ok {
			return id
		}
		id := out.AddState()
		ids[p] = id
		queue = append(queue, p)
		return id
	}
	out.Start = get(pair{c.Start, f.Start()})
	for head := 0; head < len(queue); head++ {
		p := queue[head]
		src := ids[p]
		if fin := c.States[p.s1].Final; fin.W.Graph != inf32 {
			if ff := f.Final(p.s2); ff != inf32 {
				out.States[src].Final = CompactWeight{W: Weight{fin.W.Graph + ff, fin.W.Acoustic}, Tids: fin.Tids}
			}
		}
		for _, a := range c.States[p.s1].Arcs {
			if a.Label == 0 {
				out.States[src].Arcs = append(out.States[src].Arcs, CompactArc{Label: 0, W: a.W, Next: get(pair{a.Next, p.s2})})
				continue
			}
			next, cost, ok := f.GetArc(p.s2, a.Label)
			if !ok {
				continue
			}
			w := CompactWeight{W: Weight{a.W.W.Graph + cost, a.W.W.Acoustic}, Tids: a.W.Tids}
			out.States[src].Arcs = append(out.States[src].Arcs, CompactArc{Label: a.Label, W: w, Next: get(pair{a.Next, next})})
		}
	}
	out.Connect()
	return out
}

// RescoreOptions are the options lattice-lmrescore and
// lattice-lmrescore-const-arpa share.
type RescoreOptions struct {
	// LMScale scales the LM's costs before they are added to the graph
	// costs (--lm-scale; -1 subtracts an LM, 1 adds one).
	LMScale float32
	// Determinize (--determinize, default true) keeps one path per word
	// sequence; false keeps every path of the input, each with its word
	// sequence's LM cost.
	Determinize bool
}

// graphScale is Kaldi's GraphLatticeScale: graph costs times s.
func graphScale(s float64) [2][2]float64 { return [2][2]float64{{s, 0}, {0, 1}} }

// determinizeAll is Kaldi's DeterminizeLattice with its defaults: no beam,
// no memory bound.
func determinizeAll(l *Lattice) (*CompactLattice, error) {
	opts := DefaultDeterminizeOptions()
	opts.MaxMem = 0
	return DeterminizePruned(l, math.Inf(1), opts)
}

// RescoreFst adds opts.LMScale times the cost of the best path of the LM
// through each word sequence to the graph costs of lat, as Kaldi's
// lattice-lmrescore: the graph costs are divided by the scale (so that the
// determinization picks the LM's best path whatever the scale's sign),
// the lattice is composed with the LM (g: NewComposer(FromFst(G)), G with
// its back-off arcs on input epsilon), determinized on words and the graph
// costs multiplied back. lat is changed. The result is empty (Start
// NoState) when no path of the lattice has an LM path. opts.LMScale must
// not be 0 (the commands copy the lattice then).
func RescoreFst(lat *Lattice, g *Composer, opts RescoreOptions) (*CompactLattice, error) {
	lat.Scale(graphScale(1.0 / float64(opts.LMScale)))
	sortByOLabel(lat)
	var copyLat *Lattice
	if !opts.Determinize {
		copyLat = lat.clone()
		lat.Scale(graphScale(0))
	}
	composed := g.Compose(lat)
	det, err := determinizeAll(composed)
	if err != nil || det.Start == NoState {
		return det, err
	}
	return finishRescore(det, copyLat, opts)
}

// RescoreDeterministic is RescoreFst with an LM given as a deterministic
// on-demand FST on a CompactLattice, as Kaldi's
// lattice-lmrescore-const-arpa: the composition is
// ComposeDeterministic's. clat is changed.
func RescoreDeterministic(clat *CompactLattice, f DeterministicFst, opts RescoreOptions) (*CompactLattice, error) {
	clat.Scale(graphScale(1.0 / float64(opts.LMScale)))
	var copyLat *Lattice
	if !opts.Determinize {
		copyLat = clat.ToLattice()
		sortByOLabel(copyLat)
		clat.Scale(graphScale(0))
	}
	composed := ComposeDeterministic(clat, f).ToLattice()
	det, err := determinizeAll(composed)
	if err != nil || det.Start == NoState {
		return det, err
	}
	return finishRescore(det, copyLat, opts)
}

// finishRescore scales the graph costs back; without determinization, it
// puts the word sequences' LM costs (det's graph costs) on every path of
// the input copy instead, as Kaldi's --determinize=false: det without its
// alignments and acoustic costs, as a word acceptor, composed with the
// copy.
func finishRescore(det *CompactLattice, copyLat *Lattice, opts RescoreOptions) (*CompactLattice, error) {
	if opts.Determinize {
		det.Scale(graphScale(float64(opts.LMScale)))
		return det, nil
	}
	for s := range det.States {
		st := &det.States[s]
		st.Final.Tids = nil
		for i := range st.Arcs {
			st.Arcs[i].W.Tids = nil
		}
	}
	words := det.ToLattice()
	for s := range words.States {
		for i := range words.States[s].Arcs {
			a := &words.States[s].Arcs[i]
			a.ILabel = a.OLabel // fst::Project(PROJECT_OUTPUT)
		}
	}
	words.Scale([2][2]float64{{1, 0}, {0, 0}}) // AcousticLatticeScale(0)
	out := NewComposer(words).Compose(copyLat)
	out.Scale(graphScale(float64(opts.LMScale)))
	if out.Start == NoState {
		return &CompactLattice{Start: NoState}, nil
	}
	return out.ToCompact(), nil
}

// sortByOLabel sorts every state's arcs by output label (ArcSort with
// OLabelCompare), which only orders the composition's states.
func sortByOLabel(l *Lattice) {
	for s := range l.States {
		slices.SortStableFunc(l.States[s].Arcs, func(x, y Arc) int { return cmp.Compare(x.OLabel, y.OLabel) })
	}
}

func (l *Lattice) clone() *Lattice {
	c := &Lattice{Start: l.Start, States: make([]State, len(l.States))}
	for s, st := range l.States {
		c.States[s] = State{Final: st.Final, Arcs: slices.Clone(st.Arcs)}
	}
	return c
}
