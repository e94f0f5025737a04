package datadir

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/strode-asr/strode/internal/atomicfile"
)

// ErrNoUtterances is Fix's error when no utterance is in every file.
var ErrNoUtterances = errors.New("no utterances remained: not proceeding further")

// The files Fix sorts and filters (fix_data_dir.sh's, plus utt2warp,
// spk2warp and reco2dur, which it would leave inconsistent).
var fixFiles = []string{"utt2spk", "spk2utt", "feats.scp", "text", "segments", "wav.scp", "cmvn.scp", "vad.scp",
	"reco2file_and_channel", "spk2gender", "utt2lang", "utt2uniq", "utt2dur", "utt2num_frames", "utt2warp", "spk2warp", "reco2dur"}

// fixer holds a data directory's files while Fix works on them.
type fixer struct {
	dir   string
	log   io.Writer
	files map[string]*Table
}

func (f *fixer) has(name string) bool { return f.files[name] != nil }

// filter keeps the lines of a file whose key is in keep, saying so when
// lines go (fix_data_dir.sh's filter_file).
func (f *fixer) filter(name string, keep map[string]bool, filterName string) {
	t := f.files[name]
	if t == nil {
		return
	}
	out := t.Filter(keep)
	if out.Len() != t.Len() {
		fmt.Fprintf(f.log, "fix-data-dir: filtered %s from %d to %d lines based on filter %s.\n", path(f.dir, name), t.Len(), out.Len(), filterName)
	}
	f.files[name] = out
}

