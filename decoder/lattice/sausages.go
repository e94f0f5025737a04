package lattice

import (
	"math"
	"slices"
)

// MBR is Kaldi's MinimumBayesRisk (lat/sausages.cc): word-level minimum Bayes
// risk decoding by the edit-distance recursion of Xu, Povey, Mangu and Zhu
// (Computer Speech and Language, 2011), which also yields a confusion
// network ("sausage"): a sequence of bins, each a distribution over words
// and epsilon. A word's confidence is its posterior in its bin; its times
// are the posterior-weighted mean start and end frames of the lattice arcs
// that fall into that bin with that word.
type MBR struct {
	// OneBest is the hypothesis (no epsilons), Confidences and Times
	// (start, end frame) its words'.
	OneBest     []int32
	Confidences []float32
	Times       [][2]float32
	// BayesRisk is the expected number of word errors of OneBest.
	BayesRisk float64
	// Sausage is the bins of the last iteration, most likely word first;
	// SausageTimes their mean (start, end) frames.
	Sausage      [][]WordPost
	SausageTimes [][2]float32
}

// WordPost is a word (0: epsilon) and its posterior in a sausage bin.
type WordPost struct {
	Word int32
	Post float32
}

type mbrArc struct {
	word, start, end int32
	loglike          float32
}

type mbrState struct {
	pre   [][]int32 // arcs entering each node, 1-based nodes
	arcs  []mbrArc
	times []int32 // frame of each node, 1-based
	r     []int32 // current hypothesis with epsilons between words
	l     float64

	gamma      [][]WordPost
	beginTimes []map[int32]float64
	endTimes   []map[int32]float64
	binTimes   [][2]float32
}

// NewMBR runs MBR decoding on a lattice whose costs are already scaled
// (acoustic scale, LM weight), starting from hypothesis init, or from the
// lattice's best path when init is nil. With decode false the hypothesis is
// kept and only its confidences and times are computed (Kaldi's
// --decode-mbr=false). The times are frames of the lattice's own arcs, so
// they mean word boundaries only for a word-aligned lattice.
func NewMBR(c *CompactLattice, init []int32, decode bool) (*MBR, error) {
	m, err := prepareMBR(c)
	if err != nil {
		return nil, err
	}
	if init == nil {
		best, err := c.ShortestPath()
		if err != nil {
			return nil, err
		}
		if _, init, _, err = best.LinearSequence(); err != nil {
			return nil, err
		}
	}
	m.r = slices.Clone(init)
	out := &MBR{}
	for counter := 0; ; counter++ {
		m.r = normalizeEps(m.r)
		m.accStats()
		deltaQ := 0.0
		out.Confidences, out.Times = out.Confidences[:0], out.Times[:0]
		for q := range m.r {
			g := m.gamma[q]
			if decode {
				old, rhat := 0.0, g[0].Word
				for _, wp := range g {
					if wp.Word == m.r[q] {
						old = float64(wp.Post)
					}
				}
				deltaQ += old - float64(g[0].Post)
				m.r[q] = rhat
			}
			if w := m.r[q]; w != 0 {
				conf := float32(0)
				for _, wp := range g {
					if wp.Word == w {
						conf = wp.Post
					}
				}
				t := m.binTimes[q]
				if conf > 0 {
					t = [2]float32{float32(m.beginTimes[q][w] / float64(conf)), float32(m.endTimes[q][w] / float64(conf))}
				}
				out.Confidences = append(out.Confidences, conf)
				out.Times = append(out.Times, t)
			}
		}
		if deltaQ == 0 || counter > 100 {
			break
		}
	}
	for _, w := range m.r {
		if w != 0 {
			out.OneBest = append(out.OneBest, w)
		}
	}
	out.BayesRisk = m.l
	out.Sausage = m.gamma
	out.SausageTimes = m.binTimes
	return out, nil
}

