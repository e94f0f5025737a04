package trainer

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"time"

	"github.com/strode-asr/strode/acoustic/am"
	"github.com/strode-asr/strode/acoustic/optim"
)

// IterationOptions configure RunIteration: one job of one iteration of
// data-parallel training (nnet3-train's part in steps/nnet3/train_dnn.py).
type IterationOptions struct {
	LearningRate   float64 // this job's rate (the driver's effective rate × the number of jobs)
	Seed           int64   // with Iter and Job, seeds the shuffling, masking and dropout
	Iter, Job      int
	NumMinibatches int // stop after this many minibatches, reshuffling the shard as often as needed; 0: one pass
}

// iterationRNG is the random source of job `job` of iteration `iter`: a
// job that is re-run draws the same numbers, so a retried or resumed
// iteration gives the same model.
func iterationRNG(seed int64, iter, job int) *rand.Rand {
	x := uint64(seed)
	for _, v := range []uint64{uint64(iter), uint64(job)} {
		x = splitmix64(x ^ (v + 0x9e3779b97f4a7c15))
	}
	return rand.New(rand.NewSource(int64(x)))
}

// splitmix64 is Steele et al.'s 64-bit finaliser, a bijection that mixes
// every input bit into every output bit.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// RunIteration trains t.File's model on utts (one shard) from its current
// parameters and the optimizer state stored in t.File.Tensors (none in an
// initial model: the optimizer starts afresh), at o.LearningRate, for one
// pass over the shard or o.NumMinibatches minibatches. It leaves the new
// parameters in the model, the new optimizer state in t.File.Tensors and
// the job's IterationStats in t.File.Extra, ready to be saved as the job's
// model and averaged (see average.go). The utterances are as loaded:
// RunIteration applies the model's target delay.
func (t *Trainer) RunIteration(utts []*am.Utterance, o IterationOptions) (IterationStats, error) {
	st := IterationStats{Iter: o.Iter, Jobs: 1, Job: o.Job, LearningRate: o.LearningRate}
	if len(utts) == 0 {
		return st, fmt.Errorf("trainer: iteration %d job %d: no training utterances", o.Iter, o.Job)
	}
	if o.LearningRate <= 0 || o.NumMinibatches < 0 {
		return st, fmt.Errorf("trainer: iteration %d job %d: learning rate %g and number of minibatches %d must be > 0 and ≥ 0", o.Iter, o.Job, o.LearningRate, o.NumMinibatches)
	}
	t.warn()
	ps := t.File.Model.Params.List
	if err := t.opt.load(ps, t.File); err != nil {
		return st, err
	}
	t.opt.setLR(o.LearningRate)
	rng := iterationRNG(o.Seed, o.Iter, o.Job)
	utts, err := am.DelayAll(utts, t.File.Model.Opts.TargetDelay)
	if err != nil {
		return st, err
	}
	if err := t.Opts.FrameShuffle.check(t); err != nil {
		return st, err
	}
	start := time.Now()
	var ts am.Stats
	for pass := 0; ; pass++ {
		batches, err := t.minibatches(utts, rng)
		if err != nil {
			return st, err
		}
		for i := range batches.Len() {
			if o.NumMinibatches > 0 && st.Minibatches == o.NumMinibatches {
				break
			}
			b, err := batches.Batch(i)
			if err != nil {
				return st, err
			}
			g, err := t.graph(b, am.Train)
			if err != nil {
				return st, err
			}
			b = t.Opts.Mask.Masked(b, t.File.Pipeline.RawDim, rng)
			if err := g.Load(b, rng); err != nil {
				return st, err
			}
			if err := g.Run(); err != nil {
				return st, err
			}
			if err := optim.Check(ps); err != nil {
				return st, fmt.Errorf("trainer: iteration %d job %d minibatch %d: %w", o.Iter, o.Job, st.Minibatches+1, err)
			}
			t.opt.step(ps)
			ts.Add(g.Stats())
			st.Minibatches++
		}
		if o.NumMinibatches == 0 || st.Minibatches == o.NumMinibatches {
			break
		}
	}
	st.Frames, st.TrainCE, st.TrainAcc = ts.Frames, ts.MeanCE(), ts.Accuracy()
	st.Seconds = time.Since(start).Seconds()
	t.File.Tensors = t.opt.save(ps)
	extra := map[string]string{}
	for k, v := range t.File.Extra {
		extra[k] = v
	}
	b, _ := json.Marshal(st)
	extra[IterationStatsKey] = string(b)
	t.File.Extra = extra
	return st, nil
}
