package latency

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strode-asr/strode/acoustic/am"
	"github.com/strode-asr/strode/acoustic/sru"
)

// fixture writes decode dirs as recipes/kaldi/run.sh leaves them
// (exp/MODEL_seedN/decode_dev/best_wer, lookahead_stats.JOB) and the runs
// files of three experiments: fixed delay 0 (statistics written), fixed
// delay 2 (no statistics: read from final.am), and the look-ahead head
// (statistics of two jobs per seed).
func fixture(t *testing.T) (dir string, inputs []Input) {
	dir = t.TempDir()
	write := func(path, text string) {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	wer := func(v float64) string {
		return fmt.Sprintf("%%WER %.2f [ %d / 1000, 1 ins, 2 del, 3 sub ] exp/x/wer_10_0.0\n", v, int(10*v))
	}
	runs := func(name, model string, wers map[string]float64, more func(decode string)) Input {
		var lines []string
		for _, seed := range []string{"1", "2", "3"} {
			v, ok := wers[seed]
			if !ok {
				continue
			}
			decode := filepath.Join(dir, name, model+"_seed"+seed, "decode_dev")
			write(filepath.Join(decode, "best_wer"), wer(v))
			if more != nil {
				more(decode)
			}
			lines = append(lines, fmt.Sprintf("%s dev %s %s/best_wer", model, seed, decode))
		}
		path := filepath.Join(dir, name, "strode_compare.runs")
		write(path, strings.Join(lines, "\n")+"\n")
		return Input{Label: name, Path: path}
	}
	stats := func(variant string, fixed, max int, hist ...int) string {
		var h []string
		n := 0
		for _, c := range hist {
			h = append(h, fmt.Sprint(c))
			n += c
		}
		return fmt.Sprintf("variant %s\nfixed %d\nmax %d\nutterances 2\nhist %s\nin-order-hist %s\n", variant, fixed, max,
			strings.Join(h, " "), strings.Join(h, " "))
	}
	inputs = append(inputs, runs("delay0", "sru", map[string]float64{"1": 77.1, "2": 77.6, "3": 78.2}, func(d string) {
		write(filepath.Join(d, "lookahead_stats.1"), stats("fixed", 0, 0, 500))
	}))
	inputs = append(inputs, runs("delay2", "sru", map[string]float64{"1": 75.0, "2": 75.4}, func(d string) {
		o, _ := am.PresetFor("small", am.KindSRU)
		o.SRU = sru.Options{Hidden: 2, Layers: 1, Activation: sru.Identity}
		o.InputDim, o.NumPdfs, o.TargetDelay = 3, 2, 2
		m, err := am.New(o, 1)
		if err != nil {
			t.Fatal(err)
		}
		if err := (&am.File{Model: m, Pipeline: am.Pipeline{RawDim: 3, CMVN: am.CMVNNone}}).Save(filepath.Join(filepath.Dir(d), "final.am")); err != nil {
			t.Fatal(err)
		}
	}))
	inputs = append(inputs, runs("w0.02", "strode", map[string]float64{"1": 74.0, "2": 74.6}, func(d string) {
		// two jobs: 0 frames ×10, 1 ×30, 2 ×40, 3 ×20 in all
		write(filepath.Join(d, "lookahead_stats.1"), stats("lookahead", 0, 3, 5, 15, 20, 10))
		write(filepath.Join(d, "lookahead_stats.2"), stats("lookahead", 0, 3, 0, 0, 0, 0))
	}))
	return dir, inputs
}

// TestLatencyCurve: the rows of the fixture (look-ahead from the statistics
// added over jobs and seeds, or from the model), the table and the figure.
func TestLatencyCurve(t *testing.T) {
	dir, inputs := fixture(t)
	rows, err := Read(inputs, "")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]*Row{}
	for _, r := range rows {
		got[r.Label] = r
	}
	for _, tc := range []struct {
		label     string
		learned   bool
		mean      float64
		p95, n    int
		wer       float64
		fromModel bool
	}{
		{"delay0", false, 0, 0, 3, 77.6333, false},
		{"delay2", false, 2, 2, 2, 75.2, true},
		{"w0.02", true, 1.7, 3, 2, 74.3, false},
	} {
		r := got[tc.label]
		if r == nil {
			t.Fatalf("no row %s in %v", tc.label, rows)
		}
		if r.Learned() != tc.learned || r.Look.Mean() != tc.mean || r.Look.Percentile(0.95) != tc.p95 || r.WER.N != tc.n ||
			fmt.Sprintf("%.4f", r.WER.Mean) != fmt.Sprintf("%.4f", tc.wer) || r.FromModel != tc.fromModel {
			t.Errorf("%s: learned %v mean %g p95 %d, %d seeds WER %.4f, from model %v; want %v %g %d, %d %.4f %v", tc.label, r.Learned(),
				r.Look.Mean(), r.Look.Percentile(0.95), r.WER.N, r.WER.Mean, r.FromModel, tc.learned, tc.mean, tc.p95, tc.n, tc.wer, tc.fromModel)
		}
	}
	var b strings.Builder
	if err := WriteMarkdown(&b, rows); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	for _, want := range []string{"| delay0 | fixed (0 frames) | 0.00 | 0 |", "| delay2 | fixed (2 frames) | 2.00 | 2 |",
		"| w0.02 | learned, up to 3 | 1.70 | 3 |", "74.00 (1), 74.60 (2) | 74.30 ± 0.30 |", "Set dev."} {
		if !strings.Contains(md, want) {
			t.Errorf("table lacks %q:\n%s", want, md)
		}
	}
	if strings.Index(md, "delay2") > strings.Index(md, "w0.02") {
		t.Errorf("the learned rows come after the fixed line:\n%s", md)
	}
	png := filepath.Join(dir, "curve.png")
	if err := SaveFigure(png, rows); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{png, filepath.Join(dir, "curve.svg")} {
		if st, err := os.Stat(f); err != nil || st.Size() < 1000 {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// TestLatencyCurveErrors: what the command refuses, with the file named.
func TestLatencyCurveErrors(t *testing.T) {
	dir, inputs := fixture(t)
	if _, err := Read(inputs, "test"); err == nil || !strings.Contains(err.Error(), `set "test"`) {
		t.Errorf("unknown set: %v", err)
	}
	// a second set: --set needed
	extra := filepath.Join(dir, "two.runs")
	os.WriteFile(extra, []byte("sru eval 1 71.5\n"), 0o644)
	if _, err := Read(append(inputs, Input{Path: extra}), ""); err == nil || !strings.Contains(err.Error(), "--set") {
		t.Errorf("two sets: %v", err)
	}
	// a number instead of best_wer: no decode dir to read
	if _, err := Read([]Input{{Path: extra}}, ""); err == nil || !strings.Contains(err.Error(), "two.runs:1") {
		t.Errorf("a number: %v", err)
	}
	// the same model and seed from two unlabelled files
	if _, err := Read([]Input{{Path: inputs[0].Path}, {Path: inputs[1].Path}}, ""); err == nil || !strings.Contains(err.Error(), "LABEL=FILE") {
		t.Errorf("unlabelled: %v", err)
	}
	// a learned look-ahead without its statistics
	os.Remove(filepath.Join(filepath.Dir(inputs[2].Path), "strode_seed1", "decode_dev", "lookahead_stats.1"))
	os.Remove(filepath.Join(filepath.Dir(inputs[2].Path), "strode_seed1", "decode_dev", "lookahead_stats.2"))
	if _, err := Read(inputs[2:], ""); err == nil || !strings.Contains(err.Error(), "lookahead_stats") {
		t.Errorf("no statistics: %v", err)
	}
	if in := ParseInput("w0.02=exp/a=b/runs"); in.Label != "w0.02" || in.Path != "exp/a=b/runs" {
		t.Errorf("ParseInput: %+v", in)
	}
	if in := ParseInput("exp/a=b/runs"); in.Label != "" {
		t.Errorf("ParseInput of a path: %+v", in)
	}
}
