package speechocean762

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/strode-asr/strode/decoder/mkgraph"
	"github.com/strode-asr/strode/internal/atomicfile"
	"github.com/strode-asr/strode/recipes/datadir"
)

// Options are speechocean762-data-prep's.
type Options struct {
	// DevSpeakers are the train half's speakers held out as dev; nil means
	// the committed list (DevSpeakers).
	DevSpeakers []string
	// FlacPipe writes "ID flac -c -d -s FILE.flac |" for FLAC audio, for
	// Kaldi's own tools (strode reads .flac paths directly, which is the
	// default; WAV files are always plain paths).
	FlacPipe bool
	// DictDir is where the dict dir goes; "" means DATA/local/dict.
	DictDir string
}

// SetStats describes one data dir written.
type SetStats struct {
	Name       string
	Dir        string
	Utterances int
	Speakers   int
	Balance    string // speakers per stratum (child/adult × gender)
	Words      int    // word tokens of the transcripts
	OOVTokens  int    // tokens not in the lexicon (they map to <UNK>)
	OOVTypes   []string
}

// Stats describes what Prepare wrote.
type Stats struct {
	Sets    []SetStats
	Dict    *DictStats
	DictDir string
	NoTest  bool // the corpus has no test/ (the project's copy holds the train half only)
}

// Prepare writes, from the corpus in corpusDir, the Kaldi data dirs
// dataDir/train (the train half without the dev speakers), dataDir/dev and,
// when the corpus has test/, dataDir/test, each with text, wav.scp (absolute
// paths; see Options.FlacPipe), utt2spk, spk2utt, spk2gender and spk2age,
// sorted in C order, and validated as utils/validate_data_dir.sh --no-feats
// would; and the dict dir (PrepareDict), validated as
// utils/validate_dict_dir.pl would. log gets the validators' lines.
func Prepare(corpusDir, dataDir string, o Options, log io.Writer) (*Stats, error) {
	if log == nil {
		log = io.Discard
	}
	train, err := ReadHalf(corpusDir, "train")
	if err != nil {
		return nil, err
	}
	var test *Half
	st := &Stats{DictDir: o.DictDir}
	if _, err := os.Stat(filepath.Join(corpusDir, "test", "text")); err == nil {
		if test, err = ReadHalf(corpusDir, "test"); err != nil {
			return nil, err
		}
	} else {
		st.NoTest = true
	}
	devList := o.DevSpeakers
	if devList == nil {
		devList = DevSpeakers()
	}
	dev := map[string]bool{}
	for _, s := range devList {
		if _, ok := train.Speakers[s]; !ok {
			return nil, fmt.Errorf("%w: dev speaker %s is not a speaker of %s (the dev list names train-half speakers)", ErrCorpus, s, filepath.Join(corpusDir, "train"))
		}
		dev[s] = true
	}
	if len(dev) == 0 || len(dev) == len(train.Speakers) {
		return nil, fmt.Errorf("%w: the dev list holds %d of the %d train speakers; it must leave both sets some", ErrCorpus, len(dev), len(train.Speakers))
	}

	if st.DictDir == "" {
		st.DictDir = filepath.Join(dataDir, "local", "dict")
	}
	if st.Dict, err = PrepareDict(filepath.Join(corpusDir, "resource", "lexicon.txt"), st.DictDir); err != nil {
		return nil, err
	}
	if err := mkgraph.ValidateDictDir(st.DictDir, log); err != nil {
		return nil, err
	}

	type set struct {
		name string
		half *Half
		keep func(spk string) bool
	}
	sets := []set{
		{"train", train, func(s string) bool { return !dev[s] }},
		{"dev", train, func(s string) bool { return dev[s] }},
	}
	if test != nil {
		sets = append(sets, set{"test", test, func(string) bool { return true }})
	}
	for _, s := range sets {
		ss, err := writeSet(filepath.Join(dataDir, s.name), s.name, s.half, s.keep, st.Dict, o, log)
		if err != nil {
			return nil, err
		}
		st.Sets = append(st.Sets, ss)
	}
	return st, nil
}

// writeSet writes one data dir from the utterances of h whose speaker keep
// accepts, and validates it.
func writeSet(dir, name string, h *Half, keep func(string) bool, dict *DictStats, o Options, log io.Writer) (SetStats, error) {
	ss := SetStats{Name: name, Dir: dir}
	var text, wav, utt2spk []string
	spkUtts := map[string][]string{}
	oov := map[string]bool{}
	for _, u := range h.Utterances {
		if !keep(u.Speaker) {
			continue
		}
		text = append(text, strings.Join(append([]string{u.ID}, u.Words...), " "))
		wav = append(wav, u.ID+" "+wavEntry(u.Audio, o.FlacPipe))
		utt2spk = append(utt2spk, u.ID+" "+u.Speaker)
		spkUtts[u.Speaker] = append(spkUtts[u.Speaker], u.ID)
		for _, w := range u.Words {
			ss.Words++
			if !dict.HasWord(w) {
				ss.OOVTokens++
				oov[w] = true
			}
		}
	}
	var spk2utt, spk2gender, spk2age, spks []string
	for s := range spkUtts {
		spks = append(spks, s)
	}
	sort.Strings(spks)
	for _, s := range spks {
		spk2utt = append(spk2utt, s+" "+strings.Join(spkUtts[s], " "))
		sp := h.Speakers[s]
		spk2gender = append(spk2gender, s+" "+sp.Gender)
		spk2age = append(spk2age, fmt.Sprintf("%s %d", s, sp.Age))
	}
	for w := range oov {
		ss.OOVTypes = append(ss.OOVTypes, w)
	}
	sort.Strings(ss.OOVTypes)
	ss.Utterances, ss.Speakers = len(text), len(spks)
	ss.Balance = Balance(h.SpeakerList(), spks)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return ss, err
	}
	// h.Utterances is sorted by id, and so every file keyed by utterance.
	for _, f := range []struct {
		name  string
		lines []string
	}{{"text", text}, {"wav.scp", wav}, {"utt2spk", utt2spk}, {"spk2utt", spk2utt}, {"spk2gender", spk2gender}, {"spk2age", spk2age}} {
		if err := atomicfile.WriteBytes(filepath.Join(dir, f.name), []byte(strings.Join(f.lines, "\n")+"\n")); err != nil {
			return ss, err
		}
	}
	if err := datadir.Validate(dir, datadir.ValidateOptions{NoFeats: true}, log); err != nil {
		return ss, err
	}
	return ss, nil
}

// wavEntry is the wav.scp value for an audio file: its path, or for FLAC
// with pipe, Kaldi's "flac -c -d -s FILE |".
func wavEntry(path string, pipe bool) string {
	if pipe && strings.EqualFold(filepath.Ext(path), ".flac") {
		return "flac -c -d -s " + shellQuote(path) + " |"
	}
	return path
}

// shellQuote quotes s for sh when it holds anything but plain path
// characters.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+,:@%=") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
