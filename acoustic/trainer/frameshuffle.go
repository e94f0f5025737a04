package trainer

import (
	"flag"
	"fmt"
	"math/rand"

	"github.com/strode-asr/strode/acoustic/am"
	"github.com/strode-asr/strode/features"
)

// FrameShuffleOptions make training nnet1's nnet-train-frmshuff for a
// feed-forward model: the minibatches are MinibatchSize frames drawn from
// across the whole training set instead of whole utterances. A dnn's output
// at a frame depends only on that frame's spliced input, so a minibatch of
// frames from many utterances is a pseudo-utterance of spliced rows, and an
// epoch makes about (frames / MinibatchSize) updates of decorrelated frames
// where utterance minibatches make a few hundred of neighbouring ones
// (acoustic/am/BASELINES.md: the dnn's 2-utterance minibatches were the
// stand-in for this).
//
// nnet1 shuffles within a buffer of --randomizer-size frames (32768) filled
// from the (shuffled) utterance list; here every epoch draws one permutation
// of all the training frames from the epoch's random source, the limit of a
// buffer as large as the training set, so a seeded run stays reproducible.
type FrameShuffleOptions struct {
	Enabled       bool // --frame-shuffle
	MinibatchSize int  // --frame-minibatch-size, nnet1's --minibatch-size
}

// DefaultFrameShuffleOptions: off, nnet1's 256 frames a minibatch.
func DefaultFrameShuffleOptions() FrameShuffleOptions {
	return FrameShuffleOptions{MinibatchSize: 256}
}

// Register adds the options to fs.
func (o *FrameShuffleOptions) Register(fs *flag.FlagSet) {
	fs.BoolVar(&o.Enabled, "frame-shuffle", o.Enabled, "train on minibatches of frames shuffled across the whole training set (nnet1's nnet-train-frmshuff; feed-forward models only: --model=dnn)")
	fs.IntVar(&o.MinibatchSize, "frame-minibatch-size", o.MinibatchSize, "--frame-shuffle: frames per minibatch (nnet1's --minibatch-size)")
}

func (o FrameShuffleOptions) validate() error {
	if o.Enabled && o.MinibatchSize < 1 {
		return fmt.Errorf("trainer: --frame-minibatch-size=%d must be ≥ 1", o.MinibatchSize)
	}
	return nil
}

// check refuses what frame minibatches cannot train: a model whose output
// at a frame reads other frames than its spliced input, and the per-utterance
// terms (sequence training's lattices, SpecAugment's time spans, a teacher).
func (o FrameShuffleOptions) check(t *Trainer) error {
	if !o.Enabled {
		return nil
	}
	if k := t.File.Model.Opts.Kind; k != am.KindDNN {
		return fmt.Errorf("trainer: --frame-shuffle trains feed-forward models only (--model=dnn), not --model=%s: its output at a frame reads the frames around it", k)
	}
	switch {
	case t.Sequence != nil:
		return fmt.Errorf("trainer: --frame-shuffle and sequence training (--den-lats) together: the lattices are per utterance")
	case t.Teachers != nil:
		return fmt.Errorf("trainer: --frame-shuffle and a teacher together: not supported")
	case t.Opts.Mask.on():
		return fmt.Errorf("trainer: --frame-shuffle and SpecAugment masks together: the masks are per utterance")
	}
	return nil
}

// minibatches is one epoch's minibatches, made as they are asked for.
type minibatches interface {
	Len() int
	Batch(i int) ([]*am.Utterance, error)
}

// uttBatches are Batches' whole-utterance minibatches.
type uttBatches [][]*am.Utterance

func (b uttBatches) Len() int                             { return len(b) }
func (b uttBatches) Batch(i int) ([]*am.Utterance, error) { return b[i], nil }

// frameBatches are the frames of utts in the order of perm, size a
// minibatch, each minibatch one utterance of spliced rows.
type frameBatches struct {
	utts []*am.Utterance
	perm []frameRef
	size int
}

type frameRef struct{ utt, t int32 }

// newFrameBatches draws the permutation of every frame of utts that has a
// target (the rows past the end of a delayed utterance's targets have none).
func newFrameBatches(utts []*am.Utterance, size int, rng *rand.Rand) (*frameBatches, error) {
	n := 0
	for _, u := range utts {
		n += u.Rows
	}
	perm := make([]frameRef, 0, n)
	for i, u := range utts {
		if u.Targets == nil {
			return nil, fmt.Errorf("trainer: --frame-shuffle: utterance %s has no targets", u.Key)
		}
		if u.Rows == 0 || len(u.Feats)%u.Rows != 0 {
			return nil, fmt.Errorf("trainer: --frame-shuffle: utterance %s: %d values for %d frames", u.Key, len(u.Feats), u.Rows)
		}
		for t := 0; t < min(u.Rows, len(u.Targets)); t++ {
			perm = append(perm, frameRef{int32(i), int32(t)})
		}
	}
	if rng != nil {
		rng.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
	}
	return &frameBatches{utts: utts, perm: perm, size: size}, nil
}

func (f *frameBatches) Len() int { return (len(f.perm) + f.size - 1) / f.size }

// Batch gathers minibatch i: each frame's row spliced as Kaldi's
// splice-feats (and am.Utterance.Spliced) splices it, the edges repeating
// the first and last frame.
func (f *frameBatches) Batch(i int) ([]*am.Utterance, error) {
	refs := f.perm[i*f.size : min((i+1)*f.size, len(f.perm))]
	u0 := f.utts[refs[0].utt]
	raw := len(u0.Feats) / u0.Rows
	dim := raw * (1 + u0.Context[0] + u0.Context[1])
	out := &am.Utterance{Key: fmt.Sprintf("frames-%d", i), Rows: len(refs),
		Feats: make([]float32, 0, len(refs)*dim), Targets: make([]int32, len(refs))}
	for k, r := range refs {
		u := f.utts[r.utt]
		if len(u.Feats)/u.Rows != raw || u.Context != u0.Context {
			return nil, fmt.Errorf("trainer: --frame-shuffle: utterance %s has %d-dimensional frames with context %v, utterance %s %d with %v",
				u.Key, len(u.Feats)/u.Rows, u.Context, u0.Key, raw, u0.Context)
		}
		out.Feats = features.AppendSplicedRow(out.Feats, u.Feats, u.Rows, raw, int(r.t), u.Context[0], u.Context[1])
		out.Targets[k] = u.Targets[r.t]
	}
	return []*am.Utterance{out}, nil
}

// minibatches returns the epoch's minibatches of train: shuffled frames
// with --frame-shuffle, else Batches' utterance groups.
func (t *Trainer) minibatches(train []*am.Utterance, rng *rand.Rand) (minibatches, error) {
	if t.Opts.FrameShuffle.Enabled {
		return newFrameBatches(train, t.Opts.FrameShuffle.MinibatchSize, rng)
	}
	return uttBatches(Batches(train, t.Opts.BatchUtts, t.Opts.BatchFrames, rng)), nil
}
