package mkgraph

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// DictProblem is one thing ValidateDictDir found wrong: the file, the line
// (1-based; 0 when it is about the whole file) and what is wrong.
type DictProblem struct {
	File string
	Line int
	Msg  string
}

func (p DictProblem) String() string {
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Msg)
	}
	return fmt.Sprintf("%s: %s", p.File, p.Msg)
}

// DictDirError is a dictionary directory that fails validation: every
// problem found, as validate_dict_dir.pl reports them all before it fails.
// It wraps ErrDict.
type DictDirError struct {
	Dir      string
	Problems []DictProblem
}

// maxShownProblems bounds the problems an error message lists.
const maxShownProblems = 20

func (e *DictDirError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%v: dictionary directory %s fails validation (%d problem(s)):", ErrDict, e.Dir, len(e.Problems))
	for i, p := range e.Problems {
		if i == maxShownProblems {
			fmt.Fprintf(&b, "\n  ... and %d more", len(e.Problems)-i)
			break
		}
		b.WriteString("\n  " + p.String())
	}
	return b.String()
}

func (e *DictDirError) Unwrap() error { return ErrDict }

// ValidateDictDir is Kaldi's utils/validate_dict_dir.pl: it checks a
// dictionary directory (data/local/dict) before prepare_lang, and returns
// nil or a *DictDirError listing every problem with its file and line:
//
//   - silence_phones.txt, nonsilence_phones.txt and optional_silence.txt
//     exist and are not empty; no phone is listed twice in a file, no line
//     is empty, no phone starts with '#', ends in _B/_E/_S/_I (word-position
//     suffixes) or is <eps>; the two phone lists are disjoint;
//     optional_silence.txt holds one phone, a silence phone;
//   - lexicon.txt or lexiconp.txt exists (also lexiconp_silprob.txt with
//     silprob.txt); no line is repeated, no word is <s>, </s>, <eps> or #0,
//     pronunciation probabilities are in (0, 1], no pronunciation is empty,
//     every phone is listed; lexicon.txt and lexiconp.txt (and lexiconp.txt
//     and lexiconp_silprob.txt) hold the same words and pronunciations, line
//     by line;
//   - extra_questions.txt, when not empty, has no empty line and names only
//     listed phones; phones on one line of nonsilence_phones.txt (they share
//     a tree root) must be told apart by some extra question;
//   - nonterminals.txt, when present, holds one distinct #nonterm:... a line;
//   - every file read is valid UTF-8 with no byte-order mark (stricter than
//     validate_dict_dir.pl, which lets other encodings through), free of
//     white space other than space, tab and newline (a CR, a no-break
//     space), and ends in a newline.
//
// On success it writes validate_dict_dir.pl's last line to log (nil: none).
func ValidateDictDir(dir string, log io.Writer) error {
	err := validateDict(dir, func(name string) ([]byte, error) { return os.ReadFile(filepath.Join(dir, name)) })
	if err == nil && log != nil {
		fmt.Fprintf(log, "--> SUCCESS [validating dictionary directory %s]\n", dir)
	}
	return err
}

// dictCheck accumulates the problems of one validation.
type dictCheck struct {
	dir      string
	read     func(name string) ([]byte, error)
	problems []DictProblem
	silence  map[string]bool
	nonsil   map[string]bool
	nsLines  []phoneLine // nonsilence_phones.txt, for the tree-root check
}

// phoneLine is a line of a phone list: its number and phones.
type phoneLine struct {
	no     int
	phones []string
}

func (c *dictCheck) addf(file string, line int, format string, a ...any) {
	c.problems = append(c.problems, DictProblem{File: filepath.Join(c.dir, file), Line: line, Msg: fmt.Sprintf(format, a...)})
}

