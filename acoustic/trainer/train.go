package trainer

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/strode-asr/strode/acoustic/am"
	"github.com/strode-asr/strode/acoustic/modelfile"
	"github.com/strode-asr/strode/acoustic/optim"
	"github.com/strode-asr/strode/internal/progress"
)

// TrainOptions configure Train. Newbob is nnet1's learning-rate schedule
// (steps/nnet/train_scheduler.sh): an epoch that does not lower the held-out
// cross-entropy is rejected (the previous parameters are restored); once the
// relative improvement falls under StartHalvingImpr the rate is multiplied
// by HalvingFactor every epoch, and training ends when it falls under
// EndHalvingImpr while halving.
type TrainOptions struct {
	Optimizer string // "adam" or "sgd"
	// LearningRate (--learning-rate, Kaldi nnet3's name), when > 0, is the
	// rate of the chosen Optimizer: it replaces Adam.LearningRate or
	// SGD.LearningRate, whose values (by default 1e-3 and 0.008) apply when
	// it is 0.
	LearningRate float64
	Adam         optim.AdamOptions
	SGD          optim.SGDOptions
	MaxEpochs    int
	MinEpochs    int
	Newbob       bool // halving schedule (nnet1); else early stopping with Patience
	// KeepLREpochs (nnet1's --keep-lr-iters) keeps the learning rate for
	// the first epochs whatever their improvement: a worse first epoch
	// (Adam's first steps can raise the held-out CE) is rejected but does
	// not start the halving that would end training a few epochs later.
	KeepLREpochs     int
	HalvingFactor    float64
	StartHalvingImpr float64
	EndHalvingImpr   float64
	Patience         int // epochs without held-out improvement before stopping (no newbob)
	// KeepLast ends training with the last epoch's parameters instead of
	// the best held-out epoch's (not with Newbob): for fine-tuning whose
	// held-out set is its own training data, where the best "held-out" epoch
	// is the one that fits the targets closest, often the starting model.
	KeepLast    bool
	BatchUtts   int // utterances per minibatch
	BatchFrames int // padded frames per minibatch (longest · count)
	Quantum     int // minibatch lengths are rounded up to a multiple of this (fewer graph shapes)
	// GraphCache is how many minibatch graphs (one per shape) are kept
	// built; the least recently used is dropped beyond it (≤ 0: all).
	GraphCache  int
	Seed        int64
	Checkpoint  string // file written after every epoch ("" none)
	Resume      bool   // continue from Checkpoint
	EpochModels string // after every epoch, the epoch's own parameters are written to fmt.Sprintf(EpochModels, epoch) ("" none)
	// LabelSmoothing ε trains on the targets (1−ε)·onehot + ε/P (am.Model.BuildSmoothed);
	// the held-out statistics stay plain cross-entropy.
	LabelSmoothing float64
	Mask           MaskOptions
	FrameShuffle   FrameShuffleOptions

	// aliases records the deprecated learning-rate options given to the
	// flag set of Register, for ResolveLearningRate's warnings and its
	// conflict check.
	aliases struct{ adam, sgd bool }
}

// DefaultTrainOptions: Adam at 1e-3 with gradient clipping at 5, up to 20
// epochs with early stopping after 3 bad ones, 16 utterances or 8000 frames
// per minibatch.
func DefaultTrainOptions() TrainOptions {
	a := optim.DefaultAdamOptions()
	a.LearningRate, a.ClipNorm = 1e-3, 5
	return TrainOptions{Optimizer: "adam", Adam: a, SGD: optim.SGDOptions{LearningRate: 0.008, Momentum: 0.9, ClipNorm: 5},
		MaxEpochs: 20, MinEpochs: 1, HalvingFactor: 0.5, StartHalvingImpr: 0.01, EndHalvingImpr: 0.001,
		Patience: 3, BatchUtts: 16, BatchFrames: 8000, Quantum: 20, GraphCache: 4, Seed: 777,
		FrameShuffle: DefaultFrameShuffleOptions()}
}

