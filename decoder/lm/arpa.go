package lm

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"math"
	"math/bits"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// formatLogP formats a log10 value as SRILM's ARPA writer does: %.7g, with
// log 0 written as -99.
func formatLogP(b []byte, x float32) []byte {
	if math.IsInf(float64(x), -1) {
		x = PseudoZero
	}
	return strconv.AppendFloat(b, float64(x), 'g', 7, 32)
}

// WriteARPA writes the model as an ARPA back-off file, laid out as SRILM's
// Ngram::writeWithOrder: a blank line, \data\ with the n-gram counts, one
// section per order with "logprob<TAB>w1 .. wn[<TAB>backoff]" lines (the
// weight on the n-grams that are contexts), \end\. Within a section the
// n-grams are sorted as SRILM's trie walk sorts them: by the words of the
// context from the most recent back, then by the last word.
func (m *Model) WriteARPA(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	fmt.Fprintf(bw, "\n\\data\\\n")
	for n := 1; n <= m.Order; n++ {
		fmt.Fprintf(bw, "ngram %d=%d\n", n, m.NumNgrams(n))
	}
	rank := m.wordRanks()
	var line []byte
	var ws []int32
	for k := 0; k < m.Order; k++ {
		fmt.Fprintf(bw, "\n\\%d-grams:\n", k+1)
		ids := m.sortedLevel(k, rank)
		for _, id := range ids {
			line = formatLogP(line[:0], m.prob[k][id])
			line = append(line, '\t')
			ws = m.t.words(k, id, ws)
			for i, wid := range ws {
				if i > 0 {
					line = append(line, ' ')
				}
				line = append(line, m.Vocab.words[wid]...)
			}
			if k < m.Order-1 && m.hasBow[k][id] {
				line = append(line, '\t')
				line = formatLogP(line, m.bow[k][id])
			}
			line = append(line, '\n')
			if _, err := bw.Write(line); err != nil {
				return err
			}
		}
	}
	fmt.Fprintf(bw, "\n\\end\\\n")
	return bw.Flush()
}

// wordRanks orders the vocabulary by the bytes of the words (strcmp).
func (m *Model) wordRanks() []int32 {
	order := make([]int32, len(m.Vocab.words))
	for i := range order {
		order[i] = int32(i)
	}
	sort.Slice(order, func(a, b int) bool { return m.Vocab.words[order[a]] < m.Vocab.words[order[b]] })
	rank := make([]int32, len(order))
	for r, id := range order {
		rank[id] = int32(r)
	}
	return rank
}

// sortedLevel returns the ids of the level-k n-grams that have
// probabilities, in SRILM's output order.
func (m *Model) sortedLevel(k int, rank []int32) []int32 {
	var ids []int32
	for id := range m.prob[k] {
		if m.has(k, int32(id)) {
			ids = append(ids, int32(id))
		}
	}
	// Sort key: context words most recent first, then the word. Packed into
	// a uint64 when the ranks fit (orders up to 3 for vocabularies under
	// 2^21 words), else compared word by word.
	nb := bits.Len(uint(len(rank)))
	if (k+1)*nb <= 64 {
		type pair struct {
			key uint64
			id  int32
		}
		ps := make([]pair, len(ids))
		var ws []int32
		for i, id := range ids {
			ws = m.t.words(k, id, ws)
			var key uint64
			for j := 0; j < k; j++ {
				key = key<<nb | uint64(rank[ws[k-1-j]])
			}
			ps[i] = pair{key<<nb | uint64(rank[ws[k]]), id}
		}
		slices.SortFunc(ps, func(a, b pair) int { return cmp.Compare(a.key, b.key) })
		for i, p := range ps {
			ids[i] = p.id
		}
		return ids
	}
	keys := make([]int32, len(ids)*(k+1))
	var ws []int32
	for i, id := range ids {
		ws = m.t.words(k, id, ws)
		key := keys[i*(k+1) : (i+1)*(k+1)]
		for j := 0; j < k; j++ {
			key[j] = rank[ws[k-1-j]]
		}
		key[k] = rank[ws[k]]
	}
	idx := make([]int, len(ids))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool {
		ka, kb := keys[idx[a]*(k+1):(idx[a]+1)*(k+1)], keys[idx[b]*(k+1):(idx[b]+1)*(k+1)]
		for j := range ka {
			if ka[j] != kb[j] {
				return ka[j] < kb[j]
			}
		}
		return false
	})
	out := make([]int32, len(ids))
	for i, j := range idx {
		out[i] = ids[j]
	}
	return out
}

// ReadOptions control ReadARPA.
type ReadOptions struct {
	// Order is the highest order to read (ngram -order); 0 reads all.
	Order int
	// Unk names the unknown word ("" is <unk>; -map-unk); UnkIsWord
	// (-unk) makes it an ordinary word.
	Unk       string
	UnkIsWord bool
	// Warn, when not nil, receives warnings about the file.
	Warn func(string)
}

