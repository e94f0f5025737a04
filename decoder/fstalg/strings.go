package fstalg

import "github.com/strode-asr/strode/decoder/fst"

// stringTrie interns output-label strings: each string is a node id, 0 is
// the empty string, and appending a label is a map lookup. Determinization
// keeps one residual string per subset element; interning makes subsets
// hashable by id and prefixes cheap to compare.
type stringTrie struct {
	parent []int32
	label  []fst.Label
	depth  []int32
	child  map[[2]int32]int32
}

func newStringTrie() *stringTrie {
	return &stringTrie{parent: []int32{-1}, label: []fst.Label{0}, depth: []int32{0}, child: map[[2]int32]int32{}}
}

// appendLabel returns the id of s followed by l (s itself for epsilon).
func (t *stringTrie) appendLabel(s int32, l fst.Label) int32 {
	if l == 0 {
		return s
	}
	k := [2]int32{s, l}
	if id, ok := t.child[k]; ok {
		return id
	}
	id := int32(len(t.parent))
	t.parent = append(t.parent, s)
	t.label = append(t.label, l)
	t.depth = append(t.depth, t.depth[s]+1)
	t.child[k] = id
	return id
}

// commonPrefix is the longest common prefix of a and b.
func (t *stringTrie) commonPrefix(a, b int32) int32 {
	for t.depth[a] > t.depth[b] {
		a = t.parent[a]
	}
	for t.depth[b] > t.depth[a] {
		b = t.parent[b]
	}
	for a != b {
		a, b = t.parent[a], t.parent[b]
	}
	return a
}

// labels returns the labels of s in order.
func (t *stringTrie) labels(s int32) []fst.Label {
	out := make([]fst.Label, t.depth[s])
	for i := len(out) - 1; i >= 0; i-- {
		out[i] = t.label[s]
		s = t.parent[s]
	}
	return out
}

// suffix returns s with its first n labels removed.
func (t *stringTrie) suffix(s int32, n int32) int32 {
	if n == 0 {
		return s
	}
	ls := t.labels(s)
	r := int32(0)
	for _, l := range ls[n:] {
		r = t.appendLabel(r, l)
	}
	return r
}
