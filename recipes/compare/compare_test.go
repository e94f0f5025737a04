package compare

import (
	"bytes"
	"encoding/json"
	"flag"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func run(model, cond, seed string, wer float64) Run {
	return Run{Model: model, Condition: cond, Seed: seed, WER: wer, Source: "t:" + model + cond + seed}
}

func TestComparePairs(t *testing.T) {
	runs := []Run{
		run("sru", "a", "1", 10), run("strode", "a", "1", 8), run("dnn", "a", "1", 20),
		run("sru", "a", "2", 12), run("strode", "a", "2", 12), run("dnn", "a", "2", 18),
		run("sru", "b", "1", 30), run("strode", "b", "1", 33),
		run("sru", "b", "2", 20), // no strode, no dnn on b
		run("strode", "c", "1", 5),
	}
	rep, err := Compare(runs, Options{Baseline: "sru", Confidence: 0.95})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Pairs) != 2 || rep.Pairs[0].A != "sru" || rep.Pairs[0].B != "strode" || rep.Pairs[1].A != "sru" || rep.Pairs[1].B != "dnn" {
		t.Fatalf("pairs %+v", rep.Pairs)
	}
	// strode − sru on (a,1), (a,2), (b,1): −2, 0, +3; mean 1/3, sd √(21/3 − ... ) by hand:
	// deviations −7/3, −1/3, 8/3; squares 49/9 + 1/9 + 64/9 = 114/9; sd² = 57/9; se = √(57/27).
	p := rep.Pairs[0]
	se := math.Sqrt(57.0 / 27)
	half := 4.302653 * se // t_{0.975,2}
	if p.Diff.N != 3 || math.Abs(p.Diff.Mean-1.0/3) > 1e-9 || math.Abs(p.Diff.SE-se) > 1e-9 ||
		math.Abs(p.Diff.Lo-(1.0/3-half)) > 1e-5 || math.Abs(p.Diff.Hi-(1.0/3+half)) > 1e-5 {
		t.Errorf("strode - sru: %+v; want mean 1/3, se %.6f, half-width %.6f", p.Diff, se, half)
	}
	if p.Better != 1 || p.Worse != 1 || p.Ties != 1 {
		t.Errorf("better/worse/tie %d/%d/%d, want 1/1/1", p.Better, p.Worse, p.Ties)
	}
	// unmatched: sru's (b,2) first (A's runs), then strode's (c,1).
	if len(p.Unmatched) != 2 || p.Unmatched[0].Run.Source != "t:srub2" || p.Unmatched[0].Missing != "strode" ||
		p.Unmatched[1].Run.Source != "t:strodec1" || p.Unmatched[1].Missing != "sru" {
		t.Errorf("unmatched %+v", p.Unmatched)
	}
	d := rep.Pairs[1] // dnn − sru on (a,1), (a,2): +10, +6
	if d.Diff.N != 2 || d.Diff.Mean != 8 || math.Abs(d.Diff.SE-2) > 1e-12 || d.Worse != 2 || len(d.Unmatched) != 2 {
		t.Errorf("dnn - sru: %+v, unmatched %+v", d.Diff, d.Unmatched)
	}
	// Per model: every run counts, matched or not.
	sru := rep.Models[0]
	if sru.Model != "sru" || sru.WER.N != 4 || sru.WER.Mean != 18 || len(sru.Conditions) != 2 ||
		sru.Conditions[0].Mean != 11 || sru.Conditions[1].Mean != 25 || sru.OverConditions.Mean != 18 ||
		!sru.RepeatsConditions() || !math.IsNaN(sru.Pooled) {
		t.Errorf("sru summary %+v", sru)
	}
	if rep.Models[1].RepeatsConditions() != true || rep.Models[2].Model != "dnn" {
		t.Errorf("models %v", rep.modelNames())
	}
}

