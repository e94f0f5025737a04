package fst

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// AT&T text form of an FST, as OpenFst's fstprint writes and fstcompile
// reads, and as Kaldi writes FSTs in text archives:
//
//	src dst ilabel olabel [weight]    (an arc; weight omitted when One)
//	state [weight]                    (a final state)
//
// The start state's lines come first; the other states follow in order.

// TextOptions controls the text form.
type TextOptions struct {
	// ISymbols / OSymbols print or parse labels as symbols when set.
	ISymbols, OSymbols *SymbolTable
	// Acceptor writes "src dst label [weight]" (only when every arc has
	// ilabel == olabel) and reads 3- or 4-field arc lines as acceptor arcs.
	Acceptor bool
	// Precision is the number of significant digits of weights: 6 is C++'s
	// default stream precision (Kaldi's text archives), 9 round-trips any
	// float32 exactly. 0 means 6.
	Precision int
	// MaxStates bounds the state numbers a text FST may use (0 means
	// 1<<26); the reader also refuses more than max(2^16, 4 × lines) states,
	// so a typo cannot allocate gigabytes.
	MaxStates int
}

// FormatWeight prints a tropical weight as C++ streams do at precision prec
// ("Infinity" for Zero).
func FormatWeight(w float32, prec int) string {
	switch {
	case math.IsInf(float64(w), 1):
		return "Infinity"
	case math.IsInf(float64(w), -1):
		return "-Infinity"
	case math.IsNaN(float64(w)):
		return "BadNumber"
	}
	if prec <= 0 {
		prec = 6
	}
	return strconv.FormatFloat(float64(w), 'g', prec, 32)
}

// ParseWeight parses a weight as OpenFst's text reader does.
func ParseWeight(s string) (float32, error) {
	switch s {
	case "Infinity", "inf", "+inf", "INF", "+Infinity":
		return WeightZero, nil
	case "-Infinity", "-inf":
		return float32(math.Inf(-1)), nil
	}
	v, err := strconv.ParseFloat(s, 32)
	if err != nil {
		return 0, fmt.Errorf("bad weight %q", s)
	}
	return float32(v), nil
}

// WriteText writes f in AT&T text form.
func WriteText(w io.Writer, f *VectorFst, opt TextOptions) error {
	bw := bufio.NewWriter(w)
	label := func(l Label, st *SymbolTable) string {
		if st != nil {
			if s, ok := st.Symbol(int64(l)); ok {
				return s
			}
		}
		return strconv.Itoa(int(l))
	}
	state := func(s StateID) {
		for _, a := range f.States[s].Arcs {
			bw.WriteString(strconv.Itoa(int(s)))
			bw.WriteByte('\t')
			bw.WriteString(strconv.Itoa(int(a.NextState)))
			bw.WriteByte('\t')
			bw.WriteString(label(a.ILabel, opt.ISymbols))
			if !opt.Acceptor {
				bw.WriteByte('\t')
				bw.WriteString(label(a.OLabel, opt.OSymbols))
			}
			if a.Weight != WeightOne {
				bw.WriteByte('\t')
				bw.WriteString(FormatWeight(a.Weight, opt.Precision))
			}
			bw.WriteByte('\n')
		}
		if fw := f.States[s].Final; fw != WeightZero {
			bw.WriteString(strconv.Itoa(int(s)))
			if fw != WeightOne {
				bw.WriteByte('\t')
				bw.WriteString(FormatWeight(fw, opt.Precision))
			}
			bw.WriteByte('\n')
		}
	}
	if f.Start != NoState {
		state(f.Start)
		for s := range f.States {
			if StateID(s) != f.Start {
				state(StateID(s))
			}
		}
	}
	return bw.Flush()
}

// TextReader reads AT&T text FSTs line by line, keeping the state
// numbers of the text (Kaldi's convention). The first line's source state
// is the start state.
type TextReader struct {
	sc   *bufio.Scanner
	line int
	Name string
	opt  TextOptions
}

// NewTextReader reads from r; name labels errors.
func NewTextReader(r io.Reader, name string, opt TextOptions) *TextReader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	return &TextReader{sc: sc, Name: name, opt: opt}
}

// Line is the number of the last line read.
func (tr *TextReader) Line() int { return tr.line }

// ReadAll reads every line to the end of input as one FST.
func (tr *TextReader) ReadAll() (*VectorFst, error) { return tr.read(false) }

