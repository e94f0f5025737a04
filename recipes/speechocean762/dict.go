package speechocean762

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/strode-asr/strode/internal/atomicfile"
	"github.com/strode-asr/strode/recipes/datadir"
)

// The silence phones and the word for anything not in the lexicon, as
// Kaldi's librispeech and wsj recipes name them.
const (
	SilencePhone = "SIL"
	NoisePhone   = "SPN"
	OOVWord      = "<UNK>"
)

// DictStats describes a dict dir PrepareDict wrote.
type DictStats struct {
	Words, Prons int  // distinct words and lexicon lines, <UNK> included
	Phones       int  // non-silence phones (stress variants and their bases)
	BasePhones   int  // lines of nonsilence_phones.txt
	AddedUNK     bool // <UNK> SPN was added
	Duplicates   int  // repeated lexicon lines dropped
	words        map[string]bool
}

// HasWord reports whether the lexicon holds w.
func (d *DictStats) HasWord(w string) bool { return d.words[w] }

// splitStress splits an ARPAbet phone into its base and stress digits
// ("AH0" -> "AH", "0"; "B" -> "B", "").
func splitStress(p string) (base, stress string) {
	i := len(p)
	for i > 0 && p[i-1] >= '0' && p[i-1] <= '9' {
		i--
	}
	return p[:i], p[i:]
}

// PrepareDict writes Kaldi's data/local/dict from upstream's lexicon
// (resource/lexicon.txt: "WORD<TAB>PHONES", stress-marked ARPAbet) as
// Kaldi's librispeech local/prepare_dict.sh does:
//
//	lexicon.txt            the lexicon, "WORD PH PH ...", <UNK> SPN added when absent,
//	                       sorted (C order) with repeated lines dropped
//	silence_phones.txt     SIL and SPN, one a line
//	optional_silence.txt   SIL
//	nonsilence_phones.txt  one line per base phone: the base and its stress
//	                       variants (AH AH0 AH1 AH2), so they share a tree root
//	extra_questions.txt    the silence phones on one line, then one line per
//	                       stress level ("", 0, 1, 2) of the phones with it
func PrepareDict(lexiconPath, dictDir string) (*DictStats, error) {
	t, err := datadir.ReadTableFile(lexiconPath)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorpus, err)
	}
	st := &DictStats{words: map[string]bool{}}
	seen := map[string]bool{}
	var lex []string
	variants := map[string]map[string]bool{}
	for _, l := range t.Lines {
		f := l.Fields()
		if len(f) == 0 {
			continue
		}
		if len(f) == 1 {
			return nil, corpusErrorf("%s:%d: word %s has no phones", lexiconPath, l.No, f[0])
		}
		for _, p := range f[1:] {
			if p == NoisePhone || p == SilencePhone {
				continue // a silence phone (e.g. a lexicon that has <UNK> SPN)
			}
			base, _ := splitStress(p)
			if base == "" || strings.Trim(base, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != "" {
				return nil, corpusErrorf("%s:%d: word %s: phone %q is not an ARPAbet phone (capital letters, then stress digits)", lexiconPath, l.No, f[0], p)
			}
			if variants[base] == nil {
				variants[base] = map[string]bool{base: true}
			}
			variants[base][p] = true
		}
		line := strings.Join(f, " ")
		if seen[line] {
			st.Duplicates++
			continue
		}
		seen[line] = true
		lex = append(lex, line)
		st.words[f[0]] = true
	}
	if len(lex) == 0 {
		return nil, corpusErrorf("%s: empty lexicon", lexiconPath)
	}
	if !st.words[OOVWord] {
		lex = append(lex, OOVWord+" "+NoisePhone)
		st.words[OOVWord] = true
		st.AddedUNK = true
	}
	sort.Strings(lex)
	st.Words, st.Prons = len(st.words), len(lex)

	bases := make([]string, 0, len(variants))
	for b := range variants {
		bases = append(bases, b)
	}
	sort.Strings(bases)
	var nonsil bytes.Buffer
	byStress := map[string][]string{}
	for _, b := range bases {
		ps := make([]string, 0, len(variants[b]))
		for p := range variants[b] {
			ps = append(ps, p)
		}
		sort.Strings(ps)
		nonsil.WriteString(strings.Join(ps, " ") + "\n")
		for _, p := range ps {
			_, s := splitStress(p)
			byStress[s] = append(byStress[s], p)
		}
		st.Phones += len(ps)
	}
	st.BasePhones = len(bases)
	levels := make([]string, 0, len(byStress))
	for s := range byStress {
		levels = append(levels, s)
	}
	sort.Strings(levels)
	extra := SilencePhone + " " + NoisePhone + "\n"
	for _, s := range levels {
		extra += strings.Join(byStress[s], " ") + "\n"
	}

	if err := os.MkdirAll(dictDir, 0o755); err != nil {
		return nil, err
	}
	for _, f := range []struct{ name, text string }{
		{"lexicon.txt", strings.Join(lex, "\n") + "\n"},
		{"silence_phones.txt", SilencePhone + "\n" + NoisePhone + "\n"},
		{"optional_silence.txt", SilencePhone + "\n"},
		{"nonsilence_phones.txt", nonsil.String()},
		{"extra_questions.txt", extra},
	} {
		if err := atomicfile.WriteBytes(filepath.Join(dictDir, f.name), []byte(f.text)); err != nil {
			return nil, err
		}
	}
	// A lexiconp.txt left by an earlier run would be read instead of the new
	// lexicon.txt (prepare_lang prefers it) and disagree with it.
	if err := os.Remove(filepath.Join(dictDir, "lexiconp.txt")); err != nil && !os.IsNotExist(err) {
		return nil, err
	}
	return st, nil
}
