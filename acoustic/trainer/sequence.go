package trainer

import (
	"errors"
	"flag"
	"fmt"
	"github.com/strode-asr/strode/acoustic/am"
	"github.com/strode-asr/strode/acoustic/nn"
	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/decoder/lattice"
	"github.com/strode-asr/strode/decoder/priors"
	"github.com/strode-asr/strode/decoder/transform"
	"github.com/strode-asr/strode/kaldiio"
)

// SequenceOptions are the options of nnet1's nnet-train-mmi-sequential and
// nnet-train-mpe-sequential, Kaldi's names and defaults (steps/nnet/
// train_mmi.sh, train_mpe.sh). DenLats empty: frame cross-entropy, no
// sequence training.
type SequenceOptions struct {
	DenLats         string  // --den-lats: rspecifier of the denominator lattices (steps/nnet/make_denlats.sh's)
	Criterion       string  // --criterion: CriterionMMI [default] or CriterionSMBR
	AcousticScale   float64 // --acoustic-scale κ [0.1]
	LMScale         float64 // --lm-scale [1.0]
	DropFrames      bool    // --drop-frames [true], MMI's
	SilencePhones   string  // --silence-phones: colon-separated phone-ids, sMBR's [none]
	OneSilenceClass bool    // --one-silence-class [false; train_mpe.sh passes true], sMBR's
	Prior           priors.Options
}

// DefaultSequenceOptions are nnet1's defaults.
func DefaultSequenceOptions() SequenceOptions {
	return SequenceOptions{Criterion: CriterionMMI, AcousticScale: 0.1, LMScale: 1, DropFrames: true, Prior: priors.DefaultOptions()}
}

// Register adds the options to fs.
func (o *SequenceOptions) Register(fs *flag.FlagSet) {
	fs.StringVar(&o.DenLats, "den-lats", o.DenLats, "sequence training (nnet1's nnet-train-mmi-sequential, nnet-train-mpe-sequential): rspecifier of the denominator lattices (state-level, e.g. from strode latgen-faster-mapped with a unigram graph, as steps/nnet/make_denlats.sh); the numerator (MMI) or reference (sMBR) is the targets' alignment. Needs --init-model (a cross-entropy model), --transition-model and --class-frame-counts")
	fs.StringVar(&o.Criterion, "criterion", o.Criterion, "sequence criterion with --den-lats: mmi (nnet-train-mmi-sequential) or smbr (nnet-train-mpe-sequential --do-smbr=true: the expected frame accuracy of the lattice's paths, state level)")
	fs.Float64Var(&o.AcousticScale, "acoustic-scale", o.AcousticScale, "sequence training: scaling factor of the acoustic log-likelihoods in the denominator lattice")
	fs.Float64Var(&o.LMScale, "lm-scale", o.LMScale, "sequence training: scaling factor of the lattices' graph scores")
	fs.BoolVar(&o.DropFrames, "drop-frames", o.DropFrames, "MMI: drop frames whose numerator pdf is not in the denominator lattice")
	fs.StringVar(&o.SilencePhones, "silence-phones", o.SilencePhones, "sMBR: colon-separated list of the silence phones' integer ids (their frames count as wrong, or as one class with --one-silence-class), e.g. 1:2:3")
	fs.BoolVar(&o.OneSilenceClass, "one-silence-class", o.OneSilenceClass, "sMBR: all the silence phones are one class: a silence arc on a silence frame of the alignment is right")
	o.Prior.Register(fs)
}

// Sequence holds what sequence training reads besides the utterances: the
// denominator lattices by key, the transition model and the log priors.
type Sequence struct {
	Opts  SequenceOptions
	lats  map[string]*lattice.CompactLattice
	tm    *hmm.TransitionModel
	prior *priors.Prior
	smbr  *SmbrAccuracy // --criterion=smbr
	Stats SequenceStats // since the trainer last cleared it
}

// ErrNoDenLat is wrapped by the error for a training utterance without a
// denominator lattice.
var ErrNoDenLat = errors.New("no denominator lattice")

