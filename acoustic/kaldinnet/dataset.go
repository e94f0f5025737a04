package kaldinnet

import (
	"errors"
	"flag"
	"fmt"

	"github.com/strode-asr/strode/acoustic/am"
	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/features"
	"github.com/strode-asr/strode/kaldiio"
)

// Options say how features are transformed on the fly and how targets are
// read. The CMVN and splicing options are apply-cmvn's and splice-feats'.
type Options struct {
	CMVN         string // --cmvn: rspecifier of CMVN stats (per speaker with --utt2spk); "" none
	UttCMVN      bool   // --utt-cmvn: normalise with each utterance's own stats
	Utt2spk      string // --utt2spk: rspecifier mapping utterances to speakers (for --cmvn)
	NormMeans    bool   // --norm-means
	NormVars     bool   // --norm-vars
	LeftContext  int    // --left-context (splice-feats)
	RightContext int    // --right-context
	TransModel   string // --transition-model: final.mdl; targets are transition-id alignments
	Tolerance    int    // --length-tolerance: accept |feature frames − target frames| ≤ this (truncate, or repeat the last label)
}

// DefaultOptions: no CMVN, no splicing, targets are pdf-ids.
func DefaultOptions() Options { return Options{NormMeans: true} }

// Register adds the options to fs.
func (o *Options) Register(fs *flag.FlagSet) {
	fs.StringVar(&o.CMVN, "cmvn", o.CMVN, "rspecifier of CMVN statistics applied on the fly (per speaker with --utt2spk)")
	fs.BoolVar(&o.UttCMVN, "utt-cmvn", o.UttCMVN, "apply per-utterance CMVN computed on the fly")
	fs.StringVar(&o.Utt2spk, "utt2spk", o.Utt2spk, "rspecifier of the utterance-to-speaker map for --cmvn")
	fs.BoolVar(&o.NormMeans, "norm-means", o.NormMeans, "CMVN: normalise means")
	fs.BoolVar(&o.NormVars, "norm-vars", o.NormVars, "CMVN: normalise variances")
	fs.IntVar(&o.LeftContext, "left-context", o.LeftContext, "splice: frames of left context")
	fs.IntVar(&o.RightContext, "right-context", o.RightContext, "splice: frames of right context")
	fs.StringVar(&o.TransModel, "transition-model", o.TransModel, "Kaldi model whose transition model maps transition-id alignments to pdf-ids (targets are pdf-ids when empty)")
	fs.IntVar(&o.Tolerance, "length-tolerance", o.Tolerance, "accept feature/target length differences up to this many frames")
}

// Pipeline is the feature pipeline these options describe for raw features
// of dimension rawDim.
func (o Options) Pipeline(rawDim int) am.Pipeline {
	p := am.Pipeline{RawDim: rawDim, CMVN: am.CMVNNone, NormMeans: o.NormMeans, NormVars: o.NormVars,
		SpliceLeft: o.LeftContext, SpliceRight: o.RightContext}
	switch {
	case o.UttCMVN:
		p.CMVN = am.CMVNUtterance
	case o.CMVN != "":
		p.CMVN = am.CMVNTable
	}
	return p
}

// Report counts what Load kept and skipped.
type Report struct {
	Utterances, Frames int
	NoTargets          int // utterances without targets
	LengthMismatch     int // skipped: frame counts differ by more than the tolerance
	Adjusted           int // kept after a difference within the tolerance
	NoCMVN             int // skipped: no CMVN stats for the speaker
}

func (r Report) String() string {
	return fmt.Sprintf("%d utterances (%d frames) loaded; skipped %d without targets, %d with mismatched lengths, %d without CMVN stats; %d lengths adjusted within tolerance",
		r.Utterances, r.Frames, r.NoTargets, r.LengthMismatch, r.NoCMVN, r.Adjusted)
}

// Logger receives warnings about skipped utterances.
type Logger interface {
	Warn(format string, args ...any)
}

// Transformer applies a pipeline's CMVN and splicing to raw features.
type Transformer struct {
	P       am.Pipeline
	cmvn    *kaldiio.RandomAccessReader[kaldiio.DoubleMatrix]
	utt2spk map[string]string
}

