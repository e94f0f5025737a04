package transform

import (
	"fmt"

	"github.com/strode-asr/strode/decoder/gmm"
	"github.com/strode-asr/strode/kaldiio"
)

// GmmAccStatsTwofeats is gmm-acc-stats-twofeats: maximum-likelihood
// statistics whose Gaussian posteriors come from the model on the first
// features (e.g. train_sat.sh's speaker-adapted features) and which are
// accumulated on the second (the speaker-independent features), so that
// gmm-est can re-estimate the model's Gaussians in the second feature space
// with the same alignment (train_sat.sh's final.alimdl). The statistics
// take the second features' dimension. Kaldi's counts: utterances without
// posteriors (silently), without second features (warned), with
// posteriors or second features of another length (warned).
func GmmAccStatsTwofeats(env Env, binary bool, modelRx, feat1Rspec, feat2Rspec, postRspec, accsWx string) error {
	m, err := readGmmModel(env, modelRx)
	if err != nil {
		return err
	}
	accs := gmm.Accs{Transitions: m.Trans.InitStats()}
	var gaccs *gmm.AccumAmDiagGmm
	f1, err := kaldiio.OpenSequentialReader(feat1Rspec, kaldiio.MatrixCodec, env.Opts...)
	if err != nil {
		return err
	}
	defer f1.Close()
	f2, err := kaldiio.OpenRandomAccessReader(feat2Rspec, kaldiio.MatrixCodec, env.Opts...)
	if err != nil {
		return err
	}
	defer f2.Close()
	posts, err := kaldiio.OpenRandomAccessReader(postRspec, kaldiio.PosteriorCodec, env.Opts...)
	if err != nil {
		return err
	}
	defer posts.Close()
	totLike, totT := 0.0, 0.0
	done, no2nd, noPost, other := 0, 0, 0, 0
	for f1.Next() {
		key := f1.Key()
		ok, err := f2.HasKey(key)
		if err != nil {
			return err
		}
		if !ok {
			env.Warn("For utterance %s, second features not present.", key)
			no2nd++
			continue
		}
		if ok, err = posts.HasKey(key); err != nil {
			return err
		} else if !ok {
			noPost++
			continue
		}
		x1 := f1.Value()
		x2, err := f2.Value(key)
		if err != nil {
			return err
		}
		if gaccs == nil {
			gaccs = gmm.NewAccumAmDiagGmmDim(&m.AM, x2.Cols, gmm.FlagAll)
		}
		if x2.Cols != gaccs.Accs[0].Dim {
			return fmt.Errorf("utterance %s in %s: second features have dimension %d, earlier ones %d", key, feat2Rspec, x2.Cols, gaccs.Accs[0].Dim)
		}
		post, err := posts.Value(key)
		if err != nil {
			return err
		}
		if len(post) != x1.Rows {
			env.Warn("Posteriors has wrong size %d vs. %d", len(post), x1.Rows)
			other++
			continue
		}
		if x1.Rows != x2.Rows {
			env.Warn("Features have mismatched numbers of frames %d vs. %d", x1.Rows, x2.Rows)
			other++
			continue
		}
		if err := checkFeatDim(key, feat1Rspec, x1.Cols, modelRx, m.AM.Dim); err != nil {
			return err
		}
		if err := checkPost(&m.Trans, post); err != nil {
			return fmt.Errorf("posteriors of %s in %s (model %s): %w", key, postRspec, modelRx, err)
		}
		done++
		like, weight := 0.0, 0.0
		for t, frame := range post {
			for _, e := range frame {
				pdf := int(m.Trans.TransitionIDToPdf(e.ID))
				accs.Transitions[e.ID] += float64(e.Weight)
				like += float64(e.Weight) * float64(gaccs.AccumulateForGmmTwofeats(&m.AM, x1.Row(t), x2.Row(t), pdf, e.Weight))
				weight += float64(e.Weight)
			}
		}
		env.Log("Average like for this file is %s over %s frames.", g6(like/weight), g6(weight))
		totLike += like
		totT += weight
	}
	if err := f1.Err(); err != nil {
		return err
	}
	env.Log("Num frames %s, avg like per frame (Gaussian only) = %s", g6(totT), g6(totLike/totT))
	env.Log("Done %d files, %d with no posteriors, %d with no second features, %d with other errors.", done, noPost, no2nd, other)
	if gaccs == nil {
		gaccs = gmm.NewAccumAmDiagGmm(&m.AM, gmm.FlagAll)
	}
	accs.GMM = *gaccs
	if err := kaldiio.WriteObject(accsWx, gmm.AccsCodec, binary, &accs, env.Opts...); err != nil {
		return err
	}
	env.Log("Written accs.")
	if done == 0 {
		return nothingDone("no utterances with both features and posteriors")
	}
	return nil
}