// LoadSequence reads the denominator lattices (all of them, compact) and
// the priors; nil without --den-lats.
func LoadSequence(o SequenceOptions, tm *hmm.TransitionModel) (*Sequence, error) {
	if o.DenLats == "" {
		return nil, nil
	}
	if tm == nil {
		return nil, fmt.Errorf("--den-lats needs --transition-model (the lattices' transition-ids to pdfs)")
	}
	if o.Prior.ClassFrameCounts == "" {
		return nil, fmt.Errorf("--den-lats needs --class-frame-counts (the loglikes are log-posteriors minus log priors)")
	}
	if o.AcousticScale <= 0 {
		return nil, fmt.Errorf("--acoustic-scale=%g: must be > 0", o.AcousticScale)
	}
	var smbr *SmbrAccuracy
	switch o.Criterion {
	case CriterionMMI:
	case CriterionSMBR:
		sil, err := transform.ParsePhoneList(o.SilencePhones)
		if err != nil {
			return nil, fmt.Errorf("--silence-phones=%q: %v", o.SilencePhones, err)
		}
		if smbr, err = NewSmbrAccuracy(tm, sil, o.OneSilenceClass); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("--criterion=%q: must be %s or %s", o.Criterion, CriterionMMI, CriterionSMBR)
	}
	p, err := priors.Load(o.Prior)
	if err != nil {
		return nil, err
	}
	if len(p.LogPriors) != tm.NumPdfs() {
		return nil, fmt.Errorf("%s: %d counts, the transition model has %d pdfs", o.Prior.ClassFrameCounts, len(p.LogPriors), tm.NumPdfs())
	}
	r, err := kaldiio.OpenSequentialReader(o.DenLats, lattice.CompactLatticeCodec)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	s := &Sequence{Opts: o, lats: map[string]*lattice.CompactLattice{}, tm: tm, prior: p, smbr: smbr}
	for r.Next() {
		c := r.Value()
		s.lats[r.Key()] = &c
	}
	if err := r.Err(); err != nil {
		return nil, err
	}
	return s, nil
}

// describe is the criterion's options for the log.
func (s *Sequence) describe() string {
	if s.smbr != nil {
		return fmt.Sprintf("silence phones %q, one silence class %v", s.Opts.SilencePhones, s.Opts.OneSilenceClass)
	}
	return fmt.Sprintf("drop frames %v", s.Opts.DropFrames)
}

// Len is the number of denominator lattices.
func (s *Sequence) Len() int { return len(s.lats) }

// Check refuses a model sequence training cannot train, and training utterances without
// a lattice.
func (s *Sequence) Check(m *am.Model, utts []*am.Utterance) error {
	if s == nil {
		return nil
	}
	if m.Opts.TargetDelay != 0 {
		return fmt.Errorf("--den-lats: a model with --target-delay=%d (sequence training needs frame t's output on frame t)", m.Opts.TargetDelay)
	}
	if m.Opts.NumPdfs != s.tm.NumPdfs() {
		return fmt.Errorf("--den-lats: the model has %d outputs, the transition model %d pdfs", m.Opts.NumPdfs, s.tm.NumPdfs())
	}
	missing := 0
	first := ""
	for _, u := range utts {
		if _, ok := s.lats[u.Key]; !ok {
			if missing == 0 {
				first = u.Key
			}
			missing++
		}
	}
	if missing > 0 {
		return fmt.Errorf("%s: %w for %d of %d training utterances (the first: %s)", s.Opts.DenLats, ErrNoDenLat, missing, len(utts), first)
	}
	return nil
}

// Annotate sets each utterance's Soft to the criterion's target rows (MMI's
// q: the alignment's one-hot minus the denominator posteriors; sMBR's: the
// accuracy-weighted posteriors, SMBR) from fw's current
// model, which is the model being trained, so every minibatch's gradient is
// the objective's at the parameters it updates (nnet1 runs the network
// forward once per utterance for the lattice and once more for training;
// here the second pass is the training graph's, with its dropout).
func (s *Sequence) Annotate(fw *am.Forwarder, utts []*am.Utterance) error {
	P := s.tm.NumPdfs()
	for _, u := range utts {
		c, ok := s.lats[u.Key]
		if !ok {
			return fmt.Errorf("%s: %w for %s", s.Opts.DenLats, ErrNoDenLat, u.Key)
		}
		logits, err := fw.Logits(u)
		if err != nil {
			return fmt.Errorf("trainer: sequence training: forward of %s: %w", u.Key, err)
		}
		if len(logits) != u.Rows*P {
			return fmt.Errorf("trainer: sequence training: %s: %d outputs for %d frames of %d pdfs", u.Key, len(logits), u.Rows, P)
		}
		ll, err := loglikes(logits, P, s.prior)
		if err != nil {
			return err
		}
		var q []float32
		var st SequenceStats
		if s.smbr != nil {
			q, st, err = SMBR(c.ToLattice(), ll, u.Targets, s.tm, s.Opts.AcousticScale, s.Opts.LMScale, s.smbr)
		} else {
			q, st, err = MMI(c.ToLattice(), ll, u.Targets, s.tm, s.Opts.AcousticScale, s.Opts.LMScale, s.Opts.DropFrames)
		}
		if err != nil {
			return fmt.Errorf("%s: lattice %s: %w", s.Opts.DenLats, u.Key, err)
		}
		u.Soft = q
		s.Stats.Add(st)
	}
	return nil
}

// loglikes are nnet-forward's pseudo log-likelihoods of pre-softmax rows
// (P a row): log-softmax minus the scaled log priors.
func loglikes(logits []float64, P int, prior *priors.Prior) ([]float32, error) {
	ll := make([]float32, len(logits))
	row := make([]float64, P)
	for r := 0; r+P <= len(logits); r += P {
		nn.LogSoftmax(row, logits[r:r+P])
		for j, v := range row {
			ll[r+j] = float32(v)
		}
	}
	return ll, prior.SubtractRows(ll, P)
}
