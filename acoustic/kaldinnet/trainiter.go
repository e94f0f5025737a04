package kaldinnet

import (
	"flag"
	"fmt"
	"sort"

	"github.com/strode-asr/strode/acoustic/am"
	"github.com/strode-asr/strode/acoustic/trainer"
)

// IterSetup is what `strode train-iter` needs: one job of one iteration of
// data-parallel training, from ModelIn to ModelOut on one archive of
// examples.
type IterSetup struct {
	ModelIn, ModelOut string
	// Egs is the examples' rspecifier; or, when EgsDir is set, job Job reads
	// archive ((NumArchivesProcessed + Job − 1) mod A) + 1 of the A in
	// EgsDir, nnet3's rule, so that one array job (`JOB=1:N`) covers an
	// iteration.
	Egs                  string
	EgsDir               string
	NumArchivesProcessed int
	Iter                 trainer.IterationOptions
	Train                trainer.TrainOptions // the optimizer and minibatch options (RegisterIterTrainOptions)
}

// Register adds the job's own options; the training options are added by
// RegisterIterTrainOptions.
func (s *IterSetup) Register(fs *flag.FlagSet) {
	fs.Float64Var(&s.Iter.LearningRate, "learning-rate", s.Iter.LearningRate, "learning rate of this job (train-parallel passes the effective rate × the number of jobs)")
	fs.Int64Var(&s.Iter.Seed, "srand", s.Iter.Seed, "seed; with --iter and --job it seeds the shuffling, masking and dropout of this job")
	fs.IntVar(&s.Iter.Iter, "iter", s.Iter.Iter, "iteration number (seeds the job)")
	fs.IntVar(&s.Iter.Job, "job", s.Iter.Job, "job number, 1-based (seeds the job; with --egs-dir chooses the archive)")
	fs.IntVar(&s.Iter.NumMinibatches, "num-minibatches", s.Iter.NumMinibatches, "train on this many minibatches, reshuffling the archive as often as needed (0: one pass over the archive)")
	fs.StringVar(&s.EgsDir, "egs-dir", s.EgsDir, "read archive ((--num-archives-processed + --job - 1) mod N) + 1 of the N in this egs directory (instead of an <egs-rspecifier> argument)")
	fs.IntVar(&s.NumArchivesProcessed, "num-archives-processed", s.NumArchivesProcessed, "with --egs-dir: archives used by the iterations before this one")
}

// RegisterIterTrainOptions adds the training options a job uses (optimizer,
// clipping, minibatches, label smoothing, SpecAugment) to fs, with the names
// of `strode train`.
func RegisterIterTrainOptions(fs *flag.FlagSet, o *trainer.TrainOptions) {
	fs.StringVar(&o.Optimizer, "optimizer", o.Optimizer, "adam, or sgd (with momentum)")
	fs.Float64Var(&o.SGD.Momentum, "momentum", o.SGD.Momentum, "SGD momentum")
	fs.Float64Var(&o.Adam.ClipNorm, "clip-norm", o.Adam.ClipNorm, "gradient-norm clipping (≤ 0 none)")
	fs.IntVar(&o.BatchUtts, "minibatch-utts", o.BatchUtts, "utterances per minibatch")
	fs.IntVar(&o.BatchFrames, "minibatch-frames", o.BatchFrames, "padded frames per minibatch")
	fs.IntVar(&o.Quantum, "length-quantum", o.Quantum, "round minibatch lengths up to a multiple of this")
	fs.Float64Var(&o.LabelSmoothing, "label-smoothing", o.LabelSmoothing, "label smoothing eps of the training cross-entropy (0: none)")
	o.Mask.Register(fs)
}

// IterTrainFlags are the options of o that RegisterIterTrainOptions knows,
// as command-line words (--name=value, sorted), for the driver to pass to
// each job.
func IterTrainFlags(o trainer.TrainOptions) []string {
	fs := flag.NewFlagSet("", flag.ContinueOnError)
	RegisterIterTrainOptions(fs, &o)
	var out []string
	fs.VisitAll(func(f *flag.Flag) { out = append(out, "--"+f.Name+"="+f.Value.String()) })
	sort.Strings(out)
	return out
}

// TrainIteration runs one job: it loads ModelIn, reads its examples
// (spliced as the model's pipeline says), trains (trainer.Trainer.RunIteration)
// and writes ModelOut atomically, with the job's optimizer state and
// statistics in it for average-models.
func TrainIteration(s IterSetup, log func(string, ...any)) (trainer.IterationStats, error) {
	var st trainer.IterationStats
	f, err := am.Load(s.ModelIn)
	if err != nil {
		return st, err
	}
	egs := s.Egs
	if s.EgsDir != "" {
		if egs != "" {
			return st, fmt.Errorf("dataset: give --egs-dir or an <egs-rspecifier>, not both")
		}
		info, err := ReadEgsInfo(s.EgsDir)
		if err != nil {
			return st, err
		}
		if s.Iter.Job < 1 || s.NumArchivesProcessed < 0 {
			return st, fmt.Errorf("dataset: --job=%d must be ≥ 1 and --num-archives-processed=%d ≥ 0", s.Iter.Job, s.NumArchivesProcessed)
		}
		if err := CheckEgsFit(info, f, s.EgsDir, s.ModelIn); err != nil {
			return st, err
		}
		egs = "ark:" + EgsArchive(s.EgsDir, (s.NumArchivesProcessed+s.Iter.Job-1)%info.NumArchives+1)
	}
	if egs == "" {
		return st, fmt.Errorf("dataset: no examples: give --egs-dir or an <egs-rspecifier>")
	}
	utts, err := ReadEgs(egs, f.Pipeline, f.Model.Opts.NumPdfs)
	if err != nil {
		return st, err
	}
	tr, err := trainer.NewTrainer(f, s.Train)
	if err != nil {
		return st, err
	}
	defer tr.Close()
	tr.Log = log
	log("iteration %d job %d: %s (%d utterances) from %s at learning rate %g, seed %d", s.Iter.Iter, s.Iter.Job, egs, len(utts), s.ModelIn, s.Iter.LearningRate, s.Iter.Seed)
	if st, err = tr.RunIteration(utts, s.Iter); err != nil {
		return st, err
	}
	log("iteration %d job %d: %d minibatches, %d frames, train CE %.4f, frame accuracy %.2f%%, %.1f s (%.0f frames/s)",
		st.Iter, st.Job, st.Minibatches, st.Frames, st.TrainCE, 100*st.TrainAcc, st.Seconds, float64(st.Frames)/max(st.Seconds, 1e-9))
	if err := f.Save(s.ModelOut); err != nil {
		return st, err
	}
	return st, nil
}

// CheckEgsFit checks that a model can train on an egs directory: the same
// feature pipeline (the command that made the features aside) and enough
// outputs for the pdf-ids.
func CheckEgsFit(info EgsInfo, f *am.File, egsDir, model string) error {
	p, q := info.Pipeline, f.Pipeline
	p.Features, q.Features = "", ""
	if p.JSON() != q.JSON() {
		return fmt.Errorf("dataset: %s was trained on the feature pipeline %s, the examples in %s were made for %s", model, q.JSON(), egsDir, p.JSON())
	}
	if f.Model.Opts.NumPdfs < info.NumPdfs {
		return fmt.Errorf("dataset: %s has %d outputs, the examples in %s have %d pdfs", model, f.Model.Opts.NumPdfs, egsDir, info.NumPdfs)
	}
	return nil
}
