package transform

import (
	"fmt"
	"math"
	"sort"

	"github.com/strode-asr/strode/decoder/gmm"
	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/kaldiio"
)

// PdfsForPhones is Kaldi's GetPdfsForPhones (hmm/hmm-utils.cc): the sorted
// pdf-ids of every transition-state (forward and self-loop pdf) of the
// given phones, and whether none of them is shared with a phone outside
// the list.
func PdfsForPhones(tm *hmm.TransitionModel, phones []int32) (pdfs []int32, exclusive bool) {
	in := map[int32]bool{}
	for _, p := range phones {
		in[p] = true
	}
	set := map[int32]bool{}
	for _, t := range tm.Tuples {
		if in[t.Phone] {
			set[t.ForwardPdf] = true
			set[t.SelfLoopPdf] = true
		}
	}
	exclusive = true
	for _, t := range tm.Tuples {
		if !in[t.Phone] && (set[t.ForwardPdf] || set[t.SelfLoopPdf]) {
			exclusive = false
		}
	}
	for p := range set {
		pdfs = append(pdfs, p)
	}
	sort.Slice(pdfs, func(i, j int) bool { return pdfs[i] < pdfs[j] })
	return pdfs, exclusive
}

// BoostSilence is the body of gmm-boost-silence (Kaldi's
// gmmbin/gmm-boost-silence.cc): the weights of every Gaussian of the pdfs
// of the given phones scaled by boost (they then sum to boost, which
// scales those pdfs' likelihoods by boost), and the Gaussians' constants
// recomputed. It returns how many pdfs it changed.
func BoostSilence(env Env, m *gmm.Model, phones []int32, boost float32) (int, error) {
	pdfs, exclusive := PdfsForPhones(&m.Trans, phones)
	if !exclusive {
		env.Warn("The pdfs for the silence phones may be shared by other phones (note: this probably does not matter.)")
	}
	for _, p := range pdfs {
		if int(p) < 0 || int(p) >= m.AM.NumPdfs() {
			return 0, fmt.Errorf("pdf %d of the silence phones is outside the model's %d pdfs", p, m.AM.NumPdfs())
		}
		g := &m.AM.Pdfs[p]
		for i := range g.Weights {
			g.Weights[i] *= boost
		}
		if _, err := g.ComputeGconsts(); err != nil {
			return 0, fmt.Errorf("pdf %d: %w", p, err)
		}
	}
	return len(pdfs), nil
}

// BoostSilenceOptions are gmm-boost-silence's options (Kaldi's defaults).
type BoostSilenceOptions struct {
	Binary bool
	Boost  float64
}

// DefaultBoostSilenceOptions are Kaldi's: binary output, --boost=1.5.
func DefaultBoostSilenceOptions() BoostSilenceOptions {
	return BoostSilenceOptions{Binary: true, Boost: 1.5}
}

// GmmBoostSilence is gmm-boost-silence: <silence-phones-list> <model-in>
// <model-out>.
func GmmBoostSilence(env Env, o BoostSilenceOptions, phonesStr, modelRx, modelWx string) error {
	phones, err := ParsePhoneList(phonesStr)
	if err != nil {
		return err
	}
	if len(phones) == 0 {
		env.Warn("gmm-boost-silence: no silence phones specified, doing nothing.")
	}
	seen := map[int32]bool{}
	for _, p := range phones {
		if seen[p] {
			return fmt.Errorf("silence phones non-unique: phone %d twice in %q", p, phonesStr)
		}
		seen[p] = true
	}
	if math.IsNaN(o.Boost) || math.IsInf(o.Boost, 0) || o.Boost <= 0 {
		return fmt.Errorf("--boost=%g: want a positive factor", o.Boost)
	}
	m, err := readGmmModel(env, modelRx)
	if err != nil {
		return err
	}
	n, err := BoostSilence(env, m, phones, float32(o.Boost))
	if err != nil {
		return fmt.Errorf("model %s: %w", modelRx, err)
	}
	env.Log("Boosted weights for %d pdfs, by factor of %s", n, hmm.FormatG6(o.Boost))
	if err := kaldiio.WriteObject(modelWx, gmm.ModelCodec, o.Binary, m, env.Opts...); err != nil {
		return err
	}
	env.Log("Wrote model to %s", modelWx)
	return nil
}