// validateDict validates the files read returns (an error wrapping
// fs.ErrNotExist for a missing file); the fuzz target calls it on bytes.
func validateDict(dir string, read func(name string) ([]byte, error)) error {
	c := &dictCheck{dir: dir, read: read}
	fatal := func() error { return &DictDirError{Dir: dir, Problems: c.problems} }
	var ok bool
	if c.silence, _, ok = c.phoneList("silence_phones.txt"); !ok {
		return fatal()
	}
	if !c.optionalSilence() {
		return fatal()
	}
	if c.nonsil, c.nsLines, ok = c.phoneList("nonsilence_phones.txt"); !ok {
		return fatal()
	}
	var overlap []string
	for p := range c.silence {
		if c.nonsil[p] {
			overlap = append(overlap, p)
		}
	}
	if len(overlap) > 0 {
		sort.Strings(overlap)
		c.addf("nonsilence_phones.txt", 0, "silence_phones.txt and nonsilence_phones.txt overlap: %s", strings.Join(overlap, " "))
	}
	lexicons := map[string][]lexLine{}
	for _, l := range []struct {
		name          string
		probs, skiped int
	}{{"lexicon.txt", 0, 0}, {"lexiconp.txt", 1, 0}, {"lexiconp_silprob.txt", 2, 2}} {
		if lines, present := c.lexicon(l.name, l.probs, l.skiped); present {
			lexicons[l.name] = lines
		}
	}
	if lexicons["lexicon.txt"] == nil && lexicons["lexiconp.txt"] == nil {
		c.addf("lexicon.txt", 0, "neither lexicon.txt nor lexiconp.txt exists")
	}
	if a, b := lexicons["lexicon.txt"], lexicons["lexiconp.txt"]; a != nil && b != nil {
		c.lexiconPair("lexicon.txt", a, "lexiconp.txt", b)
	}
	if a, b := lexicons["lexiconp.txt"], lexicons["lexiconp_silprob.txt"]; a != nil && b != nil {
		c.lexiconPair("lexiconp.txt", a, "lexiconp_silprob.txt", b)
	}
	if lexicons["lexiconp_silprob.txt"] != nil {
		c.silprob()
	}
	c.extraQuestions()
	c.nonterminals()
	if len(c.problems) > 0 {
		return fatal()
	}
	return nil
}

// fileLine is one line of a file, without its newline.
type fileLine struct {
	no   int
	text string
}

// load reads a file and checks what every file must satisfy: a final
// newline and, when the file is valid UTF-8, no white space but space, tab
// and newline. It reports missing (absent) and empty files as the caller
// asks: required files that are absent or empty are problems.
func (c *dictCheck) load(name string, required bool) (lines []fileLine, present bool) {
	data, err := c.read(name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			if required {
				c.addf(name, 0, "is empty or does not exist")
			}
			return nil, false
		}
		c.addf(name, 0, "cannot be read: %v", err)
		return nil, false
	}
	if len(data) == 0 {
		if required {
			c.addf(name, 0, "is empty or does not exist")
		}
		return nil, required
	}
	// A byte-order mark is no white space to Kaldi's split(" "): it sticks
	// to the first token, so the first word of a lexicon becomes another
	// word and every use of the real one in the text an OOV.
	if bytes.HasPrefix(data, utf8BOM) {
		c.addf(name, 1, "starts with a UTF-8 byte-order mark (bytes EF BB BF), which Kaldi's tools read as part of the first word; remove it (sed -i '1s/^\\xEF\\xBB\\xBF//' FILE)")
	}
	crSeen := false
	badUTF8 := 0
	for i, no := 0, 1; i < len(data); no++ {
		j := bytes.IndexByte(data[i:], '\n')
		end := len(data)
		if j >= 0 {
			end = i + j
		}
		text := string(data[i:end])
		if j < 0 {
			c.addf(name, no, "the last line does not end in a newline")
		}
		// validate_dict_dir.pl lets a file in a one-byte encoding through
		// unchecked; we reject it: words.txt, the LM text and the lexicon
		// then have to agree byte for byte, and a Latin-1 word in a UTF-8
		// corpus is a different word that nothing reports.
		validUTF8 := utf8.ValidString(text)
		if !validUTF8 {
			if badUTF8 < maxBadUTF8Lines {
				col := firstInvalidUTF8(text)
				c.addf(name, no, "is not valid UTF-8: byte 0x%02X at column %d (in %q); a Latin-1 or other one-byte encoding? convert the file (iconv -f latin1 -t utf-8)", text[col], col+1, clipText(dictFieldAt(text, col)))
			}
			badUTF8++
		}
		if strings.IndexByte(text, '\r') >= 0 {
			if !crSeen {
				c.addf(name, no, "contains a carriage return (^M); Kaldi's files have Unix line ends")
			}
			crSeen = true
		} else if validUTF8 {
			for _, r := range text {
				if r != ' ' && r != '\t' && unicode.IsSpace(r) {
					c.addf(name, no, "contains the white space character %U, which Kaldi's tools do not split on (only space and tab)", r)
					break
				}
			}
		}
		lines = append(lines, fileLine{no, text})
		i = end + 1
	}
	if badUTF8 > maxBadUTF8Lines {
		c.addf(name, 0, "... and %d more lines that are not valid UTF-8", badUTF8-maxBadUTF8Lines)
	}
	return lines, true
}

