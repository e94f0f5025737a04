package lm

// trie is a hashed n-gram trie: level k holds the (k+1)-grams, each with a
// dense id, keyed by the id of its k-gram prefix and its last word (the
// unigrams by their word). A map with a uint64 key per level keeps it compact and every
// lookup O(1), so nothing is quadratic in the vocabulary.
type trie struct {
	levels []level
	uni    []int32 // level 0 by word id (-1: none): no hashing for unigrams
}

type level struct {
	index map[uint64]int32
	ctx   []int32 // id of the prefix in the level below (-1 at level 0)
	word  []int32 // last word
}

func newTrie(order int) trie {
	t := trie{levels: make([]level, order)}
	for k := 1; k < order; k++ {
		t.levels[k].index = map[uint64]int32{}
	}
	return t
}

func trieKey(ctx, w int32) uint64 { return uint64(uint32(ctx))<<32 | uint64(uint32(w)) }

// find returns the id of the n-gram (prefix ctx, word w) at level k.
func (t *trie) find(k int, ctx, w int32) (int32, bool) {
	if k == 0 {
		if w >= 0 && int(w) < len(t.uni) && t.uni[w] >= 0 {
			return t.uni[w], true
		}
		return 0, false
	}
	id, ok := t.levels[k].index[trieKey(ctx, w)]
	return id, ok
}

// add returns the id of (ctx, w) at level k, adding it when new; added
// tells which.
func (t *trie) add(k int, ctx, w int32) (id int32, added bool) {
	l := &t.levels[k]
	if k == 0 {
		if id, ok := t.find(0, -1, w); ok {
			return id, false
		}
		for int(w) >= len(t.uni) {
			t.uni = append(t.uni, -1)
		}
		id = int32(len(l.word))
		t.uni[w] = id
		l.ctx = append(l.ctx, -1)
		l.word = append(l.word, w)
		return id, true
	}
	key := trieKey(ctx, w)
	if id, ok := l.index[key]; ok {
		return id, false
	}
	id = int32(len(l.word))
	l.index[key] = id
	l.ctx = append(l.ctx, ctx)
	l.word = append(l.word, w)
	return id, true
}

// lookup returns the id of the n-gram words (len(words)-1 is its level).
func (t *trie) lookup(words []int32) (int32, bool) {
	ctx := int32(-1)
	for k, w := range words {
		if k >= len(t.levels) {
			return 0, false
		}
		id, ok := t.find(k, ctx, w)
		if !ok {
			return 0, false
		}
		ctx = id
	}
	return ctx, len(words) > 0
}

// words fills buf with the words of n-gram id at level k, oldest first.
func (t *trie) words(k int, id int32, buf []int32) []int32 {
	buf = buf[:0]
	for ; k >= 0; k-- {
		buf = append(buf, t.levels[k].word[id])
		id = t.levels[k].ctx[id]
	}
	for i, j := 0, len(buf)-1; i < j; i, j = i+1, j-1 {
		buf[i], buf[j] = buf[j], buf[i]
	}
	return buf
}

// first returns the first (oldest) word of n-gram id at level k.
func (t *trie) first(k int, id int32) int32 {
	for ; k > 0; k-- {
		id = t.levels[k].ctx[id]
	}
	return t.levels[0].word[id]
}

// suffixes returns, per level k ≥ 1, the id at level k-1 of each n-gram's
// suffix (the n-gram without its first word); level 0 gets nil. Every
// suffix of an n-gram counted in a text was counted too, so all exist
// there; for a model read from a file a missing suffix is -1.
func (t *trie) suffixes() [][]int32 {
	suf := make([][]int32, len(t.levels))
	for k := 1; k < len(t.levels); k++ {
		l := &t.levels[k]
		s := make([]int32, len(l.word))
		for id := range s {
			c := l.ctx[id]
			var cs int32 = -1 // suffix of the prefix: the empty context for k == 1
			if k > 1 {
				cs = suf[k-1][c]
			}
			if k > 1 && cs < 0 {
				s[id] = -1
				continue
			}
			if sid, ok := t.find(k-1, cs, l.word[id]); ok {
				s[id] = sid
			} else {
				s[id] = -1
			}
		}
		suf[k] = s
	}
	return suf
}
