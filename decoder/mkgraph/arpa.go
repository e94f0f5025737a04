package mkgraph

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/strode-asr/strode/decoder/fst"
	"github.com/strode-asr/strode/decoder/fstalg"
)

// ErrArpa is wrapped by ARPA parsing errors, which also name the file
// and line.
var ErrArpa = errors.New("bad ARPA language model")

// ArpaOptions are arpa2fst's options, with its defaults.
type ArpaOptions struct {
	// DisambigSymbol labels the input of back-off arcs (--disambig-symbol;
	// mkgraph.sh's recipes use "#0"); empty puts epsilon there.
	DisambigSymbol string
	BosSymbol      string // --bos-symbol ("<s>")
	EosSymbol      string // --eos-symbol ("</s>")
	// MapOov maps words missing from the symbol table to this word
	// (--map-oov); empty skips n-grams with such words, with a warning.
	MapOov string
}

// DefaultArpaOptions are arpa2fst's defaults.
func DefaultArpaOptions() ArpaOptions {
	return ArpaOptions{BosSymbol: "<s>", EosSymbol: "</s>"}
}

// Register adds the options under arpa2fst's names.
func (o *ArpaOptions) Register(fs *flag.FlagSet) {
	fs.StringVar(&o.DisambigSymbol, "disambig-symbol", o.DisambigSymbol, "Back-off arcs read this symbol instead of <eps> (e.g. #0)")
	fs.StringVar(&o.BosSymbol, "bos-symbol", o.BosSymbol, "Beginning of sentence symbol")
	fs.StringVar(&o.EosSymbol, "eos-symbol", o.EosSymbol, "End of sentence symbol")
	fs.StringVar(&o.MapOov, "map-oov", o.MapOov, "Map words not in the symbol table to this one (default: skip n-grams containing them, with a warning)")
}

// ArpaToFst compiles an ARPA back-off n-gram model read from r into the
// grammar FST G, as Kaldi's arpa2fst (ArpaLmCompiler): one state per
// history, the start state is the history "<s>", "</s>" becomes final
// weights, the highest-order n-grams go straight to the state of their
// tail, and each history backs off to its longest existing suffix on an arc
// reading the disambiguation symbol (or epsilon) with the back-off weight.
// Probabilities are log10 in the file and natural-log costs in G. States
// whose only arc is the back-off arc are bypassed (RemoveRedundantStates),
// and arcs are sorted by input label, as arpa2fst writes them.
//
// words maps words to labels; words missing from it are handled by
// MapOov. When words is nil a table is built (<eps> 0, then the words in
// order of appearance, then the disambiguation symbol) and returned.
// name labels errors; warn (may be nil) receives warnings.
func ArpaToFst(r io.Reader, name string, words *fst.SymbolTable, opt ArpaOptions, warn func(string)) (*fst.VectorFst, *fst.SymbolTable, error) {
	if warn == nil {
		warn = func(string) {}
	}
	c := &arpaCompiler{name: name, opt: opt, warn: warn, words: words, g: fst.NewVectorFst(), hist: map[string]fst.StateID{}}
	if words == nil {
		c.words = fst.NewSymbolTable(name)
		c.adding = true
		if err := c.words.Add("<eps>", 0); err != nil {
			return nil, nil, err
		}
	}
	if err := c.parse(r); err != nil {
		return nil, nil, err
	}
	if c.adding && opt.DisambigSymbol != "" {
		if _, ok := c.words.Key(opt.DisambigSymbol); !ok {
			if err := c.words.Add(opt.DisambigSymbol, c.words.AvailableKey()); err != nil {
				return nil, nil, err
			}
		}
		c.fixDisambig()
	}
	if c.g.Start == fst.NoState {
		return nil, nil, fmt.Errorf("%w: %s: no %s unigram (the start state)", ErrArpa, name, opt.BosSymbol)
	}
	removeRedundantStates(c.g, c.backoffLabel)
	fst.ArcSortInput(c.g) // arpa2fst writes G input-sorted
	return c.g, c.words, nil
}

type arpaCompiler struct {
	name   string
	opt    ArpaOptions
	warn   func(string)
	words  *fst.SymbolTable
	adding bool
	g      *fst.VectorFst
	hist   map[string]fst.StateID
	counts []int // from \data\
	line   int

	bos, eos     fst.Label
	backoffLabel fst.Label
	pendingBack  []int // arcs (state, index) whose back-off label is fixed at the end
	pendingState []fst.StateID
	warned       int
}

func (c *arpaCompiler) errf(format string, args ...any) error {
	return fmt.Errorf("%w: %s:%d: %s", ErrArpa, c.name, c.line, fmt.Sprintf(format, args...))
}