// utf8BOM is the UTF-8 encoding of U+FEFF, which some editors put first.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// maxBadUTF8Lines bounds the lines of one file reported as not UTF-8: a
// file in another encoding has them everywhere.
const maxBadUTF8Lines = 3

// firstInvalidUTF8 is the byte index of the first invalid UTF-8 sequence
// in s (len(s) when there is none).
func firstInvalidUTF8(s string) int {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size <= 1 {
				return i
			}
		}
	}
	return len(s)
}

// dictFieldAt is the white-space-separated field of s holding byte i.
func dictFieldAt(s string, i int) string {
	start := strings.LastIndexAny(s[:i], " \t") + 1
	end := strings.IndexAny(s[i:], " \t")
	if end < 0 {
		return s[start:]
	}
	return s[start : i+end]
}

// dictFields splits a line as Perl's split(" ", $_).
func dictFields(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\t' || r == '\r' || r == '\f' || r == '\v' })
}

// phoneList reads silence_phones.txt or nonsilence_phones.txt.
func (c *dictCheck) phoneList(name string) (map[string]bool, []phoneLine, bool) {
	lines, present := c.load(name, true)
	if !present || len(lines) == 0 {
		return nil, nil, false
	}
	set := map[string]bool{}
	var out []phoneLine
	for _, l := range lines {
		phones := dictFields(l.text)
		out = append(out, phoneLine{l.no, phones})
		if len(phones) == 0 {
			c.addf(name, l.no, "empty line")
		}
		for _, p := range phones {
			if set[p] {
				c.addf(name, l.no, "phone %q is listed twice", p)
			}
			set[p] = true
			if badPhoneName(p) {
				c.addf(name, l.no, "phone %q has a disallowed form (#..., ..._B/_E/_S/_I or <eps>)", p)
			}
		}
	}
	return set, out, true
}

// badPhoneName: phones that look like disambiguation symbols, carry a
// word-position suffix (which word-position-dependent systems add), or are
// epsilon.
func badPhoneName(p string) bool {
	if strings.HasPrefix(p, "#") || p == "<eps>" {
		return true
	}
	n := len(p)
	return n >= 2 && p[n-2] == '_' && strings.IndexByte("BESI", p[n-1]) >= 0
}

func (c *dictCheck) optionalSilence() bool {
	const name = "optional_silence.txt"
	lines, present := c.load(name, true)
	if !present || len(lines) == 0 {
		return false
	}
	for i, l := range lines {
		col := dictFields(l.text)
		switch {
		case i > 0 || len(col) > 1:
			c.addf(name, l.no, "only 1 phone expected")
		case len(col) == 0:
			c.addf(name, l.no, "empty line: the optional silence phone expected")
		case !c.silence[col[0]]:
			c.addf(name, l.no, "phone %s is not in silence_phones.txt", col[0])
		}
	}
	return true
}

// lexLine is a lexicon entry: the word and its pronunciation.
type lexLine struct {
	no    int
	word  string
	phone []string
}

// lexicon checks lexicon.txt (probs 0), lexiconp.txt (1) or
// lexiconp_silprob.txt (2 probabilities, then 2 silence-probability
// columns). present is false when the file is absent.
func (c *dictCheck) lexicon(name string, probs, skipped int) (out []lexLine, present bool) {
	lines, present := c.load(name, false)
	if !present {
		return nil, false
	}
	seen := map[string]int{}
	out = []lexLine{}
	for _, l := range lines {
		if first, dup := seen[l.text]; dup {
			c.addf(name, l.no, "line %q repeats line %d", clipText(l.text), first)
		} else {
			seen[l.text] = l.no
		}
		col := dictFields(l.text)
		if len(col) == 0 {
			c.addf(name, l.no, "empty lexicon line")
			continue
		}
		word := col[0]
		col = col[1:]
		switch word {
		case "<s>", "</s>", "<eps>", "#0":
			c.addf(name, l.no, "forbidden word %s (reserved by prepare_lang)", word)
		}
		for n := 0; n < probs; n++ {
			if len(col) == 0 {
				c.addf(name, l.no, "word %s: missing probability column %d", word, n+1)
				break
			}
			if p, err := strconv.ParseFloat(col[0], 64); err != nil || !(p > 0 && p <= 1) {
				c.addf(name, l.no, "word %s: bad pronunciation probability %q (must be in (0, 1])", word, col[0])
			}
			col = col[1:]
		}
		col = col[min(skipped, len(col)):]
		if len(col) == 0 {
			c.addf(name, l.no, "word %s has an empty pronunciation", word)
		}
		for _, p := range col {
			if !c.silence[p] && !c.nonsil[p] {
				c.addf(name, l.no, "phone %q (word %s) is in neither silence_phones.txt nor nonsilence_phones.txt", p, word)
			}
		}
		out = append(out, lexLine{l.no, word, col})
	}
	return out, true
}

