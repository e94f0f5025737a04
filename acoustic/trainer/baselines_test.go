package trainer

import (
	"bytes"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/strode-asr/strode/acoustic/am"
)

// TestBaselinesLearn: the odernn and dnn models learn the toy task as the
// sru and strode ones do (TestTrainLearns; the dnn, whose sigmoids start
// with nnet1's negative biases, in 10 epochs rather than 4).
func TestBaselinesLearn(t *testing.T) {
	for kind, epochs := range map[string]int{am.KindODERNN: 4, am.KindDNN: 10} {
		f, _ := trainToyWith(t, kind, epochs, "", false, func(o *am.Options, _ *TrainOptions) { o.DNNHidden = 16 })
		h := f.History
		if last := h[len(h)-1]; len(h) != epochs || last.ValidAcc < 0.8 || last.ValidCE > h[0].ValidCE {
			t.Errorf("%s: %d epochs, held-out accuracy %.2f, CE %.3f → %.3f", kind, len(h), last.ValidAcc, h[0].ValidCE, last.ValidCE)
		}
	}
}

// TestBaselinesReproducible: for odernn and dnn, the same seed gives the
// same parameters and losses bit for bit, another seed others; a run
// resumed from its checkpoint after 1 epoch equals the run of 2 epochs in
// one go; the saved file loads to the same parameters and the same
// forward output.
func TestBaselinesReproducible(t *testing.T) {
	for _, kind := range []string{am.KindODERNN, am.KindDNN} {
		t.Run(kind, func(t *testing.T) {
			dir := t.TempDir()
			seed := func(s int64) func(*am.Options, *TrainOptions) {
				return func(_ *am.Options, to *TrainOptions) { to.Seed = s }
			}
			a, valid := trainToyWith(t, kind, 2, filepath.Join(dir, "a.ckpt"), false, seed(7))
			b, _ := trainToyWith(t, kind, 2, "", false, seed(7))
			c, _ := trainToyWith(t, kind, 2, "", false, seed(8))
			if a.Model.Checksum() != b.Model.Checksum() {
				t.Errorf("same seed, different parameters")
			}
			for i := range a.History {
				if a.History[i].TrainCE != b.History[i].TrainCE || a.History[i].ValidCE != b.History[i].ValidCE {
					t.Errorf("epoch %d: same seed, train CE %v vs %v, held-out %v vs %v", i+1,
						a.History[i].TrainCE, b.History[i].TrainCE, a.History[i].ValidCE, b.History[i].ValidCE)
				}
			}
			if a.Model.Checksum() == c.Model.Checksum() {
				t.Errorf("seeds 7 and 8 give the same parameters")
			}
			ck := filepath.Join(dir, "b.ckpt")
			trainToyWith(t, kind, 1, ck, false, seed(7))
			r, _ := trainToyWith(t, kind, 2, ck, true, seed(7))
			if a.Model.Checksum() != r.Model.Checksum() {
				t.Errorf("resumed run differs from the uninterrupted one")
			}
			path := filepath.Join(dir, "m.am")
			if err := a.Save(path); err != nil {
				t.Fatal(err)
			}
			l, err := am.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			if l.Model.Checksum() != a.Model.Checksum() || l.Model.Opts.JSON() != a.Model.Opts.JSON() {
				t.Fatalf("loaded model differs: %s", l.Model.Opts.JSON())
			}
			var info bytes.Buffer
			if err := l.WriteInfo(&info); err != nil {
				t.Fatal(err)
			}
			wantParts := map[string]string{am.KindODERNN: "ode-rnn", am.KindDNN: "hidden layers"}[kind]
			if !strings.Contains(info.String(), wantParts) || !regexp.MustCompile(fmt.Sprintf(`(?m)^\s+total\s+%d\s`, l.Model.NumParams())).MatchString(info.String()) {
				t.Errorf("model-info lacks %q or the total:\n%s", wantParts, info.String())
			}
			fa, fl := am.NewForwarder(a.Model), am.NewForwarder(l.Model)
			defer fa.Close()
			defer fl.Close()
			for _, u := range valid[:2] {
				x, err := fa.Logits(u)
				if err != nil {
					t.Fatal(err)
				}
				y, err := fl.Logits(u)
				if err != nil {
					t.Fatal(err)
				}
				for i := range x {
					if x[i] != y[i] {
						t.Fatalf("%s: logit %d %g after loading, %g before", u.Key, i, y[i], x[i])
					}
				}
			}
		})
	}
}