// prepareMBR adds a super-final state, sorts the lattice topologically and
// lists the arcs into each node, 1-based as in the paper.
func prepareMBR(c *CompactLattice) (*mbrState, error) {
	if c.Start < 0 || int(c.Start) >= len(c.States) {
		return nil, ErrNoPath
	}
	sf := &CompactLattice{Start: c.Start, States: make([]CompactState, len(c.States))}
	super := int32(len(c.States))
	for s, st := range c.States {
		arcs := slices.Clone(st.Arcs)
		if !st.Final.W.IsZero() {
			arcs = append(arcs, CompactArc{Label: 0, W: st.Final, Next: super})
		}
		sf.States[s] = CompactState{Final: CompactZero, Arcs: arcs}
	}
	sf.States = append(sf.States, CompactState{Final: CompactOne})
	order, err := sf.TopSortOrder()
	if err != nil {
		return nil, err
	}
	// Start first: Kaldi's TopSort puts it first in a connected lattice.
	if order[0] != sf.Start {
		i := slices.Index(order, sf.Start)
		order = append(append([]int32{sf.Start}, order[:i]...), order[i+1:]...)
	}
	sf = sf.renumber(order)
	times, _, err := sf.StateTimes()
	if err != nil {
		return nil, err
	}
	n := len(sf.States)
	m := &mbrState{pre: make([][]int32, n+1), times: make([]int32, n+1)}
	for i, t := range times {
		m.times[i+1] = max(t, 0)
	}
	for s := range sf.States {
		for _, a := range sf.States[s].Arcs {
			arc := mbrArc{word: a.Label, start: int32(s + 1), end: a.Next + 1, loglike: -(a.W.W.Graph + a.W.W.Acoustic)}
			m.pre[arc.end] = append(m.pre[arc.end], int32(len(m.arcs)))
			m.arcs = append(m.arcs, arc)
		}
	}
	return m, nil
}

// normalizeEps puts an epsilon before, between and after the words.
func normalizeEps(v []int32) []int32 {
	out := []int32{0}
	for _, w := range v {
		if w != 0 {
			out = append(out, w, 0)
		}
	}
	return out
}

func l(a, b int32) float64 {
	if a == b {
		return 0
	}
	return 1
}

const mbrDelta = 1.0e-05

func logAdd(x, y float64) float64 {
	if x < y {
		x, y = y, x
	}
	if math.IsInf(y, -1) {
		return x
	}
	return x + math.Log1p(math.Exp(y-x))
}

// editDistance is Figure 4 of the paper: alpha (forward log-probabilities)
// and alpha' (the expected edit distance to each prefix of r).
func (m *mbrState) editDistance(alpha []float64, alphaDash [][]float64, arcDash []float64) float64 {
	N, Q := len(m.pre)-1, len(m.r)
	r := func(q int) int32 { return m.r[q-1] }
	alpha[1] = 0
	alphaDash[1][0] = 0
	for q := 1; q <= Q; q++ {
		alphaDash[1][q] = alphaDash[1][q-1] + l(0, r(q))
	}
	for n := 2; n <= N; n++ {
		an := math.Inf(-1)
		for _, ai := range m.pre[n] {
			a := &m.arcs[ai]
			an = logAdd(an, alpha[a.start]+float64(a.loglike))
		}
		alpha[n] = an
		for _, ai := range m.pre[n] {
			a := &m.arcs[ai]
			p := math.Exp(alpha[a.start] + float64(a.loglike) - alpha[n])
			if math.IsNaN(p) {
				continue // an unreachable node
			}
			for q := 0; q <= Q; q++ {
				if q == 0 {
					arcDash[q] = alphaDash[a.start][q] + l(a.word, 0) + mbrDelta
				} else {
					a1 := alphaDash[a.start][q-1] + l(a.word, r(q))
					a2 := alphaDash[a.start][q] + l(a.word, 0) + mbrDelta
					a3 := arcDash[q-1] + l(0, r(q))
					arcDash[q] = math.Min(a1, math.Min(a2, a3))
				}
				alphaDash[n][q] += p * arcDash[q]
			}
		}
	}
	return alphaDash[N][Q]
}

