package gmm

import (
	"fmt"

	"github.com/strode-asr/strode/internal/glibcrand"
)

// EstReport is what Estimate did, for gmm-est's log lines.
type EstReport struct {
	// The transition update (when the flags name t): objective function
	// improvement, count, probabilities floored, transition-states skipped.
	TransitionsUpdated         bool
	TransImpr, TransCount      float64
	TransFloored, TransSkipped int
	Gmm                        UpdateResult
	// Occs are the pdf occupancies (in float, as Kaldi writes them), when
	// mixing up or o.WriteOccs asked for them.
	Occs []float64
	// The mixing up, when o.MixUp.MixUp != 0: the number of Gaussians
	// before and after, and whether min-count kept it short of the target.
	GaussBefore, GaussAfter int
	MixUpShort              bool
}

// MixUpSeed seeds the glibc generator mixing up draws its perturbations
// from: 1, as in a Kaldi gmm-est process, which never calls srand. Tests set
// others to measure how much a training run depends on these draws.
var MixUpSeed uint32 = 1

// Estimate is gmm-est's update of m from accs: the transitions (when the
// update flags name t) by MleUpdate, the GMMs by MleAmDiagGmmUpdate, then
// mixing up by occupancy (drawing from glibc's rand seeded with 1, as
// Kaldi's process does). The statistics must be of m's shape.
func Estimate(m *Model, accs *Accs, o EstOptions) (*EstReport, error) {
	flags, err := ParseFlags(o.UpdateFlags)
	if err != nil {
		return nil, err
	}
	if len(accs.GMM.Accs) != m.AM.NumPdfs() || len(accs.Transitions) != m.Trans.NumTransitionIDs()+1 {
		return nil, fmt.Errorf("stats (%d pdfs, %d transition counts) are not of the model (%d pdfs, %d transition-ids)",
			len(accs.GMM.Accs), len(accs.Transitions)-1, m.AM.NumPdfs(), m.Trans.NumTransitionIDs())
	}
	for i := range accs.GMM.Accs {
		if a := &accs.GMM.Accs[i]; a.NumGauss != m.AM.Pdfs[i].NumGauss() || a.Dim != m.AM.Dim {
			return nil, fmt.Errorf("stats: pdf %d has %d Gaussians of dimension %d, the model %d of %d",
				i, a.NumGauss, a.Dim, m.AM.Pdfs[i].NumGauss(), m.AM.Dim)
		}
	}
	r := &EstReport{}
	if flags&FlagTransitions != 0 {
		r.TransitionsUpdated = true
		r.TransImpr, r.TransCount, r.TransSkipped, r.TransFloored, err = m.Trans.MleUpdate(accs.Transitions, o.Transitions)
		if err != nil {
			return nil, err
		}
	}
	if r.Gmm, err = MleAmDiagGmmUpdate(o.Gmm, &accs.GMM, flags&^FlagTransitions, &m.AM); err != nil {
		return nil, err
	}
	if o.MixUp.MixUp == 0 && o.WriteOccs == "" {
		return r, nil
	}
	r.Occs = make([]float64, len(accs.GMM.Accs))
	for i := range accs.GMM.Accs {
		for _, v := range accs.GMM.Accs[i].Occupancy {
			r.Occs[i] += v
		}
		r.Occs[i] = float64(float32(r.Occs[i]))
	}
	if o.MixUp.MixUp != 0 {
		r.GaussBefore, r.GaussAfter, r.MixUpShort = m.AM.SplitByCount(r.Occs, o.MixUp, glibcrand.New(MixUpSeed))
	}
	return r, nil
}