// lexiconPair checks that two lexicons hold the same entries in the same
// order (one was made from the other).
func (c *dictCheck) lexiconPair(nameA string, a []lexLine, nameB string, b []lexLine) {
	for i := range a {
		if i >= len(b) {
			c.addf(nameB, 0, "%s and %s have different numbers of lines (%d and %d)", nameA, nameB, len(a), len(b))
			return
		}
		if a[i].word != b[i].word || strings.Join(a[i].phone, " ") != strings.Join(b[i].phone, " ") {
			c.addf(nameB, b[i].no, "differs from %s line %d (%s %s): sorting?", nameA, a[i].no, a[i].word, strings.Join(a[i].phone, " "))
			return
		}
	}
	if len(b) > len(a) {
		c.addf(nameB, 0, "%s and %s have different numbers of lines (%d and %d)", nameA, nameB, len(a), len(b))
	}
}

func (c *dictCheck) silprob() {
	const name = "silprob.txt"
	lines, present := c.load(name, false)
	if !present {
		c.addf(name, 0, "lexiconp_silprob.txt exists, so silprob.txt must too")
		return
	}
	for _, l := range lines {
		col := dictFields(l.text)
		if len(col) != 2 {
			c.addf(name, l.no, "bad line %q: want <key> <value>", clipText(l.text))
			continue
		}
		v, err := strconv.ParseFloat(col[1], 64)
		switch col[0] {
		case "<s>", "overall":
			if err != nil || !(v > 0 && v <= 1) {
				c.addf(name, l.no, "bad probability %q for %s (must be in (0, 1])", col[1], col[0])
			}
		case "</s>_s", "</s>_n":
			if err != nil || !(v > 0) {
				c.addf(name, l.no, "bad correction term %q for %s (must be positive)", col[1], col[0])
			}
		default:
			c.addf(name, l.no, "unexpected key %q (want <s>, overall, </s>_s or </s>_n)", col[0])
		}
	}
}

// extraQuestions checks extra_questions.txt and that every pair of phones
// sharing a line of nonsilence_phones.txt is split by some question.
func (c *dictCheck) extraQuestions() {
	const name = "extra_questions.txt"
	lines, _ := c.load(name, false)
	// A question tells p1 from p2 when it holds one of them only.
	inQuestion := []map[string]bool{}
	for _, l := range lines {
		col := dictFields(l.text)
		if len(col) == 0 {
			c.addf(name, l.no, "empty line")
			continue
		}
		q := map[string]bool{}
		for i, p := range col {
			if !c.silence[p] && !c.nonsil[p] {
				c.addf(name, l.no, "phone %q (block %d) is in neither silence_phones.txt nor nonsilence_phones.txt", p, i+1)
			}
			q[p] = true
		}
		inQuestion = append(inQuestion, q)
	}
	reported := 0
	for _, l := range c.nsLines {
		for i, p1 := range l.phones {
			for _, p2 := range l.phones[i+1:] {
				if p1 == p2 || distinguished(inQuestion, p1, p2) {
					continue
				}
				if reported < 10 {
					c.addf("nonsilence_phones.txt", l.no, "phones %s and %s share a tree root but no line of extra_questions.txt tells them apart (they would be acoustically indistinguishable)", p1, p2)
				}
				reported++
			}
		}
	}
	if reported > 10 {
		c.addf("nonsilence_phones.txt", 0, "... and %d more pairs of phones that extra_questions.txt never tells apart", reported-10)
	}
}

// distinguished reports whether some question holds exactly one of p1, p2.
func distinguished(questions []map[string]bool, p1, p2 string) bool {
	for _, q := range questions {
		if q[p1] != q[p2] {
			return true
		}
	}
	return false
}

func (c *dictCheck) nonterminals() {
	const name = "nonterminals.txt"
	lines, _ := c.load(name, false)
	seen := map[string]bool{}
	for _, l := range lines {
		col := dictFields(l.text)
		if len(col) != 1 || !strings.HasPrefix(col[0], "#nonterm:") || seen[col[0]] {
			c.addf(name, l.no, "bad (or duplicate) line %q: want one distinct #nonterm:NAME a line", clipText(l.text))
			continue
		}
		seen[col[0]] = true
	}
}

func clipText(s string) string {
	if len(s) > 60 {
		return s[:60] + "..."
	}
	return s
}