func TestCompareAllPairsAndPooled(t *testing.T) {
	runs := []Run{
		{Model: "x", Condition: "a", Seed: "1", WER: 10, Errors: 10, Words: 100},
		{Model: "y", Condition: "a", Seed: "1", WER: 5, Errors: 5, Words: 100},
		{Model: "z", Condition: "a", Seed: "1", WER: 7},
		{Model: "x", Condition: "b", Seed: "1", WER: 20, Errors: 60, Words: 300},
		{Model: "y", Condition: "b", Seed: "1", WER: 20, Errors: 60, Words: 300},
	}
	rep, err := Compare(runs, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range rep.Pairs {
		names = append(names, p.B+"-"+p.A)
	}
	if strings.Join(names, ",") != "y-x,z-x,z-y" {
		t.Errorf("pairs %v, want y-x,z-x,z-y (later - earlier)", names)
	}
	// x: mean of WERs 15, pooled 70/400 = 17.5 (b has more words).
	x := rep.Models[0]
	if x.WER.Mean != 15 || x.Pooled != 17.5 || x.Errors != 70 || x.Words != 400 || x.RepeatsConditions() {
		t.Errorf("x %+v", x)
	}
	if z := rep.Models[2]; !math.IsNaN(z.Pooled) || z.Words != 0 { // no counts: no pooled WER
		t.Errorf("z pooled %v", z.Pooled)
	}
	// one pair (z − x): a mean, no s.e.
	if p := rep.Pairs[1]; p.Diff.N != 1 || p.Diff.Mean != -3 || !math.IsNaN(p.Diff.SE) || p.Better != 1 {
		t.Errorf("z-x %+v", p)
	}
}

func TestCompareErrors(t *testing.T) {
	runs := []Run{run("a", "c", "1", 1)}
	if _, err := Compare(nil, DefaultOptions()); err != ErrNoRuns {
		t.Errorf("no runs: %v", err)
	}
	if _, err := Compare(runs, Options{Baseline: "b", Confidence: 0.95}); err == nil || !strings.Contains(err.Error(), `baseline model "b" has no runs`) {
		t.Errorf("baseline: %v", err)
	}
	for _, c := range []float64{0, 1, -0.5, 95, math.NaN()} {
		if _, err := Compare(runs, Options{Confidence: c}); err == nil {
			t.Errorf("confidence %v accepted", c)
		}
	}
}

// The worked example: session 7 of recipes/fsdd/RESULTS.md reported
// strode − sru = +1.4 points (s.e. 1.3) over twelve paired runs, 6 better and
// 6 worse. The table, JSON and figure are golden/checked here.
func TestSession7Golden(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "fsdd_session7.runs"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	runs, err := ReadRuns(f, "fsdd_session7.runs", noFiles)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Compare(runs, Options{Baseline: "sru", Confidence: 0.95})
	if err != nil {
		t.Fatal(err)
	}
	p := rep.Pairs[0]
	if p.Diff.N != 12 || math.Round(p.Diff.Mean*10) != 14 || math.Round(p.Diff.SE*10) != 13 || p.Better != 6 || p.Worse != 6 ||
		len(p.Unmatched) != 1 {
		t.Errorf("session 7 not reproduced: %+v", p)
	}
	var out bytes.Buffer
	if err := WriteMarkdown(&out, rep); err != nil {
		t.Fatal(err)
	}
	golden(t, filepath.Join("testdata", "fsdd_session7.md"), out.Bytes())

	var js bytes.Buffer
	if err := WriteJSON(&js, rep); err != nil {
		t.Fatal(err)
	}
	var back struct {
		Pairs []struct {
			Diff struct {
				N    int
				Mean float64
				SE   *float64 `json:"se"`
				Lo   float64
			}
			Paired    []json.RawMessage
			Unmatched []json.RawMessage
		}
		Models []struct {
			Pooled *float64 `json:"pooled_wer"`
		}
	}
	if err := json.Unmarshal(js.Bytes(), &back); err != nil {
		t.Fatalf("compare.json does not parse: %v\n%s", err, js.String())
	}
	if d := back.Pairs[0].Diff; d.N != 12 || math.Abs(d.Mean-1.3666667) > 1e-6 || d.SE == nil || math.Abs(*d.SE-1.3086735) > 1e-6 ||
		len(back.Pairs[0].Paired) != 12 || len(back.Pairs[0].Unmatched) != 1 || back.Models[0].Pooled != nil {
		t.Errorf("compare.json: %+v", back)
	}
}

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s (-update rewrites it):\n%s", path, got)
	}
}

