package trainer

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strode-asr/strode/acoustic/am"
)

// toyPipeline is trainToyWith's feature pipeline.
var toyPipeline = am.Pipeline{RawDim: 6, CMVN: am.CMVNNone}

// toyTeacher trains a bidirectional sru on the toy task for two epochs and
// saves it: the teacher of the tests below.
func toyTeacher(t *testing.T) string {
	t.Helper()
	f, _ := trainToyWith(t, am.KindSRU, 2, "", false, func(o *am.Options, _ *TrainOptions) { o.SRU.Bidirectional = true })
	path := filepath.Join(t.TempDir(), "teacher.am")
	if err := f.Save(path); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestTeacherStudents: a strode student with the teacher prior and an sru
// and a strode student distilled from the same teacher train (every
// epoch's loss finite, held-out accuracy above chance); the teacher's
// parameters and file do not change; the student with the teacher prior
// records it in its options (gauss.0 reads the teacher's 16 values) and,
// saved and reloaded, decodes without any teacher, bit for bit the model
// it was, as Forwarder and as Stream.
func TestTeacherStudents(t *testing.T) {
	path := toyTeacher(t)
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		kind string
		o    TeacherOptions
	}{
		{am.KindSTRODE, TeacherOptions{Prior: path}},
		{am.KindSRU, TeacherOptions{Distill: path, DistillWeight: 0.5}},
		{am.KindSTRODE, TeacherOptions{Prior: path, Distill: path, DistillWeight: 0.5}},
	} {
		ts, err := LoadTeachers(c.o, toyPipeline, 3)
		if err != nil {
			t.Fatal(err)
		}
		sums := map[string]string{}
		for _, m := range []*am.Model{ts.prior, ts.distill} {
			if m != nil {
				sums[m.Checksum()] = ""
			}
		}
		f := trainWithTeachers(t, c.kind, ts)
		for _, m := range []*am.Model{ts.prior, ts.distill} {
			if m == nil {
				continue
			}
			if _, ok := sums[m.Checksum()]; !ok {
				t.Errorf("%s %+v: a teacher's parameters changed in training", c.kind, c.o)
			}
		}
		last := f.History[len(f.History)-1]
		if last.ValidAcc < 0.5 || last.TrainCE != last.TrainCE {
			t.Errorf("%s %+v: held-out accuracy %.2f, train CE %g", c.kind, c.o, last.ValidAcc, last.TrainCE)
		}
		o := f.Model.Opts
		if c.o.Prior != "" {
			if o.PriorInput != am.PriorTeacher || o.PriorInputDim != 16 {
				t.Errorf("prior input %q of %d values, want the teacher's 16", o.PriorInput, o.PriorInputDim)
			}
		} else if o.PriorInput != "" || o.PriorInputDim != 0 {
			t.Errorf("%s distilled: prior input %q %d, want none recorded", c.kind, o.PriorInput, o.PriorInputDim)
		}
		checkDecodesAlone(t, f)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("the teacher's file changed")
	}
}

// trainWithTeachers trains the toy student of kind with ts.
func trainWithTeachers(t *testing.T, kind string, ts *Teachers) *am.File {
	t.Helper()
	o := tinyOptions(kind)
	o.SRU.Hidden, o.NumPdfs, o.InputDim = 8, 3, 6
	if err := ts.ModelOptions(&o); err != nil {
		t.Fatal(err)
	}
	m, err := am.New(o, 5)
	if err != nil {
		t.Fatal(err)
	}
	f := &am.File{Model: m, Pipeline: toyPipeline}
	to := DefaultTrainOptions()
	to.MaxEpochs, to.Patience, to.BatchUtts, to.Quantum = 2, 100, 4, 10
	to.Adam.LearningRate = 0.01
	tr, err := NewTrainer(f, to)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	tr.Teachers = ts
	if err := tr.Train(toyData(24, 1, o), toyData(6, 2, o)); err != nil {
		t.Fatal(err)
	}
	return f
}

// checkDecodesAlone saves f, reloads it and runs both on utterances with no
// teacher rows: the same logits bit for bit, from Forwarder and Stream.
func checkDecodesAlone(t *testing.T, f *am.File) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "student.am")
	if err := f.Save(path); err != nil {
		t.Fatal(err)
	}
	g, err := am.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if g.Model.Opts.JSON() != f.Model.Opts.JSON() {
		t.Fatalf("options %s reloaded as %s", f.Model.Opts.JSON(), g.Model.Opts.JSON())
	}
	for _, u := range toyData(3, 9, f.Model.Opts) {
		var out [2][]float64
		for i, m := range []*am.Model{f.Model, g.Model} {
			fw := am.NewForwarder(m)
			l, err := fw.Logits(u)
			fw.Close()
			if err != nil {
				t.Fatal(err)
			}
			out[i] = l
		}
		s, err := g.Model.NewStream()
		if err != nil {
			t.Fatal(err)
		}
		streamed, _, err := s.Accept(u.Feats, u.Rows)
		s.Close()
		if err != nil {
			t.Fatal(err)
		}
		for j := range out[0] {
			if out[0][j] != out[1][j] || streamed[j] != out[0][j] {
				t.Fatalf("%s: logit %d: trained %g, reloaded %g, streamed %g", u.Key, j, out[0][j], out[1][j], streamed[j])
			}
		}
	}
}

