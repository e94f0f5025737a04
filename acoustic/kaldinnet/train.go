package kaldinnet

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand"
	"sort"
	"strings"

	"github.com/strode-asr/strode/acoustic/am"
	"github.com/strode-asr/strode/acoustic/trainer"
	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/internal/cputime"
	"github.com/strode-asr/strode/kaldiio"
)

// TrainSetup is everything `strode train` needs: the tables, the held-out
// set, the data options and the model and training options.
type TrainSetup struct {
	Feats, Targets           string                  // training tables
	ValidFeats, ValidTargets string                  // held-out tables ("" : split off ValidFraction of the speakers)
	ValidFraction            float64                 // --cv-fraction: fraction of speakers held out
	SpeakerMap               string                  // --spk-map: utt2spk rspecifier for the split (default: the key up to the first '_' or '-')
	NumPdfs                  int                     // --num-pdfs: output size (0: from --transition-model, else the largest pdf-id + 1)
	FeatureDescription       string                  // --feature-description: the command that made the features, stored in the model
	Curves                   string                  // --curves-png: training curves written here ("" none)
	InitModel                string                  // --init-model: start from this model's parameters and options (fine-tuning, e.g. adaptation)
	InitEncoder              string                  // --init-encoder: start the encoder and its affine output from this model's (a warm start for the STRODE head)
	Teacher                  trainer.TeacherOptions  // --prior-teacher, --distill-teacher, --distill-weight (registered by the command)
	Sequence                 trainer.SequenceOptions // --den-lats and MMI's options (registered by the command)
	Data                     Options
	Model                    am.Options
	Train                    trainer.TrainOptions
}

// Register adds the setup's own options (the data, model and training
// options register themselves).
func (s *TrainSetup) Register(fs *flag.FlagSet) {
	fs.StringVar(&s.ValidFeats, "cv-feats", s.ValidFeats, "rspecifier of held-out features (default: split off --cv-fraction of the speakers)")
	fs.StringVar(&s.ValidTargets, "cv-targets", s.ValidTargets, "rspecifier of held-out targets (default: the training targets)")
	fs.Float64Var(&s.ValidFraction, "cv-fraction", s.ValidFraction, "fraction of the speakers held out when --cv-feats is not given")
	fs.StringVar(&s.SpeakerMap, "spk-map", s.SpeakerMap, "utt2spk rspecifier for the held-out split (default: key up to the first '_' or '-')")
	fs.IntVar(&s.NumPdfs, "num-pdfs", s.NumPdfs, "number of outputs (0: from --transition-model, else the largest pdf-id + 1)")
	fs.StringVar(&s.FeatureDescription, "feature-description", s.FeatureDescription, "how the features were made, stored in the model (e.g. 'compute-fbank-feats --num-mel-bins=23')")
	fs.StringVar(&s.Curves, "curves-png", s.Curves, "write the training curves to this PNG (and the same figure as SVG beside it, .svg for .png)")
	fs.StringVar(&s.InitModel, "init-model", s.InitModel, "start from this model (its options and parameters; the size options are ignored): fine-tuning, e.g. adaptation to a speaker; its feature pipeline and pdf count must match")
	fs.StringVar(&s.InitEncoder, "init-encoder", s.InitEncoder, "start the SRU encoder and its affine output from this trained model's (sru or strode, same sizes, feature pipeline and pdf count); a STRODE head's h~ -> logits weights start at zero, so training begins from that model's outputs")
}

func speakerOf(key string) string {
	if i := strings.IndexAny(key, "_-"); i > 0 {
		return key[:i]
	}
	return key
}