// Register adds the options to fs (nnet1's names where it has them).
func (o *TrainOptions) Register(fs *flag.FlagSet) {
	fs.StringVar(&o.Optimizer, "optimizer", o.Optimizer, "adam, or sgd (with momentum)")
	fs.Float64Var(&o.LearningRate, "learning-rate", o.LearningRate,
		fmt.Sprintf("learning rate of the --optimizer (0: its default, adam %g, sgd %g)", o.Adam.LearningRate, o.SGD.LearningRate))
	// The names before --learning-rate, kept so that old scripts run
	// unchanged; ResolveLearningRate warns about them.
	fs.Var(rateAlias{&o.Adam.LearningRate, &o.aliases.adam}, "learn-rate", "deprecated: use --learning-rate (this sets Adam's rate)")
	fs.Var(rateAlias{&o.SGD.LearningRate, &o.aliases.sgd}, "sgd-learn-rate", "deprecated: use --learning-rate with --optimizer=sgd (this sets SGD's rate)")
	fs.Float64Var(&o.SGD.Momentum, "momentum", o.SGD.Momentum, "SGD momentum")
	fs.Float64Var(&o.Adam.ClipNorm, "clip-norm", o.Adam.ClipNorm, "gradient-norm clipping (both optimizers; ≤ 0 none)")
	fs.IntVar(&o.MaxEpochs, "max-iters", o.MaxEpochs, "maximum number of epochs")
	fs.IntVar(&o.MinEpochs, "min-iters", o.MinEpochs, "minimum number of epochs")
	fs.BoolVar(&o.Newbob, "newbob", o.Newbob, "nnet1's halving schedule with rejection of bad epochs")
	fs.IntVar(&o.KeepLREpochs, "keep-lr-iters", o.KeepLREpochs, "newbob: epochs at the initial learning rate before halving may start, however small their improvement (nnet1's --keep-lr-iters; a rejected first epoch then does not start the halving)")
	fs.Float64Var(&o.HalvingFactor, "halving-factor", o.HalvingFactor, "newbob: learning-rate factor")
	fs.Float64Var(&o.StartHalvingImpr, "start-halving-impr", o.StartHalvingImpr, "newbob: start halving under this relative improvement")
	fs.Float64Var(&o.EndHalvingImpr, "end-halving-impr", o.EndHalvingImpr, "newbob: stop under this relative improvement")
	fs.IntVar(&o.Patience, "patience", o.Patience, "early stopping: epochs without held-out improvement (without --newbob)")
	fs.BoolVar(&o.KeepLast, "keep-last", o.KeepLast, "end with the last epoch's parameters, not the best held-out epoch's (without --newbob; e.g. fine-tuning whose held-out set is its training set)")
	fs.IntVar(&o.BatchUtts, "minibatch-utts", o.BatchUtts, "utterances per minibatch")
	fs.IntVar(&o.BatchFrames, "minibatch-frames", o.BatchFrames, "padded frames per minibatch")
	fs.IntVar(&o.Quantum, "length-quantum", o.Quantum, "round minibatch lengths up to a multiple of this")
	fs.IntVar(&o.GraphCache, "graph-cache-capacity", o.GraphCache, "minibatch graphs kept built, one per shape, least recently used dropped first (as nnet3's --compiler.cache-capacity; each holds buffers for its rows; 0: all). Hits save small models real time (FSDD); at the paper's sizes a step takes seconds and a graph a GB, so 1 costs no speed there and saves memory: strode train --preset=paper makes 1 the default (acoustic/am/BASELINES.md)")
	fs.Int64Var(&o.Seed, "seed", o.Seed, "seed for initialisation, shuffling and dropout")
	fs.StringVar(&o.Checkpoint, "checkpoint", o.Checkpoint, "checkpoint file written after every epoch")
	fs.BoolVar(&o.Resume, "resume", o.Resume, "resume from --checkpoint")
	fs.StringVar(&o.EpochModels, "epoch-models", o.EpochModels, "write every epoch's model (its own parameters, accepted or not) to this pattern, %d the epoch (e.g. to choose an epoch on another held-out set)")
	fs.Float64Var(&o.LabelSmoothing, "label-smoothing", o.LabelSmoothing, "label smoothing eps of the training cross-entropy: targets (1-eps) on the label, eps/pdfs on every pdf (0: none; the held-out CE stays plain)")
	o.Mask.Register(fs)
	o.FrameShuffle.Register(fs)
}

// rateAlias is a deprecated learning-rate option: it sets the rate it has
// always set and records that it was given.
type rateAlias struct {
	rate  *float64
	given *bool
}

