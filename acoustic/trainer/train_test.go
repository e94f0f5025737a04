package trainer

import (
	"fmt"
	"math/rand"
	"path/filepath"
	"testing"

	"github.com/strode-asr/strode/acoustic/am"
)

// toyData: the pdf of a frame is which of 3 directions its feature points
// to, with noise: learnable by any model.
func toyData(n int, seed int64, o am.Options) []*am.Utterance {
	rng := rand.New(rand.NewSource(seed))
	var us []*am.Utterance
	for i := 0; i < n; i++ {
		l := 5 + rng.Intn(20)
		u := &am.Utterance{Key: string(rune('A'+i%26)) + string(rune('a'+i/26)), Rows: l, Feats: make([]float32, l*o.InputDim), Targets: make([]int32, l)}
		for t := 0; t < l; t++ {
			y := rng.Intn(o.NumPdfs)
			u.Targets[t] = int32(y)
			for j := 0; j < o.InputDim; j++ {
				v := 0.3 * rng.NormFloat64()
				if j%o.NumPdfs == y {
					v += 1
				}
				u.Feats[t*o.InputDim+j] = float32(v)
			}
		}
		us = append(us, u)
	}
	return us
}

func trainToy(t *testing.T, kind string, epochs int, ckpt string, resume bool) (*am.File, []*am.Utterance) {
	return trainToyWith(t, kind, epochs, ckpt, resume, nil)
}

// trainToyWith is trainToy with the options changed by edit (nil: none).
func trainToyWith(t *testing.T, kind string, epochs int, ckpt string, resume bool, edit func(*am.Options, *TrainOptions)) (*am.File, []*am.Utterance) {
	o := tinyOptions(kind)
	o.SRU.Hidden, o.NumPdfs, o.InputDim = 8, 3, 6
	o.SRU.Dropout = 0.1
	to := DefaultTrainOptions()
	if edit != nil {
		edit(&o, &to)
	}
	m, err := am.New(o, 5)
	if err != nil {
		t.Fatal(err)
	}
	f := &am.File{Model: m, Pipeline: am.Pipeline{RawDim: 6, CMVN: am.CMVNNone}}
	to.MaxEpochs, to.Patience, to.BatchUtts, to.Quantum = epochs, 100, 4, 10
	to.Adam.LearningRate = 0.01
	to.Checkpoint, to.Resume = ckpt, resume
	tr, err := NewTrainer(f, to)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	train, valid := toyData(24, 1, o), toyData(6, 2, o)
	if err := tr.Train(train, valid); err != nil {
		t.Fatal(err)
	}
	return f, valid
}

func TestTrainLearns(t *testing.T) {
	for _, kind := range []string{am.KindSRU, am.KindSTRODE} {
		f, _ := trainToy(t, kind, 4, "", false)
		h := f.History
		if len(h) != 4 {
			t.Fatalf("%s: %d epochs", kind, len(h))
		}
		if last := h[len(h)-1]; last.ValidAcc < 0.8 || last.ValidCE > h[0].ValidCE {
			t.Errorf("%s: held-out accuracy %.2f, CE %.3f → %.3f", kind, last.ValidAcc, h[0].ValidCE, last.ValidCE)
		}
	}
}

// TestResumeBitwise: 2 epochs, then a resumed run to 4, equals 4 epochs in
// one go, bit for bit.
func TestResumeBitwise(t *testing.T) {
	dir := t.TempDir()
	whole, _ := trainToy(t, am.KindSTRODE, 4, filepath.Join(dir, "a.ckpt"), false)
	ck := filepath.Join(dir, "b.ckpt")
	trainToy(t, am.KindSTRODE, 2, ck, false)
	resumed, _ := trainToy(t, am.KindSTRODE, 4, ck, true)
	for i, p := range whole.Model.Params.List {
		q := resumed.Model.Params.List[i]
		for j := range p.Data {
			if p.Data[j] != q.Data[j] {
				t.Fatalf("%s[%d]: whole %v, resumed %v", p.Name, j, p.Data[j], q.Data[j])
			}
		}
	}
	if len(resumed.History) != 4 {
		t.Fatalf("resumed history has %d epochs", len(resumed.History))
	}
}

