package tree

import (
	"slices"
	"strings"
	"testing"
)

// ev is the event (pdf-class, left, centre, right).
func ev(pc, l, c, r int32) EventType {
	return EventType{{Key: -1, Value: pc}, {Key: 0, Value: l}, {Key: 1, Value: c}, {Key: 2, Value: r}}
}

// twoFrames is the statistics of frames at m−1 and m+1, weight w each.
func twoFrames(m, w float32) *GaussClusterable {
	g := NewGaussClusterable(1, 0.01)
	g.AddStats([]float32{m - 1}, w)
	g.AddStats([]float32{m + 1}, w)
	return g
}

// synthStats: centre phones 1..4, left contexts 1..4, right context 0,
// pdf-classes 0..2; the mean is mean(pc, l, c).
func synthStats(mean func(pc, l, c int32) float32) BuildTreeStats {
	var s BuildTreeStats
	for c := int32(1); c <= 4; c++ {
		for l := int32(1); l <= 4; l++ {
			for pc := int32(0); pc < 3; pc++ {
				s = append(s, Stat{Event: ev(pc, l, c, 0), Stats: twoFrames(mean(pc, l, c), 50)})
			}
		}
	}
	sortStats(s)
	return s
}

func synthQuestions(t testing.TB) *Questions {
	t.Helper()
	q, err := CompileQuestions([][]int32{{1}, {2}, {3}, {4}, {1, 2}, {3, 4}, {1, 2, 3, 4}}, 3, CompileQuestionsOptions{ContextWidth: 3})
	if err != nil {
		t.Fatal(err)
	}
	return q
}

func oneRootPerPhone() *Roots {
	r := &Roots{}
	for p := int32(1); p <= 4; p++ {
		r.PhoneSets = append(r.PhoneSets, []int32{p})
		r.Shared = append(r.Shared, true)
		r.Split = append(r.Split, true)
	}
	return r
}

func leafOf(t testing.TB, m EventMap, e EventType) int32 {
	t.Helper()
	a, ok := m.Map(e)
	if !ok {
		t.Fatalf("tree has no leaf for %v", e)
	}
	return a
}

// partition reports, for centre phone c, which (pc, l) share leaves: the
// events grouped by leaf, as sorted strings.
func partition(t testing.TB, m EventMap, c int32) []string {
	groups := map[int32][]string{}
	for pc := int32(0); pc < 3; pc++ {
		for l := int32(1); l <= 4; l++ {
			a := leafOf(t, m, ev(pc, l, c, 0))
			groups[a] = append(groups[a], EventType{{Key: -1, Value: pc}, {Key: 0, Value: l}}.String())
		}
	}
	var out []string
	for _, g := range groups {
		out = append(out, strings.Join(g, ","))
	}
	slices.Sort(out)
	return out
}

// With the pdf-class and whether the left phone is 1 deciding the mean,
// unlimited splitting (no post-clustering) separates exactly those six
// groups for every centre phone.
func TestBuildTreeFindsTheFactors(t *testing.T) {
	stats := synthStats(func(pc, l, c int32) float32 {
		m := 10 * float32(pc)
		if l == 1 {
			m += 5
		}
		return m + 100*float32(c)
	})
	tree, info, err := BuildTree(synthQuestions(t), oneRootPerPhone(), []int32{-1, 3, 3, 3, 3}, stats,
		BuildTreeOptions{CentralPosition: 1, Thresh: 1, ClusterThresh: 0})
	if err != nil {
		t.Fatal(err)
	}
	if info.StubLeaves != 4 || info.NumLeaves != 24 || info.Splits != 20 {
		t.Errorf("stub %d leaves, %d splits, %d leaves; want 4, 20, 24", info.StubLeaves, info.Splits, info.NumLeaves)
	}
	want := []string{"-1:0 0:1", "-1:0 0:2,-1:0 0:3,-1:0 0:4", "-1:1 0:1", "-1:1 0:2,-1:1 0:3,-1:1 0:4", "-1:2 0:1", "-1:2 0:2,-1:2 0:3,-1:2 0:4"}
	for c := int32(1); c <= 4; c++ {
		if got := partition(t, tree, c); !slices.Equal(got, want) {
			t.Errorf("centre %d: leaves group %v, want %v", c, got, want)
		}
	}
}

// splitGain is the likelihood gain of splitting the stats by yes(event),
// computed directly from Objf: an oracle for the greedy choice.
func splitGain(stats BuildTreeStats, yes func(EventType) bool) float64 {
	var a, b, all BuildTreeStats
	for _, st := range stats {
		all = append(all, st)
		if yes(st.Event) {
			a = append(a, st)
		} else {
			b = append(b, st)
		}
	}
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	return float64(SumStats(a).Objf()) + float64(SumStats(b).Objf()) - float64(SumStats(all).Objf())
}

