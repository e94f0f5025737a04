package lattice

// tidStore holds the transition-id strings of one determinization as the
// nodes of a prefix tree, as Kaldi's LatticeStringRepository does: a node is
// a string ending in its transition-id, extending its parent's string; a
// string is a node read from some depth on (tidString), so that appending a
// transition-id adds one node and removing a prefix (NormalizeSubset)
// copies nothing. The closure extends every element's string by one
// transition-id per arc it follows: copying the strings there (as slices)
// costs time and memory quadratic in the string length, and so did copying
// the suffix left after each normalisation. Nodes are not deduplicated: two
// equal strings built along different paths have different nodes, so
// equality is decided on the transition-ids, never on the nodes alone.
//
// The nodes are kept in chunks of tidChunk (the first one grown by
// doubling up to that size): a single slice grown by doubling copied every
// node about once more and cleared the new memory, which took 40% of the
// determinization of a large lattice.
type tidStore struct {
	chunks [][]tidNode
	n      int32 // nodes in all
}

const (
	tidChunkBits = 16
	tidChunk     = 1 << tidChunkBits
)

// node returns node i.
func (t *tidStore) node(i int32) *tidNode {
	return &t.chunks[i>>tidChunkBits][i&(tidChunk-1)]
}

// tidNode ends a string: its last transition-id, the node of the string it
// extends (0, the root, for none) and the string's length from the root.
type tidNode struct {
	parent, tid, depth int32
}

// tidString is the string of node without its first skip transition-ids.
type tidString struct {
	node, skip int32
}

// emptyString is the empty string.
var emptyString = tidString{}

func newTidStore() tidStore {
	return tidStore{chunks: [][]tidNode{make([]tidNode, 1, 1024)}, n: 1}
}

// append returns s followed by tid.
func (t *tidStore) append(s tidString, tid int32) tidString {
	depth := t.node(s.node).depth + 1
	last := &t.chunks[len(t.chunks)-1]
	if len(*last) == tidChunk {
		t.chunks = append(t.chunks, make([]tidNode, 0, tidChunk))
		last = &t.chunks[len(t.chunks)-1]
	}
	*last = append(*last, tidNode{parent: s.node, tid: tid, depth: depth})
	t.n++
	return tidString{t.n - 1, s.skip}
}

// length is the number of transition-ids in s.
func (t *tidStore) length(s tidString) int { return int(t.node(s.node).depth - s.skip) }

// appendTo appends the transition-ids of s to buf.
func (t *tidStore) appendTo(buf []int32, s tidString) []int32 {
	n := t.length(s)
	lo := len(buf)
	buf = append(buf, make([]int32, n)...)
	for i, nd := lo+n-1, s.node; i >= lo; i-- {
		buf[i] = t.node(nd).tid
		nd = t.node(nd).parent
	}
	return buf
}

// appendKey appends the transition-ids of s to key as little-endian uint32s.
func (t *tidStore) appendKey(key []byte, s tidString) []byte {
	n := t.length(s)
	lo := len(key)
	key = append(key, make([]byte, 4*n)...)
	for i, nd := lo+4*(n-1), s.node; i >= lo; i -= 4 {
		v := uint32(t.node(nd).tid)
		key[i], key[i+1], key[i+2], key[i+3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
		nd = t.node(nd).parent
	}
	return key
}

// commonPrefix is the length of the longest common prefix of p and s.
func (t *tidStore) commonPrefix(p []int32, s tidString) int {
	n := min(len(p), t.length(s))
	// Walk s from its end up to position n, then compare backwards: the
	// common prefix ends before the first (lowest) position that differs.
	nd := s.node
	for t.node(nd).depth-s.skip > int32(n) {
		nd = t.node(nd).parent
	}
	common := n
	for i := n - 1; i >= 0; i-- {
		if t.node(nd).tid != p[i] {
			common = i
		}
		nd = t.node(nd).parent
	}
	return common
}

// suffix returns s without its first k transition-ids.
func (t *tidStore) suffix(s tidString, k int) tidString {
	if k >= t.length(s) {
		return emptyString
	}
	return tidString{s.node, s.skip + int32(k)}
}

// compare orders two strings as CompareCompact does on equal weights: the
// shorter is better (1); on equal lengths the lexicographically greater is
// better (Kaldi's rule).
func (t *tidStore) compare(a, b tidString) int {
	na, nb := t.length(a), t.length(b)
	if na != nb {
		if na < nb {
			return 1
		}
		return -1
	}
	// Walking up from the ends, the last difference seen is the first one
	// from the start. At equal positions, equal nodes have equal depths,
	// hence equal skips and the same transition-ids from there up.
	c := 0
	x, y := a.node, b.node
	for i := 0; i < na && x != y; i++ {
		p, q := t.node(x), t.node(y)
		if p.tid != q.tid {
			if p.tid < q.tid {
				c = -1
			} else {
				c = 1
			}
		}
		x, y = p.parent, q.parent
	}
	return c
}