// ReadARPA reads an ARPA back-off model, as SRILM's Ngram::read: text
// before \data\ is ignored; sections above opt.Order are skipped; an n-gram
// whose prefix is not listed is skipped with a warning (nothing could reach
// it). Errors name the file (name) and line.
func ReadARPA(r io.Reader, name string, opt ReadOptions) (*Model, error) {
	warn := opt.Warn
	if warn == nil {
		warn = func(string) {}
	}
	br := bufio.NewReaderSize(r, 1<<20)
	lineNo := 0
	errf := func(format string, a ...any) error {
		return fmt.Errorf("%w: ARPA file %s:%d: %s", ErrInput, name, lineNo, fmt.Sprintf(format, a...))
	}
	var declared []int // ngram n= counts
	read := []int{}
	var m *Model
	section := -1 // -1 before \data\, 0 in \data\, n in \n-grams:
	warnedUnk := false
	var ids []int32
	for {
		s, rerr := br.ReadString('\n')
		if rerr != nil && rerr != io.EOF {
			return nil, fmt.Errorf("%w: reading ARPA file %s:%d: %w", ErrInput, name, lineNo+1, rerr)
		}
		if rerr == io.EOF && s == "" {
			break
		}
		lineNo++
		line := strings.TrimSpace(s)
		if line == "" {
			if rerr == io.EOF {
				break
			}
			continue
		}
		switch {
		case section == -1:
			if strings.HasPrefix(line, `\data\`) {
				section = 0
			}
		case line == `\end\`:
			if m == nil {
				return nil, errf(`\end\ before any n-gram section`)
			}
			for n := 1; n <= len(declared) && n <= m.Order; n++ {
				if read[n-1] != declared[n-1] {
					warn(fmt.Sprintf("%s:%d: warning: %d %d-grams read, expected %d", name, lineNo, read[n-1], n, declared[n-1]))
				}
			}
			return m, nil
		case strings.HasPrefix(line, `\`) && strings.HasSuffix(line, "-grams:"):
			n, err := strconv.Atoi(line[1 : len(line)-len("-grams:")])
			if err != nil || n < 1 || n > len(declared) {
				return nil, errf("invalid ngram order in %q (the header declares %d orders)", line, len(declared))
			}
			if m == nil {
				order := len(declared)
				if opt.Order > 0 && opt.Order < order {
					order = opt.Order
				}
				m = newModel(NewVocab(opt.Unk, opt.UnkIsWord), order)
			}
			section = n
		case section == 0:
			rest, ok := strings.CutPrefix(line, "ngram ")
			ns, cs, ok2 := strings.Cut(strings.TrimSpace(rest), "=")
			n, err1 := strconv.Atoi(strings.TrimSpace(ns))
			cnt, err2 := strconv.Atoi(strings.TrimSpace(cs))
			if !ok || !ok2 || err1 != nil || err2 != nil || n != len(declared)+1 || cnt < 0 {
				return nil, errf("expected \"ngram %d=COUNT\" in \\data\\, got %q", len(declared)+1, line)
			}
			declared = append(declared, cnt)
			read = append(read, 0)
		case section > m.Order:
			continue // above the order in use
		default:
			f := strings.Fields(line)
			n := section
			if len(f) != n+1 && len(f) != n+2 {
				return nil, errf("a %d-gram line needs %d or %d fields, got %d: %q", n, n+1, n+2, len(f), line)
			}
			lp, err := strconv.ParseFloat(f[0], 64)
			if err != nil || math.IsNaN(lp) || lp > 0 {
				return nil, errf("bad log-probability %q", f[0])
			}
			var bow float64
			hasBow := len(f) == n+2
			if hasBow {
				if bow, err = strconv.ParseFloat(f[n+1], 64); err != nil || math.IsNaN(bow) || math.IsInf(bow, 1) {
					return nil, errf("bad back-off weight %q", f[n+1])
				}
				if n == len(declared) && bow != 0 {
					warn(fmt.Sprintf("%s:%d: warning: ignoring non-zero bow %q for maximal ngram", name, lineNo, f[n+1]))
				}
			}
			read[n-1]++
			ids = ids[:0]
			for _, w := range f[1 : n+1] {
				ids = append(ids, m.Vocab.Add(w))
			}
			ctx := int32(-1)
			if n > 1 {
				c, ok := m.t.lookup(ids[:n-1])
				if !ok {
					warn(fmt.Sprintf("%s:%d: warning: no probability for prefix of ngram %q; skipped", name, lineNo, strings.Join(f[1:n+1], " ")))
					continue
				}
				ctx = c
			}
			w := ids[n-1]
			if !warnedUnk && w == m.Vocab.unk && !m.Vocab.unkIsWord && lp != LogZero && lp > PseudoZero {
				warn(fmt.Sprintf("%s:%d: warning: non-zero probability for %s in closed-vocabulary LM", name, lineNo, m.Vocab.words[w]))
				warnedUnk = true
			}
			id := m.entry(n-1, ctx, w)
			m.prob[n-1][id] = float32(lp)
			if hasBow && n < m.Order {
				m.bow[n-1][id] = float32(bow)
				m.hasBow[n-1][id] = true
			}
		}
		if rerr == io.EOF {
			break
		}
	}
	if section == -1 {
		return nil, errf(`no \data\ section`)
	}
	return nil, errf(`reached EOF before \end\`)
}
