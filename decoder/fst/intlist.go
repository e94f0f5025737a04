package fst

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// ReadIntList reads whitespace-separated integers from a file, such as
// phones/disambig.int (Kaldi's ReadIntegerVectorSimple).
func ReadIntList(path string) ([]int32, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	var out []int32
	sc := bufio.NewScanner(fh)
	for line := 1; sc.Scan(); line++ {
		for _, f := range strings.Fields(sc.Text()) {
			v, err := strconv.ParseInt(f, 10, 32)
			if err != nil {
				return nil, fmt.Errorf("%s line %d: expected an integer, got %q", path, line, f)
			}
			out = append(out, int32(v))
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}
