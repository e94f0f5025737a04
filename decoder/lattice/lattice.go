package lattice

// NoState marks the absence of a start state (an empty lattice).
const NoState = -1

// Arc is an arc of a Lattice: ILabel is a transition-id (0 for none), OLabel
// a word-id (0 for none).
type Arc struct {
	ILabel, OLabel int32
	W              Weight
	Next           int32
}

// State is a Lattice state: its final weight (Zero when not final) and arcs.
type State struct {
	Final Weight
	Arcs  []Arc
}

// Lattice is Kaldi's Lattice (fst::VectorFst<LatticeArc>).
type Lattice struct {
	Start  int32
	States []State
}

// AddState appends a non-final state and returns its id.
func (l *Lattice) AddState() int32 {
	l.States = append(l.States, State{Final: Zero})
	return int32(len(l.States) - 1)
}

// CompactArc is an arc of a CompactLattice: Label is the word (0 for none; the
// lattice is an acceptor, input label = output label).
type CompactArc struct {
	Label int32
	W     CompactWeight
	Next  int32
}

// CompactState is a CompactLattice state.
type CompactState struct {
	Final CompactWeight
	Arcs  []CompactArc
}

// CompactLattice is Kaldi's CompactLattice
// (fst::VectorFst<CompactLatticeArc>), what latgen-faster writes by default.
type CompactLattice struct {
	Start  int32
	States []CompactState
}

// AddState appends a non-final state and returns its id.
func (l *CompactLattice) AddState() int32 {
	l.States = append(l.States, CompactState{Final: CompactZero})
	return int32(len(l.States) - 1)
}

// ToLattice expands a CompactLattice into a Lattice as Kaldi's
// ConvertLattice(clat, &lat) does (invert = true): state ids are kept; an arc
// whose string has n > 1 transition-ids becomes a chain of n arcs through new
// states, the first carrying the word and the weight, the others (0 word,
// One); an empty string gives one arc with input label 0; a final weight with
// a string becomes a chain of input-only arcs to a new final state.
func (c *CompactLattice) ToLattice() *Lattice {
	l := &Lattice{Start: c.Start, States: make([]State, len(c.States))}
	for s := range l.States {
		l.States[s].Final = Zero
	}
	for s := range c.States {
		cs := &c.States[s]
		if f := cs.Final; !f.W.IsZero() {
			cur := int32(s)
			for n, tid := range f.Tids {
				next := l.AddState()
				w := One
				if n == 0 {
					w = f.W
				}
				l.States[cur].Arcs = append(l.States[cur].Arcs, Arc{ILabel: tid, W: w, Next: next})
				cur = next
			}
			if len(f.Tids) > 0 {
				l.States[cur].Final = One
			} else {
				l.States[cur].Final = f.W
			}
		}
		for _, a := range cs.Arcs {
			n := len(a.W.Tids)
			cur := int32(s)
			for i := 0; i+1 < n; i++ {
				next := l.AddState()
				arc := Arc{ILabel: a.W.Tids[i], W: One, Next: next}
				if i == 0 {
					arc.OLabel, arc.W = a.Label, a.W.W
				}
				l.States[cur].Arcs = append(l.States[cur].Arcs, arc)
				cur = next
			}
			arc := Arc{Next: a.Next, W: One}
			if n <= 1 {
				arc.OLabel, arc.W = a.Label, a.W.W
			}
			if n > 0 {
				arc.ILabel = a.W.Tids[n-1]
			}
			l.States[cur].Arcs = append(l.States[cur].Arcs, arc)
		}
	}
	return l
}

// Scale applies Kaldi's ScaleLattice matrix to every arc and final weight.
func (c *CompactLattice) Scale(s [2][2]float64) {
	if s == [2][2]float64{{1, 0}, {0, 1}} {
		return
	}
	for i := range c.States {
		st := &c.States[i]
		st.Final.W = st.Final.W.Scale(s)
		for j := range st.Arcs {
			st.Arcs[j].W.W = st.Arcs[j].W.W.Scale(s)
		}
	}
}

// Scale applies Kaldi's ScaleLattice matrix to every arc and final weight.
func (l *Lattice) Scale(s [2][2]float64) {
	if s == [2][2]float64{{1, 0}, {0, 1}} {
		return
	}
	for i := range l.States {
		st := &l.States[i]
		st.Final = st.Final.Scale(s)
		for j := range st.Arcs {
			st.Arcs[j].W = st.Arcs[j].W.Scale(s)
		}
	}
}

// LatticeScale is Kaldi's fst::LatticeScale(lmwt, acwt): graph costs times
// lmScale, acoustic costs times acousticScale. The scales are float32 because
// Kaldi's options are BaseFloat: 0.1 is 0.100000001490116 when it multiplies
// the costs in double precision, which decides the last printed digit.
func LatticeScale(lmScale, acousticScale float32) [2][2]float64 {
	return [2][2]float64{{float64(lmScale), 0}, {0, float64(acousticScale)}}
}

// AddWordInsPenalty adds penalty to the graph cost of every arc that carries a
// word (label ≠ 0), as Kaldi's AddWordInsPenToCompactLattice.
func (c *CompactLattice) AddWordInsPenalty(penalty float32) {
	for i := range c.States {
		for j := range c.States[i].Arcs {
			a := &c.States[i].Arcs[j]
			if a.Label != 0 {
				a.W.W.Graph += penalty
			}
		}
	}
}

// ToCompact converts a state-level Lattice into a CompactLattice with the
// same paths: every arc becomes a compact arc labelled with its word (0 for
// none) whose string is its transition-id (empty for 0), and final weights
// carry empty strings. Kaldi's ConvertLattice additionally merges chains of
// word-less arcs into one arc; the paths, their word sequences, alignments
// and weights are the same, so best paths and scoring agree.
func (l *Lattice) ToCompact() *CompactLattice {
	c := &CompactLattice{Start: l.Start, States: make([]CompactState, len(l.States))}
	for s, st := range l.States {
		cs := &c.States[s]
		cs.Final = CompactWeight{W: st.Final}
		cs.Arcs = make([]CompactArc, len(st.Arcs))
		for i, a := range st.Arcs {
			w := CompactWeight{W: a.W}
			if a.ILabel != 0 {
				w.Tids = []int32{a.ILabel}
			}
			cs.Arcs[i] = CompactArc{Label: a.OLabel, W: w, Next: a.Next}
		}
	}
	return c
}