// splitBySpeaker moves the utterances of a seeded random ceil(frac·speakers)
// speakers (at least one, never all) to the held-out set.
func splitBySpeaker(utts []*am.Utterance, frac float64, spk map[string]string, seed int64) (train, valid []*am.Utterance, held []string) {
	of := func(k string) string {
		if s, ok := spk[k]; ok {
			return s
		}
		return speakerOf(k)
	}
	set := map[string]bool{}
	for _, u := range utts {
		set[of(u.Key)] = true
	}
	var spks []string
	for s := range set {
		spks = append(spks, s)
	}
	sort.Strings(spks)
	n := int(math.Ceil(frac * float64(len(spks))))
	n = max(1, min(n, len(spks)-1))
	rng := rand.New(rand.NewSource(seed))
	rng.Shuffle(len(spks), func(i, j int) { spks[i], spks[j] = spks[j], spks[i] })
	held = append(held, spks[:n]...)
	sort.Strings(held)
	hs := map[string]bool{}
	for _, s := range held {
		hs[s] = true
	}
	for _, u := range utts {
		if hs[of(u.Key)] {
			valid = append(valid, u)
		} else {
			train = append(train, u)
		}
	}
	return train, valid, held
}

type logf func(string, ...any)

func (f logf) Warn(format string, a ...any) { f("WARNING: "+format, a...) }

