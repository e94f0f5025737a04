package datadir

import (
	"fmt"
	"io"
	"math/rand/v2"
)

// TrCvOptions are subset_data_dir_tr_cv.sh's options.
type TrCvOptions struct {
	// CvSpkPercent, when >= 0, puts that percentage of the speakers, drawn
	// at random, in the cross-validation set. Otherwise CvUttPercent of the
	// utterances at the end of utt2spk go there, the boundary moved back to
	// a change of speaker (Kaldi's default, 10).
	CvSpkPercent int
	CvUttPercent int
	Seed         uint64 // the speaker shuffle's seed (Kaldi's default 777)
}

// DefaultTrCvOptions are Kaldi's defaults.
func DefaultTrCvOptions() TrCvOptions {
	return TrCvOptions{CvSpkPercent: -1, CvUttPercent: 10, Seed: 777}
}

// SubsetTrCv is utils/subset_data_dir_tr_cv.sh: it splits the data
// directory src into a training directory tr and a cross-validation
// directory cv with no speaker in both (by speakers with CvSpkPercent, else
// by the last CvUttPercent of utterances cut at a speaker change). The
// speaker shuffle is ours (math/rand/v2's PCG seeded with Seed): the same
// seed gives the same split, but not the one Kaldi's Perl shuffle gives.
// Progress lines go to log.
func SubsetTrCv(src, tr, cv string, opt TrCvOptions, log io.Writer) error {
	if log == nil {
		log = io.Discard
	}
	u2sTable, err := ReadTableFile(path(src, "utt2spk"))
	if err != nil {
		return fmt.Errorf("subset-data-dir-tr-cv: no such file %s/utt2spk: %w", src, err)
	}
	u2s, err := ParseUtt2Spk(u2sTable)
	if err != nil {
		return err
	}
	var trU2S, cvU2S *Table
	if opt.CvSpkPercent >= 0 {
		spks, _ := u2s.Speakers()
		if exists(path(src, "spk2utt")) { // Kaldi draws from spk2utt's order
			s2u, err := ReadTableFile(path(src, "spk2utt"))
			if err != nil {
				return err
			}
			spks = s2u.Keys()
		}
		nCv := len(spks) * opt.CvSpkPercent / 100
		shuffled := append([]string(nil), spks...)
		r := rand.New(rand.NewPCG(opt.Seed, 0))
		r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		if nCv == 0 || nCv == len(spks) {
			return fmt.Errorf("subset-data-dir-tr-cv: %d%% of the %d speakers of %s is %d: the training or the cross-validation set would be empty",
				opt.CvSpkPercent, len(spks), src, nCv)
		}
		cvSpks := setOf(shuffled[:nCv])
		trU2S, cvU2S = &Table{Name: "utt2spk"}, &Table{Name: "utt2spk"}
		// Kaldi's subset --spk-list goes through spk2utt, so each set's
		// utt2spk is grouped by speaker in spk2utt's order.
		rows := map[string][]Line{}
		for i, l := range u2sTable.Lines {
			rows[u2s.Spks[i]] = append(rows[u2s.Spks[i]], l)
		}
		for _, s := range spks {
			if cvSpks[s] {
				cvU2S.Lines = append(cvU2S.Lines, rows[s]...)
			} else {
				trU2S.Lines = append(trU2S.Lines, rows[s]...)
			}
		}
	} else {
		n := len(u2s.Utts)
		head := n - n*opt.CvUttPercent/100
		// Move the boundary back to a change of speaker (uniq -f1 -c).
		kept := 0
		for i := 0; i < n; {
			j := i
			for j < n && u2s.Spks[j] == u2s.Spks[i] {
				j++
			}
			if kept+(j-i) > head {
				break
			}
			kept += j - i
			i = j
		}
		if kept == 0 {
			kept = head
		}
		if kept == 0 || kept == n {
			return fmt.Errorf("subset-data-dir-tr-cv: %d%% of the %d utterances of %s, cut at a change of speaker, leaves the training or the cross-validation set empty",
				opt.CvUttPercent, n, src)
		}
		trU2S = &Table{Name: "utt2spk", Lines: u2sTable.Lines[:kept]}
		cvU2S = &Table{Name: "utt2spk", Lines: u2sTable.Lines[kept:]}
	}
	segmented := exists(path(src, "segments"))
	sources, err := loadSources(src, presentFiles(src, segmented))
	if err != nil {
		return err
	}
	for _, d := range []struct {
		dir     string
		utt2spk *Table
	}{{tr, trU2S}, {cv, cvU2S}} {
		if err := writeSubset(d.dir, d.utt2spk, sources, segmented); err != nil {
			return err
		}
		fmt.Fprintf(log, "subset-data-dir: reducing #utt from %d to %d (%s)\n", u2sTable.Len(), d.utt2spk.Len(), d.dir)
	}
	return nil
}
