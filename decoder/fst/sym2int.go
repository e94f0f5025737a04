package fst

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// ErrOOV is wrapped when a transcript word is not in the symbol table and
// no OOV symbol was given.
var ErrOOV = errors.New("word not in the symbol table")

// FieldRange is utils/sym2int.pl's -f argument: 1-based fields from First
// to Last inclusive (Last 0 means to the end of the line), e.g. "2-".
type FieldRange struct{ First, Last int }

// ParseFieldRange parses "2-", "1-3" or "2".
func ParseFieldRange(s string) (FieldRange, error) {
	a, b, dash := strings.Cut(s, "-")
	first, err := strconv.Atoi(a)
	if err != nil || first < 1 {
		return FieldRange{}, fmt.Errorf("bad field range %q", s)
	}
	if !dash {
		return FieldRange{first, first}, nil
	}
	if b == "" {
		return FieldRange{first, 0}, nil
	}
	last, err := strconv.Atoi(b)
	if err != nil || last < first {
		return FieldRange{}, fmt.Errorf("bad field range %q", s)
	}
	return FieldRange{first, last}, nil
}

func (r FieldRange) has(i int) bool { return i >= r.First && (r.Last == 0 || i <= r.Last) }

// SymbolMapper maps the words of transcripts to integer ids, as Kaldi's
// utils/sym2int.pl: a word missing from the table becomes the OOV symbol
// (e.g. "<UNK>" from the lang dir's oov.txt) when one is set, and is an
// error naming the utterance and line otherwise.
type SymbolMapper struct {
	Table *SymbolTable
	// OOV is --map-oov: a symbol of the table, or an integer id, which is
	// written as it is (Kaldi's scripts pass the lang's oov.int, since a
	// symbol such as <UNK> cannot stand unquoted in an rspecifier pipe);
	// empty means unknown words are errors.
	OOV string
	// Fields selects the fields mapped (default all; "2-" for Kaldi text).
	Fields FieldRange
	// NumOOV counts the words mapped to OOV.
	NumOOV int
}

// MapLine maps one line's fields; line is the 1-based line number for
// error messages.
func (m *SymbolMapper) MapLine(fields []string, name string, line int) ([]string, error) {
	out := make([]string, len(fields))
	for i, f := range fields {
		if !m.Fields.has(i + 1) {
			out[i] = f
			continue
		}
		id, ok := m.Table.Key(f)
		if !ok {
			if m.OOV == "" {
				return nil, fmt.Errorf("%w: %s line %d (utterance %s): undefined symbol %q in field %d", ErrOOV, name, line, fields[0], f, i+1)
			}
			if id, ok = m.Table.Key(m.OOV); !ok {
				n, err := strconv.ParseInt(m.OOV, 10, 64)
				if err != nil || n < 0 {
					return nil, fmt.Errorf("%w: the OOV symbol %q itself is not in the table", ErrOOV, m.OOV)
				}
				id = n
			}
			m.NumOOV++
		}
		out[i] = strconv.FormatInt(id, 10)
	}
	return out, nil
}

// MapText maps every line of r to w.
func (m *SymbolMapper) MapText(r io.Reader, w io.Writer, name string) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	bw := bufio.NewWriter(w)
	for line := 1; sc.Scan(); line++ {
		out, err := m.MapLine(strings.Fields(sc.Text()), name, line)
		if err != nil {
			return err
		}
		bw.WriteString(strings.Join(out, " "))
		bw.WriteByte('\n')
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return bw.Flush()
}
