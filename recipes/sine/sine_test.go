package sine

import (
	"bytes"
	"encoding/json"
	"image/png"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strode-asr/strode/acoustic/strode"
)

// TestQuickRun runs the recipe end to end on --quick settings twice with the
// same seed: same numbers, weights in their sign sets, files written.
func TestQuickRun(t *testing.T) {
	run := func(dir string) (Results, string) {
		o := DefaultOptions()
		o.Quick, o.Out, o.Seeds, o.Process = true, dir, 2, "hawkes"
		var out bytes.Buffer
		res, err := Run(o, &out, nil)
		if err != nil {
			t.Fatal(err)
		}
		return res, out.String()
	}
	d1, d2 := t.TempDir(), t.TempDir()
	r1, table := run(d1)
	r2, _ := run(d2)
	for _, v := range []string{ModelStrode, ModelContext, ModelNODE, ModelIndex} {
		a, b := r1[v], r2[v]
		if a == nil || b == nil {
			t.Fatalf("no result for %s", v)
		}
		if a.CS != b.CS || a.GapR != b.GapR || (a.MSE != nil && *a.MSE != *b.MSE) {
			t.Errorf("%s: same seed, different numbers: %+v vs %+v", v, a, b)
		}
		if math.IsNaN(a.CS) || a.CSStd == nil {
			t.Errorf("%s: bad summary %+v", v, a)
		}
		if !strings.Contains(table, v) {
			t.Errorf("table lacks %s:\n%s", v, table)
		}
	}
	js, err := os.ReadFile(filepath.Join(d1, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(js, &top); err != nil {
		t.Fatal(err)
	}
	parsed := map[string]map[string]any{}
	for k, raw := range top {
		var m map[string]any
		if json.Unmarshal(raw, &m) == nil {
			parsed[k] = m
		}
	}
	for _, k := range []string{"strode", "strode-context", "node", "index", "settings"} {
		if parsed[k] == nil {
			t.Errorf("results.json lacks %q", k)
		}
	}
	if ps, ok := parsed["strode-context"]["per_seed"].([]any); !ok || len(ps) != 2 {
		t.Errorf("results.json: per_seed of strode-context %v, want 2 entries", parsed["strode-context"]["per_seed"])
	}
	if _, ok := parsed["strode"]["cs_std"]; !ok {
		t.Errorf("results.json lacks stds: %v", parsed["strode"])
	}
	f, err := os.Open(filepath.Join(d1, "scatter.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if img, err := png.Decode(f); err != nil {
		t.Errorf("scatter.png: %v", err)
	} else if b := img.Bounds(); b.Dx() != 920 || b.Dy() != 490 { // two 4.6-inch panels at 100 dpi
		t.Errorf("scatter.png: %d×%d pixels, want 920×490", b.Dx(), b.Dy())
	}
	if svg, err := os.ReadFile(filepath.Join(d1, "scatter.svg")); err != nil {
		t.Error(err)
	} else if s := strings.TrimSpace(string(svg)); !strings.Contains(s, "<svg") || !strings.HasSuffix(s, "</svg>") {
		t.Error("scatter.svg is not a complete SVG document")
	}
	// Saved models load back, and stay in their sign sets.
	for _, v := range []string{ModelStrode, ModelContext} {
		m, err := strode.NewSequential(modelOptions(DefaultOptions(), v), rand.New(rand.NewSource(9)))
		if err == nil {
			_, err = m.Load(filepath.Join(d1, v+".seed1.safetensors"))
		}
		if err != nil {
			t.Errorf("%s: %v", v, err)
		}
	}
}

// TestSignSetsDuringTraining trains briefly with a large learning rate;
// TrainModel checks after every optimizer step that the weights of Φ (≤ 0)
// and φ (≥ 0) are in their sign sets and fails otherwise; the test checks
// the end state too and that some weights were actually clamped.
func TestSignSetsDuringTraining(t *testing.T) {
	o := DefaultOptions()
	o.Quick = true
	o.applyQuick()
	o.Adam.LearningRate = 0.05 // large steps push weights across zero
	d := Generate(o, 3)
	tr, err := TrainModel(o, d, ModelContext, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	crossed := 0
	for _, p := range tr.Model.Params.List {
		if !p.InSignSet() {
			t.Errorf("%s left its sign set", p.Name)
		}
		if p.Sign != 0 {
			for _, v := range p.Data {
				if v == 0 {
					crossed++
				}
			}
		}
	}
	if crossed == 0 {
		t.Error("no constrained weight reached 0: the projection was not exercised")
	}
	t.Logf("%d constrained weights clamped at 0", crossed)
}

func TestGenerate(t *testing.T) {
	o := DefaultOptions()
	o.Train, o.Val, o.Test = 200, 50, 50
	d := Generate(o, 1)
	if len(d.Train.Times) != 200 || len(d.Test.Values[0]) != 10 {
		t.Fatalf("sizes %d %d", len(d.Train.Times), len(d.Test.Values[0]))
	}
	for s, ts := range d.Train.Times {
		if ts[0] != 0 || d.Train.Values[s][0] != 0 {
			t.Fatalf("sequence %d does not start at t=0, x=0", s)
		}
		for i := 1; i < len(ts); i++ {
			x := d.Train.Values[s][i]
			clean := math.Sin(2 * math.Pi * ts[i])
			if ts[i] <= ts[i-1] || x < clean || x >= clean+0.1 {
				t.Fatalf("sequence %d point %d: t %v x %v", s, i, ts[i], x)
			}
		}
	}
}

// TestPhaseStateVariant trains the phase-state variant for one quick epoch
// through the recipe: Φ, the encoder and the phase parameters train, f_o
// and the paper's decoder (drawn but unused by this variant) stay as
// initialised, and the test MSE is finite. An unknown --variant is refused.
func TestPhaseStateVariant(t *testing.T) {
	o := DefaultOptions()
	o.Quick = true
	o.applyQuick()
	o.Epochs = 1
	o.Model.Variant = strode.VariantPhaseState
	o.Adam.LearningRate = 1e-3
	d := Generate(o, 4)
	tr, err := TrainModel(o, d, ModelContext, 4, nil)
	if err != nil {
		t.Fatal(err)
	}
	init, err := strode.NewSequential(modelOptions(o, ModelContext), rand.New(rand.NewSource(4)))
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range tr.Model.Params.List {
		q := init.Params.List[i]
		same := true
		for k := range p.Data {
			same = same && p.Data[k] == q.Data[k]
		}
		unused := strings.HasPrefix(p.Name, "ode.") && !strings.HasPrefix(p.Name, "ode.phase.") || strings.HasPrefix(p.Name, "dec.") && !strings.HasPrefix(p.Name, "dec.phase.")
		trains := strings.HasPrefix(p.Name, "phi.") || strings.HasPrefix(p.Name, "enc.") || strings.HasPrefix(p.Name, "ode.phase.") || strings.HasPrefix(p.Name, "dec.phase.")
		if unused && !same {
			t.Errorf("%s changed, but phase-state does not use it", p.Name)
		}
		if trains && same {
			t.Errorf("%s did not train", p.Name)
		}
	}
	if math.IsNaN(tr.Score.MSE) || tr.Score.MSE <= 0 {
		t.Errorf("test MSE %v", tr.Score.MSE)
	}
	o.Model.Variant = "linear-ode"
	if err := o.Validate(); err == nil || !strings.Contains(err.Error(), "linear-ode") {
		t.Errorf("unknown variant: error %v", err)
	}
}

// TestRestarts: with --restarts 3 the kept model is one of the three
// initialisations (seed, then restartSeed), each trained alone to the end;
// the choice is reproducible.
func TestRestarts(t *testing.T) {
	o := DefaultOptions()
	o.Quick = true
	o.applyQuick()
	o.Epochs, o.Restarts = 2, 3
	d := Generate(o, 5)
	a, err := TrainModel(o, d, ModelContext, 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := TrainModel(o, d, ModelContext, 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.Score.CS != b.Score.CS || a.Score.MSE != b.Score.MSE || a.Score.GapR != b.Score.GapR {
		t.Errorf("same seed, different results: %+v vs %+v", a.Score, b.Score)
	}
	if len(a.EpochSeconds) != o.Epochs {
		t.Errorf("kept model trained %d epochs, want %d", len(a.EpochSeconds), o.Epochs)
	}
	// The kept model is one of the starts, each trained alone to the end.
	found := false
	for r := 0; r < o.Restarts; r++ {
		s := int64(5)
		if r > 0 {
			s = restartSeed(5, r)
		}
		single := o
		single.Restarts = 1
		c, err := TrainModel(single, d, ModelContext, s, nil)
		if err != nil {
			t.Fatal(err)
		}
		found = found || (c.Score.CS == a.Score.CS && c.Score.MSE == a.Score.MSE)
	}
	if !found {
		t.Error("the kept model is none of the starts trained alone")
	}
}