// TestResumeBitwiseFreeMasked: the same with the free b(z) and SpecAugment
// masks, whose random draws come from the epoch's source.
func TestResumeBitwiseFreeMasked(t *testing.T) {
	checkResumeBitwise(t, func(o *am.Options, to *TrainOptions) {
		o.PhiZ = am.PhiZFree
		to.Mask = MaskOptions{FreqMasks: 1, FreqWidth: 2, TimeMasks: 1, TimeWidth: 3}
	})
}

// checkResumeBitwise trains the toy STRODE model (with the options edit
// makes) for 3 epochs straight, and for 1 epoch then resumed to 3 from the
// checkpoint, and fails unless both models are bitwise the same.
func checkResumeBitwise(t *testing.T, edit func(*am.Options, *TrainOptions)) {
	t.Helper()
	dir := t.TempDir()
	whole, _ := trainToyWith(t, am.KindSTRODE, 3, filepath.Join(dir, "a.ckpt"), false, edit)
	ck := filepath.Join(dir, "b.ckpt")
	trainToyWith(t, am.KindSTRODE, 1, ck, false, edit)
	resumed, _ := trainToyWith(t, am.KindSTRODE, 3, ck, true, edit)
	if a, b := whole.Model.Checksum(), resumed.Model.Checksum(); a != b {
		t.Fatalf("whole %s, resumed %s", a, b)
	}
}

// TestTTildeHistory: a strode model records held-out t̃ statistics every
// epoch, and with the free b(z) t̃ stays away from zero and varies over
// frames (the nonpos b(z) collapsed it to a constant ≈ 2e-4 on FSDD).
func TestTTildeHistory(t *testing.T) {
	f, _ := trainToyWith(t, am.KindSTRODE, 3, "", false, func(o *am.Options, _ *TrainOptions) { o.PhiZ = am.PhiZFree })
	for _, e := range f.History {
		mean, std, lo, hi := e.ValidTTilde[0], e.ValidTTilde[1], e.ValidTTilde[2], e.ValidTTilde[3]
		if !(mean > 1e-2 && std > 0 && lo <= mean && mean <= hi && lo < hi) {
			t.Errorf("epoch %d: t~ mean %g std %g range [%g, %g]", e.Epoch, mean, std, lo, hi)
		}
	}
}

// TestResumeBitwiseBidirectional: the same with a bidirectional encoder
// (dropout between its layers, the free b(z)).
func TestResumeBitwiseBidirectional(t *testing.T) {
	checkResumeBitwise(t, func(o *am.Options, _ *TrainOptions) {
		o.PhiZ = am.PhiZFree
		o.SRU.Bidirectional = true
		o.SRU.Dropout = 0.1
	})
}

// TestBidirectionalModelFile: a bidirectional model keeps its direction
// count through the model file, and the loaded model's forward pass gives
// the trained model's outputs bitwise (forward builds the encoder from the
// stored options).
func TestBidirectionalModelFile(t *testing.T) {
	f, valid := trainToyWith(t, am.KindSRU, 1, "", false, func(o *am.Options, _ *TrainOptions) { o.SRU.Bidirectional = true })
	path := filepath.Join(t.TempDir(), "bi.am")
	if err := f.Save(path); err != nil {
		t.Fatal(err)
	}
	g, err := am.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if !g.Model.Opts.SRU.Bidirectional || g.Model.NumParams() != f.Model.NumParams() {
		t.Fatalf("loaded options %+v, %d parameters (saved %d)", g.Model.Opts.SRU, g.Model.NumParams(), f.Model.NumParams())
	}
	a, b := am.NewForwarder(f.Model), am.NewForwarder(g.Model)
	defer a.Close()
	defer b.Close()
	for _, u := range valid {
		la, err := a.Logits(u)
		if err != nil {
			t.Fatal(err)
		}
		lb, err := b.Logits(u)
		if err != nil {
			t.Fatal(err)
		}
		for j := range la {
			if la[j] != lb[j] {
				t.Fatalf("%s: logit %d: trained %v, loaded %v", u.Key, j, la[j], lb[j])
			}
		}
	}
}

