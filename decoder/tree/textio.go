package tree

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/strode-asr/strode/kaldiio"
)

// ReadIntegerVectorVector reads a text file of integer lists, one per line
// (Kaldi's ReadIntegerVectorVectorSimple: phones/sets.int, questions.int);
// an empty line is an empty list. rx may be any rxfilename.
func ReadIntegerVectorVector(rx string, opts ...kaldiio.Option) ([][]int32, error) {
	in, err := kaldiio.OpenInput(rx, opts...)
	if err != nil {
		return nil, err
	}
	out, err := parseIntLines(in.Reader(), rx)
	if cerr := in.Close(); err == nil {
		err = cerr
	}
	return out, err
}

func parseIntLines(r io.Reader, name string) ([][]int32, error) {
	var out [][]int32
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	for line := 1; sc.Scan(); line++ {
		v := []int32{}
		for _, f := range strings.Fields(sc.Text()) {
			x, err := strconv.ParseInt(f, 10, 32)
			if err != nil {
				return nil, fmt.Errorf("%s: line %d: expected integers, got %q", name, line, f)
			}
			v = append(v, int32(x))
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return out, nil
}

// WriteIntegerVectorVector writes integer lists one per line, separated by
// single spaces (Kaldi's WriteIntegerVectorVectorSimple).
func WriteIntegerVectorVector(wx string, lists [][]int32, opts ...kaldiio.Option) error {
	out, err := kaldiio.OpenOutput(wx, opts...)
	if err != nil {
		return err
	}
	w := out.Writer()
	var b []byte
	for _, l := range lists {
		b = b[:0]
		for j, x := range l {
			if j > 0 {
				b = append(b, ' ')
			}
			b = strconv.AppendInt(b, int64(x), 10)
		}
		b = append(b, '\n')
		w.Write(b)
	}
	return out.Close()
}

// ReadPhoneMap reads a --phone-map file ("old new" per line, both positive,
// each old phone once) into a table old → new with -1 for unmapped phones
// (Kaldi's ReadPhoneMap).
func ReadPhoneMap(rx string, opts ...kaldiio.Option) ([]int32, error) {
	lines, err := ReadIntegerVectorVector(rx, opts...)
	if err != nil {
		return nil, err
	}
	var m []int32
	for i, l := range lines {
		if len(l) != 2 || l[0] <= 0 || l[1] <= 0 || l[0] >= maxEventValue || (int(l[0]) < len(m) && m[l[0]] != -1) {
			return nil, fmt.Errorf("%s: line %d: bad phone map line (want two positive phones, the first not mapped before): %v", rx, i+1, l)
		}
		for int(l[0]) >= len(m) {
			m = append(m, -1)
		}
		m[l[0]] = l[1]
	}
	if len(m) == 0 {
		return nil, fmt.Errorf("%s: empty phone map", rx)
	}
	return m, nil
}

// ParseCSL parses a colon-separated list of integers ("1:2:3"), as
// SplitStringToIntegers(s, ":", false); "" is the empty list.
func ParseCSL(s string) ([]int32, error) {
	if s == "" {
		return nil, nil
	}
	var out []int32
	for _, f := range strings.Split(s, ":") {
		x, err := strconv.ParseInt(strings.TrimSpace(f), 10, 32)
		if err != nil {
			return nil, fmt.Errorf("invalid colon-separated list of integers %q", s)
		}
		out = append(out, int32(x))
	}
	return out, nil
}
