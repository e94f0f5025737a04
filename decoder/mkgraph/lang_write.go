package mkgraph

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/strode-asr/strode/internal/atomicfile"

	"github.com/strode-asr/strode/decoder/fst"
	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/kaldiio"
)

// Write writes the lang directory as prepare_lang.sh lays it out:
// phones.txt, words.txt, topo, L.fst, L_disambig.fst, oov.{txt,int} and
// phones/ (silence, nonsilence, optional_silence, disambig,
// context_indep as .txt/.int/.csl; wdisambig*, sets, roots,
// extra_questions, align_lexicon). Each file is written to a temporary
// name and renamed.
func (l *Lang) Write(dir string) error {
	if err := os.MkdirAll(filepath.Join(dir, "phones"), 0o777); err != nil {
		return err
	}
	var b bytes.Buffer
	writeTable := func(name string, t *fst.SymbolTable) error {
		b.Reset()
		for _, e := range t.Entries() {
			fmt.Fprintf(&b, "%s %d\n", e.Symbol, e.Key)
		}
		return writeFileAtomic(filepath.Join(dir, name), b.Bytes())
	}
	if err := writeTable("phones.txt", l.Phones); err != nil {
		return err
	}
	if err := writeTable("words.txt", l.Words); err != nil {
		return err
	}
	b.Reset()
	w := kaldiio.NewWriter(&b)
	if err := hmm.TopologyCodec.Write(w, false, &l.Topo); err != nil {
		return err
	}
	if err := w.Flush(); err != nil {
		return err
	}
	// gen_topo.pl's text is Kaldi's without the space before each newline.
	if err := writeFileAtomic(filepath.Join(dir, "topo"), bytes.ReplaceAll(b.Bytes(), []byte(" \n"), []byte("\n"))); err != nil {
		return err
	}
	if err := fst.WriteFile(filepath.Join(dir, "L.fst"), l.L); err != nil {
		return err
	}
	if err := fst.WriteFile(filepath.Join(dir, "L_disambig.fst"), l.LDisambig); err != nil {
		return err
	}
	oovID, _ := l.Words.Key(l.Oov)
	if err := writeFileAtomic(filepath.Join(dir, "oov.txt"), []byte(l.Oov+"\n")); err != nil {
		return err
	}
	if err := writeFileAtomic(filepath.Join(dir, "oov.int"), []byte(strconv.FormatInt(oovID, 10)+"\n")); err != nil {
		return err
	}
	phoneSets := map[string][]int32{
		"silence":          l.SilencePhones,
		"nonsilence":       l.NonsilPhones,
		"optional_silence": {l.OptionalSil},
		"disambig":         l.PhoneDisambig,
		"context_indep":    l.SilencePhones,
	}
	for name, ids := range phoneSets {
		if err := l.writePhoneList(filepath.Join(dir, "phones", name), ids); err != nil {
			return err
		}
	}
	wd0, _ := l.Words.Key("#0")
	pd0, _ := l.Phones.Key("#0")
	for name, text := range map[string]string{
		"wdisambig.txt":        "#0\n",
		"wdisambig_phones.int": fmt.Sprintf("%d\n", pd0),
		"wdisambig_words.int":  fmt.Sprintf("%d\n", wd0),
	} {
		if err := writeFileAtomic(filepath.Join(dir, "phones", name), []byte(text)); err != nil {
			return err
		}
	}
	// sets, roots, extra questions: one line per line of the phone files
	// (all silence phones on one line with --share-silence-phones).
	sets := l.phoneSetLines()
	var roots [][]string
	for i, set := range sets {
		prefix := []string{"shared", "split"}
		if l.ShareSilencePhones && i == 0 {
			prefix = []string{"not-shared", "not-split"}
		}
		roots = append(roots, append(prefix, set...))
	}
	if err := l.writePhoneLines(filepath.Join(dir, "phones", "sets"), sets, 0); err != nil {
		return err
	}
	if err := l.writePhoneLines(filepath.Join(dir, "phones", "roots"), roots, 2); err != nil {
		return err
	}
	if err := l.writePhoneLines(filepath.Join(dir, "phones", "extra_questions"), l.Dict.ExtraQuestions, 0); err != nil {
		return err
	}
	if l.PositionDependent {
		if err := l.writeWordBoundary(filepath.Join(dir, "phones", "word_boundary")); err != nil {
			return err
		}
	}
	return l.writeAlignLexicon(filepath.Join(dir, "phones", "align_lexicon"))
}