// ReadUntilBlank reads lines up to an empty line or the end of input (one
// FST of a Kaldi text archive). It returns io.EOF when no line was left.
func (tr *TextReader) ReadUntilBlank() (*VectorFst, error) { return tr.read(true) }

func (tr *TextReader) errorf(format string, a ...any) error {
	return fmt.Errorf("%w: %s line %d: %s", ErrBadFst, tr.Name, tr.line, fmt.Sprintf(format, a...))
}

// defaultMaxTextStates is TextOptions.MaxStates' default.
const defaultMaxTextStates = 1 << 26

func (tr *TextReader) read(stopAtBlank bool) (*VectorFst, error) {
	// Lines are parsed first and states allocated at the end, so that the
	// number of states can be bounded by the size of the input: a state
	// number far beyond what the lines could describe is an error, not a
	// gigabyte allocation.
	type entry struct {
		src   StateID
		final bool
		arc   Arc // arc, or arc.Weight as the final weight
	}
	var entries []entry
	maxID, maxLine := int64(-1), 0
	sawLine := false
	state := func(s string) (int64, error) {
		v, err := strconv.ParseInt(s, 10, 32)
		if err != nil || v < 0 {
			return 0, tr.errorf("bad state %q", s)
		}
		if v > maxID {
			maxID, maxLine = v, tr.line
		}
		return v, nil
	}
	parseLabel := func(s string, st *SymbolTable) (Label, error) {
		if st != nil {
			if k, ok := st.Key(s); ok {
				return Label(k), nil
			}
		}
		v, err := strconv.ParseInt(s, 10, 32)
		if err != nil {
			return 0, tr.errorf("bad label %q", s)
		}
		return Label(v), nil
	}
	for tr.sc.Scan() {
		tr.line++
		fields := strings.Fields(tr.sc.Text())
		if len(fields) == 0 {
			if stopAtBlank && sawLine {
				break
			}
			continue
		}
		sawLine = true
		src, err := state(fields[0])
		if err != nil {
			return nil, err
		}
		n := len(fields)
		switch {
		case n <= 2: // final state
			w := WeightOne
			if n == 2 {
				if w, err = ParseWeight(fields[1]); err != nil {
					return nil, tr.errorf("%v", err)
				}
			}
			entries = append(entries, entry{src: StateID(src), final: true, arc: Arc{Weight: w}})
		case n <= 5:
			dst, err := state(fields[1])
			if err != nil {
				return nil, err
			}
			a := Arc{NextState: StateID(dst), Weight: WeightOne}
			if a.ILabel, err = parseLabel(fields[2], tr.opt.ISymbols); err != nil {
				return nil, err
			}
			wf := ""
			if tr.opt.Acceptor {
				if n == 5 {
					return nil, tr.errorf("acceptor arc with 5 fields")
				}
				a.OLabel = a.ILabel
				if n == 4 {
					wf = fields[3]
				}
			} else {
				if n == 3 {
					return nil, tr.errorf("transducer arc needs 4 or 5 fields, got 3")
				}
				if a.OLabel, err = parseLabel(fields[3], tr.opt.OSymbols); err != nil {
					return nil, err
				}
				if n == 5 {
					wf = fields[4]
				}
			}
			if wf != "" {
				if a.Weight, err = ParseWeight(wf); err != nil {
					return nil, tr.errorf("%v", err)
				}
			}
			entries = append(entries, entry{src: StateID(src), arc: a})
		default:
			return nil, tr.errorf("%d fields", n)
		}
	}
	if err := tr.sc.Err(); err != nil {
		return nil, fmt.Errorf("%s line %d: %w", tr.Name, tr.line, err)
	}
	if !sawLine && stopAtBlank {
		return nil, io.EOF
	}
	f := NewVectorFst()
	if len(entries) == 0 {
		return f, nil
	}
	limit := int64(tr.opt.MaxStates)
	if limit <= 0 {
		limit = defaultMaxTextStates
	}
	limit = min(limit, max(1<<16, 4*int64(len(entries))+16))
	if maxID >= limit {
		return nil, fmt.Errorf("%w: %s line %d: state %d out of range for %d lines (at most %d states)", ErrBadFst, tr.Name, maxLine, maxID, len(entries), limit)
	}
	f.States = make([]State, maxID+1)
	for i := range f.States {
		f.States[i].Final = WeightZero
	}
	f.Start = entries[0].src
	for _, e := range entries {
		if e.final {
			f.States[e.src].Final = e.arc.Weight
		} else {
			f.States[e.src].Arcs = append(f.States[e.src].Arcs, e.arc)
		}
	}
	return f, nil
}
