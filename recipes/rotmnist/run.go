package rotmnist

import (
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/strode-asr/strode/acoustic/strode"
	"github.com/strode-asr/strode/internal/atomicfile"
	"github.com/strode-asr/strode/recipes/compare"
)

// Paper is a figure of the STRODE paper's Table 1 (test set; CSStd 0 where
// the paper gives none).
type Paper struct {
	CS    float64 `json:"cs"`
	CSStd float64 `json:"cs_std,omitempty"`
	MSE3  float64 `json:"mse_x1e3"` // MSE ×1e-3
}

// PaperTable is Table 1 of the paper by subset and model.
var PaperTable = map[string]map[string]Paper{
	"hawkes": {"node": {0.907, 0, 6.66}, "odernn": {0.907, 0, 6.82}, "strode": {0.966, 0.007, 6.01}, "strode-rnn": {0.967, 0.012, 6.35}},
	"exp":    {"node": {0.923, 0, 7.69}, "odernn": {0.923, 0, 6.07}, "strode": {0.973, 0.003, 7.26}, "strode-rnn": {0.974, 0.005, 5.94}},
}

// Result is what one run writes to results.json.
type Result struct {
	Subset string `json:"subset"`
	Model  string `json:"model"`
	// Variant is the model's form (strode.Variant); "" in results written
	// before it was recorded, which were all the paper's.
	Variant   string  `json:"variant,omitempty"`
	Seed      int64   `json:"seed"`
	DataSeed  int64   `json:"data_seed"`
	DataFile  string  `json:"data_file"`
	Test      Score   `json:"test"`
	MSE3      float64 `json:"test_mse_x1e3"` // Test.MSE × 1e3, the paper's unit
	BestEpoch int     `json:"best_epoch"`
	History   []Epoch `json:"history"`
	// EpochSeconds is the median training time of an epoch.
	EpochSeconds float64 `json:"seconds_per_epoch"`
	TotalSeconds float64 `json:"total_seconds"`
	Paper        *Paper  `json:"paper,omitempty"`
	Settings     Options `json:"settings"`
}

// Name is the run's model as the table names it: the model for the
// paper's variant, MODEL-VARIANT for another (strode-phase-state).
func (r *Result) Name() string {
	if r.Variant == "" || r.Variant == string(strode.VariantPaper) {
		return r.Model
	}
	return r.Model + "-" + r.Variant
}