// phoneSetLines are the lines of phones/sets.txt: one per line of
// silence_phones.txt and nonsilence_phones.txt, or with
// --share-silence-phones all silence phones on the first line.
func (l *Lang) phoneSetLines() [][]string {
	if l.ShareSilencePhones {
		return append([][]string{slices.Concat(l.Dict.SilencePhones...)}, l.Dict.NonsilencePhones...)
	}
	return slices.Concat(l.Dict.SilencePhones, l.Dict.NonsilencePhones)
}

func (l *Lang) writePhoneList(base string, ids []int32) error {
	var txt, ints, csl strings.Builder
	for i, id := range ids {
		sym, _ := l.Phones.Symbol(int64(id))
		fmt.Fprintf(&txt, "%s\n", sym)
		fmt.Fprintf(&ints, "%d\n", id)
		if i > 0 {
			csl.WriteByte(':')
		}
		fmt.Fprintf(&csl, "%d", id)
	}
	csl.WriteByte('\n')
	if err := writeFileAtomic(base+".txt", []byte(txt.String())); err != nil {
		return err
	}
	if err := writeFileAtomic(base+".int", []byte(ints.String())); err != nil {
		return err
	}
	return writeFileAtomic(base+".csl", []byte(csl.String()))
}

// writePhoneLines writes lines of phones as .txt and .int, leaving the
// first skip fields of each line as they are.
func (l *Lang) writePhoneLines(base string, lines [][]string, skip int) error {
	var txt, ints strings.Builder
	for _, line := range lines {
		txt.WriteString(strings.Join(line, " "))
		txt.WriteByte('\n')
		for i, p := range line {
			if i > 0 {
				ints.WriteByte(' ')
			}
			if i < skip {
				ints.WriteString(p)
				continue
			}
			k, _ := l.Phones.Key(p)
			ints.WriteString(strconv.FormatInt(k, 10))
		}
		ints.WriteByte('\n')
	}
	if err := writeFileAtomic(base+".txt", []byte(txt.String())); err != nil {
		return err
	}
	return writeFileAtomic(base+".int", []byte(ints.String()))
}

// writeAlignLexicon writes "word word phones" for every pronunciation and
// "<eps> <eps> SIL", sorted and unique in byte order.
func (l *Lang) writeAlignLexicon(base string) error {
	sil, _ := l.Phones.Symbol(int64(l.OptionalSil))
	entries := [][]string{{"<eps>", "<eps>", sil}}
	for _, e := range l.Dict.Lexicon {
		entries = append(entries, append([]string{e.Word, e.Word}, e.Phones...))
	}
	slices.SortFunc(entries, func(a, b []string) int { return strings.Compare(strings.Join(a, " "), strings.Join(b, " ")) })
	entries = slices.CompactFunc(entries, func(a, b []string) bool { return slices.Equal(a, b) })
	var txt, ints strings.Builder
	for _, e := range entries {
		txt.WriteString(strings.Join(e, " "))
		txt.WriteByte('\n')
		for i, s := range e {
			if i > 0 {
				ints.WriteByte(' ')
			}
			var k int64
			if i < 2 {
				k, _ = l.Words.Key(s)
			} else {
				k, _ = l.Phones.Key(s)
			}
			ints.WriteString(strconv.FormatInt(k, 10))
		}
		ints.WriteByte('\n')
	}
	if err := writeFileAtomic(base+".txt", []byte(txt.String())); err != nil {
		return err
	}
	return writeFileAtomic(base+".int", []byte(ints.String()))
}

// writeWordBoundary writes phones/word_boundary.txt ("phone position") and
// .int ("id position") for the silence then the non-silence phones, as
// prepare_lang.sh does with positions on (lattice-align-words reads it).
func (l *Lang) writeWordBoundary(base string) error {
	var txt, ints strings.Builder
	for _, id := range slices.Concat(l.SilencePhones, l.NonsilPhones) {
		sym, _ := l.Phones.Symbol(int64(id))
		fmt.Fprintf(&txt, "%s %s\n", sym, wordBoundary(sym))
		fmt.Fprintf(&ints, "%d %s\n", id, wordBoundary(sym))
	}
	if err := writeFileAtomic(base+".txt", []byte(txt.String())); err != nil {
		return err
	}
	return writeFileAtomic(base+".int", []byte(ints.String()))
}

// writeFileAtomic writes data to a temporary file beside path and renames
// it into place.
func writeFileAtomic(path string, data []byte) error {
	return atomicfile.WriteBytes(path, data)
}