func (a rateAlias) String() string {
	if a.rate == nil { // the flag package's probe for the zero value
		return ""
	}
	return strconv.FormatFloat(*a.rate, 'g', -1, 64)
}

// Get makes it a flag.Getter, so that usage texts show a float option.
func (a rateAlias) Get() any {
	if a.rate == nil {
		return 0.0
	}
	return *a.rate
}

func (a rateAlias) Set(s string) error {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return err
	}
	*a.rate, *a.given = v, true
	return nil
}

// ResolveLearningRate sets the chosen optimizer's rate to LearningRate
// (when > 0) and returns a deprecation warning for each of --learn-rate and
// --sgd-learn-rate given to the flag set of Register. Those keep their old
// meaning, Adam's and SGD's rate, so old scripts train as they did; one
// that sets the chosen optimizer's rate to another value than
// --learning-rate is an error naming both. NewTrainer calls it; a command
// calls it first to log the warnings before it spends time loading data.
// It forgets the aliases it has warned about, so a second call returns none.
func (o *TrainOptions) ResolveLearningRate() (warnings []string, err error) {
	if o.LearningRate < 0 || math.IsNaN(o.LearningRate) {
		return nil, fmt.Errorf("trainer: --learning-rate=%g must be > 0 (or 0 for the optimizer's default)", o.LearningRate)
	}
	if o.aliases.adam {
		warnings = append(warnings, "--learn-rate is deprecated: use --learning-rate (the rate of the chosen --optimizer)")
	}
	if o.aliases.sgd {
		warnings = append(warnings, "--sgd-learn-rate is deprecated: use --learning-rate with --optimizer=sgd")
	}
	if o.LearningRate > 0 {
		alias, rate, given := "--learn-rate", &o.Adam.LearningRate, o.aliases.adam
		if o.Optimizer == "sgd" {
			alias, rate, given = "--sgd-learn-rate", &o.SGD.LearningRate, o.aliases.sgd
		}
		if given && *rate != o.LearningRate {
			return nil, fmt.Errorf("trainer: --learning-rate=%g and %s=%g disagree (%s is the deprecated name of --learning-rate for --optimizer=%s: give --learning-rate alone)",
				o.LearningRate, alias, *rate, alias, o.Optimizer)
		}
		*rate = o.LearningRate
	}
	o.aliases.adam, o.aliases.sgd = false, false
	return warnings, nil
}

func (o TrainOptions) validate() error {
	if o.Optimizer != "adam" && o.Optimizer != "sgd" {
		return fmt.Errorf("trainer: unknown --optimizer=%q (want adam or sgd)", o.Optimizer)
	}
	if o.MaxEpochs < 1 || o.BatchUtts < 1 || o.BatchFrames < 1 || o.Quantum < 1 {
		return fmt.Errorf("trainer: --max-iters, --minibatch-utts, --minibatch-frames and --length-quantum must be ≥ 1")
	}
	if o.LabelSmoothing < 0 || o.LabelSmoothing >= 1 {
		return fmt.Errorf("trainer: --label-smoothing=%g outside [0, 1)", o.LabelSmoothing)
	}
	if o.KeepLast && o.Newbob {
		return fmt.Errorf("trainer: --keep-last and --newbob together: newbob keeps only accepted epochs")
	}
	if o.Resume && o.Checkpoint == "" {
		return fmt.Errorf("trainer: --resume needs --checkpoint")
	}
	if o.EpochModels != "" && strings.Count(o.EpochModels, "%d") != 1 {
		return fmt.Errorf("trainer: --epoch-models=%q needs exactly one %%d (the epoch)", o.EpochModels)
	}
	if err := o.FrameShuffle.validate(); err != nil {
		return err
	}
	return o.Mask.validate()
}

// trainerState is what a checkpoint records besides the parameters.
type trainerState struct {
	Epoch     int     `json:"epoch"` // epochs done
	LR        float64 `json:"learning_rate"`
	Halving   bool    `json:"halving"`
	BestLoss  float64 `json:"best_loss"`
	Bad       int     `json:"bad_epochs"`
	Done      bool    `json:"done"`
	OptimStep int     `json:"optim_step"`
}