// Train loads the data, builds (or resumes) the model, trains it and writes
// it to out.
func Train(s TrainSetup, out string, log func(string, ...any), progress io.Writer) (*am.File, error) {
	if s.InitModel != "" && s.InitEncoder != "" {
		return nil, errors.New("--init-model and --init-encoder exclude each other (--init-model takes the whole model)")
	}
	// Before the data is loaded, which can take long: a conflict of
	// learning-rate options fails at once and the deprecation warnings head
	// the log.
	warnings, err := s.Train.ResolveLearningRate()
	if err != nil {
		return nil, err
	}
	if err := s.Teacher.Validate(); err != nil {
		return nil, err
	}
	if s.Sequence.DenLats != "" && s.InitModel == "" {
		return nil, errors.New("--den-lats (MMI) fine-tunes a cross-entropy model: give it with --init-model, as steps/nnet/train_mmi.sh starts from the DNN")
	}
	if s.Teacher.Prior != "" && s.Model.Kind != am.KindSTRODE && s.InitModel == "" {
		return nil, fmt.Errorf("--prior-teacher is for --model=strode (the STRODE head's prior), this one is %q: for %s use --distill-teacher", s.Model.Kind, s.Model.Kind)
	}
	for _, w := range warnings {
		logf(log).Warn("%s", w)
	}
	if s.NumPdfs == 0 && s.Data.TransModel != "" {
		tm, err := hmm.ReadTransitionModel(s.Data.TransModel)
		if err != nil {
			return nil, err
		}
		s.NumPdfs = tm.NumPdfs()
	}
	limit := s.NumPdfs
	if limit == 0 {
		limit = math.MaxInt32
	}
	p := s.Data.Pipeline(0)
	p.Features = s.FeatureDescription
	// The utterances are held unspliced (am.Utterance.Context) and the
	// minibatches splice them: the training set takes its own size in
	// memory rather than (1 + left + right) times it (9 times with the
	// recipes' ±4 frames).
	lp := p
	lp.SpliceLeft, lp.SpliceRight = 0, 0
	utts, rep, err := Load(s.Feats, s.Targets, s.Data, &lp, limit, logf(log))
	if err != nil {
		return nil, err
	}
	p.RawDim = lp.RawDim
	withContext(utts, p)
	log("training data: %v", rep)
	var valid []*am.Utterance
	if s.ValidFeats != "" {
		vt := s.ValidTargets
		if vt == "" {
			vt = s.Targets
		}
		var vrep Report
		if valid, vrep, err = Load(s.ValidFeats, vt, s.Data, &lp, limit, logf(log)); err != nil {
			return nil, err
		}
		withContext(valid, p)
		log("held-out data: %v", vrep)
	} else {
		spk := map[string]string{}
		if s.SpeakerMap != "" {
			sr, err := kaldiio.OpenSequentialReader(s.SpeakerMap, kaldiio.TokenVectorCodec)
			if err != nil {
				return nil, err
			}
			for sr.Next() {
				if v := sr.Value(); len(v) > 0 {
					spk[sr.Key()] = v[0]
				}
			}
			err = sr.Err()
			sr.Close()
			if err != nil {
				return nil, err
			}
		}
		var held []string
		utts, valid, held = splitBySpeaker(utts, s.ValidFraction, spk, s.Train.Seed)
		log("held out %d utterances of speaker(s) %s", len(valid), strings.Join(held, " "))
	}
	if s.NumPdfs == 0 {
		for _, set := range [][]*am.Utterance{utts, valid} {
			for _, u := range set {
				for _, y := range u.Targets {
					s.NumPdfs = max(s.NumPdfs, int(y)+1)
				}
			}
		}
	}
	s.Model.InputDim = p.InputDim()
	s.Model.NumPdfs = s.NumPdfs
	teachers, err := trainer.LoadTeachers(s.Teacher, p, s.NumPdfs)
	if err != nil {
		return nil, err
	}
	if err := teachers.ModelOptions(&s.Model); err != nil {
		return nil, err
	}
	m, err := am.New(s.Model, s.Train.Seed)
	if err != nil {
		return nil, err
	}
	if s.InitModel != "" {
		if m, err = initModel(s.InitModel, p, s.NumPdfs); err != nil {
			return nil, err
		}
		log("initialised from %s (its options: %s)", s.InitModel, m.Opts.JSON())
	}
	if s.InitEncoder != "" {
		src, err := initModel(s.InitEncoder, p, s.NumPdfs)
		if err != nil {
			return nil, err
		}
		if err := m.InitEncoder(src); err != nil {
			return nil, fmt.Errorf("%s: %w", s.InitEncoder, err)
		}
		log("encoder and output layer initialised from %s (a %s model)", s.InitEncoder, src.Opts.Kind)
	}
	log("model %s: %d parameters, input %d (%s), %d pdfs", s.Model.Kind, m.NumParams(), p.InputDim(), p, s.NumPdfs)
	f := &am.File{Model: m, Pipeline: p}
	tr, err := trainer.NewTrainer(f, s.Train)
	if err != nil {
		return nil, err
	}
	defer tr.Close()
	tr.Log, tr.Progress, tr.Teachers = log, progress, teachers
	if tr.Sequence, err = loadSequence(s); err != nil {
		return nil, err
	}
	if err := tr.Train(utts, valid); err != nil {
		return nil, err
	}
	if rss := cputime.PeakRSS(); rss > 0 {
		log("peak resident memory %.2f GB; %d minibatch graphs built (--graph-cache-capacity %d)", float64(rss)/(1<<30), tr.GraphsBuilt(), s.Train.GraphCache)
	}
	if err := f.Save(out); err != nil {
		return nil, err
	}
	if s.Curves != "" {
		if err := trainer.PlotHistory(s.Curves, f.History); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// ErrInitModel is wrapped by errors about an --init-model that does not fit
// the data.
var ErrInitModel = errors.New("init model does not fit")

// initModel loads the model to fine-tune and checks that it was trained on
// the same feature pipeline (the command that made the features aside) and
// has numPdfs outputs.
func initModel(path string, p am.Pipeline, numPdfs int) (*am.Model, error) {
	g, err := am.Load(path)
	if err != nil {
		return nil, err
	}
	q := g.Pipeline
	q.Features, p.Features = "", ""
	if q.JSON() != p.JSON() {
		return nil, fmt.Errorf("%s: %w: its feature pipeline is %s, the data's %s", path, ErrInitModel, q.JSON(), p.JSON())
	}
	if g.Model.Opts.NumPdfs != numPdfs {
		return nil, fmt.Errorf("%s: %w: %d outputs, the targets need %d", path, ErrInitModel, g.Model.Opts.NumPdfs, numPdfs)
	}
	return g.Model, nil
}

// withContext marks unspliced utterances with the pipeline's splice context.
func withContext(utts []*am.Utterance, p am.Pipeline) {
	for _, u := range utts {
		u.Context = [2]int{p.SpliceLeft, p.SpliceRight}
	}
}

// loadSequence reads MMI's lattices and priors (nil without --den-lats).
func loadSequence(s TrainSetup) (*trainer.Sequence, error) {
	if s.Sequence.DenLats == "" {
		return nil, nil
	}
	if s.Data.TransModel == "" {
		return nil, errors.New("--den-lats needs --transition-model (the lattices' transition-ids to pdfs)")
	}
	tm, err := hmm.ReadTransitionModel(s.Data.TransModel)
	if err != nil {
		return nil, err
	}
	return trainer.LoadSequence(s.Sequence, tm)
}
