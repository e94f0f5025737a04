package lm

import (
	"bufio"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// ConstArpa is Kaldi's ConstArpaLm (src/lm/const-arpa-lm.h): an ARPA
// back-off model over integer word-ids packed into one int32 array, the
// form lattice-lmrescore-const-arpa reads (G.carpa). Probabilities are
// natural logarithms in float32, as Kaldi's ArpaFileParser converts them.
//
// The array holds one record per n-gram that is a unigram or has children
// or a non-zero back-off weight, sorted by word sequence (a prefix first):
//
//	logprob (float32 bits), backoff (float32 bits), numChildren,
//	numChildren × (word, childInfo), the children sorted by word
//
// childInfo is even for a child without a record: its logprob's bits with
// the lowest bit cleared (so a leaf's logprob loses its last mantissa bit,
// as in Kaldi). Odd, it is 2·offset+1 with offset the distance from the
// parent's record to the child's (> 0, as children sort after parents), or,
// for offsets over 2^30−1, −(2·i+1) with i an index into the overflow table
// of absolute record positions. Highest-order n-grams of a model of order
// > 1 never have records.
type ConstArpa struct {
	Bos, Eos int32
	// Unk is the unknown word, -1 when none: then words without a unigram
	// have no probability (GetArc fails on them).
	Unk   int32
	Order int32
	// NumWords is the largest unigram word-id plus one.
	NumWords int32

	states []int32
	// unigram[w] is the record of word w in states, -1 when w has none.
	unigram []int64
	// overflow holds the record positions of children too far from their
	// parents for a 30-bit offset.
	overflow []int64
}

// ConstArpaOptions are arpa-to-const-arpa's options (Kaldi's
// ArpaParseOptions with integer symbols).
type ConstArpaOptions struct {
	Bos, Eos int32 // --bos-symbol, --eos-symbol: required
	Unk      int32 // --unk-symbol: -1 for none
	// MaxWarnings is --max-arpa-warnings (30; -1: all).
	MaxWarnings int
	// Warn, when not nil, receives the parser's warnings.
	Warn func(string)
	// maxOffset is the largest relative child offset stored in place
	// (2^30−1 in Kaldi; tests lower it to exercise the overflow table).
	maxOffset int64
}

// DefaultConstArpaOptions are arpa-to-const-arpa's defaults: BOS and EOS
// unset (they must be given), no unknown word.
func DefaultConstArpaOptions() ConstArpaOptions {
	return ConstArpaOptions{Bos: -1, Eos: -1, Unk: -1, MaxWarnings: 30}
}

// constArpaNoProb is what Kaldi's GetNgramLogprob returns for a word
// without any probability: std::numeric_limits<float>::min().
var constArpaNoProb = float32(0x1p-126)

// carpaState is a builder record: an n-gram with its probability, back-off
// weight and children (Kaldi's LmState).
type carpaState struct {
	words      []int32
	logprob    float32
	backoff    float32
	unigram    bool
	childFinal bool // children are of the highest order: logprobs only
	children   []carpaChild
	addr       int64
}

type carpaChild struct {
	word  int32
	state *carpaState // nil when childFinal
	prob  float32
}

// leaf tells whether the n-gram needs no record of its own.
func (s *carpaState) memSize() int64 {
	if s.backoff == 0 && len(s.children) == 0 && !s.unigram {
		return 0
	}
	return 3 + 2*int64(len(s.children))
}

// BuildConstArpa reads an ARPA model whose words are integers (Kaldi's
// utils/map_arpa_lm.pl output) and builds the ConstArpa, as Kaldi's
// ArpaFileParser and ConstArpaLmBuilder do: log10 values become natural
// logarithms in float32, every n-gram needs its (n−1)-gram prefix, the
// highest order carries no back-off weights. Errors name the file and line.
func BuildConstArpa(r io.Reader, name string, opt ConstArpaOptions) (*ConstArpa, error) {
	if opt.Bos <= 0 || opt.Eos <= 0 || opt.Bos == opt.Eos {
		return nil, fmt.Errorf("%w: BOS and EOS symbols are required, must not be epsilons, and differ from each other. Given: BOS=%d EOS=%d", ErrInput, opt.Bos, opt.Eos)
	}
	if opt.maxOffset == 0 {
		opt.maxOffset = 1<<30 - 1
	}
	p := &carpaParser{name: name, opt: opt, br: bufio.NewReaderSize(r, 1<<20), seq: map[string]*carpaState{}}
	if err := p.parse(); err != nil {
		return nil, err
	}
	return p.build()
}

type carpaParser struct {
	name     string
	opt      ConstArpaOptions
	br       *bufio.Reader
	lineNo   int
	line     string
	eof      bool
	warnings int
	counts   []int
	order    int
	numWords int32
	seq      map[string]*carpaState
	key      []byte
}

func (p *carpaParser) errf(format string, a ...any) error {
	return fmt.Errorf("%w: ARPA file %s: line %d [%s]: %s", ErrInput, p.name, p.lineNo, p.line, fmt.Sprintf(format, a...))
}

func (p *carpaParser) warn(format string, a ...any) {
	p.warnings++
	if p.opt.Warn != nil && (p.opt.MaxWarnings < 0 || p.warnings <= p.opt.MaxWarnings) {
		p.opt.Warn(fmt.Sprintf(format, a...))
	}
}

// next reads the next line into p.line (trailing "\r\n" removed); false at
// the end of the input.
func (p *carpaParser) next() (bool, error) {
	if p.eof {
		return false, nil
	}
	s, err := p.br.ReadString('\n')
	if err != nil && err != io.EOF {
		return false, fmt.Errorf("%w: reading ARPA file %s:%d: %w", ErrInput, p.name, p.lineNo+1, err)
	}
	if err == io.EOF {
		p.eof = true
		if s == "" {
			return false, nil
		}
	}
	p.lineNo++
	p.line = strings.TrimRight(s, "\n")
	return true, nil
}

func blank(s string) bool { return strings.Trim(s, " \t\n\r") == "" }

func (p *carpaParser) parse() error {
	found := false
	for {
		ok, err := p.next()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		if blank(p.line) {
			continue
		}
		p.line = strings.TrimRight(p.line, " \n\r\t")
		if !found {
			found = p.line == `\data\`
			continue
		}
		if p.line[0] == '\\' {
			break
		}
		// "ngram N=COUNT", spaces around "=" optional.
		f := strings.Fields(strings.Replace(p.line, "=", " = ", 1))
		if len(f) == 4 && f[0] == "ngram" && f[2] == "=" {
			n, err1 := strconv.ParseInt(f[1], 10, 32)
			c, err2 := strconv.ParseInt(f[3], 10, 32)
			if err1 != nil || err2 != nil || n < 1 || c < 0 {
				return p.errf("cannot parse ngram count")
			}
			for len(p.counts) < int(n) {
				p.counts = append(p.counts, 0)
			}
			p.counts[n-1] = int(c)
		} else {
			p.warn("%s:%d: uninterpretable line in \\data\\ section: %q", p.name, p.lineNo, p.line)
		}
	}
	if len(p.counts) == 0 {
		return p.errf(`\data\ section missing or empty.`)
	}
	p.order = len(p.counts)
	for k := 1; k <= p.order; k++ {
		if p.counts[k-1] == 0 {
			p.warn("%s: zero ngram count in ngram order %d (look for 'ngram %d=0' in the \\data\\ section). There is possibly a problem with the file.", p.name, k, k)
		}
		if want := fmt.Sprintf(`\%d-grams:`, k); p.line != want {
			return p.errf("invalid directive, expecting '%s'", want)
		}
		seen := 0
		nextKey := fmt.Sprintf(`\%d-grams:`, k+1)
		for {
			ok, err := p.next()
			if err != nil {
				return err
			}
			if !ok {
				break
			}
			if blank(p.line) {
				continue
			}
			if p.line[0] == '\\' {
				p.line = strings.TrimRight(p.line, " \n\r\t")
				if p.line == nextKey || p.line == `\end\` {
					break
				}
				p.warn("%s:%d: ignoring possible directive '%s' expecting '%s'", p.name, p.lineNo, p.line, nextKey)
			}
			if err := p.ngram(k); err != nil {
				return err
			}
			seen++
		}
		if seen > p.counts[k-1] {
			return p.errf("header said there would be %d n-grams of order %d, but we saw more already.", p.counts[k-1], k)
		}
	}
	if p.line != `\end\` {
		return p.errf(`invalid or unexpected directive line, expecting \end\`)
	}
	return nil
}

func (p *carpaParser) seqKey(words []int32) string {
	p.key = p.key[:0]
	for _, w := range words {
		p.key = binary.LittleEndian.AppendUint32(p.key, uint32(w))
	}
	return string(p.key)
}

// ngram consumes one line of the k-gram section (Kaldi's ConsumeNGram).
func (p *carpaParser) ngram(k int) error {
	col := strings.Fields(p.line)
	if len(col) < 1+k || len(col) > 2+k || (k == p.order && len(col) != 1+k) {
		return p.errf("Invalid n-gram data line")
	}
	lp, err := strconv.ParseFloat(col[0], 32)
	if err != nil {
		return p.errf("invalid n-gram logprob '%s'", col[0])
	}
	var bo float64
	if len(col) > k+1 {
		if bo, err = strconv.ParseFloat(col[k+1], 32); err != nil {
			return p.errf("invalid backoff weight '%s'", col[k+1])
		}
	}
	// Kaldi: float values multiplied by M_LN10 in double, stored as float.
	logprob := float32(float64(float32(lp)) * math.Ln10)
	backoff := float32(float64(float32(bo)) * math.Ln10)
	words := make([]int32, k)
	for i := range words {
		w, err := strconv.ParseInt(col[1+i], 10, 32)
		if err != nil || w < 0 {
			return p.errf("invalid symbol '%s'", col[1+i])
		}
		if w == 0 {
			return p.errf("epsilon symbol '%s' is illegal in ARPA LM", col[1+i])
		}
		words[i] = int32(w)
	}
	var st *carpaState
	if k != p.order || p.order == 1 {
		st = &carpaState{words: words, logprob: logprob, backoff: backoff, unigram: k == 1, childFinal: k == p.order-1}
		key := p.seqKey(words)
		if _, dup := p.seq[key]; dup {
			return p.errf("duplicate %d-gram", k)
		}
		p.seq[key] = st
	}
	last := words[k-1]
	if k == 1 {
		p.numWords = max(p.numWords, last+1)
		return nil
	}
	parent, ok := p.seq[p.seqKey(words[:k-1])]
	if !ok {
		return p.errf("%d-gram %v does not have a parent model %d-gram.", k, words, k-1)
	}
	if st != nil {
		parent.children = append(parent.children, carpaChild{word: last, state: st})
	} else {
		parent.children = append(parent.children, carpaChild{word: last, prob: logprob})
	}
	return nil
}

// build lays the records out as ConstArpaLmBuilder::ReadComplete does.
func (p *carpaParser) build() (*ConstArpa, error) {
	for _, s := range []struct {
		name string
		w    int32
	}{{"BOS", p.opt.Bos}, {"EOS", p.opt.Eos}} {
		if s.w >= p.numWords {
			return nil, fmt.Errorf("%w: ARPA file %s: %s symbol %d is not below the number of words %d (it needs a unigram)", ErrInput, p.name, s.name, s.w, p.numWords)
		}
	}
	if p.opt.Unk >= p.numWords || (p.opt.Unk <= 0 && p.opt.Unk != -1) {
		return nil, fmt.Errorf("%w: ARPA file %s: unknown-word symbol %d must be -1 or a word-id in 1..%d", ErrInput, p.name, p.opt.Unk, p.numWords-1)
	}
	var sorted []*carpaState
	for _, s := range p.seq {
		if s.memSize() > 0 {
			sorted = append(sorted, s)
		}
	}
	slices.SortFunc(sorted, func(a, b *carpaState) int { return slices.Compare(a.words, b.words) })
	var size int64
	for _, s := range sorted {
		s.addr = size
		size += s.memSize()
	}
	c := &ConstArpa{Bos: p.opt.Bos, Eos: p.opt.Eos, Unk: p.opt.Unk, Order: int32(p.order), NumWords: p.numWords,
		states: make([]int32, 0, size), unigram: make([]int64, p.numWords)}
	for i := range c.unigram {
		c.unigram[i] = -1
	}
	for _, s := range sorted {
		c.states = append(c.states, int32(math.Float32bits(s.logprob)), int32(math.Float32bits(s.backoff)), int32(len(s.children)))
		slices.SortStableFunc(s.children, func(a, b carpaChild) int { return cmp.Compare(a.word, b.word) })
		// A highest-order n-gram listed twice would be two children of one
		// word, of which the binary search finds either (Kaldi does not
		// check; the lower orders are caught when read).
		for i := 1; i < len(s.children); i++ {
			if s.children[i].word == s.children[i-1].word {
				return nil, fmt.Errorf("%w: ARPA file %s: duplicate %d-gram %v", ErrInput, p.name, len(s.words)+1, append(slices.Clone(s.words), s.children[i].word))
			}
		}
		for _, ch := range s.children {
			var info int32
			switch {
			case s.childFinal:
				info = int32(math.Float32bits(ch.prob)) &^ 1
			case ch.state.memSize() == 0:
				info = int32(math.Float32bits(ch.state.logprob)) &^ 1
			default:
				off := ch.state.addr - s.addr
				if off <= p.opt.maxOffset {
					info = int32(off*2 | 1)
				} else {
					c.overflow = append(c.overflow, ch.state.addr)
					info = -int32(int64(len(c.overflow)-1)*2 | 1)
				}
			}
			c.states = append(c.states, ch.word, info)
		}
		if s.unigram {
			c.unigram[s.words[0]] = s.addr
		}
	}
	return c, nil
}

// NumStates is the size of the record array in int32s (Kaldi's
// lm_states_size_).
func (c *ConstArpa) NumStates() int64 { return int64(len(c.states)) }

// carpaTokens are the binary file's section markers.
const (
	carpaBegin = "<ConstArpaLm>"
	carpaEnd   = "</ConstArpaLm>"
)

// WriteBinary writes the model as Kaldi's ConstArpaLm::Write does in binary
// mode, preceded by Kaldi's binary marker "\0B" (WriteKaldiObject): tokens
// followed by a space, int32 and int64 values each after a size byte,
// the record array raw, the unigram and overflow tables as raw int64
// positions plus one (0 for a word without a unigram).
func (c *ConstArpa) WriteBinary(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	var b []byte
	tok := func(s string) { b = append(append(b, s...), ' ') }
	i32 := func(v int32) { b = binary.LittleEndian.AppendUint32(append(b, 4), uint32(v)) }
	flush := func() error {
		_, err := bw.Write(b)
		b = b[:0]
		return err
	}
	b = append(b, 0, 'B')
	tok(carpaBegin)
	tok("<LmInfo>")
	i32(c.Bos)
	i32(c.Eos)
	i32(c.Unk)
	i32(c.Order)
	tok("</LmInfo>")
	tok("<LmStates>")
	b = binary.LittleEndian.AppendUint64(append(b, 8), uint64(len(c.states)))
	for _, v := range c.states {
		b = binary.LittleEndian.AppendUint32(b, uint32(v))
		if len(b) >= 1<<16 {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	tok("</LmStates>")
	tok("<LmUnigram>")
	i32(c.NumWords)
	for _, a := range c.unigram {
		b = binary.LittleEndian.AppendUint64(b, uint64(a+1))
	}
	tok("</LmUnigram>")
	tok("<LmOverflow>")
	i32(int32(len(c.overflow)))
	for _, a := range c.overflow {
		b = binary.LittleEndian.AppendUint64(b, uint64(a+1))
	}
	tok("</LmOverflow>")
	tok(carpaEnd)
	if err := flush(); err != nil {
		return err
	}
	return bw.Flush()
}

// errCarpa wraps the format errors of ReadConstArpa.
var errCarpa = errors.New("bad ConstArpaLm file")

type carpaReader struct {
	r    *bufio.Reader
	name string
	off  int64
	err  error
}

func (r *carpaReader) fail(format string, a ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: %w: %s at byte %d: %s", ErrInput, errCarpa, r.name, r.off, fmt.Sprintf(format, a...))
	}
}

func (r *carpaReader) bytes(n int) []byte {
	if r.err != nil {
		return nil
	}
	p := make([]byte, n)
	if _, err := io.ReadFull(r.r, p); err != nil {
		r.fail("file ends early (%v)", err)
		return nil
	}
	r.off += int64(n)
	return p
}

func (r *carpaReader) token(want string) {
	p := r.bytes(len(want) + 1)
	if p != nil && string(p) != want+" " {
		r.fail("expected token %q, got %q", want, p)
	}
}

func (r *carpaReader) int(size byte) int64 {
	p := r.bytes(1 + int(size))
	if p == nil {
		return 0
	}
	if p[0] != size {
		r.fail("expected a %d-byte integer, got size byte %d", size, p[0])
		return 0
	}
	if size == 4 {
		return int64(int32(binary.LittleEndian.Uint32(p[1:])))
	}
	return int64(binary.LittleEndian.Uint64(p[1:]))
}

// maxCarpaAlloc bounds what one count in the header may make the reader
// allocate ahead of the data (a corrupt count fails on the data instead).
const maxCarpaAlloc = 1 << 16

// readArray reads n little-endian values of size bytes each.
func (r *carpaReader) int64s(n int64, what string) []int64 {
	if n < 0 {
		r.fail("negative %s size %d", what, n)
		return nil
	}
	out := make([]int64, 0, min(n, maxCarpaAlloc))
	for len(out) < int(n) && r.err == nil {
		p := r.bytes(8 * min(int(n)-len(out), maxCarpaAlloc))
		for i := 0; i+8 <= len(p); i += 8 {
			out = append(out, int64(binary.LittleEndian.Uint64(p[i:])))
		}
	}
	return out
}

// int32s reads n raw little-endian int32s, a chunk at a time.
func (r *carpaReader) int32s(n int64) []int32 {
	out := make([]int32, 0, min(n, maxCarpaAlloc))
	for int64(len(out)) < n && r.err == nil {
		p := r.bytes(4 * int(min(n-int64(len(out)), maxCarpaAlloc)))
		for i := 0; i+4 <= len(p); i += 4 {
			out = append(out, int32(binary.LittleEndian.Uint32(p[i:])))
		}
	}
	return out
}

// ReadConstArpa reads a ConstArpaLm file as Kaldi's ConstArpaLm::Read: the
// current format (tokens) or the old one (no tokens, a 32-bit record
// count), after the optional binary marker "\0B". The record structure is
// checked as a whole, so that lookups cannot leave the array.
func ReadConstArpa(rd io.Reader, name string) (*ConstArpa, error) {
	r := &carpaReader{r: bufio.NewReaderSize(rd, 1<<20), name: name}
	if p, err := r.r.Peek(2); err == nil && p[0] == 0 && p[1] == 'B' {
		r.bytes(2)
	} else {
		return nil, fmt.Errorf("%w: %w: %s: not a binary Kaldi object (no \\0B marker); ConstArpaLm has no text form", ErrInput, errCarpa, name)
	}
	c := &ConstArpa{}
	first, err := r.r.Peek(1)
	if err != nil {
		r.fail("empty file")
		return nil, r.err
	}
	old := first[0] == 4 // the old format starts with an int32's size byte
	if !old {
		r.token(carpaBegin)
		r.token("<LmInfo>")
	}
	c.Bos, c.Eos, c.Unk, c.Order = int32(r.int(4)), int32(r.int(4)), int32(r.int(4)), int32(r.int(4))
	var n int64
	if old {
		n = r.int(4)
	} else {
		r.token("</LmInfo>")
		r.token("<LmStates>")
		n = r.int(8)
	}
	if r.err == nil && (n < 0 || n > math.MaxInt32*8) {
		r.fail("bad record array size %d", n)
	}
	if r.err == nil && old {
		c.states = make([]int32, 0, min(n, maxCarpaAlloc))
		for i := int64(0); i < n && r.err == nil; i++ {
			c.states = append(c.states, int32(r.int(4)))
		}
	} else if r.err == nil {
		c.states = r.int32s(n)
	}
	var uni, ovf []int64
	if old {
		c.NumWords = int32(r.int(4))
		for i := int32(0); i < c.NumWords && r.err == nil; i++ {
			uni = append(uni, r.int(8))
		}
		nov := r.int(4)
		for i := int64(0); i < nov && r.err == nil; i++ {
			ovf = append(ovf, r.int(8))
		}
	} else {
		r.token("</LmStates>")
		r.token("<LmUnigram>")
		c.NumWords = int32(r.int(4))
		uni = r.int64s(int64(c.NumWords), "unigram table")
		r.token("</LmUnigram>")
		r.token("<LmOverflow>")
		ovf = r.int64s(r.int(4), "overflow table")
		r.token("</LmOverflow>")
		r.token(carpaEnd)
	}
	if r.err != nil {
		return nil, r.err
	}
	fail := func(format string, a ...any) (*ConstArpa, error) {
		return nil, fmt.Errorf("%w: %w: %s: %s", ErrInput, errCarpa, name, fmt.Sprintf(format, a...))
	}
	switch {
	case c.Order <= 0:
		return fail("n-gram order %d", c.Order)
	case c.Bos <= 0 || c.Bos >= c.NumWords:
		return fail("BOS symbol %d outside 1..%d", c.Bos, c.NumWords-1)
	case c.Eos <= 0 || c.Eos >= c.NumWords:
		return fail("EOS symbol %d outside 1..%d", c.Eos, c.NumWords-1)
	case c.Unk >= c.NumWords || (c.Unk <= 0 && c.Unk != -1):
		return fail("unknown-word symbol %d is neither -1 nor in 1..%d", c.Unk, c.NumWords-1)
	}
	// The records, walked in order: every position a pointer names must be
	// the start of one.
	starts := map[int64]bool{}
	for pos := int64(0); pos < int64(len(c.states)); {
		if pos+3 > int64(len(c.states)) {
			return fail("record at %d is cut off", pos)
		}
		k := int64(c.states[pos+2])
		if k < 0 || pos+3+2*k > int64(len(c.states)) {
			return fail("record at %d has %d children beyond the array", pos, k)
		}
		starts[pos] = true
		pos += 3 + 2*k
	}
	c.unigram = make([]int64, len(uni))
	for i, a := range uni {
		c.unigram[i] = a - 1
		if a != 0 && !starts[a-1] {
			return fail("unigram %d points at %d, not a record", i, a-1)
		}
	}
	c.overflow = make([]int64, len(ovf))
	for i, a := range ovf {
		c.overflow[i] = a - 1
		if !starts[a-1] {
			return fail("overflow entry %d points at %d, not a record", i, a-1)
		}
	}
	for pos := range starts {
		k := int64(c.states[pos+2])
		for j := int64(0); j < k; j++ {
			info := c.states[pos+4+2*j]
			if info%2 == 0 {
				continue
			}
			if _, ok := c.child(pos, info); !ok {
				return fail("child %d of the record at %d points outside the records", j, pos)
			}
		}
	}
	return c, nil
}

// child decodes an odd childInfo of the record at parent into the child's
// record position (Kaldi's DecodeChildInfo).
func (c *ConstArpa) child(parent int64, info int32) (int64, bool) {
	off := int64(info / 2)
	var pos int64
	if off > 0 {
		pos = parent + off
	} else {
		if -off >= int64(len(c.overflow)) {
			return 0, false
		}
		pos = c.overflow[-off]
	}
	if pos < 0 || pos+3 > int64(len(c.states)) {
		return 0, false
	}
	return pos, true
}

// childInfo finds word among the children of the record at parent by
// binary search, as Kaldi's GetChildInfo.
func (c *ConstArpa) childInfo(word int32, parent int64) (int32, bool) {
	n := int64(c.states[parent+2])
	lo, hi := int64(1), n
	for lo <= hi {
		mid := (lo + hi) / 2
		w := c.states[parent+1+2*mid]
		switch {
		case w == word:
			return c.states[parent+2+2*mid], true
		case w < word:
			lo = mid + 1
		default:
			hi = mid - 1
		}
	}
	return 0, false
}

// lmState returns the record of a word sequence, -1 when it has none
// (Kaldi's GetLmState).
func (c *ConstArpa) lmState(seq []int32) int64 {
	if len(seq) == 0 || seq[0] < 0 || seq[0] >= c.NumWords || c.unigram[seq[0]] < 0 {
		return -1
	}
	parent := c.unigram[seq[0]]
	for _, w := range seq[1:] {
		info, ok := c.childInfo(w, parent)
		if !ok || info%2 == 0 {
			return -1
		}
		next, ok := c.child(parent, info)
		if !ok {
			return -1
		}
		parent = next
	}
	return parent
}

func f32bits(v int32) float32 { return math.Float32frombits(uint32(v)) }

// NgramLogprob returns the natural-log probability of word after hist
// (oldest first; only the last Order−1 words count), as Kaldi's
// ConstArpaLm::GetNgramLogprob: with an unknown word, words without a
// unigram (in word or hist) become it; then the longest history with an
// explicit n-gram gives the probability, plus the back-off weights of the
// longer histories that have records. A word with no probability at all
// gives constArpaNoProb (Kaldi's FLT_MIN), plus any back-off weights met on
// the way, as Kaldi adds them.
func (c *ConstArpa) NgramLogprob(word int32, hist []int32) float32 {
	if n := int(c.Order) - 1; len(hist) > n {
		hist = hist[len(hist)-n:]
	}
	if c.Unk != -1 {
		known := func(w int32) bool { return w >= 0 && w < c.NumWords && c.unigram[w] >= 0 }
		if !known(word) {
			word = c.Unk
		}
		mapped := false
		for _, w := range hist {
			if !known(w) {
				mapped = true
			}
		}
		if mapped {
			h := make([]int32, len(hist))
			for i, w := range hist {
				if !known(w) {
					w = c.Unk
				}
				h[i] = w
			}
			hist = h
		}
	}
	return c.logprob(word, hist)
}

func (c *ConstArpa) logprob(word int32, hist []int32) float32 {
	if len(hist) == 0 {
		if word < 0 || word >= c.NumWords || c.unigram[word] < 0 {
			return constArpaNoProb
		}
		return f32bits(c.states[c.unigram[word]])
	}
	var backoff float32
	if st := c.lmState(hist); st >= 0 {
		if info, ok := c.childInfo(word, st); ok {
			if info%2 == 0 {
				return f32bits(info)
			}
			pos, _ := c.child(st, info)
			return f32bits(c.states[pos])
		}
		backoff = f32bits(c.states[st+1])
	}
	return backoff + c.logprob(word, hist[1:])
}

// HistoryStateExists tells whether hist has successors, i.e. is a state
// of the model as an FST (Kaldi's HistoryStateExists): the empty history,
// or one with a record that has children.
func (c *ConstArpa) HistoryStateExists(hist []int32) bool {
	if len(hist) == 0 {
		return true
	}
	st := c.lmState(hist)
	return st >= 0 && c.states[st+2] > 0
}

// ConstArpaFst is the model as a deterministic on-demand FST over word
// sequences (Kaldi's ConstArpaLmDeterministicFst): a state is a history of
// at most Order−1 words, trimmed from the left until it is a history state
// of the model; arcs are discovered by GetArc. It is not safe for
// concurrent use; make one per lattice (Kaldi does, so that its state table
// does not grow without bound).
type ConstArpaFst struct {
	lm     *ConstArpa
	states [][]int32
	index  map[string]int32
	key    []byte
}

// NewConstArpaFst wraps lm; the start state is the history "<s>".
func NewConstArpaFst(lm *ConstArpa) *ConstArpaFst {
	f := &ConstArpaFst{lm: lm, index: map[string]int32{}}
	f.states = append(f.states, []int32{lm.Bos})
	f.index[f.keyOf(f.states[0])] = 0
	return f
}

func (f *ConstArpaFst) keyOf(ws []int32) string {
	f.key = f.key[:0]
	for _, w := range ws {
		f.key = binary.LittleEndian.AppendUint32(f.key, uint32(w))
	}
	return string(f.key)
}

// Start is the start state.
func (f *ConstArpaFst) Start() int32 { return 0 }

// Final is the cost of "</s>" after state s's history.
func (f *ConstArpaFst) Final(s int32) float32 {
	return -f.lm.NgramLogprob(f.lm.Eos, f.states[s])
}

// GetArc returns the arc reading word from state s: its cost (the negated
// log probability) and destination; ok is false when the word has no
// probability.
func (f *ConstArpaFst) GetArc(s int32, word int32) (next int32, cost float32, ok bool) {
	wseq := f.states[s]
	lp := f.lm.NgramLogprob(word, wseq)
	if lp == constArpaNoProb {
		return 0, 0, false
	}
	h := make([]int32, 0, len(wseq)+1)
	h = append(append(h, wseq...), word)
	for len(h) >= int(f.lm.Order) && len(h) > 0 {
		h = h[1:]
	}
	for !f.lm.HistoryStateExists(h) {
		h = h[1:]
	}
	k := f.keyOf(h)
	id, found := f.index[k]
	if !found {
		id = int32(len(f.states))
		f.states = append(f.states, h)
		f.index[k] = id
	}
	return id, -lp, true
}

// NumStates is how many states GetArc has discovered so far.
func (f *ConstArpaFst) NumStates() int { return len(f.states) }