// Fix is utils/fix_data_dir.sh: it sorts every file of the data directory
// (keeping the first line of a repeated key), keeps only the utterances in
// all of utt2spk, feats.scp, text, segments, utt2lang and (without
// segments) wav.scp, the speakers left with utterances (and in cmvn.scp and
// spk2gender when present) and the recordings left with segments (and in
// wav.scp), filters every other file to them, and remakes spk2utt. It says
// how many utterances it kept and dropped, keeps the old files in
// <dir>/.backup, and writes each changed file atomically.
func Fix(dir string, log io.Writer) error {
	if log == nil {
		log = io.Discard
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return fmt.Errorf("fix-data-dir: no such directory %s", dir)
	}
	if !exists(path(dir, "utt2spk")) {
		return fmt.Errorf("fix-data-dir: no such file %s", path(dir, "utt2spk"))
	}
	f := &fixer{dir: dir, log: log, files: map[string]*Table{}}
	orig := map[string][]byte{}
	if err := os.MkdirAll(path(dir, ".backup"), 0o777); err != nil {
		return err
	}
	for _, name := range fixFiles {
		p := path(dir, name)
		if !exists(p) {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		orig[name] = b
		if err := atomicfile.WriteBytes(path(dir, ".backup/"+name), b); err != nil {
			return err
		}
		t, err := ReadTable(bytes.NewReader(b), p)
		if err != nil {
			return err
		}
		sorted, changed := t.SortUnique()
		if changed {
			fmt.Fprintf(log, "fix-data-dir: file %s is not in sorted order or not unique, sorting it\n", p)
		}
		f.files[name] = sorted
	}
	steps := []func() error{f.recordings, f.speakers, f.utterances, f.speakers, f.recordings}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	u, err := ParseUtt2Spk(f.files["utt2spk"])
	if err != nil {
		return err
	}
	f.files["spk2utt"] = u.Spk2UttTable(path(dir, "spk2utt"))
	for name, t := range f.files {
		if b := t.Bytes(); !bytes.Equal(b, orig[name]) {
			if err := atomicfile.WriteBytes(path(dir, name), b); err != nil {
				return err
			}
		}
	}
	fmt.Fprintf(log, "fix-data-dir: old files are kept in %s\n", path(dir, ".backup"))
	return nil
}

// recordings keeps the recordings that have segments and are in wav.scp.
func (f *fixer) recordings() error {
	if !f.has("segments") {
		return nil
	}
	if !f.has("wav.scp") {
		return fmt.Errorf("fix-data-dir: %s exists but not %s", path(f.dir, "segments"), path(f.dir, "wav.scp"))
	}
	wav := f.files["wav.scp"].KeySet()
	keep := map[string]bool{}
	for _, r := range Recordings(f.files["segments"]) {
		if wav[r] {
			keep[r] = true
		}
	}
	if len(keep) == 0 {
		return fmt.Errorf("fix-data-dir: Empty list of recordings (bad file %s?)", path(f.dir, "segments"))
	}
	// segments are filtered on their recording field.
	segs := f.files["segments"]
	out := &Table{Name: segs.Name}
	for _, l := range segs.Lines {
		if fl := l.Fields(); len(fl) >= 2 && keep[fl[1]] {
			out.Lines = append(out.Lines, l)
		}
	}
	if out.Len() != segs.Len() {
		fmt.Fprintf(f.log, "fix-data-dir: filtered %s from %d to %d lines based on filter recordings.\n", segs.Name, segs.Len(), out.Len())
	}
	f.files["segments"] = out
	for _, name := range recoFiles {
		f.filter(name, keep, "recordings")
	}
	return nil
}

// speakers keeps the speakers with utterances (and in cmvn.scp and
// spk2gender), and their utterances.
func (f *fixer) speakers() error {
	u, err := ParseUtt2Spk(f.files["utt2spk"])
	if err != nil {
		return err
	}
	s2u := u.Spk2UttTable(path(f.dir, "spk2utt"))
	keep := s2u.KeySet()
	for _, name := range []string{"cmvn.scp", "spk2gender"} {
		if t := f.files[name]; t != nil {
			in := t.KeySet()
			for s := range keep {
				if !in[s] {
					delete(keep, s)
				}
			}
		}
	}
	s2u = s2u.Filter(keep)
	if dropped := u.Spk2UttTable("").Len() - s2u.Len(); dropped > 0 {
		fmt.Fprintf(f.log, "fix-data-dir: dropped %d speakers missing from cmvn.scp or spk2gender\n", dropped)
	}
	f.files["spk2utt"] = s2u
	back, err := Spk2UttToUtt2Spk(s2u)
	if err != nil {
		return err
	}
	f.files["utt2spk"] = back.Table(path(f.dir, "utt2spk"))
	for _, name := range spkFiles {
		f.filter(name, keep, "speakers")
	}
	return nil
}

// utterances keeps the utterances in all the files that list them.
func (f *fixer) utterances() error {
	u2sTable := f.files["utt2spk"]
	u, err := ParseUtt2Spk(u2sTable)
	if err != nil {
		return err
	}
	for i := 1; i < len(u.Utts); i++ {
		if u.Utts[i] < u.Utts[i-1] {
			return fmt.Errorf("fix-data-dir: utt2spk is not in sorted order (fix this yourself): %s comes after %s", u.Utts[i], u.Utts[i-1])
		}
		if u.Spks[i] < u.Spks[i-1] {
			return fmt.Errorf("fix-data-dir: utt2spk is not in sorted order when sorted first on speaker-id "+
				"(fix this by making speaker-ids prefixes of utt-ids): %s of %s comes after %s of %s", u.Utts[i], u.Spks[i], u.Utts[i-1], u.Spks[i-1])
		}
	}
	keep := setOf(u.Utts)
	defining := []string{"feats.scp", "text", "segments", "utt2lang"}
	if !f.has("segments") {
		defining = append(defining, "wav.scp")
	}
	for _, name := range defining {
		if t := f.files[name]; t != nil {
			in := t.KeySet()
			for k := range keep {
				if !in[k] {
					delete(keep, k)
				}
			}
		}
	}
	if len(keep) == 0 {
		return fmt.Errorf("fix-data-dir: %s: %w", f.dir, ErrNoUtterances)
	}
	if len(keep) != len(u.Utts) {
		fmt.Fprintf(f.log, "fix-data-dir: kept %d utterances out of %d (dropped %d)\n", len(keep), len(u.Utts), len(u.Utts)-len(keep))
	} else {
		fmt.Fprintf(f.log, "fix-data-dir: kept all %d utterances.\n", len(u.Utts))
	}
	byUtt := append([]string{"utt2spk", "segments"}, uttFiles...)
	if !f.has("segments") {
		byUtt = append(byUtt, "wav.scp")
	}
	for _, name := range byUtt {
		f.filter(name, keep, "utterances")
	}
	return nil
}
