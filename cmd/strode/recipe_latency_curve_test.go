package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLatencyCurveCommand: two experiments' runs files (a fixed delay and
// the learned look-ahead, two seeds each) give the table on stdout and in
// --md, and the PNG and SVG; a missing runs file is an error naming it.
func TestLatencyCurveCommand(t *testing.T) {
	dir := t.TempDir()
	write := func(path, text string) {
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	exp := func(name, model, variant string, hist string, wers ...float64) string {
		var runs []string
		for i, w := range wers {
			d := filepath.Join(dir, name, fmt.Sprintf("%s_seed%d", model, i+1), "decode_dev")
			write(filepath.Join(d, "best_wer"), fmt.Sprintf("%%WER %.2f [ %d / 100, 0 ins, 0 del, %d sub ]\n", w, int(w), int(w)))
			max := len(strings.Fields(hist)) - 1
			fixed := 0
			if variant == "fixed" {
				fixed = max
			}
			write(filepath.Join(d, "lookahead_stats.1"), fmt.Sprintf("variant %s\nfixed %d\nmax %d\nhist %s\nin-order-hist %s\n", variant, fixed, max, hist, hist))
			runs = append(runs, fmt.Sprintf("%s dev %d %s/best_wer", model, i+1, d))
		}
		p := filepath.Join(dir, name, "strode_compare.runs")
		write(p, strings.Join(runs, "\n")+"\n")
		return name + "=" + p
	}
	d4 := exp("delay4", "sru", "fixed", "0 0 0 0 10", 70, 72)
	la := exp("w0.05", "strode", "lookahead", "2 4 4 0 0 0 0 0 0", 71, 73)
	md, png := filepath.Join(dir, "curve.md"), filepath.Join(dir, "curve.png")
	out, errs, code := runScoringCmd(t, "", "latency-curve", "--md="+md, "--png="+png, d4, la)
	if code != 0 || !strings.Contains(out, "| delay4 | fixed (4 frames) | 4.00 | 4 |") || !strings.Contains(out, "| w0.05 | learned, up to 8 | 1.20 | 2 |") ||
		!strings.Contains(out, "72.00 ± 1.00") {
		t.Errorf("exit %d, stdout:\n%s\nstderr: %s", code, out, errs)
	}
	if b, err := os.ReadFile(md); err != nil || string(b) != out {
		t.Errorf("--md: %v\n%s", err, b)
	}
	for _, f := range []string{png, filepath.Join(dir, "curve.svg")} {
		if st, err := os.Stat(f); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	_, errs, code = runScoringCmd(t, "", "latency-curve", "x="+filepath.Join(dir, "none.runs"))
	if code == 0 || !strings.Contains(errs, "none.runs") {
		t.Errorf("missing file: exit %d, stderr %s", code, errs)
	}
}
