package fsdd

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/strode-asr/strode/decoder/mkgraph"
)

// WriteDict writes Kaldi's dict directory (data/local/dict) of the ten
// digit words, the input of utils/prepare_lang.sh and of strode
// prepare-lang: lexicon.txt, silence_phones.txt, nonsilence_phones.txt,
// optional_silence.txt and extra_questions.txt. The words and phones are
// those of prepare-lang's builtin:digits-no-oh (kaldi-mini's pronunciations,
// <SIL> for silence), so a lang dir made from this one has the same phones
// and words. extra_questions.txt is what Kaldi's prepare_dict.sh scripts
// write for phones without stress marks: the silence phones on one line,
// the non-silence phones on another.
func WriteDict(dir string) error {
	d := mkgraph.DigitsDict(false)
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return err
	}
	var lex []string
	for _, e := range d.Lexicon {
		lex = append(lex, e.Word+" "+strings.Join(e.Phones, " "))
	}
	join := func(lines [][]string) (out []string) {
		for _, l := range lines {
			out = append(out, strings.Join(l, " "))
		}
		return out
	}
	var sil, nonsil []string
	for _, l := range d.SilencePhones {
		sil = append(sil, l...)
	}
	for _, l := range d.NonsilencePhones {
		nonsil = append(nonsil, l...)
	}
	for _, f := range []struct {
		name  string
		lines []string
	}{
		{"lexicon.txt", lex},
		{"silence_phones.txt", join(d.SilencePhones)},
		{"nonsilence_phones.txt", join(d.NonsilencePhones)},
		{"optional_silence.txt", []string{d.OptionalSilence}},
		{"extra_questions.txt", []string{strings.Join(sil, " "), strings.Join(nonsil, " ")}},
	} {
		if err := writeLines(filepath.Join(dir, f.name), f.lines); err != nil {
			return err
		}
	}
	return nil
}
