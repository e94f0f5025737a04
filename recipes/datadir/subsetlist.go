package datadir

import (
	"fmt"
	"io"
)

// Subset is utils/subset_data_dir.sh --utt-list or --spk-list: it writes to
// dst the utterances of src whose key (byUtt) or speaker (!byUtt) is listed
// in the first field of the lines of the file list, with every
// per-utterance, per-speaker and per-recording file filtered to them. A
// listed key that src lacks is ignored, as Kaldi's filter_scp.pl does; an
// empty result is an error (a data dir with no utterances is never what a
// recipe wants).
func Subset(src, dst, list string, byUtt bool, log io.Writer) error {
	if log == nil {
		log = io.Discard
	}
	l, err := ReadTableFile(list)
	if err != nil {
		return fmt.Errorf("subset-data-dir: %w", err)
	}
	want := l.KeySet()
	u2sTable, err := ReadTableFile(path(src, "utt2spk"))
	if err != nil {
		return fmt.Errorf("subset-data-dir: no such file %s/utt2spk: %w", src, err)
	}
	u2s, err := ParseUtt2Spk(u2sTable)
	if err != nil {
		return err
	}
	sub := &Table{Name: "utt2spk"}
	for i, line := range u2sTable.Lines {
		k := u2s.Utts[i]
		if !byUtt {
			k = u2s.Spks[i]
		}
		if want[k] {
			sub.Lines = append(sub.Lines, line)
		}
	}
	if sub.Len() == 0 {
		return fmt.Errorf("subset-data-dir: no utterance of %s is in %s", src, list)
	}
	segmented := exists(path(src, "segments"))
	sources, err := loadSources(src, presentFiles(src, segmented))
	if err != nil {
		return err
	}
	if err := writeSubset(dst, sub, sources, segmented); err != nil {
		return err
	}
	fmt.Fprintf(log, "subset-data-dir: reducing #utt from %d to %d (%s)\n", u2sTable.Len(), sub.Len(), dst)
	return nil
}