// Trainer trains a model.
type Trainer struct {
	Opts     TrainOptions
	File     *am.File // model, pipeline, history
	Log      func(format string, args ...any)
	Progress io.Writer // epoch progress (internal/progress: a bar on a terminal, else LOG lines through Log; nil: none)
	// Teachers, when not nil, are the frozen models whose outputs the
	// model trains on (teacher.go): Train runs them over the data once.
	Teachers *Teachers
	// Sequence, when not nil, makes training sequence training, MMI's or sMBR's (sequence.go): every
	// minibatch's targets come from its denominator lattices and the
	// model's current outputs.
	Sequence *Sequence

	warnings []string // ResolveLearningRate's, logged when training starts

	graphs *am.GraphCache
	opt    optimizer
	st     trainerState
	best   [][]float64
}

// NewTrainer prepares training of f.Model.
func NewTrainer(f *am.File, o TrainOptions) (*Trainer, error) {
	if err := o.validate(); err != nil {
		return nil, err
	}
	warnings, err := o.ResolveLearningRate()
	if err != nil {
		return nil, err
	}
	t := &Trainer{Opts: o, File: f, Log: func(string, ...any) {}, graphs: am.NewGraphCache(o.GraphCache), warnings: warnings}
	o.SGD.ClipNorm = o.Adam.ClipNorm
	switch o.Optimizer {
	case "adam":
		t.opt = newAdam(o.Adam)
		t.st.LR = o.Adam.LearningRate
	default:
		t.opt = newSGD(o.SGD)
		t.st.LR = o.SGD.LearningRate
	}
	t.st.BestLoss = math.Inf(1)
	return t, nil
}

// graph returns the graph for minibatch b: its length rounded up to the
// quantum, as many utterances as it has.
func (t *Trainer) graph(b []*am.Utterance, mode am.Mode) (*am.Batch, error) {
	q := t.Opts.Quantum
	k := am.GraphKey{T: (maxRows(b) + q - 1) / q * q, B: len(b), Mode: mode}
	return t.graphs.Get(k, func() (*am.Batch, error) {
		var tt am.TrainTerms // the held-out statistics stay plain cross-entropy
		if mode == am.Train {
			tt = am.TrainTerms{Smoothing: t.Opts.LabelSmoothing, Distill: t.Teachers.distillWeight()}
			if t.Sequence != nil {
				// The criterion's rows q sum to zero, so the distillation term's
				// gradient with weight 1 is −q alone: the objective's (mmi.go, smbr.go).
				tt = am.TrainTerms{Distill: 1}
			}
		}
		return t.File.Model.BuildWith(k.T, k.B, mode, tt)
	})
}

// GraphsBuilt is how many minibatch graphs have been built so far.
func (t *Trainer) GraphsBuilt() int { return t.graphs.Builds }

// Close releases the graphs.
func (t *Trainer) Close() { t.graphs.Close() }

// Evaluate computes the held-out statistics.
// The utterances are as loaded: Evaluate applies the model's target delay
// (am.DelayAll).
func (t *Trainer) Evaluate(utts []*am.Utterance) (am.Stats, error) {
	var s am.Stats
	utts, err := am.DelayAll(utts, t.File.Model.Opts.TargetDelay)
	if err != nil {
		return s, err
	}
	for _, b := range Batches(utts, t.Opts.BatchUtts, t.Opts.BatchFrames, nil) {
		g, err := t.graph(b, am.Eval)
		if err != nil {
			return s, err
		}
		if err := g.Load(b, nil); err != nil {
			return s, err
		}
		if err := g.Run(); err != nil {
			return s, err
		}
		s.Add(g.Stats())
	}
	return s, nil
}

func maxRows(b []*am.Utterance) int {
	m := 0
	for _, u := range b {
		m = max(m, u.Rows)
	}
	return m
}

func (t *Trainer) snapshot() [][]float64 {
	ps := t.File.Model.Params.List
	s := make([][]float64, len(ps))
	for i, p := range ps {
		s[i] = append([]float64(nil), p.Data...)
	}
	return s
}

func (t *Trainer) restore(s [][]float64) {
	for i, p := range t.File.Model.Params.List {
		copy(p.Data, s[i])
	}
}

// epochRNG is the random source of one epoch (shuffling and dropout),
// derived from the seed and the epoch number alone, so a resumed run draws
// the same numbers as an uninterrupted one.
func (t *Trainer) epochRNG(epoch int) *rand.Rand {
	return rand.New(rand.NewSource(t.Opts.Seed*1_000_003 + int64(epoch)))
}

