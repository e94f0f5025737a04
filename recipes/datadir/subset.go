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
//
// When src has utt2uniq (a speed- or volume-perturbed dir: sp0.9-utt1 and
// sp1.1-utt1 map to utt1), the copies of one utterance always land on the
// same side, which Kaldi's script does not ensure (its nnet3 get_egs.sh
// does, choosing validation utterances by utt2uniq): otherwise the
// cross-validation set would hold copies of training utterances and its
// loss would flatter the model. By utterances, the unit is the group of
// utterances sharing an utt2uniq value, in order of its first utterance in
// utt2spk: the last CvUttPercent of the groups, cut back to a change of
// speaker of those first utterances, go to cv with all their copies. By
// speakers, speakers that share an utterance group are one unit (sp0.9-s,
// sp1.1-s and s after 3-way perturbation), and CvSpkPercent of the units,
// shuffled, go to cv. Without utt2uniq every utterance and every speaker is
// its own unit, and the split is the one without this rule.
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
	// group[i] is utterance i's utt2uniq value (itself without one).
	group := append([]string(nil), u2s.Utts...)
	if exists(path(src, "utt2uniq")) {
		uniq, err := ReadTableFile(path(src, "utt2uniq"))
		if err != nil {
			return err
		}
		of := map[string]string{}
		for _, l := range uniq.Lines {
			f := l.Fields()
			if len(f) != 2 {
				return fmt.Errorf("%s:%d: bad line %q: expected <utterance-id> <original-utterance-id>", uniq.Name, l.No, l.Text)
			}
			of[f[0]] = f[1]
		}
		groups := map[string]bool{}
		for i, u := range u2s.Utts {
			if g, ok := of[u]; ok {
				group[i] = g
			}
			groups[group[i]] = true
		}
		fmt.Fprintf(log, "subset-data-dir-tr-cv: %s/utt2uniq: %d utterances are %d groups, each kept on one side\n", src, len(u2s.Utts), len(groups))
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
		units := speakerUnits(spks, u2s, group)
		nCv := len(units) * opt.CvSpkPercent / 100
		r := rand.New(rand.NewPCG(opt.Seed, 0))
		r.Shuffle(len(units), func(i, j int) { units[i], units[j] = units[j], units[i] })
		if nCv == 0 || nCv == len(units) {
			what := "speakers"
			if len(units) != len(spks) {
				what = "groups of speakers sharing utt2uniq groups"
			}
			return fmt.Errorf("subset-data-dir-tr-cv: %d%% of the %d %s of %s is %d: the training or the cross-validation set would be empty",
				opt.CvSpkPercent, len(units), what, src, nCv)
		}
		cvSpks := map[string]bool{}
		for _, u := range units[:nCv] {
			for _, s := range u {
				cvSpks[s] = true
			}
		}
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
		// The units: each group's first utterance, in utt2spk order.
		var firstSpk []string
		var firstGroup []string
		seen := map[string]bool{}
		for i, g := range group {
			if !seen[g] {
				seen[g] = true
				firstSpk, firstGroup = append(firstSpk, u2s.Spks[i]), append(firstGroup, g)
			}
		}
		n := len(firstSpk)
		head := n - n*opt.CvUttPercent/100
		// Move the boundary back to a change of speaker (uniq -f1 -c).
		kept := 0
		for i := 0; i < n; {
			j := i
			for j < n && firstSpk[j] == firstSpk[i] {
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
			what := "utterances"
			if n != len(group) {
				what = "utt2uniq groups of utterances"
			}
			return fmt.Errorf("subset-data-dir-tr-cv: %d%% of the %d %s of %s, cut at a change of speaker, leaves the training or the cross-validation set empty",
				opt.CvUttPercent, n, what, src)
		}
		cvGroups := setOf(firstGroup[kept:])
		trU2S, cvU2S = &Table{Name: "utt2spk"}, &Table{Name: "utt2spk"}
		for i, l := range u2sTable.Lines {
			if cvGroups[group[i]] {
				cvU2S.Lines = append(cvU2S.Lines, l)
			} else {
				trU2S.Lines = append(trU2S.Lines, l)
			}
		}
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

// speakerUnits groups speakers (in spks' order) that share an utterance
// group, transitively (union-find): the units a speaker-wise split keeps
// whole. Each unit lists its speakers in spks' order; the units are in the
// order of their first speaker. Without shared groups every speaker is a
// unit of its own.
func speakerUnits(spks []string, u *Utt2Spk, group []string) [][]string {
	parent := map[string]string{}
	var find func(string) string
	find = func(s string) string {
		p, ok := parent[s]
		if !ok || p == s {
			return s
		}
		r := find(p)
		parent[s] = r
		return r
	}
	order := map[string]int{}
	for i, s := range spks {
		order[s] = i
	}
	union := func(a, b string) {
		ra, rb := find(a), find(b)
		if ra == rb {
			return
		}
		if order[ra] > order[rb] { // the root is the unit's first speaker
			ra, rb = rb, ra
		}
		parent[rb] = ra
	}
	groupSpk := map[string]string{}
	for i, g := range group {
		if s, ok := groupSpk[g]; ok {
			union(s, u.Spks[i])
		} else {
			groupSpk[g] = u.Spks[i]
		}
	}
	var units [][]string
	at := map[string]int{}
	for _, s := range spks {
		r := find(s)
		k, ok := at[r]
		if !ok {
			k = len(units)
			at[r] = k
			units = append(units, nil)
		}
		units[k] = append(units[k], s)
	}
	return units
}
