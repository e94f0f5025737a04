package datadir

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
)

// Files indexed by utterance that Split, Fix and the subsets carry over
// (wav.scp too when there is no segments file).
var uttFiles = []string{"feats.scp", "text", "vad.scp", "utt2lang", "utt2dur", "utt2num_frames", "utt2uniq", "utt2warp"}

// Files indexed by speaker.
var spkFiles = []string{"spk2gender", "spk2warp", "cmvn.scp"}

// Files indexed by recording when there is a segments file.
var recoFiles = []string{"wav.scp", "reco2file_and_channel", "reco2dur"}

// SplitDir is where Split puts n parts: <dir>/split<n>, or <dir>/split<n>utt
// with perUtt.
func SplitDir(dir string, n int, perUtt bool) string {
	s := "split" + strconv.Itoa(n)
	if perUtt {
		s += "utt"
	}
	return filepath.Join(dir, s)
}

// Split is utils/split_data.sh: it writes <dir>/split<n>/<1..n>/ (with
// perUtt <dir>/split<n>utt/...), dividing utt2spk speaker-wise as
// split_scp.pl --utt2spk (each speaker's utterances in one part, parts
// balanced by utterance count) or, with perUtt, into runs of equal length;
// then spk2utt, the per-utterance files (feats.scp, text, wav.scp without
// segments, vad.scp, utt2lang, utt2dur, utt2num_frames, utt2uniq,
// utt2warp), the per-speaker ones (cmvn.scp, spk2gender, spk2warp) and, with
// segments, segments and the per-recording ones (wav.scp,
// reco2file_and_channel, reco2dur) of each part. Nothing is rewritten when
// every part already has every file, none older than its source (Kaldi looks
// at part 1 only; looking at all parts makes an interrupted split redo
// itself). Warnings go to log. It returns the split directory.
func Split(dir string, n int, perUtt bool, log io.Writer) (string, error) {
	if log == nil {
		log = io.Discard
	}
	if n <= 0 {
		return "", fmt.Errorf("Invalid num-split argument %d", n)
	}
	u2sPath := path(dir, "utt2spk")
	u2sTable, err := ReadTableFile(u2sPath)
	if err != nil {
		return "", fmt.Errorf("cannot split data directory %s: %w", dir, err)
	}
	u2s, err := ParseUtt2Spk(u2sTable)
	if err != nil {
		return "", err
	}
	out := SplitDir(dir, n, perUtt)
	segmented := exists(path(dir, "segments"))
	present := presentFiles(dir, segmented)
	if upToDate(dir, out, n, present) {
		return out, nil
	}
	for _, f := range []string{"feats.scp", "text"} {
		if t, err := ReadTableFile(path(dir, f)); err == nil && t.Len() != u2sTable.Len() {
			fmt.Fprintf(log, "** split-data: warning, #lines is (utt2spk,%s) is (%d,%d); you can\n** use strode fix-data-dir %s to fix this.\n", f, u2sTable.Len(), t.Len(), dir)
		}
	}
	parts, err := partition(dir, u2sTable, u2s, n, perUtt)
	if err != nil {
		return "", err
	}
	sources, err := loadSources(dir, present)
	if err != nil {
		return "", err
	}
	for p, part := range parts {
		pdir := filepath.Join(out, strconv.Itoa(p+1))
		if err := writeSubset(pdir, part, sources, segmented); err != nil {
			return "", err
		}
	}
	return out, nil
}

// presentFiles lists the files of dir that a split carries over.
func presentFiles(dir string, segmented bool) []string {
	names := []string{"utt2spk", "spk2utt"}
	names = append(names, uttFiles...)
	names = append(names, spkFiles...)
	if segmented {
		names = append(names, "segments")
		names = append(names, recoFiles...)
	} else {
		names = append(names, "wav.scp")
	}
	var out []string
	for _, f := range names {
		if exists(path(dir, f)) {
			out = append(out, f)
		}
	}
	return out
}

// loadSources reads the files a subset carries over (all of present but
// utt2spk and spk2utt, which a subset makes itself).
func loadSources(dir string, present []string) (map[string]*Table, error) {
	sources := map[string]*Table{}
	for _, f := range present {
		if f == "utt2spk" || f == "spk2utt" {
			continue
		}
		t, err := ReadTableFile(path(dir, f))
		if err != nil {
			return nil, err
		}
		sources[f] = t
	}
	return sources, nil
}