// ErrNoCMVN is returned when the stats for an utterance are missing.
var ErrNoCMVN = errors.New("no CMVN statistics")

// NewTransformer opens what the pipeline needs (cmvn and utt2spk tables
// when its CMVN mode is "table").
func NewTransformer(p am.Pipeline, cmvn, utt2spk string) (*Transformer, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	t := &Transformer{P: p}
	if p.CMVN == am.CMVNTable {
		if cmvn == "" {
			return nil, fmt.Errorf("dataset: the model's pipeline applies CMVN from a table: give --cmvn")
		}
		ra, err := kaldiio.OpenRandomAccessReader(cmvn, kaldiio.DoubleMatrixCodec)
		if err != nil {
			return nil, err
		}
		t.cmvn = ra
		if utt2spk != "" {
			sr, err := kaldiio.OpenSequentialReader(utt2spk, kaldiio.TokenVectorCodec)
			if err != nil {
				return nil, err
			}
			t.utt2spk = map[string]string{}
			for sr.Next() {
				v := sr.Value()
				if len(v) != 1 {
					sr.Close()
					return nil, fmt.Errorf("dataset: %s: utterance %s: want one speaker, got %d tokens", utt2spk, sr.Key(), len(v))
				}
				t.utt2spk[sr.Key()] = v[0]
			}
			if err := sr.Err(); err != nil {
				sr.Close()
				return nil, err
			}
			sr.Close()
		}
	}
	return t, nil
}

// Close releases the tables.
func (t *Transformer) Close() error {
	if t.cmvn != nil {
		return t.cmvn.Close()
	}
	return nil
}

// Apply checks the raw dimension and returns the transformed features of
// utterance key (rows × InputDim). m is modified in place by CMVN.
func (t *Transformer) Apply(key string, m *kaldiio.Matrix) ([]float32, error) {
	p := t.P
	if m.Cols != p.RawDim {
		return nil, fmt.Errorf("dataset: utterance %s: features have dimension %d, the model's pipeline wants %d (%s)",
			key, m.Cols, p.RawDim, p)
	}
	feats := m.Data[:m.Rows*m.Cols]
	switch p.CMVN {
	case am.CMVNUtterance:
		st := features.NewCmvnStats(m.Cols)
		if err := features.AccCmvnStats(st, feats, m.Rows, m.Cols); err != nil {
			return nil, fmt.Errorf("dataset: utterance %s: %w", key, err)
		}
		if err := t.applyStats(key, st, 2, feats, m); err != nil {
			return nil, err
		}
	case am.CMVNTable:
		spk := key
		if t.utt2spk != nil {
			s, ok := t.utt2spk[key]
			if !ok {
				return nil, fmt.Errorf("dataset: utterance %s: not in utt2spk: %w", key, ErrNoCMVN)
			}
			spk = s
		}
		st, err := t.cmvn.Value(spk)
		if err != nil {
			if errors.Is(err, kaldiio.ErrNotFound) {
				return nil, fmt.Errorf("dataset: utterance %s: speaker %s: %w", key, spk, ErrNoCMVN)
			}
			return nil, err
		}
		if st.Cols != m.Cols+1 {
			return nil, fmt.Errorf("dataset: utterance %s: CMVN stats of %s have %d columns, features %d", key, spk, st.Cols, m.Cols)
		}
		if err := t.applyStats(key, st.Data, st.Rows, feats, m); err != nil {
			return nil, err
		}
	}
	if p.SpliceLeft+p.SpliceRight > 0 {
		return features.SpliceFrames(feats, m.Rows, m.Cols, p.SpliceLeft, p.SpliceRight)
	}
	return append([]float32(nil), feats...), nil
}

func (t *Transformer) applyStats(key string, st []float64, rows int, feats []float32, m *kaldiio.Matrix) error {
	if !t.P.NormMeans {
		return nil
	}
	if _, err := features.ApplyCmvn(st, rows, t.P.NormVars, feats, m.Rows, m.Cols); err != nil {
		return fmt.Errorf("dataset: utterance %s: %w", key, err)
	}
	return nil
}