// With room for one split, BuildTree makes the split with the largest gain
// over all roots and questions (the oracle tries them all).
func TestBuildTreeFirstSplitIsTheBest(t *testing.T) {
	stats := synthStats(func(pc, l, c int32) float32 {
		// centre 3's left context matters most; pdf-class a little.
		m := float32(pc)
		if c == 3 && l >= 3 {
			m += 40
		}
		return m
	})
	q := synthQuestions(t)
	tree, info, err := BuildTree(q, oneRootPerPhone(), []int32{-1, 3, 3, 3, 3}, stats,
		BuildTreeOptions{CentralPosition: 1, Thresh: 1, MaxLeaves: 5, ClusterThresh: 0})
	if err != nil {
		t.Fatal(err)
	}
	if info.Splits != 1 || info.NumLeaves != 5 {
		t.Fatalf("%d splits, %d leaves; want 1, 5", info.Splits, info.NumLeaves)
	}
	bestGain := 0.0
	for c := int32(1); c <= 4; c++ {
		var sub BuildTreeStats
		for _, st := range stats {
			if v, _ := st.Event.Lookup(1); v == c {
				sub = append(sub, st)
			}
		}
		for _, key := range q.Keys() {
			for _, set := range q.Get(key).InitialQuestions {
				g := splitGain(sub, func(e EventType) bool { v, _ := e.Lookup(key); _, in := slices.BinarySearch(set, v); return in })
				bestGain = max(bestGain, g)
			}
		}
	}
	if !near(float64(info.Improvement), bestGain, 1e-5) {
		t.Errorf("first split gained %g, the best possible is %g", info.Improvement, bestGain)
	}
	// The split is centre 3's left context {3,4} against {1,2}.
	if leafOf(t, tree, ev(0, 1, 3, 0)) == leafOf(t, tree, ev(0, 3, 3, 0)) {
		t.Error("centre 3 not split on its left context")
	}
	if leafOf(t, tree, ev(0, 1, 2, 0)) != leafOf(t, tree, ev(2, 4, 2, 0)) {
		t.Error("centre 2 split although only one split was allowed")
	}
}

// Post-clustering with the smallest split as threshold merges leaves that
// the pdf-class questions ({0}, {0,1}) had to keep apart: pdf-classes 0 and
// 2 with equal means end on one leaf.
func TestBuildTreePostClusteringMergesEqualLeaves(t *testing.T) {
	stats := synthStats(func(pc, l, c int32) float32 {
		if pc == 1 {
			return 20
		}
		return 0
	})
	tree, info, err := BuildTree(synthQuestions(t), oneRootPerPhone(), []int32{-1, 3, 3, 3, 3}, stats,
		BuildTreeOptions{CentralPosition: 1, Thresh: 1, ClusterThresh: -1})
	if err != nil {
		t.Fatal(err)
	}
	if info.Removed != 4 || info.NumLeaves != 8 {
		t.Errorf("removed %d, %d leaves; want 4 and 8", info.Removed, info.NumLeaves)
	}
	for c := int32(1); c <= 4; c++ {
		if leafOf(t, tree, ev(0, 2, c, 0)) != leafOf(t, tree, ev(2, 3, c, 0)) {
			t.Errorf("centre %d: pdf-classes 0 and 2 not merged", c)
		}
		if leafOf(t, tree, ev(0, 2, c, 0)) == leafOf(t, tree, ev(1, 2, c, 0)) {
			t.Errorf("centre %d: pdf-classes 0 and 1 merged", c)
		}
	}
}

// --round-num-leaves merges the cheapest leaves down to a multiple of 8.
func TestBuildTreeRoundsToMultipleOf8(t *testing.T) {
	stats := synthStats(func(pc, l, c int32) float32 { return 10*float32(pc) + 3*float32(c) + float32(l%2) })
	for _, round := range []bool{false, true} {
		_, info, err := BuildTree(synthQuestions(t), oneRootPerPhone(), []int32{-1, 3, 3, 3, 3}, stats,
			BuildTreeOptions{CentralPosition: 1, Thresh: 1, MaxLeaves: 13, ClusterThresh: 0, RoundNumLeaves: round})
		if err != nil {
			t.Fatal(err)
		}
		want := 13
		if round {
			want = 8
		}
		if info.NumLeaves != want {
			t.Errorf("round=%v: %d leaves, want %d", round, info.NumLeaves, want)
		}
	}
}

