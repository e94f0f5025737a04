package trainer

import (
	"math"
	"strconv"
	"testing"

	"github.com/strode-asr/strode/acoustic/am"
)

// trainLookahead trains a causal model on the toy task whose frame t is
// labelled with frame t+2's class (TestDelayLearnsLookahead's) and returns
// it with its held-out utterances: edit sets the model kind's options.
func trainLookahead(t *testing.T, epochs int, edit func(o *am.Options)) (*Trainer, []*am.Utterance) {
	t.Helper()
	o := tinyOptions(am.KindSTRODE)
	o.SRU.Hidden, o.NumPdfs, o.InputDim, o.PhiZ = 8, 3, 6, am.PhiZFree
	edit(&o)
	m, err := am.New(o, 5)
	if err != nil {
		t.Fatal(err)
	}
	to := DefaultTrainOptions()
	to.MaxEpochs, to.Patience, to.BatchUtts, to.Quantum = epochs, 100, 4, 10
	to.Adam.LearningRate = 0.02
	tr, err := NewTrainer(&am.File{Model: m, Pipeline: am.Pipeline{RawDim: 6, CMVN: am.CMVNNone}}, to)
	if err != nil {
		t.Fatal(err)
	}
	ahead := func(us []*am.Utterance) []*am.Utterance {
		for _, u := range us {
			for i := range u.Targets {
				u.Targets[i] = u.Targets[min(i+2, u.Rows-1)]
			}
		}
		return us
	}
	valid := ahead(toyData(12, 2, o))
	if err := tr.Train(ahead(toyData(48, 1, o)), valid); err != nil {
		t.Fatal(err)
	}
	return tr, valid
}

// lookaheadOf is the held-out look-ahead statistics of the trained model,
// as strode forward counts them, and the mean t̃.
func lookaheadOf(t *testing.T, m *am.Model, utts []*am.Utterance) (*am.LookaheadStats, float64) {
	t.Helper()
	s, err := am.NewLookaheadStats(m.Opts, am.Pipeline{})
	if err != nil {
		t.Fatal(err)
	}
	fw := am.NewForwarder(m)
	defer fw.Close()
	sum := 0.0
	for _, u := range utts {
		g, err := fw.Run(&am.Utterance{Key: u.Key, Rows: u.Rows, Feats: u.Feats})
		if err != nil {
			t.Fatal(err)
		}
		tt := g.Rows(g.TTilde, 0)
		extra := m.HeadLookahead(tt)
		for i, v := range tt {
			sum += v
			if want := int(math.Ceil(math.Min(v, float64(m.Opts.MaxLookahead)))); extra[i] != want {
				t.Fatalf("%s frame %d: t~ %g waits %d frames, want %d", u.Key, i, v, extra[i], want)
			}
		}
		if err := s.Add(extra, u.Rows); err != nil {
			t.Fatal(err)
		}
	}
	return s, sum / float64(s.Frames())
}

// TestLookaheadTrains: a tiny look-ahead model trains for two epochs
// (seconds), its loss and history are finite, and its look-ahead
// statistics are ⌈min(t̃, L)⌉ of its own t̃, within [0, L], mean ≤ p95.
func TestLookaheadTrains(t *testing.T) {
	tr, valid := trainLookahead(t, 2, func(o *am.Options) { o.HeadVariant, o.MaxLookahead, o.WLatency = am.HeadLookahead, 4, 0.02 })
	defer tr.Close()
	h := tr.File.History
	if len(h) != 2 || math.IsNaN(h[1].ValidCE) || h[1].ValidAcc <= 0 {
		t.Fatalf("history %+v", h)
	}
	s, tt := lookaheadOf(t, tr.File.Model, valid)
	// The held-out t̃ of the trainer's Eval graph is the forwarder's (the
	// latency term must not write t̃'s buffer: it did once, in place).
	if math.Abs(h[1].ValidTTilde[0]-tt) > 1e-6*tt {
		t.Errorf("held-out t~ mean %g in training, %g forward", h[1].ValidTTilde[0], tt)
	}
	frames := 0
	for _, u := range valid {
		frames += u.Rows
	}
	mean, p95 := s.Mean(), s.Percentile(0.95)
	t.Logf("held-out accuracy %.3f, t~ mean %.3g; look-ahead mean %.3f p95 %d, in order %.3f / %d", h[1].ValidAcc, h[1].ValidTTilde[0],
		mean, p95, s.InOrderMean(), s.InOrderPercentile(0.95))
	if s.Frames() != int64(frames) || s.Utts != len(valid) || mean < 0 || mean > 4 || p95 > 4 || float64(p95) < mean-1e-9 || s.InOrderMean() < mean {
		t.Errorf("look-ahead over %d frames (%d utterances): mean %g p95 %d in order %g", s.Frames(), s.Utts, mean, p95, s.InOrderMean())
	}
}

// TestLookaheadLearnsLatency (long): on the toy task, whose label is two
// frames ahead, the look-ahead head learns to read ahead — held-out
// accuracy near the fixed delay 2's, far above no delay's — and a larger
// latency weight buys less look-ahead. It logs the numbers DESIGN.md
// quotes.
func TestLookaheadLearnsLatency(t *testing.T) {
	if testing.Short() {
		t.Skip("trains five toy models (about a minute)")
	}
	for _, tc := range []struct {
		name string
		edit func(o *am.Options)
	}{
		{"delay 0", func(o *am.Options) {}},
		{"delay 2", func(o *am.Options) { o.TargetDelay = 2 }},
		{"lookahead w 0", func(o *am.Options) { o.HeadVariant, o.MaxLookahead, o.WLatency = am.HeadLookahead, 4, 0 }},
		{"lookahead w 0.02", func(o *am.Options) { o.HeadVariant, o.MaxLookahead, o.WLatency = am.HeadLookahead, 4, 0.02 }},
		{"lookahead w 0.2", func(o *am.Options) { o.HeadVariant, o.MaxLookahead, o.WLatency = am.HeadLookahead, 4, 0.2 }},
	} {
		tr, valid := trainLookahead(t, 12, tc.edit)
		h := tr.File.History
		msg := ""
		if tr.File.Model.Opts.HeadVariant == am.HeadLookahead {
			s, _ := lookaheadOf(t, tr.File.Model, valid)
			msg = ", look-ahead mean " + ftoa(s.Mean()) + " p95 " + ftoa(float64(s.Percentile(0.95))) + ", t~ mean " + ftoa(h[len(h)-1].ValidTTilde[0])
		}
		t.Logf("%s: held-out accuracy %.3f CE %.3f%s", tc.name, h[len(h)-1].ValidAcc, h[len(h)-1].ValidCE, msg)
		tr.Close()
	}
}

func ftoa(v float64) string { return strconv.FormatFloat(v, 'f', 3, 64) }