// TestTeacherErrors: every teacher that does not fit is refused with an
// error naming its file (pdfs, feature pipeline and so input dimension, a
// prior teacher that is unidirectional or of a kind without an SRU stack),
// and so are a prior teacher for an sru student, a weight without a
// teacher, a teacher without a weight, and a student whose prior reads a
// teacher trained without one.
func TestTeacherErrors(t *testing.T) {
	dir := t.TempDir()
	save := func(name, kind string, edit func(*am.Options)) string {
		o := tinyOptions(kind)
		o.SRU.Hidden, o.NumPdfs, o.InputDim = 8, 3, 6
		o.SRU.Bidirectional = true
		if edit != nil {
			edit(&o)
		}
		m, err := am.New(o, 1)
		if err != nil {
			t.Fatal(err)
		}
		p := toyPipeline
		p.RawDim = o.InputDim
		path := filepath.Join(dir, name)
		if err := (&am.File{Model: m, Pipeline: p}).Save(path); err != nil {
			t.Fatal(err)
		}
		return path
	}
	good := save("good.am", am.KindSRU, nil)
	for _, c := range []struct {
		name string
		o    TeacherOptions
		want string
	}{
		{"pdfs", TeacherOptions{Distill: save("pdfs.am", am.KindSRU, func(o *am.Options) { o.NumPdfs = 4 }), DistillWeight: 0.5}, "4 pdfs, the student's targets have 3"},
		{"input", TeacherOptions{Prior: save("dim.am", am.KindSRU, func(o *am.Options) { o.InputDim = 5 })}, "input dimension 5"},
		{"unidirectional", TeacherOptions{Prior: save("uni.am", am.KindSRU, func(o *am.Options) { o.SRU.Bidirectional = false })}, "must be bidirectional"},
		{"kind", TeacherOptions{Prior: save("dnn.am", am.KindDNN, nil)}, "want an sru or strode model, this one is \"dnn\""},
	} {
		_, err := LoadTeachers(c.o, toyPipeline, 3)
		file := c.o.Prior + c.o.Distill
		if !errors.Is(err, ErrTeacher) || !strings.Contains(err.Error(), file) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want ErrTeacher naming %s and %q", c.name, err, file, c.want)
		}
	}
	// A dnn distills as well as any kind: only the prior needs an SRU stack.
	if _, err := LoadTeachers(TeacherOptions{Distill: save("dnn2.am", am.KindDNN, nil), DistillWeight: 0.3}, toyPipeline, 3); err != nil {
		t.Errorf("a dnn distillation teacher: %v", err)
	}
	for _, o := range []TeacherOptions{{DistillWeight: 0.5}, {Distill: good}, {Distill: good, DistillWeight: 1.5}} {
		if _, err := LoadTeachers(o, toyPipeline, 3); err == nil {
			t.Errorf("%+v: accepted", o)
		}
	}
	ts, err := LoadTeachers(TeacherOptions{Prior: good}, toyPipeline, 3)
	if err != nil {
		t.Fatal(err)
	}
	o := tinyOptions(am.KindSRU)
	if err := ts.ModelOptions(&o); err == nil || !strings.Contains(err.Error(), "--model=strode") {
		t.Errorf("a prior teacher for an sru student: %v", err)
	}
	// A strode model trained without the teacher prior, given one (as
	// --init-model would), and one with it given none.
	o = tinyOptions(am.KindSTRODE)
	m, _ := am.New(o, 1)
	if err := ts.check(m); err == nil {
		t.Error("a prior teacher for a model whose prior reads the next frame: accepted")
	}
	if err := ts.ModelOptions(&o); err != nil {
		t.Fatal(err)
	}
	m, _ = am.New(o, 1)
	var none *Teachers
	if err := none.check(m); err == nil || !strings.Contains(err.Error(), "give --prior-teacher") {
		t.Errorf("a teacher-prior model without its teacher: %v", err)
	}
}