// accStats is Figure 5 of the paper: the posterior of each word in each
// bin (gamma) and, per word, the posterior-weighted start and end frames.
func (m *mbrState) accStats() {
	N, Q := len(m.pre)-1, len(m.r)
	r := func(q int) int32 { return m.r[q-1] }
	matrix := func() [][]float64 {
		x := make([][]float64, N+1)
		for i := range x {
			x[i] = make([]float64, Q+1)
		}
		return x
	}
	alpha := make([]float64, N+1)
	alphaDash, betaDash := matrix(), matrix()
	arcDash, betaArc := make([]float64, Q+1), make([]float64, Q+1)
	bArc := make([]int8, Q+1)
	gamma := make([]map[int32]float64, Q+1)
	tauB := make([]map[int32]float64, Q+1)
	tauE := make([]map[int32]float64, Q+1)
	for q := range gamma {
		gamma[q], tauB[q], tauE[q] = map[int32]float64{}, map[int32]float64{}, map[int32]float64{}
	}
	addGamma := func(q int, w int32, d float64) {
		if d != 0 {
			gamma[q][w] += d
		}
	}
	m.l = m.editDistance(alpha, alphaDash, arcDash)
	betaDash[N][Q] = 1
	for n := N; n >= 2; n-- {
		for _, ai := range m.pre[n] {
			a := &m.arcs[ai]
			sa, wa := a.start, a.word
			p := math.Exp(alpha[sa] + float64(a.loglike) - alpha[n])
			if math.IsNaN(p) {
				continue
			}
			arcDash[0] = alphaDash[sa][0] + l(wa, 0) + mbrDelta
			for q := 1; q <= Q; q++ {
				rq := r(q)
				a1 := alphaDash[sa][q-1] + l(wa, rq)
				a2 := alphaDash[sa][q] + l(wa, 0) + mbrDelta
				a3 := arcDash[q-1] + l(0, rq)
				switch {
				case a1 <= a2 && a1 <= a3:
					bArc[q], arcDash[q] = 1, a1
				case a1 <= a2:
					bArc[q], arcDash[q] = 3, a3
				case a2 <= a3:
					bArc[q], arcDash[q] = 2, a2
				default:
					bArc[q], arcDash[q] = 3, a3
				}
			}
			for q := range betaArc {
				betaArc[q] = 0
			}
			for q := Q; q >= 1; q-- {
				betaArc[q] += p * betaDash[n][q]
				switch bArc[q] {
				case 1:
					betaDash[sa][q-1] += betaArc[q]
					addGamma(q, wa, betaArc[q])
					tauB[q][wa] += float64(m.times[sa]) * betaArc[q]
					tauE[q][wa] += float64(m.times[n]) * betaArc[q]
				case 2:
					betaDash[sa][q] += betaArc[q]
				case 3:
					betaArc[q-1] += betaArc[q]
					addGamma(q, 0, betaArc[q])
					// Kaldi's erratum to the paper's Appendix C: an
					// epsilon here starts at the arc's end state.
					tauB[q][0] += float64(m.times[n]) * betaArc[q]
					tauE[q][0] += float64(m.times[n]) * betaArc[q]
				}
			}
			betaArc[0] += p * betaDash[n][0]
			betaDash[sa][0] += betaArc[0]
		}
	}
	for q := range betaArc {
		betaArc[q] = 0
	}
	for q := Q; q >= 1; q-- {
		betaArc[q] += betaDash[1][q]
		betaArc[q-1] += betaArc[q]
		addGamma(q, 0, betaArc[q])
		tauB[q][0] += float64(m.times[1]) * betaArc[q]
		tauE[q][0] += float64(m.times[1]) * betaArc[q]
	}
	m.gamma = make([][]WordPost, Q)
	m.beginTimes = make([]map[int32]float64, Q)
	m.endTimes = make([]map[int32]float64, Q)
	m.binTimes = make([][2]float32, Q)
	for q := 1; q <= Q; q++ {
		var g []WordPost
		for w, p := range gamma[q] {
			g = append(g, WordPost{w, float32(p)})
		}
		// Most likely first; ties: the greater word id first (Kaldi's
		// GammaCompare).
		slices.SortFunc(g, func(a, b WordPost) int {
			switch {
			case a.Post > b.Post:
				return -1
			case a.Post < b.Post:
				return 1
			case a.Word > b.Word:
				return -1
			case a.Word < b.Word:
				return 1
			}
			return 0
		})
		if len(g) == 0 {
			g = []WordPost{{0, 0}}
		}
		m.gamma[q-1] = g
		m.beginTimes[q-1], m.endTimes[q-1] = tauB[q], tauE[q]
		var b, e float64
		for _, v := range tauB[q] {
			b += v
		}
		for _, v := range tauE[q] {
			e += v
		}
		m.binTimes[q-1] = [2]float32{float32(b), float32(e)}
		if q > 1 && m.binTimes[q-2][1] > m.binTimes[q-1][0] {
			avg := 0.5 * (m.binTimes[q-2][1] + m.binTimes[q-1][0])
			m.binTimes[q-2][1], m.binTimes[q-1][0] = avg, avg
		}
	}
}
