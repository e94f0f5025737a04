package kaldiio

import (
	"fmt"
	"strconv"
	"strings"
)

// ScpEntry is one line of a script file: "KEY rxfilename" where the
// rxfilename may carry a byte offset ("foo.ark:1234") and an end-inclusive
// range ("foo.ark:1234[0:9]", "[0:9,3:5]", "[:,3:5]").
type ScpEntry struct {
	Key   string
	Rx    string // the rxfilename without the range
	Range string // the text between '[' and ']', or ""
	Line  int    // 1-based line in the script file
}

// ParseScpLine parses one script line as Kaldi's ReadScriptFile and
// ExtractRangeSpecifier do: the key is everything up to the first
// whitespace, the rest (trimmed) is the rxfilename; a rest ending in ']' must
// be "rxfilename[range]".
func ParseScpLine(line string) (ScpEntry, error) {
	line = strings.TrimRight(line, "\r")
	if strings.TrimSpace(line) == "" {
		return ScpEntry{}, fmt.Errorf("%w: empty line in script file", ErrSpecifier)
	}
	i := strings.IndexAny(line, " \t")
	if i <= 0 {
		if i == 0 {
			return ScpEntry{}, fmt.Errorf("%w: script line %q starts with whitespace (no key)", ErrSpecifier, line)
		}
		return ScpEntry{}, fmt.Errorf("%w: script line %q has a key but no file name", ErrSpecifier, line)
	}
	e := ScpEntry{Key: line[:i]}
	rest := strings.TrimSpace(line[i:])
	if rest == "" {
		return ScpEntry{}, fmt.Errorf("%w: script line %q has a key but no file name", ErrSpecifier, line)
	}
	if strings.HasSuffix(rest, "]") {
		parts := strings.Split(rest, "[")
		if len(parts) != 2 || parts[0] == "" || len(parts[1]) < 2 {
			return ScpEntry{}, fmt.Errorf("%w: bad range in script line %q (expected file[r1:r2] or file[r1:r2,c1:c2])", ErrSpecifier, line)
		}
		rest, e.Range = parts[0], parts[1][:len(parts[1])-1]
	}
	if _, err := classifyRx(rest); err != nil {
		return ScpEntry{}, fmt.Errorf("%w: %v", ErrSpecifier, err)
	}
	e.Rx = rest
	return e, nil
}

// Range is a parsed scp range: rows R0..R1 and columns C0..C1, both ends
// inclusive as in Kaldi.
type Range struct {
	R0, R1, C0, C1 int
}

// rangeTolerance: Kaldi accepts a row range ending up to 2 rows past the
// matrix (frame edge effects of segments) and truncates it.
const rangeTolerance = 3

// parseRangePart parses ":" (all) or "a:b".
func parseRangePart(s string, n int) (int, int, bool) {
	if s == ":" {
		return 0, n - 1, true
	}
	ab := strings.Split(s, ":")
	if len(ab) != 2 {
		return 0, 0, false
	}
	a, err1 := strconv.ParseInt(strings.TrimSpace(ab[0]), 10, 32)
	b, err2 := strconv.ParseInt(strings.TrimSpace(ab[1]), 10, 32)
	if err1 != nil || err2 != nil {
		return 0, 0, false
	}
	return int(a), int(b), true
}

