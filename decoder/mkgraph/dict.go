package mkgraph

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ErrDict is wrapped by errors about a dictionary directory (lexicon,
// phone lists), which also name the file and line.
var ErrDict = errors.New("bad dictionary")

// LexEntry is one pronunciation of a lexicon: the word, its pronunciation
// probability (1 when the lexicon has none) and its phones.
type LexEntry struct {
	Word   string
	Prob   float64
	Phones []string
}

// Dict is the content of Kaldi's data/local/dict directory.
type Dict struct {
	Lexicon []LexEntry
	// SilencePhones and NonsilencePhones are the lines of
	// silence_phones.txt and nonsilence_phones.txt: phones on one line
	// share a tree root.
	SilencePhones, NonsilencePhones [][]string
	OptionalSilence                 string
	ExtraQuestions                  [][]string
}

// ReadDictDir reads a dict directory as prepare_lang.sh does: lexiconp.txt
// (word, probability, phones) when present, else lexicon.txt (word,
// phones); silence_phones.txt, nonsilence_phones.txt,
// optional_silence.txt and, when present, extra_questions.txt. It checks
// what validate_dict_dir.pl checks that matters for the graph: every
// lexicon phone is listed, no phone is both silence and non-silence,
// probabilities are in (0, 1], pronunciations are not empty.
func ReadDictDir(dir string) (*Dict, error) {
	d := &Dict{}
	var err error
	if d.SilencePhones, err = readPhoneLines(filepath.Join(dir, "silence_phones.txt")); err != nil {
		return nil, err
	}
	if d.NonsilencePhones, err = readPhoneLines(filepath.Join(dir, "nonsilence_phones.txt")); err != nil {
		return nil, err
	}
	opt, err := readPhoneLines(filepath.Join(dir, "optional_silence.txt"))
	if err != nil {
		return nil, err
	}
	if len(opt) != 1 || len(opt[0]) != 1 {
		return nil, fmt.Errorf("%w: %s: must hold exactly one phone", ErrDict, filepath.Join(dir, "optional_silence.txt"))
	}
	d.OptionalSilence = opt[0][0]
	if p := filepath.Join(dir, "extra_questions.txt"); fileExists(p) {
		if d.ExtraQuestions, err = readPhoneLines(p); err != nil {
			return nil, err
		}
	}
	if p := filepath.Join(dir, "lexiconp.txt"); fileExists(p) {
		d.Lexicon, err = readLexicon(p, true)
	} else {
		d.Lexicon, err = readLexicon(filepath.Join(dir, "lexicon.txt"), false)
	}
	if err != nil {
		return nil, err
	}
	return d, d.Check()
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func readPhoneLines(path string) ([][]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrDict, err)
	}
	defer f.Close()
	var out [][]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if fs := strings.Fields(sc.Text()); len(fs) > 0 {
			out = append(out, fs)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrDict, path, err)
	}
	return out, nil
}

// ReadLexicon reads a lexicon file: "word phone..." lines, or with
// probs "word prob phone..." (lexiconp.txt).
func ReadLexicon(path string, probs bool) ([]LexEntry, error) { return readLexicon(path, probs) }

func readLexicon(path string, probs bool) ([]LexEntry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrDict, err)
	}
	defer f.Close()
	return ParseLexicon(f, path, probs)
}

// ParseLexicon reads lexicon lines from r ("word phone..." or, with
// probs, "word prob phone..."); name labels errors with line numbers.
func ParseLexicon(r io.Reader, name string, probs bool) ([]LexEntry, error) {
	var out []LexEntry
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for line := 1; sc.Scan(); line++ {
		fs := strings.Fields(sc.Text())
		if len(fs) == 0 {
			continue
		}
		e := LexEntry{Word: fs[0], Prob: 1}
		rest := fs[1:]
		if probs {
			if len(rest) == 0 {
				return nil, fmt.Errorf("%w: %s:%d: no pronunciation probability", ErrDict, name, line)
			}
			p, err := strconv.ParseFloat(rest[0], 64)
			if err != nil || !(p > 0 && p <= 1) || math.IsNaN(p) {
				return nil, fmt.Errorf("%w: %s:%d: bad pronunciation probability %q (must be in (0, 1])", ErrDict, name, line, rest[0])
			}
			e.Prob, rest = p, rest[1:]
		}
		if len(rest) == 0 {
			return nil, fmt.Errorf("%w: %s:%d: word %q has an empty pronunciation", ErrDict, name, line, e.Word)
		}
		e.Phones = rest
		out = append(out, e)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrDict, name, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: %s: empty lexicon", ErrDict, name)
	}
	return out, nil
}

// Check validates the dictionary.
func (d *Dict) Check() error {
	kind := map[string]string{}
	for _, set := range []struct {
		name  string
		lines [][]string
	}{{"silence", d.SilencePhones}, {"nonsilence", d.NonsilencePhones}} {
		for _, line := range set.lines {
			for _, p := range line {
				if k, dup := kind[p]; dup {
					return fmt.Errorf("%w: phone %q listed twice (%s and %s phones)", ErrDict, p, k, set.name)
				}
				if strings.HasPrefix(p, "#") || p == "<eps>" {
					return fmt.Errorf("%w: phone %q: names starting with # and <eps> are reserved", ErrDict, p)
				}
				kind[p] = set.name
			}
		}
	}
	if len(d.NonsilencePhones) == 0 {
		return fmt.Errorf("%w: no non-silence phones", ErrDict)
	}
	if kind[d.OptionalSilence] != "silence" {
		return fmt.Errorf("%w: optional silence %q is not a silence phone", ErrDict, d.OptionalSilence)
	}
	for i, e := range d.Lexicon {
		switch {
		case e.Word == "<eps>" || e.Word == "<s>" || e.Word == "</s>" || strings.HasPrefix(e.Word, "#"):
			return fmt.Errorf("%w: lexicon entry %d: word %q is reserved", ErrDict, i+1, e.Word)
		}
		for _, p := range e.Phones {
			if _, ok := kind[p]; !ok {
				return fmt.Errorf("%w: lexicon entry %d (%s): phone %q is in neither silence_phones.txt nor nonsilence_phones.txt", ErrDict, i+1, e.Word, p)
			}
		}
	}
	return nil
}