// The figure: a PNG that decodes and an SVG, for the session-7 runs and for
// four models (all pairs), written atomically beside each other.
func TestSaveFigure(t *testing.T) {
	dir := t.TempDir()
	f, _ := os.Open(filepath.Join("testdata", "fsdd_session7.runs"))
	defer f.Close()
	runs, err := ReadRuns(f, "fsdd_session7.runs", noFiles)
	if err != nil {
		t.Fatal(err)
	}
	four := []Run{}
	for _, r := range runs { // dnn and odernn made up from sru, to draw four columns
		four = append(four, r)
		if r.Model == "sru" {
			four = append(four, Run{Model: "dnn", Condition: r.Condition, Seed: r.Seed, WER: r.WER + 6})
			four = append(four, Run{Model: "odernn", Condition: r.Condition, Seed: r.Seed, WER: r.WER + 1})
		}
	}
	for name, rs := range map[string][]Run{"two": runs, "four": four, "one": runs[:1]} {
		rep, err := Compare(rs, DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		pngPath := filepath.Join(dir, name+".png")
		svgPath, err := SaveFigure(pngPath, rep)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		pf, err := os.Open(pngPath)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(pf)
		pf.Close()
		if err != nil || img.Bounds().Dx() < 400 {
			t.Errorf("%s: png %v, %v", name, err, img)
		}
		svg, err := os.ReadFile(svgPath)
		if err != nil || svgPath != filepath.Join(dir, name+".svg") || !bytes.Contains(svg, []byte("<svg")) {
			t.Errorf("%s: svg %s: %v", name, svgPath, err)
		}
		if os.Getenv("COMPARE_FIGURE_DIR") != "" { // to look at them
			b, _ := os.ReadFile(pngPath)
			os.WriteFile(filepath.Join(os.Getenv("COMPARE_FIGURE_DIR"), name+".png"), b, 0o644)
		}
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
	if err := WriteFigure(&bytes.Buffer{}, &Report{Options: DefaultOptions()}, "pdf"); err == nil {
		t.Error("format pdf accepted")
	}
	if err := WriteFigure(&bytes.Buffer{}, &Report{Options: DefaultOptions()}, "png"); err != ErrNoRuns {
		t.Errorf("empty report: %v", err)
	}
}

// TestPairOverConditions: the paired differences are averaged per condition
// before the interval (two conditions of two seeds: means −1 and +3, so the
// mean is +1 and s.e. 2); one run per condition gives no such summary.
func TestPairOverConditions(t *testing.T) {
	runs := []Run{
		run("a", "x", "1", 10), run("a", "x", "2", 10), run("a", "y", "1", 10), run("a", "y", "2", 10),
		run("b", "x", "1", 8), run("b", "x", "2", 10), run("b", "y", "1", 12), run("b", "y", "2", 14),
	}
	rep, err := Compare(runs, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	o := rep.Pairs[0].OverConditions
	if o.N != 2 || math.Abs(o.Mean-1) > 1e-12 || math.Abs(o.SE-2) > 1e-12 {
		t.Errorf("over conditions: %+v, want n 2, mean +1, s.e. 2", o)
	}
	if d := rep.Pairs[0].Diff; d.N != 4 || math.Abs(d.Mean-1) > 1e-12 {
		t.Errorf("per run: %+v, want n 4, mean +1", d)
	}
	rep, err = Compare([]Run{runs[0], runs[2], runs[4], runs[6]}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if n := rep.Pairs[0].OverConditions.N; n != 0 {
		t.Errorf("one run per condition gave an over-conditions summary of %d", n)
	}
}
