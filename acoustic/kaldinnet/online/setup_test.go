package online

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/strode-asr/strode/acoustic/am"
	"github.com/strode-asr/strode/acoustic/sru"
	"github.com/strode-asr/strode/decoder/fst"
	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/decoder/lattice"
	"github.com/strode-asr/strode/decoder/priors"
	"github.com/strode-asr/strode/decoder/search"
	"github.com/strode-asr/strode/features"
	"github.com/strode-asr/strode/internal/shareddata"
)

// testSystem is kaldi-mini's graph and transition model (62 pdfs), the
// four 16 kHz kaldi-golden utterances (synthetic speech, 1.3–1.9 s; one
// speaker "s"), fbank features (23 bins, Kaldi's defaults, no dither) and
// global CMVN stats of those utterances.
type testSystem struct {
	tm     *hmm.TransitionModel
	graph  *search.Graph
	words  *fst.SymbolTable
	prior  *priors.Prior
	fbank  features.Computer
	global []float64
	utts   []string
	waves  map[string][]float32
}

func loadSystem(t testing.TB) *testSystem {
	t.Helper()
	mini := shareddata.Dir(t, "kaldi-mini")
	golden := shareddata.Dir(t, "kaldi-golden")
	s := &testSystem{waves: map[string][]float32{}}
	var err error
	if s.tm, err = hmm.ReadTransitionModel(filepath.Join(mini, "exp/mono/final.mdl")); err != nil {
		t.Fatal(err)
	}
	f, err := fst.ReadFile(filepath.Join(mini, "exp/mono/graph/HCLG.fst"))
	if err != nil {
		t.Fatal(err)
	}
	if s.graph, err = search.NewGraph(f); err != nil {
		t.Fatal(err)
	}
	if s.words, err = fst.ReadSymbolTableFile(filepath.Join(mini, "exp/mono/graph/words.txt")); err != nil {
		t.Fatal(err)
	}
	po := priors.DefaultOptions()
	po.ClassFrameCounts = filepath.Join(mini, "golden/pdf_counts.txt")
	if s.prior, err = priors.Load(po); err != nil {
		t.Fatal(err)
	}
	fo := features.DefaultFbankOptions()
	fo.Frame.Dither = 0
	if s.fbank, err = features.NewFbank(fo); err != nil {
		t.Fatal(err)
	}
	stats := features.NewCmvnStats(s.fbank.Dim())
	off, _ := features.NewOffline(s.fbank.Clone())
	for _, u := range []string{"s_utt1", "s_utt2", "s_utt3", "s_utt4"} {
		data, err := os.ReadFile(filepath.Join(golden, "wav", u+".wav"))
		if err != nil {
			t.Fatal(err)
		}
		w, err := features.ReadWave(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		s.utts = append(s.utts, u)
		s.waves[u] = w.Data[0]
		feats, rows, err := off.Compute(nil, u, w.Data[0], w.SampFreq, 1)
		if err != nil {
			t.Fatal(err)
		}
		features.AccCmvnStats(stats, feats, rows, s.fbank.Dim())
	}
	s.global = stats
	return s
}

// causalModel is a fixed random causal model of the given kind on fbank
// with 4 frames of left context (seed 1), its output layer scaled up so
// that the frame posteriors are peaked and the search has something to
// choose.
func (s *testSystem) causalModel(t testing.TB, kind string) *am.File {
	t.Helper()
	o, err := am.PresetFor("small", kind)
	if err != nil {
		t.Fatal(err)
	}
	o.SRU = sru.Options{Hidden: 32, Layers: 2, Activation: sru.Identity}
	o.ODEState, o.ODEHidden, o.PhiHidden, o.PriorHidden = 8, 8, 8, 8
	o.DecoderLayers = 1
	p := am.Pipeline{Features: "compute-fbank-feats --dither=0", RawDim: s.fbank.Dim(), CMVN: am.CMVNNone, NormMeans: true, SpliceLeft: 4}
	o.InputDim, o.NumPdfs = p.InputDim(), s.tm.NumPdfs()
	m, err := am.New(o, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i := range m.Out.W.Data {
		m.Out.W.Data[i] *= 4
	}
	return &am.File{Model: m, Pipeline: p}
}

func (s *testSystem) model(f *am.File) *Model {
	opts := search.DefaultOptions()
	opts.MaxActive, opts.Beam, opts.LatticeBeam = 7000, 13, 6
	return &Model{AM: f, TM: s.tm, Graph: s.graph, Prior: s.prior, Output: am.OutputOptions{NoSoftmax: true},
		AcousticScale: 0.1, Search: opts}
}

// offline decodes the utterances the whole-utterance way, carrying the
// speaker's CMVN state: fbank of the whole wave, online CMVN over it,
// splice-feats, forward (Forwarder, --no-softmax, priors), then
// latgen-faster-mapped. It returns each utterance's words and lattice
// (binary bytes).
func (s *testSystem) offline(t testing.TB, f *am.File, m *Model) (map[string][]int32, map[string][]byte) {
	t.Helper()
	words, lats := map[string][]int32{}, map[string][]byte{}
	dim := s.fbank.Dim()
	st, err := features.NewOnlineCmvnState(s.global, dim)
	if err != nil {
		t.Fatal(err)
	}
	off, _ := features.NewOffline(s.fbank.Clone())
	fw := am.NewForwarder(f.Model)
	defer fw.Close()
	dec := search.NewLatticeDecoder(s.graph, m.Search)
	p := f.Model.Opts.NumPdfs
	for _, u := range s.utts {
		feats, rows, err := off.Compute(nil, u, s.waves[u], 16000, 1)
		if err != nil {
			t.Fatal(err)
		}
		c, err := features.NewOnlineCmvn(features.DefaultOnlineCmvnOptions(), st, dim)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Process(feats, rows); err != nil {
			t.Fatal(err)
		}
		st = c.State()
		spliced, err := features.SpliceFrames(feats, rows, dim, f.Pipeline.SpliceLeft, f.Pipeline.SpliceRight)
		if err != nil {
			t.Fatal(err)
		}
		logits, err := fw.Logits(&am.Utterance{Key: u, Rows: rows, Feats: spliced})
		if err != nil {
			t.Fatal(err)
		}
		ll := m.Output.Apply(logits, p, nil)
		if err := m.Prior.SubtractRows(ll, p); err != nil {
			t.Fatal(err)
		}
		d, err := search.NewMatrixMapped(ll, rows, p, s.tm.TransitionIDToPdfArray(), s.tm.NumPdfs(), m.AcousticScale)
		if err != nil {
			t.Fatal(err)
		}
		res, err := dec.DecodeUtterance(d, m.AcousticScale, true, nil)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		res.Compact.WriteBinary(&b)
		words[u], lats[u] = res.Words, b.Bytes()
	}
	return words, lats
}

// recognizer is a Recognizer on s with online CMVN, collecting lattices.
func (s *testSystem) recognizer(t testing.TB, m *Model, o Options, stderr *bytes.Buffer) (*Recognizer, map[string][]byte) {
	t.Helper()
	fi, _, err := NewFeatureInfo(s.fbank, features.DefaultOnlineCmvnOptions(), s.global, m.AM.Pipeline)
	if err != nil {
		t.Fatal(err)
	}
	lats := map[string][]byte{}
	r := &Recognizer{Model: m, Features: fi, Opts: o, Words: s.words, Stderr: stderr,
		Lattices: func(utt string, c lattice.CompactLattice) error {
			var b bytes.Buffer
			c.WriteBinary(&b)
			lats[utt] = b.Bytes()
			return nil
		}}
	if err := r.Init(); err != nil {
		t.Fatal(err)
	}
	return r, lats
}
