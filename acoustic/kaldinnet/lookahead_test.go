package kaldinnet

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strode-asr/strode/acoustic/am"
	"github.com/strode-asr/strode/acoustic/sru"
	"github.com/strode-asr/strode/decoder/priors"
	"github.com/strode-asr/strode/kaldiio"
)

// TestForwardLookaheadStats: forward of a causal look-ahead model logs and
// writes the frames' look-ahead, ⌈min(t̃, L)⌉ from the model's own t̃ plus
// the right context; a fixed model's (target delay) is one value; a
// bidirectional model's is refused with the option named.
func TestForwardLookaheadStats(t *testing.T) {
	dir := t.TempDir()
	const raw, pdfs = 5, 7
	feats := "ark:" + filepath.Join(dir, "feats.ark")
	w, err := kaldiio.OpenTableWriter(feats, kaldiio.MatrixCodec)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(3))
	var utts []*am.Utterance
	for i, n := range []int{23, 7, 40} {
		m := kaldiio.Matrix{Rows: n, Cols: raw, Data: make([]float32, n*raw)}
		for j := range m.Data {
			m.Data[j] = float32(rng.NormFloat64())
		}
		key := fmt.Sprintf("utt%d", i)
		if err := w.Write(key, m); err != nil {
			t.Fatal(err)
		}
		utts = append(utts, &am.Utterance{Key: key, Rows: n, Feats: m.Data})
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	model := func(edit func(o *am.Options)) *am.File {
		o, _ := am.Preset("small")
		o.Kind, o.PhiZ = am.KindSTRODE, am.PhiZFree
		o.SRU = sru.Options{Hidden: 8, Layers: 1, Activation: sru.Identity}
		o.ODEState, o.ODEHidden, o.PhiHidden, o.PriorHidden = 4, 4, 4, 4
		p := am.Pipeline{RawDim: raw, CMVN: am.CMVNNone, SpliceLeft: 1, SpliceRight: 1}
		o.InputDim, o.NumPdfs = p.InputDim(), pdfs
		edit(&o)
		m, err := am.New(o, 1)
		if err != nil {
			t.Fatal(err)
		}
		return &am.File{Model: m, Pipeline: p}
	}
	var logged []string
	log := func(f string, a ...any) { logged = append(logged, fmt.Sprintf(f, a...)) }
	o := ForwardOptions{Prior: priors.DefaultOptions(), LookaheadStats: filepath.Join(dir, "lookahead_stats.1")}

	f := model(func(o *am.Options) { o.HeadVariant, o.MaxLookahead = am.HeadLookahead, 3 })
	// t̃ ≈ 1 frame at the free b(z)'s start: spread it over 0 … 3+ so that
	// every branch of ⌈min(t̃, 3)⌉ is taken.
	for _, p := range f.Model.Params.List {
		if p.Name == "phi.z.2.weight" {
			for j := range p.Data {
				p.Data[j] *= 8
			}
		}
	}
	if _, err := Forward(f, o, feats, "ark:/dev/null", log); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(o.LookaheadStats)
	if err != nil {
		t.Fatal(err)
	}
	got, err := am.ReadLookaheadStats(strings.NewReader(string(b)), o.LookaheadStats)
	if err != nil {
		t.Fatal(err)
	}
	// The same from the forwarder's t̃, by hand.
	want, _ := am.NewLookaheadStats(f.Model.Opts, f.Pipeline)
	fw := am.NewForwarder(f.Model)
	defer fw.Close()
	for _, u := range utts {
		tr, err := NewTransformer(f.Pipeline, "", "")
		if err != nil {
			t.Fatal(err)
		}
		x, err := tr.Apply(u.Key, &kaldiio.Matrix{Rows: u.Rows, Cols: raw, Data: u.Feats})
		tr.Close()
		if err != nil {
			t.Fatal(err)
		}
		g, err := fw.Run(&am.Utterance{Key: u.Key, Rows: u.Rows, Feats: x})
		if err != nil {
			t.Fatal(err)
		}
		if err := want.Add(f.Model.HeadLookahead(g.Rows(g.TTilde, 0)), u.Rows); err != nil {
			t.Fatal(err)
		}
	}
	if fmt.Sprint(got.Hist, got.InOrder, got.Utts) != fmt.Sprint(want.Hist, want.InOrder, want.Utts) || got.Frames() != 70 {
		t.Errorf("stats file %v %v (%d utterances), want %v %v (%d)", got.Hist, got.InOrder, got.Utts, want.Hist, want.InOrder, want.Utts)
	}
	if got.Variant != am.LookaheadVariable || got.Fixed != 1 || got.Max != 4 || got.Hist[0] != 0 {
		t.Errorf("variant %s fixed %d max %d hist %v: want lookahead, 1, 4, nothing under the right context", got.Variant, got.Fixed, got.Max, got.Hist)
	}
	used := 0
	for _, c := range got.Hist {
		if c > 0 {
			used++
		}
	}
	t.Logf("hist %v in order %v", got.Hist, got.InOrder)
	if used < 3 {
		t.Errorf("hist %v: t~ spread over fewer than 3 values", got.Hist)
	}
	if len(logged) == 0 || !strings.Contains(logged[len(logged)-1], "look-ahead over 70 frames") {
		t.Errorf("log: %q", logged)
	}

	// A fixed model: right context 1 + target delay 2 on every frame.
	f = model(func(o *am.Options) { o.Kind, o.TargetDelay = am.KindSRU, 2 })
	if _, err := Forward(f, o, feats, "ark:/dev/null", log); err != nil {
		t.Fatal(err)
	}
	b, _ = os.ReadFile(o.LookaheadStats)
	if got, err := am.ReadLookaheadStats(strings.NewReader(string(b)), "fixed"); err != nil || got.Variant != am.LookaheadFixed || fmt.Sprint(got.Hist) != "[0 0 0 70]" {
		t.Errorf("fixed model: %v, %+v", err, got)
	}
	f = model(func(o *am.Options) { o.SRU.Bidirectional = true })
	if _, err := Forward(f, o, feats, "ark:/dev/null", log); err == nil || !strings.Contains(err.Error(), "--lookahead-stats") {
		t.Errorf("bidirectional: %v", err)
	}
}
