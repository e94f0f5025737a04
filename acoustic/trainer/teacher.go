package trainer

import (
	"errors"
	"flag"
	"fmt"
	"time"

	"github.com/strode-asr/strode/acoustic/am"
)

// TeacherOptions name frozen, already trained models whose outputs a
// student trains on (strode train): the STRODE prior's input (Prior: a
// bidirectional model's encoder output at frame i replaces x_{i+1},
// DESIGN.md §3 "A teacher's future as the prior") and distillation's soft
// targets (Distill, weighted DistillWeight = λ: the loss is
// (1−λ)·CE(alignment) + λ·CE(the teacher's posteriors), temperature 1).
// The teachers are read, never trained, and the student decodes without
// them.
type TeacherOptions struct {
	Prior         string  // --prior-teacher
	Distill       string  // --distill-teacher
	DistillWeight float64 // --distill-weight
}

// Register adds the options to fs.
func (o *TeacherOptions) Register(fs *flag.FlagSet) {
	fs.StringVar(&o.Prior, "prior-teacher", o.Prior, "strode: a trained bidirectional sru or strode model file on the same features and pdfs; "+
		"its encoder output at frame i (its SRU stack's last layer, which has heard the whole utterance) is what the Gaussian "+
		"prior's MLP reads instead of the next frame's features. Training only: the model decodes without it (stored as prior_input \"teacher\")")
	fs.StringVar(&o.Distill, "distill-teacher", o.Distill, "a trained model file on the same features and pdfs whose posteriors are soft targets (with --distill-weight)")
	fs.Float64Var(&o.DistillWeight, "distill-weight", o.DistillWeight, "lambda of distillation: loss (1-lambda) CE(alignment) + lambda CE(--distill-teacher's posteriors), temperature 1 (0: off)")
}

// Validate checks that a distillation weight comes with a teacher and lies
// in [0, 1].
func (o TeacherOptions) Validate() error {
	if o.DistillWeight < 0 || o.DistillWeight > 1 {
		return fmt.Errorf("trainer: --distill-weight=%g outside [0, 1]", o.DistillWeight)
	}
	if (o.Distill == "") != (o.DistillWeight == 0) {
		return fmt.Errorf("trainer: --distill-teacher=%q and --distill-weight=%g: give both (a weight > 0 and the teacher) or neither", o.Distill, o.DistillWeight)
	}
	return nil
}

// ErrTeacher is wrapped by errors about a teacher that does not fit the
// student.
var ErrTeacher = errors.New("teacher does not fit")

// Teachers are the loaded teacher models of TeacherOptions.
type Teachers struct {
	Opts           TeacherOptions
	prior, distill *am.Model // nil when not used (the same model when one file is both)
}

// LoadTeachers reads the teachers of o and checks each against the
// student's feature pipeline p (the command that made the features aside)
// and its numPdfs outputs; a prior teacher must also be a bidirectional
// sru or strode model. Every mismatch is an error naming the file.
// Nothing is read without a teacher (nil, nil).
func LoadTeachers(o TeacherOptions, p am.Pipeline, numPdfs int) (*Teachers, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	if o.Prior == "" && o.Distill == "" {
		return nil, nil
	}
	ts := &Teachers{Opts: o}
	var err error
	if o.Prior != "" {
		if ts.prior, err = loadTeacher(o.Prior, p, numPdfs); err != nil {
			return nil, err
		}
		mo := ts.prior.Opts
		if mo.Kind != am.KindSRU && mo.Kind != am.KindSTRODE {
			return nil, fmt.Errorf("%s: %w: --prior-teacher reads an SRU stack's output: want an sru or strode model, this one is %q", o.Prior, ErrTeacher, mo.Kind)
		}
		if !mo.SRU.Bidirectional {
			return nil, fmt.Errorf("%s: %w: --prior-teacher must be bidirectional (its encoder output at frame i has heard the whole utterance); this one is not", o.Prior, ErrTeacher)
		}
	}
	if o.Distill == o.Prior {
		ts.distill = ts.prior
	} else if o.Distill != "" {
		if ts.distill, err = loadTeacher(o.Distill, p, numPdfs); err != nil {
			return nil, err
		}
	}
	return ts, nil
}

// loadTeacher reads a teacher model and checks its pipeline and outputs.
func loadTeacher(path string, p am.Pipeline, numPdfs int) (*am.Model, error) {
	f, err := am.Load(path)
	if err != nil {
		return nil, err
	}
	q := f.Pipeline
	q.Features, p.Features = "", ""
	if q.JSON() != p.JSON() {
		return nil, fmt.Errorf("%s: %w: its feature pipeline is %s (input dimension %d), the student's %s (input dimension %d): train the teacher on the student's features",
			path, ErrTeacher, q.JSON(), q.InputDim(), p.JSON(), p.InputDim())
	}
	if f.Model.Opts.NumPdfs != numPdfs {
		return nil, fmt.Errorf("%s: %w: %d pdfs, the student's targets have %d", path, ErrTeacher, f.Model.Opts.NumPdfs, numPdfs)
	}
	return f.Model, nil
}

