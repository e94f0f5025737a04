package rotmnist

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/strode-asr/strode/recipes/compare"
)

// tableKey is a row of the results table.
type tableKey struct{ subset, model string }

// Table reads every results.json under root and returns the Markdown table
// of mean ± std over seeds per subset and model, beside the paper's, then
// the paired differences (PairedTable).
func Table(root string) (string, error) {
	runs := map[tableKey][]*Result{}
	err := filepath.WalkDir(root, func(path string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() || e.Name() != "results.json" {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		var r Result
		if err := json.Unmarshal(b, &r); err != nil {
			return fmt.Errorf("rotmnist: %s: %w", path, err)
		}
		k := tableKey{r.Subset, r.Name()}
		runs[k] = append(runs[k], &r)
		return nil
	})
	if err != nil {
		return "", err
	}
	if err := fillBaselines(runs); err != nil {
		return "", err
	}
	if len(runs) == 0 {
		return "", fmt.Errorf("rotmnist: no results.json under %s", root)
	}
	var b []byte
	b = append(b, "| subset | model | seeds | CS | gap r | MSE ×1e-3 | next-frame MSE ×1e-3 | blank MSE ×1e-3 | index CS | evenly spaced CS | fixed-schedule gap r | paper CS | paper MSE ×1e-3 | s/epoch |\n"...)
	b = append(b, "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n"...)
	for _, subset := range []string{"hawkes", "exp"} {
		for _, model := range tableRows {
			rs := runs[tableKey{subset, model}]
			if len(rs) == 0 {
				continue
			}
			col := func(f func(*Result) float64, scale float64, prec int) string {
				var xs []float64
				for _, r := range rs {
					xs = append(xs, scale*f(r))
				}
				m, sd := compare.MeanSD(xs)
				if len(xs) < 2 {
					return fmt.Sprintf("%.*f", prec, m)
				}
				return fmt.Sprintf("%.*f ± %.*f", prec, m, prec, sd)
			}
			paperCS, paperMSE := "—", "—"
			if p, ok := PaperTable[subset][model]; ok {
				paperCS, paperMSE = fmt.Sprintf("%.3f", p.CS), fmt.Sprintf("%.2f", p.MSE3)
				if p.CSStd > 0 {
					paperCS += fmt.Sprintf(" ± %.3f", p.CSStd)
				}
			}
			b = fmt.Appendf(b, "| %s | %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", subset, model, len(rs),
				col(func(r *Result) float64 { return r.Test.CS }, 1, 3),
				col(func(r *Result) float64 { return r.Test.GapR }, 1, 3),
				col(func(r *Result) float64 { return r.Test.MSE }, 1e3, 2),
				col(func(r *Result) float64 { return r.Test.NextMSE }, 1e3, 2),
				col(func(r *Result) float64 { return r.Test.BlankMSE }, 1e3, 2),
				col(func(r *Result) float64 { return r.Test.IndexCS }, 1, 3),
				col(func(r *Result) float64 { return r.Test.EvenCS }, 1, 3),
				col(func(r *Result) float64 { return r.Test.ScheduleGapR }, 1, 3),
				paperCS, paperMSE,
				col(func(r *Result) float64 { return r.EpochSeconds }, 1, 1))
		}
	}
	return string(b) + "\n" + PairedTable(runs), nil
}

// tableRows are the table's models in order: the paper's four, then the
// timing-identifiable variants.
var tableRows = []string{"node", "odernn", "strode", "strode-rnn", "strode-phase-state", "strode-pose"}

// tablePairs are the comparisons PairedTable makes: each model with
// inferred times against its counterpart on index times (the paper's
// claim), the two STRODEs, and the timing-identifiable variants against
// NODE and the paper's STRODE.
var tablePairs = [][2]string{{"strode", "node"}, {"strode-rnn", "odernn"}, {"strode", "odernn"}, {"strode-rnn", "strode"},
	{"strode-phase-state", "node"}, {"strode-phase-state", "strode"},
	{"strode-pose", "node"}, {"strode-pose", "strode"}, {"strode-pose", "strode-phase-state"}}

// PairedTable is the Markdown table of paired differences A − B over the
// seeds both models ran (same seed, same data): mean, standard error and
// the 95% Student-t interval of CS, gap r and MSE ×1e-3. The seed moves
// these figures as much as the models differ, so only an interval that
// excludes zero says one model did better. It is "" when no pair ran.
func PairedTable(runs map[tableKey][]*Result) string {
	var b []byte
	for _, subset := range []string{"hawkes", "exp"} {
		for _, p := range tablePairs {
			bySeed := map[int64]*Result{}
			for _, r := range runs[tableKey{subset, p[1]}] {
				bySeed[r.Seed] = r
			}
			var cs, gap, mse []float64
			for _, a := range runs[tableKey{subset, p[0]}] {
				if o, ok := bySeed[a.Seed]; ok {
					cs = append(cs, a.Test.CS-o.Test.CS)
					gap = append(gap, a.Test.GapR-o.Test.GapR)
					mse = append(mse, 1e3*(a.Test.MSE-o.Test.MSE))
				}
			}
			if len(cs) == 0 {
				continue
			}
			if len(b) == 0 {
				b = append(b, "| subset | A − B | seeds | CS | gap r | MSE ×1e-3 |\n| --- | --- | --- | --- | --- | --- |\n"...)
			}
			b = fmt.Appendf(b, "| %s | %s − %s | %d | %s | %s | %s |\n", subset, p[0], p[1], len(cs),
				pairedCell(cs, 3), pairedCell(gap, 3), pairedCell(mse, 2))
		}
	}
	return string(b)
}

// pairedCell is "mean ± s.e. [lo, hi]" (95%), or the one value.
func pairedCell(xs []float64, prec int) string {
	s := compare.Summarize(xs, 0.95)
	if s.N < 2 {
		return fmt.Sprintf("%+.*f", prec, s.Mean)
	}
	return fmt.Sprintf("%+.*f ± %.*f [%+.*f, %+.*f]", prec, s.Mean, prec, s.SE, prec, s.Lo, prec, s.Hi)
}

// fillBaselines computes the baselines (Score.EvenCS, ScheduleGapR) for
// results written before they existed, from the data file each names
// (loaded once per file); results whose file is gone keep 0.
func fillBaselines(runs map[tableKey][]*Result) error {
	cache := map[string]Score{}
	for _, rs := range runs {
		for _, r := range rs {
			if r.Test.EvenCS != 0 || r.DataFile == "" {
				continue
			}
			base, ok := cache[r.DataFile]
			if !ok {
				if _, err := os.Stat(r.DataFile); err != nil {
					continue
				}
				d, err := Load(r.DataFile)
				if err != nil {
					return err
				}
				var angles, times [][]float64
				for v := 0; v < d.Test.Videos; v++ {
					angles = append(angles, d.Test.VideoAngles(v))
					times = append(times, d.Test.VideoTimes(v))
				}
				base.setBaselines(angles, times)
				cache[r.DataFile] = base
			}
			r.Test.EvenCS, r.Test.EvenOffset, r.Test.ScheduleGapR = base.EvenCS, base.EvenOffset, base.ScheduleGapR
		}
	}
	return nil
}