// Stub map: shared roots give one leaf, a not-shared root one per
// pdf-class; single-phone roots are told apart by a table on the centre.
func TestGetStubMap(t *testing.T) {
	var n int32
	m, err := GetStubMap(1, [][]int32{{1}, {2}, {3}}, []int32{-1, 3, 3, 5}, []bool{true, false, true}, &n)
	if err != nil {
		t.Fatal(err)
	}
	if n != 5 {
		t.Errorf("%d leaves, want 5", n)
	}
	if _, ok := m.(*TableEventMap); !ok {
		t.Errorf("stub is %T, want a table on the central phone", m)
	}
	if leafOf(t, m, ev(0, 0, 2, 0)) == leafOf(t, m, ev(2, 0, 2, 0)) {
		t.Error("not-shared root shares its pdf-classes")
	}
	n = 0
	m, err = GetStubMap(1, [][]int32{{1, 2}, {3}, {4, 5}}, []int32{-1, 3, 3, 3, 3, 3}, []bool{true, true, true}, &n)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := m.(*SplitEventMap); !ok || n != 3 {
		t.Errorf("stub of multi-phone roots is %T with %d leaves, want a split with 3", m, n)
	}
	if leafOf(t, m, ev(0, 0, 1, 0)) != leafOf(t, m, ev(1, 0, 2, 0)) || leafOf(t, m, ev(0, 0, 4, 0)) == leafOf(t, m, ev(0, 0, 3, 0)) {
		t.Error("multi-phone roots not grouped")
	}
}

func TestBuildTreeBadInput(t *testing.T) {
	stats := synthStats(func(pc, l, c int32) float32 { return float32(pc) })
	q := synthQuestions(t)
	p2n := []int32{-1, 3, 3, 3, 3}
	opts := BuildTreeOptions{CentralPosition: 1, Thresh: 1}
	cases := []struct {
		name  string
		roots *Roots
		p2n   []int32
		stats BuildTreeStats
		opts  BuildTreeOptions
		want  string
	}{
		{"root phone not in topology", &Roots{[][]int32{{1}, {2}, {3}, {4}, {5}}, []bool{true, true, true, true, true}, []bool{true, true, true, true, true}}, p2n, stats, opts, "topology does not have"},
		{"phone not in roots", &Roots{[][]int32{{1}, {2}, {3}}, []bool{true, true, true}, []bool{true, true, true}}, p2n, stats, opts, "appears in stats but is not listed in roots"},
		{"pdf-class beyond topology", oneRootPerPhone(), []int32{-1, 3, 2, 3, 3}, stats, opts, "pdf-classes (stats from another model?)"},
		{"wrong central position", oneRootPerPhone(), p2n, stats, BuildTreeOptions{CentralPosition: 4, Thresh: 1}, "no central phone"},
		{"no thresh, no max", oneRootPerPhone(), p2n, stats, BuildTreeOptions{CentralPosition: 1}, "need --thresh"},
		{"mixed dimensions", oneRootPerPhone(), p2n, append(stats[:1:1], Stat{Event: ev(0, 1, 1, 1), Stats: NewGaussClusterable(2, 0.01)}), opts, "dimension"},
	}
	for _, c := range cases {
		_, _, err := BuildTree(q, c.roots, c.p2n, c.stats, c.opts)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

func TestReadRoots(t *testing.T) {
	r, err := ReadRoots(strings.NewReader("not-shared not-split 1 2\nshared split 4 3\n"), "roots.int")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.PhoneSets[1], []int32{3, 4}) || r.Shared[0] || !r.Shared[1] || r.Split[0] || !r.Split[1] {
		t.Errorf("roots %+v", r)
	}
	bad := map[string]string{
		"empty":        "",
		"no phones":    "shared split\n",
		"bad shared":   "sharred split 1\n",
		"bad split":    "shared spit 1\n",
		"zero phone":   "shared split 0\n",
		"repeated":     "shared split 1 2\nshared split 2\n",
		"not a number": "shared split x\n",
		"blank line":   "shared split 1\n\nshared split 2\n",
	}
	for name, text := range bad {
		if _, err := ReadRoots(strings.NewReader(text), "roots.int"); err == nil {
			t.Errorf("%s: accepted", name)
		} else if name != "empty" && !strings.Contains(err.Error(), "line") {
			t.Errorf("%s: error %q does not name the line", name, err)
		}
	}
}

// --max-leaves below the stub's leaves (4 roots, 4 leaves, 3 allowed) is no
// error, as in Kaldi: SplitDecisionTree splits only while there are fewer
// leaves than the maximum, so nothing is split and the tree keeps the
// stub's 4 leaves (build-tree warns; cmd/strode's test).
func TestBuildTreeMaxLeavesBelowStub(t *testing.T) {
	stats := synthStats(func(pc, l, c int32) float32 { return float32(pc) })
	_, info, err := BuildTree(synthQuestions(t), oneRootPerPhone(), []int32{-1, 3, 3, 3, 3}, stats,
		BuildTreeOptions{CentralPosition: 1, Thresh: 1, MaxLeaves: 3, ClusterThresh: -1, RoundNumLeaves: true})
	if err != nil {
		t.Fatal(err)
	}
	if info.StubLeaves != 4 || info.Splits != 0 || info.NumLeaves != 4 {
		t.Errorf("stub %d leaves, %d splits, %d leaves at the end; want 4, 0, 4", info.StubLeaves, info.Splits, info.NumLeaves)
	}
}