// Run trains o.Net.Model on o.Subset with seed o.Seed, prints the test
// figures on stdout and writes o.Out/results.json, o.Out/strip.png (and
// .svg) and o.Out/model.safetensors. The data set is generated once per
// (subset, data seed, data options) and kept in o.DataDir. Progress goes to
// stderr, epoch summaries through log (nil: stderr). With o.DataOnly it
// prints the data file's name and returns a nil Result.
func Run(o Options, stdout, stderr io.Writer, log func(format string, a ...any)) (*Result, error) {
	o.ApplyQuick()
	o.resolveVariant()
	if err := o.Validate(); err != nil {
		return nil, err
	}
	if log == nil {
		log = func(format string, a ...any) {
			if stderr != nil {
				fmt.Fprintf(stderr, format+"\n", a...)
			}
		}
	}
	start := time.Now()
	d, file, err := LoadOrGenerate(o.DataOptions, o.DataSeed, o.DataDir, log)
	if err != nil {
		return nil, err
	}
	if o.DataOnly {
		if stdout != nil {
			fmt.Fprintln(stdout, file)
		}
		return nil, nil
	}
	tr, err := Train(o, d, stderr, log)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return nil, fmt.Errorf("rotmnist: %w", err)
	}
	res := &Result{Subset: o.Subset, Model: o.Net.Model, Variant: string(o.Net.Variant), Seed: o.Seed, DataSeed: o.DataSeed, DataFile: file,
		Test: tr.Test, MSE3: 1e3 * tr.Test.MSE, BestEpoch: tr.BestEpoch, History: tr.History, Settings: o}
	var secs []float64
	for _, e := range tr.History {
		secs = append(secs, e.Seconds)
	}
	res.EpochSeconds = compare.Median(secs)
	if p, ok := PaperTable[o.Subset][res.Name()]; ok {
		res.Paper = &p
	}
	meta := map[string]string{"subset": o.Subset, "seed": fmt.Sprint(o.Seed), "data_seed": fmt.Sprint(o.DataSeed), "best_epoch": fmt.Sprint(tr.BestEpoch)}
	if err := tr.Model.Save(filepath.Join(o.Out, "model.safetensors"), meta); err != nil {
		return nil, err
	}
	note := fmt.Sprintf("CS %.3f (index %.3f, even %.3f), gap r %.3f", tr.Test.CS, tr.Test.IndexCS, tr.Test.EvenCS, tr.Test.GapR)
	var angles [][]float64
	for v := 0; v < len(tr.TestTimes); v++ {
		angles = append(angles, d.Test.VideoAngles(v))
	}
	if err := WriteStrip(filepath.Join(o.Out, "strip.png"), Strip{Title: fmt.Sprintf("%s, %s, seed %d", res.Name(), o.Subset, o.Seed),
		Note: note, Examples: tr.Examples, Inferred: tr.TestTimes, Angles: angles}); err != nil {
		return nil, err
	}
	res.TotalSeconds = time.Since(start).Seconds()
	js, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("rotmnist: %w", err)
	}
	if err := atomicfile.WriteBytes(filepath.Join(o.Out, "results.json"), append(js, '\n')); err != nil {
		return nil, fmt.Errorf("rotmnist: %w", err)
	}
	if stdout != nil {
		fmt.Fprintf(stdout, "rotmnist %s %s seed %d (ndf %d, %d epochs, best %d): test CS %.3f (index %.3f, evenly spaced %.3f), gap r %.3f, MSE %.2f×1e-3 (next frames %.2f, blank frames %.2f), %.1f s/epoch\n",
			o.Subset, res.Name(), o.Seed, o.Net.NDF, o.Epochs, tr.BestEpoch, tr.Test.CS, tr.Test.IndexCS, tr.Test.EvenCS, tr.Test.GapR,
			res.MSE3, 1e3*tr.Test.NextMSE, 1e3*tr.Test.BlankMSE, res.EpochSeconds)
	}
	return res, nil
}

// DataPath is the file in which LoadOrGenerate keeps the data set of o and
// seed in dir: SUBSET-seedN-CRC.rotmnist, CRC a checksum of the options
// (the MNIST folder aside), so that changed options never pick up a stale
// set.
func DataPath(o DataOptions, seed int64, dir string) string {
	o.MNISTDir = ""
	js, _ := json.Marshal(o) // plain fields: cannot fail
	return filepath.Join(dir, fmt.Sprintf("%s-seed%d-%08x.rotmnist", o.Subset, seed, crc32.ChecksumIEEE(js)))
}

// LoadOrGenerate returns the data set of o and seed kept in dir
// (DataPath), generating and saving it there first if it is not there yet;
// log (nil: silent) says when it generates.
func LoadOrGenerate(o DataOptions, seed int64, dir string, log func(format string, a ...any)) (*Dataset, string, error) {
	path := DataPath(o, seed, dir)
	if _, err := os.Stat(path); err == nil {
		d, err := Load(path)
		return d, path, err
	}
	if log != nil {
		log("generating the %s data (%d/%d/%d videos, data seed %d) into %s", o.Subset, o.NumTrain, o.NumVal, o.NumTest, seed, path)
	}
	d, err := GenerateFromDir(o, seed)
	if err != nil {
		return nil, "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, "", fmt.Errorf("rotmnist: %w", err)
	}
	return d, path, d.Save(path)
}