// Train runs epochs until the schedule stops, writing a checkpoint after
// each, and leaves the best parameters in the model.
func (t *Trainer) Train(train, valid []*am.Utterance) error {
	if len(train) == 0 || len(valid) == 0 {
		return fmt.Errorf("trainer: %d training and %d held-out utterances: need both", len(train), len(valid))
	}
	t.warn()
	if err := t.Opts.FrameShuffle.check(t); err != nil {
		return err
	}
	if err := t.Teachers.check(t.File.Model); err != nil {
		return err
	}
	if t.Teachers != nil {
		// Once, before any target delay: every epoch reads the same rows.
		r, err := t.Teachers.Annotate(train, true)
		if err != nil {
			return err
		}
		t.Log("teachers (prior %q, distillation %q, weight %g) on the training set: %v", t.Teachers.Opts.Prior, t.Teachers.Opts.Distill, t.Teachers.Opts.DistillWeight, r)
		if t.Teachers.prior != nil { // the held-out loss has the prior term too
			if r, err = t.Teachers.Annotate(valid, false); err != nil {
				return err
			}
			t.Log("prior teacher on the held-out set: %v", r)
		}
	}
	if t.Sequence != nil {
		if t.Teachers != nil || t.Opts.LabelSmoothing != 0 {
			return fmt.Errorf("trainer: sequence training (--den-lats) takes no teacher and no label smoothing: its targets are the lattices'")
		}
		if err := t.Sequence.Check(t.File.Model, train); err != nil {
			return err
		}
		t.Log("%s sequence training: %d denominator lattices, acoustic scale %g, LM scale %g, %s; the cross-entropy logged is the criterion's surrogate (its gradient, not its value, is the criterion's), the held-out CE plain",
			strings.ToUpper(t.Sequence.Opts.Criterion), t.Sequence.Len(), t.Sequence.Opts.AcousticScale, t.Sequence.Opts.LMScale, t.Sequence.describe())
	}
	if t.Opts.Resume {
		if _, err := os.Stat(t.Opts.Checkpoint); err == nil {
			if err := t.loadCheckpoint(); err != nil {
				return err
			}
			t.Log("resumed from %s after epoch %d", t.Opts.Checkpoint, t.st.Epoch)
		} else {
			t.Log("no checkpoint %s yet: starting from scratch", t.Opts.Checkpoint)
		}
	}
	if t.best == nil {
		t.best = t.snapshot()
	}
	if t.st.Epoch == 0 && math.IsInf(t.st.BestLoss, 1) {
		s, err := t.Evaluate(valid)
		if err != nil {
			return err
		}
		t.st.BestLoss = s.MeanCE()
		t.Log("epoch 0: held-out CE %.4f, frame accuracy %.2f%%", s.MeanCE(), 100*s.Accuracy())
	}
	train, err := am.DelayAll(train, t.File.Model.Opts.TargetDelay)
	if err != nil {
		return err
	}
	totalFrames := 0
	for _, u := range train {
		totalFrames += u.Rows
	}
	var fw *am.Forwarder // sequence training's forward pass of the current parameters
	if t.Sequence != nil {
		fw = am.NewForwarder(t.File.Model)
		defer fw.Close()
	}
	firstEpoch, runSecs := t.st.Epoch+1, 0.0 // for the run's ETA (a resumed run times its own epochs)
	for !t.st.Done && t.st.Epoch < t.Opts.MaxEpochs {
		epoch := t.st.Epoch + 1
		rng := t.epochRNG(epoch)
		t.opt.setLR(t.st.LR)
		start := time.Now()
		var ts am.Stats
		batches, err := t.minibatches(train, rng)
		if err != nil {
			return err
		}
		rep := progress.New(t.Progress, t.Log, progress.Task{Name: fmt.Sprintf("epoch %d/%d", epoch, t.Opts.MaxEpochs), Unit: "frames",
			Total: int64(totalFrames), Steps: int64(batches.Len()), StepName: "minibatch"}, progress.Options{})
		defer rep.Finish() // on an error return; a no-op after the Finish below
		for i := range batches.Len() {
			b, err := batches.Batch(i)
			if err != nil {
				return err
			}
			g, err := t.graph(b, am.Train)
			if err != nil {
				return err
			}
			b = t.Opts.Mask.Masked(b, t.File.Pipeline.RawDim, rng)
			if fw != nil {
				if err := t.Sequence.Annotate(fw, b); err != nil {
					return err
				}
			}
			if err := g.Load(b, rng); err != nil {
				return err
			}
			if fw != nil {
				for _, u := range b {
					u.Soft = nil // T×P floats each: only this minibatch's are held
				}
			}
			if err := g.Run(); err != nil {
				return err
			}
			ps := t.File.Model.Params.List // Run filled every Grad
			if err := optim.Check(ps); err != nil {
				return fmt.Errorf("trainer: epoch %d: %w", epoch, err)
			}
			t.opt.step(ps)
			before := ts.Frames
			ts.Add(g.Stats())
			rep.Add(int64(ts.Frames - before))
		}
		rep.Finish()
		if t.Sequence != nil {
			t.Log("epoch %d: %v", epoch, t.Sequence.Stats)
			t.Sequence.Stats = SequenceStats{}
		}
		secs := time.Since(start).Seconds()
		vs, err := t.Evaluate(valid)
		if err != nil {
			return err
		}
		e := am.Epoch{Epoch: epoch, LearningRate: t.st.LR, TrainCE: ts.MeanCE(), TrainAcc: ts.Accuracy(),
			ValidCE: vs.MeanCE(), ValidAcc: vs.Accuracy(), TrainKL: ts.KL / math.Max(1, float64(ts.Frames)),
			TrainLogP: ts.LogP / math.Max(1, float64(ts.Frames)), FramesPerSec: float64(ts.Frames) / secs, Seconds: secs}
		if t.File.Model.HasTTilde() {
			mean, std := vs.TTilde()
			e.ValidTTilde = [4]float64{mean, std, vs.TTMin, vs.TTMax}
		}
		why := t.schedule(&e)
		t.File.History = append(t.File.History, e)
		status := "accepted"
		if !e.Accepted {
			status = "rejected"
		}
		head := ""
		if t.File.Model.HasTTilde() {
			head = fmt.Sprintf(" | held-out t~ mean %.3g std %.3g [%.3g, %.3g]", e.ValidTTilde[0], e.ValidTTilde[1], e.ValidTTilde[2], e.ValidTTilde[3])
		}
		t.Log("epoch %d: train CE %.4f acc %.2f%% | held-out CE %.4f acc %.2f%% | lr %.3g | %.0f frames/s | %s%s",
			epoch, e.TrainCE, 100*e.TrainAcc, e.ValidCE, 100*e.ValidAcc, e.LearningRate, e.FramesPerSec, status, head)
		if why != "" {
			t.Log("epoch %d schedule: %s", epoch, why)
		}
		if left := t.Opts.MaxEpochs - epoch; left > 0 && !t.st.Done {
			// The whole run's ETA: the schedule may stop sooner, never later.
			runSecs += time.Since(start).Seconds()
			eta := time.Duration(runSecs / float64(epoch-firstEpoch+1) * float64(left) * float64(time.Second)).Round(time.Second)
			t.Log("epoch %d of at most %d (--max-iters) done: at most %d more, about %v (ETA %s at the latest)",
				epoch, t.Opts.MaxEpochs, left, eta, time.Now().Add(eta).Format("15:04"))
		}
		if t.Opts.EpochModels != "" { // this epoch's parameters (under --newbob a rejected epoch has already been undone)
			if err := t.File.Save(strings.Replace(t.Opts.EpochModels, "%d", fmt.Sprint(epoch), 1)); err != nil {
				return err
			}
		}
		if t.Opts.Checkpoint != "" {
			if err := t.saveCheckpoint(); err != nil {
				return err
			}
		}
	}
	if !t.Opts.KeepLast {
		t.restore(t.best)
	}
	return nil
}

