package scoring

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"unicode/utf8"
)

// ErrDetailsFormat marks input to the wer_*_details tools that is not what
// the previous tool in score_kaldi.sh's chain writes.
var ErrDetailsFormat = errors.New("invalid scoring details input")

// OpCounts are one utterance's (or speaker's) correct words, substitutions,
// insertions and deletions, as the "#csid" lines of per_utt hold them.
type OpCounts struct {
	C, S, I, D int
}

// Add returns the sum of two counts.
func (a OpCounts) Add(b OpCounts) OpCounts {
	return OpCounts{a.C + b.C, a.S + b.S, a.I + b.I, a.D + b.D}
}

// UttAlignment is one utterance of align-text's output: its aligned word
// pairs, the missing side of an insertion or deletion being the special
// symbol.
type UttAlignment struct {
	Key   string
	Pairs []Pair
}

// Ops classifies every pair as wer_per_utt_details.pl does: "D" when the
// hypothesis is the special symbol (checked first, so a pair of two special
// symbols is a deletion), "I" when the reference is, "S" when the words
// differ, "C" otherwise.
func (a UttAlignment) Ops(special string) ([]string, OpCounts) {
	ops := make([]string, len(a.Pairs))
	var n OpCounts
	for i, p := range a.Pairs {
		switch {
		case p.Hyp == special:
			ops[i] = "D"
			n.D++
		case p.Ref == special:
			ops[i] = "I"
			n.I++
		case p.Ref != p.Hyp:
			ops[i] = "S"
			n.S++
		default:
			ops[i] = "C"
			n.C++
		}
	}
	return ops, n
}

// PerUttOptions are wer_per_utt_details.pl's options with its names and
// defaults.
type PerUttOptions struct {
	SpecialSymbol string // --special-symbol: align-text's symbol for a missing word
	Separator     string // --separator: between align-text's pairs
	Ref, Hyp      bool   // --[no]output-ref, --[no]output-hyp
	Ops, CSID     bool   // --[no]output-ops, --[no]output-csid
}

// DefaultPerUttOptions are the script's defaults: "<eps>", ";" and every
// line printed (score_kaldi.sh passes --special-symbol "'***'", which its
// shell turns into ***).
func DefaultPerUttOptions() PerUttOptions {
	return PerUttOptions{SpecialSymbol: "<eps>", Separator: ";", Ref: true, Hyp: true, Ops: true, CSID: true}
}

// pairSplitter is the script's split(/ *\Q$separator\E */): only spaces,
// not tabs, around the separator are part of it.
func pairSplitter(sep string) *regexp.Regexp {
	return regexp.MustCompile(" *" + regexp.QuoteMeta(sep) + " *")
}

// perlSplit is Perl's split(/re/, s) without a limit: leading empty fields
// are kept, trailing ones dropped.
func perlSplit(re *regexp.Regexp, s string) []string {
	f := re.Split(s, -1)
	for len(f) > 0 && f[len(f)-1] == "" {
		f = f[:len(f)-1]
	}
	return f
}

// splitKey is Perl's split(" ", $line, 2): leading whitespace skipped, the
// first field, then the rest after the whitespace that follows it.
func splitKey(line string) (key, rest string) {
	line = strings.TrimLeft(line, " \t\n\r\f\v")
	i := strings.IndexAny(line, " \t\n\r\f\v")
	if i < 0 {
		return line, ""
	}
	return line[:i], strings.TrimLeft(line[i:], " \t\n\r\f\v")
}

// ParseAlignmentLine reads one line of align-text's text output, "key r1 h1
// ; r2 h2 ; ...", as wer_per_utt_details.pl splits it. Every pair must be
// two words; a line with no pairs is an utterance where both sides were
// empty.
func ParseAlignmentLine(line, separator string) (UttAlignment, error) {
	key, rest := splitKey(line)
	a := UttAlignment{Key: key}
	if rest == "" {
		return a, nil
	}
	for _, p := range perlSplit(pairSplitter(separator), rest) {
		w := strings.Fields(p)
		if len(w) != 2 {
			return a, fmt.Errorf("%w: incompatible entry %q in utterance %s (want a reference and a hypothesis word between separators %q)", ErrDetailsFormat, p, key, separator)
		}
		a.Pairs = append(a.Pairs, Pair{Ref: w[0], Hyp: w[1]})
	}
	return a, nil
}

