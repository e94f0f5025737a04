package rotmnist

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
)

// tableKey is a row of the results table.
type tableKey struct{ subset, model string }

// Table reads every results.json under root and returns the Markdown table
// of mean ± std over seeds per subset and model, beside the paper's.
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
		k := tableKey{r.Subset, r.Model}
		runs[k] = append(runs[k], &r)
		return nil
	})
	if err != nil {
		return "", err
	}
	if err := fillEvenCS(runs); err != nil {
		return "", err
	}
	if len(runs) == 0 {
		return "", fmt.Errorf("rotmnist: no results.json under %s", root)
	}
	var b []byte
	b = append(b, "| subset | model | seeds | CS | gap r | MSE ×1e-3 | next-frame MSE ×1e-3 | blank MSE ×1e-3 | index CS | evenly spaced CS | paper CS | paper MSE ×1e-3 | s/epoch |\n"...)
	b = append(b, "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n"...)
	for _, subset := range []string{"hawkes", "exp"} {
		for _, model := range []string{"node", "odernn", "strode", "strode-rnn"} {
			rs := runs[tableKey{subset, model}]
			if len(rs) == 0 {
				continue
			}
			col := func(f func(*Result) float64, scale float64, prec int) string {
				var xs []float64
				for _, r := range rs {
					xs = append(xs, scale*f(r))
				}
				m, sd := meanStd(xs)
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
			b = fmt.Appendf(b, "| %s | %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", subset, model, len(rs),
				col(func(r *Result) float64 { return r.Test.CS }, 1, 3),
				col(func(r *Result) float64 { return r.Test.GapR }, 1, 3),
				col(func(r *Result) float64 { return r.Test.MSE }, 1e3, 2),
				col(func(r *Result) float64 { return r.Test.NextMSE }, 1e3, 2),
				col(func(r *Result) float64 { return r.Test.BlankMSE }, 1e3, 2),
				col(func(r *Result) float64 { return r.Test.IndexCS }, 1, 3),
				col(func(r *Result) float64 { return r.Test.EvenCS }, 1, 3),
				paperCS, paperMSE,
				col(func(r *Result) float64 { return r.EpochSeconds }, 1, 1))
		}
	}
	return string(b), nil
}

// meanStd is the mean and the sample standard deviation (n−1).
func meanStd(xs []float64) (float64, float64) {
	m := 0.0
	for _, x := range xs {
		m += x
	}
	m /= float64(len(xs))
	if len(xs) < 2 {
		return m, 0
	}
	v := 0.0
	for _, x := range xs {
		v += (x - m) * (x - m)
	}
	return m, math.Sqrt(v / float64(len(xs)-1))
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// fillEvenCS computes the evenly spaced baseline (Score.EvenCS) for results
// written before it existed, from the data file each names (loaded once per
// file); results whose file is gone keep 0.
func fillEvenCS(runs map[tableKey][]*Result) error {
	cache := map[string]float64{}
	for _, rs := range runs {
		for _, r := range rs {
			if r.Test.EvenCS != 0 || r.DataFile == "" {
				continue
			}
			cs, ok := cache[r.DataFile]
			if !ok {
				if _, err := os.Stat(r.DataFile); err != nil {
					continue
				}
				d, err := Load(r.DataFile)
				if err != nil {
					return err
				}
				var angles [][]float64
				for v := 0; v < d.Test.Videos; v++ {
					angles = append(angles, d.Test.VideoAngles(v))
				}
				cs, _ = EvenCS(angles)
				cache[r.DataFile] = cs
			}
			r.Test.EvenCS = cs
		}
	}
	return nil
}