// warn logs the warnings of NewTrainer, once.
func (t *Trainer) warn() {
	for _, w := range t.warnings {
		t.Log("WARNING: %s", w)
	}
	t.warnings = nil
}

// schedule applies newbob or early stopping after an epoch, as nnet1's
// steps/nnet/train_scheduler.sh, and returns what it decided and why, for
// the log ("" when nothing changed).
func (t *Trainer) schedule(e *am.Epoch) string {
	st := &t.st
	st.Epoch = e.Epoch
	prev := st.BestLoss
	loss := e.ValidCE
	e.Accepted = loss < prev
	if e.Accepted {
		st.BestLoss = loss
		t.best = t.snapshot()
		st.Bad = 0
	} else {
		st.Bad++
		if t.Opts.Newbob {
			t.restore(t.best) // nnet1 rejects the epoch
		}
	}
	if !t.Opts.Newbob {
		if st.Bad >= t.Opts.Patience {
			if e.Epoch < t.Opts.MinEpochs {
				return fmt.Sprintf("%d epochs without held-out improvement (--patience %d), but continuing to --min-iters %d", st.Bad, t.Opts.Patience, t.Opts.MinEpochs)
			}
			st.Done = true
			return fmt.Sprintf("stopping: %d epochs without held-out improvement (--patience %d)", st.Bad, t.Opts.Patience)
		}
		return ""
	}
	impr := (prev - loss) / math.Abs(prev)
	if st.Halving && impr < t.Opts.EndHalvingImpr {
		if e.Epoch < t.Opts.MinEpochs {
			st.LR *= t.Opts.HalvingFactor
			return fmt.Sprintf("relative improvement %.4g < --end-halving-impr %g while halving, but continuing to --min-iters %d; learning rate halved to %.3g", impr, t.Opts.EndHalvingImpr, t.Opts.MinEpochs, st.LR)
		}
		st.Done = true
		return fmt.Sprintf("stopping: relative improvement %.4g < --end-halving-impr %g while halving", impr, t.Opts.EndHalvingImpr)
	}
	why := ""
	if !st.Halving && impr < t.Opts.StartHalvingImpr {
		if e.Epoch <= t.Opts.KeepLREpochs {
			why = fmt.Sprintf("relative improvement %.4g < --start-halving-impr %g, but the learning rate is kept for %d epochs (--keep-lr-iters)", impr, t.Opts.StartHalvingImpr, t.Opts.KeepLREpochs)
		} else {
			st.Halving = true
			why = fmt.Sprintf("halving starts: relative improvement %.4g < --start-halving-impr %g", impr, t.Opts.StartHalvingImpr)
		}
	}
	if st.Halving {
		st.LR *= t.Opts.HalvingFactor
		if why == "" {
			why = "halving"
		}
		why += fmt.Sprintf("; learning rate %.3g for the next epoch", st.LR)
	}
	return why
}