// upToDate reports whether every part has every file, none older than its
// source (split_data.sh's `-ot` test).
func upToDate(dir, out string, n int, files []string) bool {
	for p := 1; p <= n; p++ {
		for _, f := range files {
			src, err1 := os.Stat(path(dir, f))
			dst, err2 := os.Stat(filepath.Join(out, strconv.Itoa(p), f))
			if err1 != nil || err2 != nil || dst.ModTime().Before(src.ModTime()) {
				return false
			}
		}
	}
	return true
}

// ErrTooFewSpeakers is returned when a data directory has fewer speakers
// (or utterances, with --per-utt) than parts.
var ErrTooFewSpeakers = errors.New("too few speakers")

// partition divides utt2spk (t, parsed as u) into n utt2spk tables, each
// line kept verbatim.
func partition(dir string, t *Table, u *Utt2Spk, n int, perUtt bool) ([]*Table, error) {
	parts := make([]*Table, n)
	if perUtt {
		if len(u.Utts) < n {
			return nil, fmt.Errorf("cannot split data directory %s into %d parts: %w: it has only %d utterances (reduce $nj)", dir, n, ErrTooFewSpeakers, len(u.Utts))
		}
		for p := range parts {
			lo, hi := splitLines(len(u.Utts), n, p)
			parts[p] = &Table{Name: "utt2spk", Lines: t.Lines[lo:hi]}
		}
		return parts, nil
	}
	spks, _ := u.Speakers()
	if len(spks) < n {
		return nil, fmt.Errorf("cannot split data directory %s into %d parts: %w: it has %d speakers in %s (use --per-utt, or at most %d jobs)",
			dir, n, ErrTooFewSpeakers, len(spks), t.Name, len(spks))
	}
	index := make(map[string]int, len(spks))
	for i, s := range spks {
		index[s] = i
	}
	counts := make([]int, len(spks))
	rows := make([][]int, len(spks)) // each speaker's rows of utt2spk
	for i, s := range u.Spks {
		counts[index[s]]++
		rows[index[s]] = append(rows[index[s]], i)
	}
	for p, members := range splitSpeakers(counts, n) {
		if len(members) == 0 {
			return nil, fmt.Errorf("cannot split data directory %s into %d parts: %w: part %d would be empty (too many parts for %d speakers)", dir, n, ErrTooFewSpeakers, p+1, len(spks))
		}
		part := &Table{Name: "utt2spk"}
		for _, s := range members {
			for _, r := range rows[s] {
				part.Lines = append(part.Lines, t.Lines[r]) // row r of u is line r of t
			}
		}
		parts[p] = part
	}
	return parts, nil
}

// writeSubset writes a data directory holding the utterances of utt2spk:
// it, the spk2utt made from it, and the lines of each source file that
// belong to them (by utterance, speaker or, with segments, recording).
func writeSubset(out string, utt2spk *Table, sources map[string]*Table, segmented bool) error {
	u, err := ParseUtt2Spk(utt2spk)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o777); err != nil {
		return err
	}
	write := func(name string, t *Table) error { return t.WriteFile(path(out, name)) }
	if err := write("utt2spk", utt2spk); err != nil {
		return err
	}
	spk2utt := u.Spk2UttTable("spk2utt")
	if err := write("spk2utt", spk2utt); err != nil {
		return err
	}
	utts, spks := setOf(u.Utts), spk2utt.KeySet()
	byUtt := append([]string(nil), uttFiles...)
	if segmented {
		byUtt = append(byUtt, "segments")
	} else {
		byUtt = append(byUtt, "wav.scp")
	}
	for _, f := range byUtt {
		if t, ok := sources[f]; ok {
			if err := write(f, t.Filter(utts)); err != nil {
				return err
			}
		}
	}
	for _, f := range spkFiles {
		if t, ok := sources[f]; ok {
			if err := write(f, t.Filter(spks)); err != nil {
				return err
			}
		}
	}
	if segmented {
		recos := setOf(Recordings(sources["segments"].Filter(utts)))
		for _, f := range recoFiles {
			if t, ok := sources[f]; ok {
				if err := write(f, t.Filter(recos)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
