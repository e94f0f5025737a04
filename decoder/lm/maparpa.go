package lm

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strings"
)

var (
	mapDataRe    = regexp.MustCompile(`^\\data\\$`)
	mapSectionRe = regexp.MustCompile(`^\\([0-9]*)-grams:$`)
	mapEndRe     = regexp.MustCompile(`^\\end\\`)
)

// MapARPA copies an ARPA file from r to w with every word of its n-gram
// lines replaced by mapper's value for it, as Kaldi's utils/map_arpa_lm.pl
// (words to integers for arpa-to-const-arpa, or back): lines before \data\
// are dropped, n-grams with a word mapper lacks are dropped (the header's
// counts are left as they are, as the script leaves them), and each kept
// line is written "logprob<TAB>w1 .. wn [backoff]". It returns how many
// lines were dropped; warn (may be nil) receives the first of them. Errors
// name the file (name) and line.
func MapARPA(r io.Reader, w io.Writer, name string, mapper map[string]string, warn func(string)) (dropped int, err error) {
	br := bufio.NewReaderSize(r, 1<<20)
	bw := bufio.NewWriterSize(w, 1<<20)
	order := -1
	lineNo := 0
	for {
		s, rerr := br.ReadString('\n')
		if rerr != nil && rerr != io.EOF {
			return dropped, fmt.Errorf("%w: reading %s:%d: %w", ErrInput, name, lineNo+1, rerr)
		}
		if rerr == io.EOF && s == "" {
			break
		}
		lineNo++
		line := strings.TrimSuffix(s, "\n")
		switch {
		case order == -1 && !mapDataRe.MatchString(line):
		case mapDataRe.MatchString(line):
			bw.WriteString(line + "\n")
			order = 0
		case mapSectionRe.MatchString(line):
			var n int
			fmt.Sscan(mapSectionRe.FindStringSubmatch(line)[1], &n)
			order = n
			bw.WriteString(line + "\n")
		case mapEndRe.MatchString(line):
			bw.WriteString(line + "\n")
		case line == "":
			if order >= 1 {
				bw.WriteString("\n")
			}
		case order == 0:
			bw.WriteString(line + "\n")
		default:
			col := strings.Fields(line)
			if len(col) > 2+order || len(col) < 1+order {
				return dropped, fmt.Errorf("%w: %s:%d: bad line in ARPA file %q (a %d-gram line has %d or %d fields)", ErrInput, name, lineNo, line, order, order+1, order+2)
			}
			oov := false
			for i := 1; i <= order; i++ {
				m, ok := mapper[col[i]]
				if !ok {
					oov = true
					break
				}
				col[i] = m
			}
			if oov {
				dropped++
				if warn != nil && dropped < 20 {
					warn(fmt.Sprintf("%s:%d: OOV line %s", name, lineNo, line))
				}
				continue
			}
			bw.WriteString(col[0] + "\t" + strings.Join(col[1:], " ") + "\n")
		}
		if rerr == io.EOF {
			break
		}
	}
	return dropped, bw.Flush()
}
