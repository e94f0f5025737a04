package lm

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// ErrInput is wrapped by errors about bad or unusable input (text, vocabulary,
// ARPA files, options); the messages name the file and line where there is one.
var ErrInput = errors.New("lm")

// Counts are the n-gram counts of a text, as SRILM's NgramCounts: every
// sentence gets <s> and </s> (unless it already starts or ends with them)
// and every n-gram of orders 1..Order in it is counted.
type Counts struct {
	Vocab *Vocab
	Order int
	// OpenVocab adds the words of the text to Vocab (ngram-count without
	// -vocab); otherwise words not in Vocab are counted as its unknown word.
	OpenVocab bool

	Sentences, Words, OOVs int // as ngram-count -debug 1 reports them

	t     trie
	count [][]int64 // per level, per n-gram id
	ids   []int32   // scratch: the sentence being counted
}

// NewCounts returns empty counts of n-grams up to order over v.
func NewCounts(v *Vocab, order int, openVocab bool) (*Counts, error) {
	if order < 1 {
		return nil, fmt.Errorf("%w: n-gram order must be at least 1, got %d", ErrInput, order)
	}
	return &Counts{Vocab: v, Order: order, OpenVocab: openVocab, t: newTrie(order), count: make([][]int64, order)}, nil
}

// wordID maps a word of the text to its id (adding it to an open
// vocabulary), counting OOVs of a closed one.
func (c *Counts) wordID(w []byte) int32 {
	if id, ok := c.Vocab.ids[string(w)]; ok {
		return id
	}
	if c.OpenVocab {
		return c.Vocab.Add(string(w))
	}
	c.OOVs++
	return c.Vocab.unk
}

// AddSentence counts one sentence given as words.
func (c *Counts) AddSentence(words []string) {
	c.ids = c.ids[:0]
	for _, w := range words {
		c.ids = append(c.ids, c.wordID([]byte(w)))
	}
	c.countIDs()
}

// countIDs counts the sentence in c.ids, adding <s> and </s>.
func (c *Counts) countIDs() {
	ids := c.ids
	if len(ids) == 0 || ids[0] != c.Vocab.bos {
		ids = append(ids, 0)
		copy(ids[1:], ids)
		ids[0] = c.Vocab.bos
	}
	if ids[len(ids)-1] != c.Vocab.eos {
		ids = append(ids, c.Vocab.eos)
	}
	c.ids = ids
	c.Sentences++
	c.Words += len(ids) - 2
	for start := range ids {
		ctx := int32(-1)
		for k := 0; k < c.Order && start+k < len(ids); k++ {
			id, added := c.t.add(k, ctx, ids[start+k])
			if added {
				c.count[k] = append(c.count[k], 0)
			}
			c.count[k][id]++
			ctx = id
		}
	}
}

// CountText counts every non-blank line of r as a sentence of
// whitespace-separated words (ngram-count -text); name labels errors.
func (c *Counts) CountText(r io.Reader, name string) error {
	br := bufio.NewReaderSize(r, 1<<20)
	for line := 1; ; line++ {
		b, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			// A line longer than the buffer: gather it whole.
			long := append([]byte(nil), b...)
			for err == bufio.ErrBufferFull {
				b, err = br.ReadSlice('\n')
				long = append(long, b...)
			}
			b = long
		}
		if err != nil && err != io.EOF {
			return fmt.Errorf("%w: reading text %s:%d: %w", ErrInput, name, line, err)
		}
		c.ids = c.ids[:0]
		for i := 0; i < len(b); {
			for i < len(b) && isSpace(b[i]) {
				i++
			}
			j := i
			for j < len(b) && !isSpace(b[j]) {
				j++
			}
			if j > i {
				c.ids = append(c.ids, c.wordID(b[i:j]))
			}
			i = j
		}
		if len(c.ids) > 0 { // SRILM skips blank lines
			c.countIDs()
		}
		if err == io.EOF {
			return nil
		}
	}
}

func isSpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\v' || b == '\f'
}

// Count returns the count of the n-gram words (0 when it never occurred).
func (c *Counts) Count(words ...string) int64 {
	ids := make([]int32, len(words))
	for i, w := range words {
		id, ok := c.Vocab.ID(w)
		if !ok {
			return 0
		}
		ids[i] = id
	}
	id, ok := c.t.lookup(ids)
	if !ok {
		return 0
	}
	return c.count[len(ids)-1][id]
}

// NumNgrams returns how many distinct n-grams of order n were counted.
func (c *Counts) NumNgrams(n int) int {
	if n < 1 || n > c.Order {
		return 0
	}
	return len(c.count[n-1])
}

// Write writes the counts in SRILM's count-file format, one n-gram per
// line ("w1 w2<TAB>count"), the unigrams first, then the bigrams, and so on.
func (c *Counts) Write(w io.Writer) error {
	bw := bufio.NewWriter(w)
	var buf []int32
	var line []byte
	for k := range c.count {
		for id, n := range c.count[k] {
			buf = c.t.words(k, int32(id), buf)
			line = line[:0]
			for i, wid := range buf {
				if i > 0 {
					line = append(line, ' ')
				}
				line = append(line, c.Vocab.words[wid]...)
			}
			line = append(line, '\t')
			line = strconv.AppendInt(line, n, 10)
			line = append(line, '\n')
			if _, err := bw.Write(line); err != nil {
				return err
			}
		}
	}
	return bw.Flush()
}
