package speechocean762

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/strode-asr/strode/recipes/datadir"
)

// ErrCorpus marks a corpus folder whose files do not fit together (a
// missing file or key, a bad value); the message names the file and line.
var ErrCorpus = errors.New("bad speechocean762 corpus")

// Utterance is one utterance of a half, as its upstream files give it.
type Utterance struct {
	ID      string
	Speaker string
	Words   []string // the transcript's words, upper case as upstream
	Audio   string   // absolute path of the WAV (or, in a FLAC copy, the .flac)
}

// Half is the train or test half of the corpus: upstream's Kaldi data dir
// (text, wav.scp, utt2spk, spk2gender, spk2age; tab-separated, not all
// sorted) with its audio found.
type Half struct {
	Name       string
	Utterances []Utterance // sorted by id
	Speakers   map[string]Speaker
}

// SpeakerList returns the half's speakers, sorted by id.
func (h *Half) SpeakerList() []Speaker {
	out := make([]Speaker, 0, len(h.Speakers))
	for _, s := range h.Speakers {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

func corpusErrorf(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrCorpus, fmt.Sprintf(format, a...))
}

// table is a two-column upstream file: values and line numbers by key,
// and the keys in file order (so that problems are reported in the order
// a reader of the file meets them).
type table struct {
	vals  map[string]string
	lines map[string]int
	keys  []string
}

// readMap reads a two-column upstream file (utt2spk, spk2gender, ...):
// key, then the rest of the line, each key once.
func readMap(path string) (*table, error) {
	t, err := datadir.ReadTableFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorpus, err)
	}
	out := &table{vals: map[string]string{}, lines: map[string]int{}}
	for _, l := range t.Lines {
		if l.Key == "" {
			continue // a blank line (harmless in an input file; never written)
		}
		if first, dup := out.lines[l.Key]; dup {
			return nil, corpusErrorf("%s:%d: %s repeats line %d", path, l.No, l.Key, first)
		}
		out.vals[l.Key], out.lines[l.Key] = l.Rest(), l.No
		out.keys = append(out.keys, l.Key)
	}
	return out, nil
}

// ReadHalf reads corpusDir/name (train or test). Relative wav.scp paths
// are taken from corpusDir, as upstream writes them; when a named WAV is
// not there, the file of the same name with the extension .flac is taken
// (the project's lossless FLAC copy). Every utterance of text must be in
// wav.scp and utt2spk with its audio present, and every speaker in
// spk2gender (m or f) and spk2age.
func ReadHalf(corpusDir, name string) (*Half, error) {
	root, err := filepath.Abs(corpusDir)
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(root, name)
	files := map[string]*table{}
	for _, f := range []string{"text", "wav.scp", "utt2spk", "spk2gender", "spk2age"} {
		if files[f], err = readMap(filepath.Join(dir, f)); err != nil {
			return nil, err
		}
	}
	at := func(f, key string) string { return fmt.Sprintf("%s:%d", filepath.Join(dir, f), files[f].lines[key]) }
	h := &Half{Name: name, Speakers: map[string]Speaker{}}
	genders, ages := files["spk2gender"], files["spk2age"]
	for _, spk := range genders.keys {
		g := genders.vals[spk]
		if g != "m" && g != "f" {
			return nil, corpusErrorf("%s: speaker %s has gender %q, want m or f", at("spk2gender", spk), spk, g)
		}
		ageText, ok := ages.vals[spk]
		if !ok {
			return nil, corpusErrorf("%s: speaker %s (%s) has no age", filepath.Join(dir, "spk2age"), spk, at("spk2gender", spk))
		}
		age, err := strconv.Atoi(ageText)
		if err != nil || age <= 0 || age > 150 {
			return nil, corpusErrorf("%s: speaker %s has age %q", at("spk2age", spk), spk, ageText)
		}
		h.Speakers[spk] = Speaker{ID: spk, Gender: g, Age: age}
	}
	for _, spk := range ages.keys {
		if _, ok := h.Speakers[spk]; !ok {
			return nil, corpusErrorf("%s: speaker %s is not in spk2gender", at("spk2age", spk), spk)
		}
	}
	text := files["text"]
	for _, f := range []string{"wav.scp", "utt2spk"} {
		for _, utt := range files[f].keys {
			if _, ok := text.vals[utt]; !ok {
				return nil, corpusErrorf("%s: utterance %s is not in text", at(f, utt), utt)
			}
		}
	}
	for _, utt := range text.keys {
		spk, ok := files["utt2spk"].vals[utt]
		if !ok {
			return nil, corpusErrorf("%s: utterance %s is not in utt2spk", at("text", utt), utt)
		}
		if _, ok := h.Speakers[spk]; !ok {
			return nil, corpusErrorf("%s: speaker %s of utterance %s is not in spk2gender", at("utt2spk", utt), spk, utt)
		}
		rel, ok := files["wav.scp"].vals[utt]
		if !ok {
			return nil, corpusErrorf("%s: utterance %s is not in wav.scp", at("text", utt), utt)
		}
		audio, err := findAudio(root, rel)
		if err != nil {
			return nil, corpusErrorf("%s: utterance %s: %v", at("wav.scp", utt), utt, err)
		}
		h.Utterances = append(h.Utterances, Utterance{ID: utt, Speaker: spk, Words: strings.Fields(text.vals[utt]), Audio: audio})
	}
	if len(h.Utterances) == 0 {
		return nil, corpusErrorf("%s: no utterances", filepath.Join(dir, "text"))
	}
	sort.Slice(h.Utterances, func(i, j int) bool { return h.Utterances[i].ID < h.Utterances[j].ID })
	return h, nil
}

// findAudio resolves a wav.scp path (relative to the corpus root unless
// absolute), falling back to the .flac of the same name.
func findAudio(root, rel string) (string, error) {
	p := filepath.FromSlash(rel)
	if !filepath.IsAbs(p) {
		p = filepath.Join(root, p)
	}
	if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
		return p, nil
	}
	alt := strings.TrimSuffix(p, filepath.Ext(p)) + ".flac"
	if fi, err := os.Stat(alt); err == nil && fi.Mode().IsRegular() {
		return alt, nil
	}
	return "", fmt.Errorf("no audio file %s (nor %s)", p, filepath.Base(alt))
}