func (t *Trainer) saveCheckpoint() error {
	st, _ := json.Marshal(t.st)
	f := *t.File
	f.Extra = map[string]string{"trainer": string(st)}
	f.Tensors = nil
	for i, p := range t.File.Model.Params.List {
		f.Tensors = append(f.Tensors, modelfile.Tensor{Name: "best." + p.Name, DType: modelfile.F64, Shape: []int{p.Rows, p.Cols}, Data: t.best[i]})
	}
	f.Tensors = append(f.Tensors, t.opt.save(t.File.Model.Params.List)...)
	return f.Save(t.Opts.Checkpoint)
}

// ErrCheckpoint is wrapped by errors about a checkpoint that does not fit.
var ErrCheckpoint = errors.New("checkpoint does not match")

func (t *Trainer) loadCheckpoint() error {
	c, err := am.Load(t.Opts.Checkpoint)
	if err != nil {
		return err
	}
	if c.Model.Opts.JSON() != t.File.Model.Opts.JSON() {
		return fmt.Errorf("%s: %w: model options %s, now %s", t.Opts.Checkpoint, ErrCheckpoint, c.Model.Opts.JSON(), t.File.Model.Opts.JSON())
	}
	if err := json.Unmarshal([]byte(c.Extra["trainer"]), &t.st); err != nil {
		return fmt.Errorf("%s: trainer state: %w", t.Opts.Checkpoint, err)
	}
	ps := t.File.Model.Params.List
	t.best = make([][]float64, len(ps))
	for i, p := range ps {
		copy(p.Data, c.Model.Params.List[i].Data)
		b, ok := c.Tensor("best." + p.Name)
		if !ok || len(b.Data) != len(p.Data) {
			return fmt.Errorf("%s: %w: no best.%s", t.Opts.Checkpoint, ErrCheckpoint, p.Name)
		}
		t.best[i] = append([]float64(nil), b.Data...)
	}
	t.File.History = c.History
	return t.opt.load(ps, c)
}
