package sine

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"

	"github.com/strode-asr/strode/acoustic/strode"
	"github.com/strode-asr/strode/internal/atomicfile"
	"github.com/strode-asr/strode/recipes/compare"
)

// paperCS are the paper's CS figures for STRODE, printed for reference.
var paperCS = map[string]float64{"poisson": 0.964, "hawkes": 0.979}

// Summary is mean and standard deviation over seeds of each figure.
type Summary struct {
	CS      float64  `json:"cs"`
	CSStd   *float64 `json:"cs_std,omitempty"`
	GapR    float64  `json:"gap_r"`
	GapRStd *float64 `json:"gap_r_std,omitempty"`
	MSE     *float64 `json:"mse"` // null for the index baseline (it predicts nothing)
	MSEStd  *float64 `json:"mse_std,omitempty"`
	PerSeed []Score  `json:"-"`
	// Seeds are the figures of every seed (seed, seed+1, …) behind the
	// mean and std.
	Seeds    []SeedFigures `json:"per_seed,omitempty"`
	EpochSec float64       `json:"seconds_per_epoch,omitempty"` // median over seeds and epochs
}

// SeedFigures are one seed's test figures (MSE null for the index baseline).
type SeedFigures struct {
	Seed int64    `json:"seed"`
	CS   float64  `json:"cs"`
	GapR float64  `json:"gap_r"`
	MSE  *float64 `json:"mse"`
}

// Results is what Run computed, keyed by model name.
type Results map[string]*Summary

// Run trains every model for every seed, prints the table on stdout and
// writes Out/results.json and Out/scatter.png (and .svg); progress goes to stderr.
func Run(o Options, stdout, stderr io.Writer) (Results, error) {
	o.applyQuick()
	if err := o.Validate(); err != nil {
		return nil, err
	}
	models, _ := modelList(o.Models)
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return nil, fmt.Errorf("sine: %w", err)
	}
	scores := map[string][]Score{}
	secs := map[string][]float64{}
	var first map[string][][]float64
	var firstTruth [][]float64
	for k := 0; k < o.Seeds; k++ {
		seed := o.Seed + int64(k)
		d := Generate(o, seed)
		idx := make([][]float64, len(d.Test.Times))
		for s := range idx {
			idx[s] = make([]float64, o.Length)
			for i := range idx[s] {
				idx[s][i] = float64(i)
			}
		}
		scores[ModelIndex] = append(scores[ModelIndex], Score{
			CS: strode.CosineSimilarity(idx, d.Test.Times), GapR: strode.GapCorrelation(idx, d.Test.Times), MSE: math.NaN()})
		if k == 0 {
			first = map[string][][]float64{}
			firstTruth = d.Test.Times
		}
		for _, v := range models {
			tr, err := TrainModel(o, d, v, seed, stderr)
			if err != nil {
				return nil, err
			}
			meta := map[string]string{"model": v, "seed": fmt.Sprint(seed), "process": o.Process}
			if js, err := json.Marshal(modelOptions(o, v)); err == nil {
				meta["options"] = string(js)
			}
			if err := tr.Model.Save(filepath.Join(o.Out, fmt.Sprintf("%s.seed%d.safetensors", v, seed)), meta); err != nil {
				return nil, err
			}
			sc := tr.Score
			scores[v] = append(scores[v], sc)
			secs[v] = append(secs[v], tr.EpochSeconds...)
			if k == 0 {
				first[v] = sc.Inferred
			}
		}
	}
	res := Results{}
	for v, ss := range scores {
		res[v] = summarise(ss, o.Seeds > 1)
		res[v].EpochSec = compare.Median(secs[v])
		for k, sc := range ss {
			f := SeedFigures{Seed: o.Seed + int64(k), CS: sc.CS, GapR: sc.GapR}
			if !math.IsNaN(sc.MSE) {
				mse := sc.MSE
				f.MSE = &mse
			}
			res[v].Seeds = append(res[v].Seeds, f)
		}
	}
	printTable(stdout, o, models, res)
	if err := writeJSON(filepath.Join(o.Out, "results.json"), o, res); err != nil {
		return nil, err
	}
	var panels []Panel
	for _, v := range []string{ModelStrode, ModelContext} {
		if inf, ok := first[v]; ok {
			pn := Panel{Name: v, Inferred: inf, Truth: firstTruth}
			if sd := res[v].Seeds; len(sd) > 0 {
				pn.Note = fmt.Sprintf("seed %d: CS %.3f, gap r %.3f", sd[0].Seed, sd[0].CS, sd[0].GapR)
			}
			panels = append(panels, pn)
		}
	}
	if len(panels) > 0 {
		if err := WriteScatter(filepath.Join(o.Out, "scatter.png"), panels); err != nil {
			return nil, err
		}
	}
	return res, nil
}

func summarise(ss []Score, withStd bool) *Summary {
	get := func(f func(Score) float64) (float64, *float64) {
		var xs []float64
		for _, s := range ss {
			xs = append(xs, f(s))
		}
		m, sd := compare.MeanSD(xs)
		if !withStd {
			return m, nil
		}
		return m, &sd
	}
	s := &Summary{PerSeed: ss}
	s.CS, s.CSStd = get(func(s Score) float64 { return s.CS })
	s.GapR, s.GapRStd = get(func(s Score) float64 { return s.GapR })
	if m, sd := get(func(s Score) float64 { return s.MSE }); !math.IsNaN(m) {
		s.MSE, s.MSEStd = &m, sd
	}
	return s
}

func cell(m float64, sd *float64, prec int) string {
	if sd == nil {
		return fmt.Sprintf("%.*f", prec, m)
	}
	return fmt.Sprintf("%.*f ± %.*f", prec, m, prec, *sd)
}

func printTable(w io.Writer, o Options, models []string, res Results) {
	fmt.Fprintf(w, "sine %s, %d seed(s) from %d, %d epochs, ode-hidden %d\n", o.Process, o.Seeds, o.Seed, o.Epochs, o.Model.ODEHidden)
	fmt.Fprintf(w, "%-16s %-18s %-18s %-20s %s\n", "model", "CS", "gap r", "MSE", "s/epoch")
	for _, v := range append(models, ModelIndex) {
		s := res[v]
		mse := "—"
		if s.MSE != nil {
			mse = cell(*s.MSE, s.MSEStd, 5)
		}
		sec := "—"
		if s.EpochSec > 0 {
			sec = fmt.Sprintf("%.2f", s.EpochSec)
		}
		fmt.Fprintf(w, "%-16s %-18s %-18s %-20s %s\n", v, cell(s.CS, s.CSStd, 3), cell(s.GapR, s.GapRStd, 3), mse, sec)
	}
	fmt.Fprintf(w, "%-16s %-18s %-18s %-20s %s\n", "paper STRODE", fmt.Sprintf("%.3f", paperCS[o.Process]), "—", "—", "(reference)")
}

// writeJSON writes results.json atomically (temporary file + rename).
func writeJSON(path string, o Options, res Results) error {
	out := map[string]any{}
	for k, v := range res {
		out[k] = v
	}
	out["settings"] = o
	out["paper_cs"] = paperCS[o.Process]
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return fmt.Errorf("sine: %s: %w", path, err)
	}
	return writeAtomic(path, append(b, '\n'))
}

func writeAtomic(path string, data []byte) error {
	if err := atomicfile.WriteBytes(path, data); err != nil {
		return fmt.Errorf("sine: %w", err)
	}
	return nil
}