// Load reads every utterance of featRspec that has targets in targetRspec
// (pdf-ids, or transition-ids when o.TransModel is set), transforms its
// features with the pipeline and checks pdf-ids against numPdfs. An
// utterance whose frame count differs from its targets' by more than the
// tolerance is reported and skipped. The pipeline's RawDim is taken from
// the first utterance when it is 0.
func Load(featRspec, targetRspec string, o Options, p *am.Pipeline, numPdfs int, log Logger) ([]*am.Utterance, Report, error) {
	var out []*am.Utterance
	rep, err := Each(featRspec, targetRspec, o, p, numPdfs, log, func(u *am.Utterance) error {
		out = append(out, u)
		return nil
	})
	if err != nil {
		return nil, rep, err
	}
	return out, rep, nil
}

// Each is Load one utterance at a time: it calls fn with every utterance
// Load would keep, in the order of featRspec, without holding them all (get-egs
// streams a whole training set through it). An error from fn stops it and is
// returned.
func Each(featRspec, targetRspec string, o Options, p *am.Pipeline, numPdfs int, log Logger, fn func(*am.Utterance) error) (Report, error) {
	var rep Report
	var tid2pdf []int32
	if o.TransModel != "" {
		tm, err := hmm.ReadTransitionModel(o.TransModel)
		if err != nil {
			return rep, err
		}
		tid2pdf = tm.TransitionIDToPdfArray()
		if tm.NumPdfs() > numPdfs {
			return rep, fmt.Errorf("dataset: %s has %d pdfs, the model outputs %d", o.TransModel, tm.NumPdfs(), numPdfs)
		}
	}
	targets, err := kaldiio.OpenRandomAccessReader(targetRspec, kaldiio.IntVectorCodec)
	if err != nil {
		return rep, err
	}
	defer targets.Close()
	sr, err := kaldiio.OpenSequentialReader(featRspec, kaldiio.MatrixCodec)
	if err != nil {
		return rep, err
	}
	defer sr.Close()
	var tr *Transformer
	for sr.Next() {
		key, m := sr.Key(), sr.Value()
		if tr == nil {
			if p.RawDim == 0 {
				p.RawDim = m.Cols
			}
			if tr, err = NewTransformer(*p, o.CMVN, o.Utt2spk); err != nil {
				return rep, err
			}
			defer tr.Close()
		}
		ali, err := targets.Value(key)
		if errors.Is(err, kaldiio.ErrNotFound) {
			rep.NoTargets++
			log.Warn("no targets for utterance %s, skipping", key)
			continue
		} else if err != nil {
			return rep, err
		}
		pdfs := make([]int32, len(ali))
		for i, v := range ali {
			if tid2pdf != nil {
				if v < 1 || int(v) >= len(tid2pdf) {
					return rep, fmt.Errorf("dataset: %s: utterance %s frame %d: transition-id %d outside [1, %d] of %s",
						targetRspec, key, i, v, len(tid2pdf)-1, o.TransModel)
				}
				v = tid2pdf[v]
			}
			if v < 0 || int(v) >= numPdfs {
				return rep, fmt.Errorf("dataset: %s: utterance %s frame %d: pdf-id %d outside [0, %d) of the model's output",
					targetRspec, key, i, v, numPdfs)
			}
			pdfs[i] = v
		}
		if d := m.Rows - len(pdfs); d != 0 {
			if d > o.Tolerance || -d > o.Tolerance {
				rep.LengthMismatch++
				log.Warn("utterance %s: %d feature frames but %d targets, skipping", key, m.Rows, len(pdfs))
				continue
			}
			rep.Adjusted++
			for len(pdfs) < m.Rows {
				pdfs = append(pdfs, pdfs[len(pdfs)-1])
			}
			pdfs = pdfs[:m.Rows]
		}
		f, err := tr.Apply(key, &m)
		if errors.Is(err, ErrNoCMVN) {
			rep.NoCMVN++
			log.Warn("%v, skipping", err)
			continue
		} else if err != nil {
			return rep, err
		}
		if err := fn(&am.Utterance{Key: key, Rows: m.Rows, Feats: f, Targets: pdfs}); err != nil {
			return rep, err
		}
		rep.Utterances++
		rep.Frames += m.Rows
	}
	if err := sr.Err(); err != nil {
		return rep, err
	}
	return rep, nil
}
