package scoring

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode/utf8"
)

// opsMaxWidth is wer_ops_details.pl's $max_size: the word columns are never
// padded wider than this (longer words are written whole).
const opsMaxWidth = 16

// WerOpsDetails is utils/scoring/wer_ops_details.pl: from the "ref" and
// "hyp" lines of per_utt (read from r, named name in errors; other lines are
// ignored) it counts every (reference word, hypothesis word) pair over all
// utterances and writes one line per pair,
//
//	correct       eight    eight    15
//	insertion       ***       oh     1
//
// kind ("correct", "insertion" when the reference is the special symbol,
// "deletion" when the hypothesis is, else "substitution"), both words right
// aligned to the longest word (at most 16 characters) and the count right
// aligned to the widest count. The lines come in the script's order,
// reference word then hypothesis word in byte order; score_kaldi.sh sorts
// them afterwards (sort -b -i -k 1,1 -k 4,4rn -k 2,2 -k 3,3). A ref or hyp
// line with no words is skipped with a warning, as the script does; an
// utterance with a ref line and no hyp line (or the other way round), two
// lines of one kind for an utterance, or ref and hyp lines of different
// lengths are errors.
func WerOpsDetails(r io.Reader, name string, w io.Writer, special string, warn func(string)) error {
	type sides struct {
		ref, hyp         []string
		hasRef, hasHyp   bool
		refLine, hypLine int
	}
	utts := make(map[string]*sides)
	s := newLineScanner(r, name)
	for s.scan() {
		f := strings.Fields(s.text)
		if len(f) < 2 || (f[1] != "hyp" && f[1] != "ref") {
			continue
		}
		if len(f) == 2 {
			if warn != nil {
				warn(fmt.Sprintf("%s line %d: skipping entry %q, either an empty phrase or incompatible format", name, s.line, s.text))
			}
			continue
		}
		u := utts[f[0]]
		if u == nil {
			u = &sides{}
			utts[f[0]] = u
		}
		if (f[1] == "ref" && u.hasRef) || (f[1] == "hyp" && u.hasHyp) {
			return s.errorf(fmt.Errorf("%w: duplicate entry %s %s", ErrDetailsFormat, f[0], f[1]))
		}
		if f[1] == "ref" {
			u.ref, u.hasRef, u.refLine = f[2:], true, s.line
		} else {
			u.hyp, u.hasHyp, u.hypLine = f[2:], true, s.line
		}
	}
	if s.err != nil {
		return s.err
	}
	keys := make([]string, 0, len(utts))
	for k := range utts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	counts := make(map[Pair]int)
	for _, k := range keys {
		u := utts[k]
		switch {
		case !u.hasHyp:
			return fmt.Errorf("%s line %d: %w: utterance %s has a \"ref\" line but no \"hyp\" line", name, u.refLine, ErrDetailsFormat, k)
		case !u.hasRef:
			return fmt.Errorf("%s line %d: %w: utterance %s has a \"hyp\" line but no \"ref\" line", name, u.hypLine, ErrDetailsFormat, k)
		case len(u.ref) != len(u.hyp):
			return fmt.Errorf("%s lines %d and %d: %w: the \"ref\" and \"hyp\" entries of utterance %s have %d and %d words", name, u.refLine, u.hypLine, ErrDetailsFormat, k, len(u.ref), len(u.hyp))
		}
		for i := range u.ref {
			counts[Pair{Ref: u.ref[i], Hyp: u.hyp[i]}]++
		}
	}
	pairs := make([]Pair, 0, len(counts))
	wordLen, countLen := 0, 0
	for p, n := range counts {
		pairs = append(pairs, p)
		wordLen = max(wordLen, utf8.RuneCountInString(p.Ref), utf8.RuneCountInString(p.Hyp))
		countLen = max(countLen, len(fmt.Sprint(n)))
	}
	wordLen = min(wordLen, opsMaxWidth)
	sort.Slice(pairs, func(i, j int) bool {
		if pairs[i].Ref != pairs[j].Ref {
			return pairs[i].Ref < pairs[j].Ref
		}
		return pairs[i].Hyp < pairs[j].Hyp
	})
	bw := bufio.NewWriter(w)
	for _, p := range pairs {
		kind := "substitution"
		switch {
		case p.Ref == p.Hyp:
			kind = "correct     "
		case p.Ref == special:
			kind = "insertion   "
		case p.Hyp == special:
			kind = "deletion    "
		}
		// %*s in Go pads by characters, as Perl's printf does on the
		// script's UTF-8 input.
		fmt.Fprintf(bw, "%s  %*s    %*s    %*d\n", kind, wordLen, p.Ref, wordLen, p.Hyp, countLen, counts[p])
	}
	return bw.Flush()
}