// ModelOptions sets the student's options for a prior teacher: the prior
// reads its encoder output (am.Options.PriorInput). Without one o is left
// as it is. Only a strode student has the prior.
func (ts *Teachers) ModelOptions(o *am.Options) error {
	if ts == nil || ts.prior == nil {
		return nil
	}
	if o.Kind != am.KindSTRODE {
		return fmt.Errorf("trainer: --prior-teacher is for --model=strode (the STRODE head's prior), this one is %q: for %s use --distill-teacher", o.Kind, o.Kind)
	}
	o.PriorInput, o.PriorInputDim = am.PriorTeacher, ts.prior.Opts.SRU.OutDim()
	return nil
}

// check tells whether the student m fits the teachers: a prior that reads a
// teacher needs the prior teacher, of its width, and the prior teacher a
// student whose prior reads it.
func (ts *Teachers) check(m *am.Model) error {
	o := m.Opts
	switch {
	case o.PriorInput == am.PriorTeacher && (ts == nil || ts.prior == nil):
		return fmt.Errorf("trainer: the model's prior reads a teacher's encoder output (prior_input %q): give --prior-teacher", o.PriorInput)
	case ts == nil || ts.prior == nil:
		return nil
	case o.PriorInput != am.PriorTeacher:
		return fmt.Errorf("trainer: --prior-teacher=%s, but the model's prior reads the next frame (a model started from a file trained without a teacher prior?)", ts.Opts.Prior)
	case o.PriorInputDim != ts.prior.Opts.SRU.OutDim():
		return fmt.Errorf("%s: %w: encoder output of %d values, the model's prior reads %d", ts.Opts.Prior, ErrTeacher, ts.prior.Opts.SRU.OutDim(), o.PriorInputDim)
	}
	return nil
}

// distillWeight is λ (0 without a distillation teacher).
func (ts *Teachers) distillWeight() float64 {
	if ts == nil || ts.distill == nil {
		return 0
	}
	return ts.Opts.DistillWeight
}

// TeacherReport is what Annotate computed.
type TeacherReport struct {
	Utterances, Frames int
	Values             int64 // float32 values held (encodings and posteriors)
	Seconds            float64
}

func (r TeacherReport) String() string {
	return fmt.Sprintf("%d utterances, %d frames: %.1f MB held, %.1f s", r.Utterances, r.Frames, float64(r.Values)*4/(1<<20), r.Seconds)
}

// Annotate runs the teachers once over utts (as loaded: before any target
// delay) and stores their rows in the utterances, float32: the prior
// teacher's encoder output in PriorIn, with soft the distillation
// teacher's posteriors in Soft (the held-out set needs none: its
// cross-entropy stays plain). The teachers' dropout is off and their
// weights are only read, so the rows are what a forward pass per
// minibatch would give, computed once for every epoch.
func (ts *Teachers) Annotate(utts []*am.Utterance, soft bool) (TeacherReport, error) {
	var r TeacherReport
	if ts == nil {
		return r, nil
	}
	start := time.Now()
	type job struct {
		m        *am.Model
		enc, pst bool
	}
	var jobs []job
	if ts.prior != nil {
		jobs = append(jobs, job{m: ts.prior, enc: true, pst: soft && ts.distill == ts.prior})
	}
	if soft && ts.distill != nil && ts.distill != ts.prior {
		jobs = append(jobs, job{m: ts.distill, pst: true})
	}
	for _, j := range jobs {
		if err := ts.run(j.m, utts, j.enc, j.pst, &r); err != nil {
			return r, err
		}
	}
	r.Utterances = len(utts)
	for _, u := range utts {
		r.Frames += u.Rows
	}
	r.Seconds = time.Since(start).Seconds()
	return r, nil
}

// run is one teacher m over utts, an utterance at a time as nnet-forward
// runs (Forwarder: frame t's row the one its target delay computes at
// t + delay): its encoder output into PriorIn (enc) and its posteriors into
// Soft (pst). Measured on 50 utterances of 257 frames (a 2 × 128
// bidirectional sru, 2 loaded cores), minibatches of 16 as the trainer's
// held-out pass were slower: 6.4 s against 3.1 s, warm.
func (ts *Teachers) run(m *am.Model, utts []*am.Utterance, enc, pst bool, r *TeacherReport) error {
	fw := am.NewForwarder(m)
	defer fw.Close()
	var post am.OutputOptions // softmax probabilities
	for _, u := range utts {
		g, err := fw.Run(u)
		if err != nil {
			return fmt.Errorf("trainer: teacher on %s: %w", u.Key, err)
		}
		if enc {
			u.PriorIn = narrow(u.PriorIn, g.Rows(g.Enc, 0))
			r.Values += int64(len(u.PriorIn))
		}
		if pst {
			u.Soft = post.Apply(g.Output(0, nil), m.Opts.NumPdfs, u.Soft)
			r.Values += int64(len(u.Soft))
		}
	}
	return nil
}

// narrow is v in float32, in dst's storage when it is large enough.
func narrow(dst []float32, v []float64) []float32 {
	dst = append(dst[:0], make([]float32, len(v))...)
	for i, x := range v {
		dst[i] = float32(x)
	}
	return dst
}