// TestEpochModels: --epoch-models writes one model per epoch, the last of
// them holding the parameters of the last epoch (the final model holds the
// best epoch's, by held-out CE).
func TestEpochModels(t *testing.T) {
	dir := t.TempDir()
	pat := filepath.Join(dir, "epoch%d.am")
	var epochs []*am.File
	f, _ := trainToyWith(t, am.KindSRU, 3, "", false, func(_ *am.Options, to *TrainOptions) { to.EpochModels = pat })
	for e := 1; e <= 3; e++ {
		g, err := am.Load(filepath.Join(dir, fmt.Sprintf("epoch%d.am", e)))
		if err != nil {
			t.Fatal(err)
		}
		if len(g.History) != e {
			t.Errorf("epoch %d model has %d history entries", e, len(g.History))
		}
		epochs = append(epochs, g)
	}
	best := 0
	for i, e := range f.History {
		if e.Accepted {
			best = i
		}
	}
	if a, b := f.Model.Checksum(), epochs[best].Model.Checksum(); a != b {
		t.Errorf("final model %s, best epoch %d's %s", a, best+1, b)
	}
	if _, err := NewTrainer(f, TrainOptions{Optimizer: "adam", MaxEpochs: 1, BatchUtts: 1, BatchFrames: 1, Quantum: 1, EpochModels: "x.am"}); err == nil {
		t.Error("an --epoch-models pattern without the epoch verb accepted")
	}
}

// TestKeepLast: on a held-out set whose labels are shifted by one pdf,
// training makes every epoch worse there, so the best held-out "epoch" is
// the starting model: without --keep-last training ends with it, with
// --keep-last with the last epoch's parameters. With --newbob it is refused.
func TestKeepLast(t *testing.T) {
	for _, keepLast := range []bool{false, true} {
		o := tinyOptions(am.KindSRU)
		o.SRU.Hidden, o.NumPdfs, o.InputDim = 8, 3, 6
		m, err := am.New(o, 5)
		if err != nil {
			t.Fatal(err)
		}
		f := &am.File{Model: m, Pipeline: am.Pipeline{RawDim: 6, CMVN: am.CMVNNone}}
		start := f.Model.Checksum()
		to := DefaultTrainOptions()
		to.MaxEpochs, to.Patience, to.BatchUtts, to.Quantum = 3, 100, 4, 10
		to.Adam.LearningRate = 0.01
		dir := t.TempDir()
		to.EpochModels, to.KeepLast = filepath.Join(dir, "epoch%d.am"), keepLast
		tr, err := NewTrainer(f, to)
		if err != nil {
			t.Fatal(err)
		}
		valid := toyData(6, 2, o)
		for _, u := range valid {
			for i := range u.Targets {
				u.Targets[i] = (u.Targets[i] + 1) % int32(o.NumPdfs)
			}
		}
		if err := tr.Train(toyData(24, 1, o), valid); err != nil {
			t.Fatal(err)
		}
		tr.Close()
		for _, e := range f.History {
			if e.Accepted {
				t.Fatalf("epoch %d accepted on the shifted held-out set: the test needs every epoch worse", e.Epoch)
			}
		}
		last, err := am.Load(filepath.Join(dir, "epoch3.am"))
		if err != nil {
			t.Fatal(err)
		}
		want := start
		if keepLast {
			want = last.Model.Checksum()
		}
		if got := f.Model.Checksum(); got != want || start == last.Model.Checksum() {
			t.Errorf("--keep-last=%v: final model %s, want %s (start %s, last epoch %s)", keepLast, got, want, start, last.Model.Checksum())
		}
	}
	if _, err := NewTrainer(&am.File{}, TrainOptions{Optimizer: "adam", MaxEpochs: 1, BatchUtts: 1, BatchFrames: 1, Quantum: 1, KeepLast: true, Newbob: true}); err == nil {
		t.Error("--keep-last with --newbob accepted")
	}
}