// ParseMatrixRange parses "r1:r2" or "r1:r2,c1:c2" (either part may be
// ":") for a rows×cols matrix as Kaldi's ParseMatrixRangeSpecifier: the row
// end may exceed the last row by up to 2 (it is truncated), the column range
// must lie inside.
func ParseMatrixRange(spec string, rows, cols int) (Range, error) {
	parts := strings.Split(spec, ",")
	if spec == "" || len(parts) > 2 || parts[0] == "" || (len(parts) == 2 && parts[1] == "") {
		return Range{}, fmt.Errorf("%w: invalid range specifier %q for a matrix", ErrFormat, spec)
	}
	var rg Range
	var ok bool
	if rg.R0, rg.R1, ok = parseRangePart(parts[0], rows); !ok {
		return Range{}, fmt.Errorf("%w: invalid range specifier %q", ErrFormat, spec)
	}
	rg.C0, rg.C1 = 0, cols-1
	if len(parts) == 2 {
		if rg.C0, rg.C1, ok = parseRangePart(parts[1], cols); !ok {
			return Range{}, fmt.Errorf("%w: invalid range specifier %q", ErrFormat, spec)
		}
	}
	if !(rg.R0 >= 0 && rg.R0 <= rg.R1 && rg.R1 < rows+rangeTolerance && rg.C0 >= 0 && rg.C0 <= rg.C1 && rg.C1 < cols) {
		return Range{}, fmt.Errorf("%w: range [%s] is outside the %d x %d matrix", ErrFormat, spec, rows, cols)
	}
	rg.R1 = min(rg.R1, rows-1)
	if rg.R0 > rg.R1 {
		return Range{}, fmt.Errorf("%w: range [%s] is outside the %d x %d matrix", ErrFormat, spec, rows, cols)
	}
	return rg, nil
}

// ParseVectorRange parses "a:b" or ":" for a vector of dimension n (end may
// exceed by up to 2 and is truncated, as Kaldi).
func ParseVectorRange(spec string, n int) (int, int, error) {
	if spec == "" || strings.Contains(spec, ",") {
		return 0, 0, fmt.Errorf("%w: invalid range specifier %q for a vector", ErrFormat, spec)
	}
	a, b, ok := parseRangePart(spec, n)
	if !ok {
		return 0, 0, fmt.Errorf("%w: invalid range specifier %q", ErrFormat, spec)
	}
	if !(a >= 0 && a <= b && b < n+rangeTolerance) {
		return 0, 0, fmt.Errorf("%w: range [%s] is outside the vector of dimension %d", ErrFormat, spec, n)
	}
	b = min(b, n-1)
	if a > b {
		return 0, 0, fmt.Errorf("%w: range [%s] is outside the vector of dimension %d", ErrFormat, spec, n)
	}
	return a, b, nil
}

// RangeCodec is implemented by codecs whose objects can be cut by an scp
// range: ExtractRange sets *dst to the part of *src that spec names.
type RangeCodec[T any] interface {
	ExtractRange(dst, src *T, spec string) error
}

func (matrixCodec) ExtractRange(dst, src *Matrix, spec string) error {
	rg, err := ParseMatrixRange(spec, src.Rows, src.Cols)
	if err != nil {
		return err
	}
	rows, cols := rg.R1-rg.R0+1, rg.C1-rg.C0+1
	dst.Resize(rows, cols)
	for i := 0; i < rows; i++ {
		copy(dst.Row(i), src.Data[(rg.R0+i)*src.Cols+rg.C0:][:cols])
	}
	return nil
}

func (doubleMatrixCodec) ExtractRange(dst, src *DoubleMatrix, spec string) error {
	rg, err := ParseMatrixRange(spec, src.Rows, src.Cols)
	if err != nil {
		return err
	}
	rows, cols := rg.R1-rg.R0+1, rg.C1-rg.C0+1
	dst.Resize(rows, cols)
	for i := 0; i < rows; i++ {
		copy(dst.Row(i), src.Data[(rg.R0+i)*src.Cols+rg.C0:][:cols])
	}
	return nil
}

func (vectorCodec) ExtractRange(dst, src *Vector, spec string) error {
	a, b, err := ParseVectorRange(spec, len(*src))
	if err != nil {
		return err
	}
	*dst = append((*dst)[:0], (*src)[a:b+1]...)
	return nil
}

func (doubleVectorCodec) ExtractRange(dst, src *DoubleVector, spec string) error {
	a, b, err := ParseVectorRange(spec, len(*src))
	if err != nil {
		return err
	}
	*dst = append((*dst)[:0], (*src)[a:b+1]...)
	return nil
}