func (c *arpaCompiler) warnf(format string, args ...any) {
	c.warned++
	if c.warned <= 30 {
		c.warn(fmt.Sprintf("%s:%d: %s", c.name, c.line, fmt.Sprintf(format, args...)))
	}
}

// label returns the label of a word, adding it when building the table;
// ok is false for an OOV that is to be skipped.
func (c *arpaCompiler) label(w string) (fst.Label, bool, error) {
	if k, ok := c.words.Key(w); ok {
		return fst.Label(k), true, nil
	}
	if c.adding {
		k := c.words.AvailableKey()
		if err := c.words.Add(w, k); err != nil {
			return 0, false, err
		}
		return fst.Label(k), true, nil
	}
	if c.opt.MapOov != "" {
		k, ok := c.words.Key(c.opt.MapOov)
		if !ok {
			return 0, false, c.errf("--map-oov word %q is not in the symbol table", c.opt.MapOov)
		}
		return fst.Label(k), true, nil
	}
	return 0, false, nil
}

func (c *arpaCompiler) parse(r io.Reader) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	section := -1 // -1 before \data\, 0 in \data\, n in \n-grams:, -2 after \end\
	read := 0
	for sc.Scan() {
		c.line++
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		switch {
		case line == `\data\`:
			if section != -1 {
				return c.errf(`\data\ section appears twice`)
			}
			section = 0
			continue
		case line == `\end\`:
			if section < 1 {
				return c.errf(`\end\ before any n-gram section`)
			}
			if read < c.counts[section-1] {
				c.warnf("%d-gram section has %d n-grams, the header said %d", section, read, c.counts[section-1])
			}
			section = -2
			continue
		case strings.HasPrefix(line, `\`) && strings.HasSuffix(line, "-grams:"):
			n, err := strconv.Atoi(line[1 : len(line)-len("-grams:")])
			if err != nil || n < 1 || n > len(c.counts) {
				return c.errf("bad section header %q (the header declares %d orders)", line, len(c.counts))
			}
			if n != section+1 {
				return c.errf("section %q out of order", line)
			}
			if section >= 1 && read < c.counts[section-1] {
				c.warnf("%d-gram section has %d n-grams, the header said %d", section, read, c.counts[section-1])
			}
			if section == 0 {
				if err := c.start(); err != nil {
					return err
				}
			}
			section, read = n, 0
			continue
		}
		switch {
		case section == -1:
			continue // text before \data\ is ignored, as Kaldi does
		case section == -2:
			return c.errf("text after \\end\\: %q", line)
		case section == 0:
			rest, ok := strings.CutPrefix(line, "ngram ")
			if !ok {
				return c.errf(`expected "ngram N=COUNT" in \data\, got %q`, line)
			}
			ns, cs, ok := strings.Cut(strings.TrimSpace(rest), "=")
			n, err1 := strconv.Atoi(strings.TrimSpace(ns))
			cnt, err2 := strconv.Atoi(strings.TrimSpace(cs))
			if !ok || err1 != nil || err2 != nil || n != len(c.counts)+1 || cnt < 0 {
				return c.errf("bad n-gram count line %q", line)
			}
			c.counts = append(c.counts, cnt)
		default:
			read++
			if read > c.counts[section-1] {
				return c.errf("more %d-grams than the header's %d", section, c.counts[section-1])
			}
			if err := c.ngram(line, section); err != nil {
				return err
			}
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%w: %s:%d: %w", ErrArpa, c.name, c.line, err)
	}
	if section != -2 {
		return c.errf(`missing \end\`)
	}
	return nil
}

// start sets up the compiler once the header is read: the 0-gram state.
func (c *arpaCompiler) start() error {
	if len(c.counts) == 0 {
		return c.errf(`\data\ declares no n-gram orders`)
	}
	var ok bool
	var err error
	if c.bos, ok, err = c.label(c.opt.BosSymbol); err != nil || !ok {
		return c.errf("beginning-of-sentence symbol %q is not in the symbol table", c.opt.BosSymbol)
	}
	if c.eos, ok, err = c.label(c.opt.EosSymbol); err != nil || !ok {
		return c.errf("end-of-sentence symbol %q is not in the symbol table", c.opt.EosSymbol)
	}
	if c.opt.DisambigSymbol != "" {
		if k, found := c.words.Key(c.opt.DisambigSymbol); found {
			c.backoffLabel = fst.Label(k)
		} else if !c.adding {
			return c.errf("disambiguation symbol %q is not in the symbol table", c.opt.DisambigSymbol)
		} else {
			c.backoffLabel = -1 // fixed once the table is complete
		}
	}
	c.hist[""] = c.g.AddState()
	return nil
}

var ln10 = float32(math.Log(10))

// ngram consumes one line "logprob w1 .. wn [backoff]".
func (c *arpaCompiler) ngram(line string, order int) error {
	f := strings.Fields(line)
	if len(f) != order+1 && len(f) != order+2 {
		return c.errf("a %d-gram line needs %d or %d fields, got %d: %q", order, order+1, order+2, len(f), line)
	}
	lp, err := strconv.ParseFloat(f[0], 32)
	if err != nil || math.IsNaN(lp) || lp > 0 {
		return c.errf("bad log-probability %q", f[0])
	}
	backoff := 0.0
	if len(f) == order+2 {
		if backoff, err = strconv.ParseFloat(f[order+1], 32); err != nil || math.IsNaN(backoff) || math.IsInf(backoff, 0) {
			return c.errf("bad back-off weight %q", f[order+1])
		}
	}
	words := make([]fst.Label, order)
	for i, w := range f[1 : order+1] {
		l, ok, err := c.label(w)
		if err != nil {
			return err
		}
		if !ok {
			c.warnf("skipped: word %q is not in the symbol table", w)
			return nil
		}
		words[i] = l
	}
	for i, w := range words {
		if (i > 0 && w == c.bos) || (i+1 < len(words) && w == c.eos) {
			c.warnf("skipped: n-gram has invalid BOS/EOS placement")
			return nil
		}
	}
	// Costs in float, as Kaldi: -(log10 p · ln 10).
	cost := -float32(lp) * ln10
	bcost := -float32(backoff) * ln10
	isHighest := order == len(c.counts)
	src, ok := c.hist[histKey(words[:order-1])]
	if !ok {
		c.warnf("skipped: no parent (n-1)-gram exists")
		return nil
	}
	sym := words[order-1]
	if sym == c.eos {
		// </s> is the final weight of its history.
		c.g.SetFinal(src, cost)
		return nil
	}
	destKey := words
	if isHighest {
		destKey = words[1:]
	}
	dest := c.stateWithBackoff(destKey, bcost)
	if sym == c.bos {
		c.g.Start = dest // the <s> history is the start; reading <s> is free
		return nil
	}
	c.g.AddArc(src, fst.Arc{ILabel: sym, OLabel: sym, Weight: cost, NextState: dest})
	return nil
}

func histKey(ws []fst.Label) string {
	var b strings.Builder
	for _, w := range ws {
		b.WriteString(strconv.Itoa(int(w)))
		b.WriteByte(' ')
	}
	return b.String()
}

// stateWithBackoff finds or makes the state of a history, with its
// back-off arc to the longest suffix history that exists.
func (c *arpaCompiler) stateWithBackoff(key []fst.Label, bcost float32) fst.StateID {
	k := histKey(key)
	if s, ok := c.hist[k]; ok {
		return s
	}
	s := c.g.AddState()
	c.hist[k] = s
	tail := key[1:]
	for {
		if t, ok := c.hist[histKey(tail)]; ok {
			c.g.AddArc(s, fst.Arc{ILabel: c.backoffLabel, OLabel: 0, Weight: bcost, NextState: t})
			if c.backoffLabel == -1 {
				c.pendingState = append(c.pendingState, s)
				c.pendingBack = append(c.pendingBack, len(c.g.States[s].Arcs)-1)
			}
			return s
		}
		tail = tail[1:]
	}
}

// fixDisambig labels the back-off arcs once the disambiguation symbol has
// its key (when the symbol table was built from the ARPA words).
func (c *arpaCompiler) fixDisambig() {
	k, _ := c.words.Key(c.opt.DisambigSymbol)
	c.backoffLabel = fst.Label(k)
	for i, s := range c.pendingState {
		c.g.States[s].Arcs[c.pendingBack[i]].ILabel = c.backoffLabel
	}
}

// removeRedundantStates bypasses states that are not final and whose only
// arc is the back-off arc, as Kaldi's ArpaLmCompiler::RemoveRedundantStates
// (relabel that arc to epsilon, then local epsilon removal).
func removeRedundantStates(g *fst.VectorFst, backoff fst.Label) {
	if backoff == 0 {
		return // Kaldi skips this without a disambiguation symbol
	}
	for s := range g.States {
		st := &g.States[s]
		if len(st.Arcs) == 1 && st.Final == fst.WeightZero && st.Arcs[0].ILabel == backoff {
			st.Arcs[0].ILabel = 0
		}
	}
	fstalg.RemoveEpsLocal(g)
}