// cjustify centres s in width characters as the script's cjustify does: the
// odd space goes on the left.
func cjustify(s string, width int) string {
	pad := width - utf8.RuneCountInString(s)
	if pad <= 0 {
		return s
	}
	right := pad / 2
	return strings.Repeat(" ", pad-right) + s + strings.Repeat(" ", right)
}

// WritePerUtt writes the per_utt lines of one utterance:
//
//	UTT ref  word-A   ***   word-C
//	UTT hyp  word-A  word-B   ***
//	UTT op      C       I       D
//	UTT #csid 1 0 1 1
//
// every column as wide as its widest entry (counted in characters, as the
// script reads UTF-8), entries centred, columns two spaces apart.
func (o PerUttOptions) WritePerUtt(w io.Writer, a UttAlignment) error {
	ops, n := a.Ops(o.SpecialSymbol)
	ref := make([]string, len(a.Pairs))
	hyp := make([]string, len(a.Pairs))
	op := make([]string, len(a.Pairs))
	for i, p := range a.Pairs {
		width := max(utf8.RuneCountInString(p.Ref), utf8.RuneCountInString(p.Hyp), 1)
		ref[i], hyp[i], op[i] = cjustify(p.Ref, width), cjustify(p.Hyp, width), cjustify(ops[i], width)
	}
	var b strings.Builder
	if o.Ref {
		fmt.Fprintf(&b, "%s ref  %s\n", a.Key, strings.Join(ref, "  "))
	}
	if o.Hyp {
		fmt.Fprintf(&b, "%s hyp  %s\n", a.Key, strings.Join(hyp, "  "))
	}
	if o.Ops {
		fmt.Fprintf(&b, "%s op   %s\n", a.Key, strings.Join(op, "  "))
	}
	if o.CSID {
		fmt.Fprintf(&b, "%s #csid %d %d %d %d\n", a.Key, n.C, n.S, n.I, n.D)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// lineScanner reads text lines of any length, numbering them for errors.
type lineScanner struct {
	r    *bufio.Reader
	name string
	line int
	text string
	err  error
}

func newLineScanner(r io.Reader, name string) *lineScanner {
	return &lineScanner{r: bufio.NewReader(r), name: name}
}

// scan reads the next line, without its newline (Perl's chomp).
func (s *lineScanner) scan() bool {
	l, err := s.r.ReadString('\n')
	if l == "" && err != nil {
		if err != io.EOF {
			s.err = fmt.Errorf("reading %s: %w", s.name, err)
		}
		return false
	}
	s.line++
	s.text = strings.TrimSuffix(l, "\n")
	return true
}

// errorf names the file and line being read.
func (s *lineScanner) errorf(err error) error {
	return fmt.Errorf("%s line %d: %w", s.name, s.line, err)
}

// WerPerUttDetails is utils/scoring/wer_per_utt_details.pl: it reads
// align-text's text output from r (named name in errors) and writes every
// utterance's ref/hyp/op/#csid lines. Blank lines are skipped.
func WerPerUttDetails(r io.Reader, name string, w io.Writer, o PerUttOptions) error {
	s := newLineScanner(r, name)
	bw := bufio.NewWriter(w)
	for s.scan() {
		if strings.TrimSpace(s.text) == "" {
			continue
		}
		a, err := ParseAlignmentLine(s.text, o.Separator)
		if err != nil {
			return s.errorf(err)
		}
		if err := o.WritePerUtt(bw, a); err != nil {
			return err
		}
	}
	if s.err != nil {
		return s.err
	}
	return bw.Flush()
}