// BenchmarkTeacherCost measures what the teachers' rows cost at the size of
// the speechocean762 causal comparison (quick sizes: 40 fbank with 4 frames
// of left context, a 2 × 128 bidirectional sru teacher, 256 pdfs), on a
// tenth of its 257 k training frames: Annotate's one pass (the rows held
// for every epoch) against one training epoch of the causal strode student
// with the teacher prior and distillation (what a forward pass of the
// teacher per minibatch would add to every epoch). Run it alone:
//
//	go test -run XXX -bench TeacherCost -benchtime 1x ./acoustic/trainer/
func BenchmarkTeacherCost(b *testing.B) {
	const utts, frames, raw, left, pdfs = 100, 257, 40, 4, 256
	o, _ := am.PresetFor("small", am.KindSRU)
	o.SRU.Hidden, o.SRU.Layers, o.SRU.Bidirectional = 128, 2, true
	o.InputDim, o.NumPdfs = raw*(1+left), pdfs
	tm, err := am.New(o, 1)
	if err != nil {
		b.Fatal(err)
	}
	p := am.Pipeline{RawDim: raw, CMVN: am.CMVNNone, SpliceLeft: left}
	path := filepath.Join(b.TempDir(), "teacher.am")
	if err := (&am.File{Model: tm, Pipeline: p}).Save(path); err != nil {
		b.Fatal(err)
	}
	ts, err := LoadTeachers(TeacherOptions{Prior: path, Distill: path, DistillWeight: 0.5}, p, pdfs)
	if err != nil {
		b.Fatal(err)
	}
	so, _ := am.PresetFor("small", am.KindSTRODE)
	so.SRU.Hidden, so.SRU.Layers = 128, 2
	so.ODEState, so.ODEHidden, so.PhiHidden, so.PriorHidden = 16, 16, 16, 16
	so.InputDim, so.NumPdfs, so.PhiZ = raw*(1+left), pdfs, am.PhiZFree
	if err := ts.ModelOptions(&so); err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewSource(2))
	data := func(n int) []*am.Utterance {
		var us []*am.Utterance
		for i := range n {
			u := &am.Utterance{Key: fmt.Sprintf("u%04d", i), Rows: frames, Feats: make([]float32, frames*raw),
				Targets: make([]int32, frames), Context: [2]int{left, 0}}
			for j := range u.Feats {
				u.Feats[j] = float32(rng.NormFloat64())
			}
			for j := range u.Targets {
				u.Targets[j] = int32(rng.Intn(pdfs))
			}
			us = append(us, u)
		}
		return us
	}
	for range b.N {
		train, valid := data(utts), data(utts/10)
		r, err := ts.Annotate(train, true)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(r.Seconds, "teacher-s")
		b.ReportMetric(float64(r.Values)*4/(1<<20), "teacher-MB")
		m, err := am.New(so, 3)
		if err != nil {
			b.Fatal(err)
		}
		to := DefaultTrainOptions()
		to.MaxEpochs, to.BatchUtts, to.BatchFrames = 1, 8, 4000
		tr, err := NewTrainer(&am.File{Model: m, Pipeline: p}, to)
		if err != nil {
			b.Fatal(err)
		}
		tr.Teachers = ts
		if err := tr.Train(train, valid); err != nil {
			b.Fatal(err)
		}
		tr.Close()
		b.ReportMetric(tr.File.History[0].Seconds, "epoch-s") // the epoch alone: Train annotated before it
	}
}

// TestTeacherRowsAreForwarders: Annotate gives every utterance the rows
// Forwarder gives it alone — the encoder output and the softmax of the
// logits, frame t's computed at t + the teacher's target delay — for a
// teacher with a delay of 2, and the prior teacher's rows as well as the
// distillation teacher's when they are one model (to 1e-5: a faster pass
// may batch utterances, whose float32 products can round otherwise).
func TestTeacherRowsAreForwarders(t *testing.T) {
	o := tinyOptions(am.KindSTRODE)
	o.SRU.Hidden, o.NumPdfs, o.InputDim, o.SRU.Bidirectional, o.TargetDelay = 8, 3, 6, true, 2
	m, err := am.New(o, 2)
	if err != nil {
		t.Fatal(err)
	}
	ts := &Teachers{Opts: TeacherOptions{Prior: "t.am", Distill: "t.am", DistillWeight: 1}, prior: m, distill: m}
	utts := toyData(40, 3, o)
	if _, err := ts.Annotate(utts, true); err != nil {
		t.Fatal(err)
	}
	fw := am.NewForwarder(m)
	defer fw.Close()
	var post am.OutputOptions
	for _, u := range utts {
		g, err := fw.Run(u)
		if err != nil {
			t.Fatal(err)
		}
		enc, soft := g.Rows(g.Enc, 0), post.Apply(g.Output(0, nil), o.NumPdfs, nil)
		if len(u.PriorIn) != len(enc) || len(u.PriorIn) != u.Rows*16 || len(u.Soft) != len(soft) {
			t.Fatalf("%s: %d and %d encoder values, %d and %d posteriors for %d frames", u.Key, len(u.PriorIn), len(enc), len(u.Soft), len(soft), u.Rows)
		}
		for j, v := range enc {
			if d := float64(u.PriorIn[j]) - v; d > 1e-5 || d < -1e-5 {
				t.Fatalf("%s: encoder value %d: batched %g, alone %g", u.Key, j, u.PriorIn[j], v)
			}
		}
		for j, v := range soft {
			if d := u.Soft[j] - v; d > 1e-5 || d < -1e-5 {
				t.Fatalf("%s: posterior %d: batched %g, alone %g", u.Key, j, u.Soft[j], v)
			}
		}
	}
}
