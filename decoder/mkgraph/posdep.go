package mkgraph

import (
	"slices"
	"strings"
)

// Word-position-dependent phones, as utils/prepare_lang.sh makes them when
// --position-dependent-phones is true (its default): every phone of a
// pronunciation is marked by where it stands in the word — _B at the
// beginning, _I inside, _E at the end, _S alone — so that the tree can ask
// about word boundaries and lattice-align-words can find them.
var positionSuffixes = []string{"_B", "_E", "_I", "_S"}

// positionDependentDict returns the dictionary prepare_lang.sh works with
// once positions are on:
//   - the lexicon's phones carry their position marks (perl's _S/_B/_I/_E
//     rewrite of lexiconp.txt);
//   - each line of silence_phones.txt lists every phone as itself and its
//     four marked forms (the plain form stays: optional silence between
//     words belongs to no word), each line of nonsilence_phones.txt the
//     four marked forms only — the expansion of phone_map.txt, so a line
//     still shares one tree root;
//   - extra_questions.txt lines are expanded the same way, followed by one
//     question per position over all non-silence phones (_B, _E, _I, _S)
//     and one per position over all silence phones ("", _B, _E, _I, _S).
//
// The optional silence phone stays the plain one.
func positionDependentDict(d *Dict) *Dict {
	silVersions := func(p string) []string {
		out := []string{p}
		for _, s := range positionSuffixes {
			out = append(out, p+s)
		}
		return out
	}
	nonsilVersions := func(p string) []string {
		out := make([]string, 0, len(positionSuffixes))
		for _, s := range positionSuffixes {
			out = append(out, p+s)
		}
		return out
	}
	isSil := map[string]bool{}
	for _, line := range d.SilencePhones {
		for _, p := range line {
			isSil[p] = true
		}
	}
	expand := func(line []string) []string {
		var out []string
		for _, p := range line {
			if isSil[p] {
				out = append(out, silVersions(p)...)
			} else {
				out = append(out, nonsilVersions(p)...)
			}
		}
		return out
	}
	pd := &Dict{OptionalSilence: d.OptionalSilence}
	for _, line := range d.SilencePhones {
		pd.SilencePhones = append(pd.SilencePhones, expand(line))
	}
	for _, line := range d.NonsilencePhones {
		pd.NonsilencePhones = append(pd.NonsilencePhones, expand(line))
	}
	for _, line := range d.ExtraQuestions {
		pd.ExtraQuestions = append(pd.ExtraQuestions, expand(line))
	}
	allNonsil := slices.Concat(d.NonsilencePhones...)
	allSil := slices.Concat(d.SilencePhones...)
	for _, s := range positionSuffixes {
		q := make([]string, len(allNonsil))
		for i, p := range allNonsil {
			q[i] = p + s
		}
		pd.ExtraQuestions = append(pd.ExtraQuestions, q)
	}
	for _, s := range append([]string{""}, positionSuffixes...) {
		q := make([]string, len(allSil))
		for i, p := range allSil {
			q[i] = p + s
		}
		pd.ExtraQuestions = append(pd.ExtraQuestions, q)
	}
	pd.Lexicon = make([]LexEntry, len(d.Lexicon))
	for i, e := range d.Lexicon {
		ph := make([]string, len(e.Phones))
		for k, p := range e.Phones {
			switch {
			case len(e.Phones) == 1:
				ph[k] = p + "_S"
			case k == 0:
				ph[k] = p + "_B"
			case k == len(e.Phones)-1:
				ph[k] = p + "_E"
			default:
				ph[k] = p + "_I"
			}
		}
		pd.Lexicon[i] = LexEntry{Word: e.Word, Prob: e.Prob, Phones: ph}
	}
	return pd
}

// wordBoundary is phones/word_boundary.txt's word for a phone: the
// position its mark names, or nonword for an unmarked (silence) phone.
func wordBoundary(phone string) string {
	switch {
	case strings.HasSuffix(phone, "_B"):
		return "begin"
	case strings.HasSuffix(phone, "_E"):
		return "end"
	case strings.HasSuffix(phone, "_I"):
		return "internal"
	case strings.HasSuffix(phone, "_S"):
		return "singleton"
	}
	return "nonword"
}

// positionIndependent is DefaultLangOptions with positions off: the lang
// kaldi-mini and the synthetic graphs were built with.
func positionIndependent() LangOptions {
	o := DefaultLangOptions()
	o.PositionDependentPhones = false
	return o
}
