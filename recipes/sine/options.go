package sine

import (
	"flag"
	"fmt"

	"github.com/strode-asr/strode/acoustic/optim"
	"github.com/strode-asr/strode/acoustic/strode"
)

// Options configures the recipe; the defaults are the paper's.
type Options struct {
	Process   string  // "poisson" or "hawkes"
	Seed      int64   // first seed
	Seeds     int     // number of seeds Seed, Seed+1, …
	Out       string  // output directory
	Epochs    int     // training epochs
	BatchSize int     // sequences per minibatch
	Train     int     // training sequences
	Val       int     // validation sequences
	Test      int     // test sequences
	Length    int     // observations per sequence
	Rate      float64 // Poisson rate λ
	Mu        float64 // Hawkes base rate μ
	Alpha     float64 // Hawkes branching ratio α
	Beta      float64 // Hawkes decay β
	Noise     float64 // amplitude of the U[0,1) noise
	Models    string  // comma-separated models to train
	// Restarts is the number of initialisations a model that infers its
	// gaps trains from; the one with the lowest validation MSE is kept
	// (TrainModel).
	Restarts int
	Quick    bool // small data and 2 epochs, for tests and smoke runs
	Model    strode.SequentialOptions
	Adam     optim.AdamOptions
}

// DefaultOptions are the paper's data, epochs and batch size with the
// timing-identifiable model: --variant phase-state, an encoder of 3 × 32
// (the paper's 2 × 8 ended in a worse optimum more often), w_kl 1e-3 (at
// the paper's 1e-7 the prior cannot tell a first gap inflated by half a
// turn from the others), Adam at 1e-3 and 3 starts per model (RESULTS.md).
// PaperModel sets the published model.
func DefaultOptions() Options {
	o := Options{Process: "poisson", Seed: 1, Seeds: 1, Out: "exp/sine", Epochs: 20, BatchSize: 50,
		Train: 5000, Val: 100, Test: 100, Length: 10, Rate: 10, Mu: 10, Alpha: 0.5, Beta: 1, Noise: 0.1,
		Models: "strode,strode-context,node", Restarts: 3,
		Model: strode.DefaultSequentialOptions(), Adam: optim.DefaultAdamOptions()}
	o.Model.Variant, o.Model.EncHidden, o.Model.EncLayers = strode.VariantPhaseState, 32, 3
	o.Model.WKL = 1e-3
	o.Adam.LearningRate = 1e-3
	return o
}

// PaperModel sets the model and training of DESIGN.md §3 as published
// (--variant paper, the paper's encoder of 2 × 8, w_kl 1e-7, Adam at 3e-4,
// one start), leaving the options for which set reports true as they are:
// the command line's --variant paper means the published model unless
// --enc-hidden, --enc-layers, --w-kl, --learning-rate or --restarts say
// otherwise.
func (o *Options) PaperModel(set func(flag string) bool) {
	o.Model.Variant = strode.VariantPaper
	if !set("enc-hidden") {
		o.Model.EncHidden = 8
	}
	if !set("enc-layers") {
		o.Model.EncLayers = 2
	}
	if !set("w-kl") {
		o.Model.WKL = 1e-7
	}
	if !set("learning-rate") {
		o.Adam.LearningRate = 3e-4
	}
	if !set("restarts") {
		o.Restarts = 1
	}
}

// Register adds every option to fs.
func (o *Options) Register(fs *flag.FlagSet) {
	fs.StringVar(&o.Process, "process", o.Process, "point process of the observation times: poisson or hawkes")
	fs.Int64Var(&o.Seed, "seed", o.Seed, "first random seed (data, initialisation, shuffling)")
	fs.IntVar(&o.Seeds, "seeds", o.Seeds, "number of seeds to run (seed, seed+1, ...); the table gives mean ± std")
	fs.StringVar(&o.Out, "out", o.Out, "output directory for results.json and scatter.png/.svg")
	fs.IntVar(&o.Epochs, "epochs", o.Epochs, "training epochs")
	fs.IntVar(&o.BatchSize, "batch-size", o.BatchSize, "sequences per minibatch")
	fs.IntVar(&o.Train, "num-train", o.Train, "training sequences")
	fs.IntVar(&o.Val, "num-val", o.Val, "validation sequences")
	fs.IntVar(&o.Test, "num-test", o.Test, "test sequences")
	fs.IntVar(&o.Length, "length", o.Length, "observations per sequence")
	fs.Float64Var(&o.Rate, "poisson-rate", o.Rate, "Poisson rate lambda")
	fs.Float64Var(&o.Mu, "hawkes-mu", o.Mu, "Hawkes base rate mu")
	fs.Float64Var(&o.Alpha, "hawkes-alpha", o.Alpha, "Hawkes branching ratio alpha")
	fs.Float64Var(&o.Beta, "hawkes-beta", o.Beta, "Hawkes kernel decay beta")
	fs.Float64Var(&o.Noise, "noise", o.Noise, "amplitude of the uniform noise added to every value but the first")
	fs.StringVar(&o.Models, "models", o.Models, "models to train: comma-separated from strode, strode-context, node")
	fs.IntVar(&o.Restarts, "restarts", o.Restarts, "initialisations each model that infers its gaps trains from; the one with the lowest validation MSE is kept (1: one)")
	fs.BoolVar(&o.Quick, "quick", o.Quick, "quick run: 250/50/50 sequences and 2 epochs (for tests)")
	o.Model.Register(fs)
	o.Adam.Register(fs)
}

// applyQuick shrinks the run for --quick.
func (o *Options) applyQuick() {
	if o.Quick {
		o.Train, o.Val, o.Test, o.Epochs = 250, 50, 50, 2
	}
}

// Validate checks the options.
func (o Options) Validate() error {
	if o.Process != "poisson" && o.Process != "hawkes" {
		return fmt.Errorf("sine: --process=%q: want poisson or hawkes", o.Process)
	}
	if o.Seeds < 1 || o.Epochs < 1 || o.BatchSize < 1 || o.Length < 2 || o.Restarts < 1 {
		return fmt.Errorf("sine: --seeds, --epochs, --batch-size, --restarts must be ≥ 1 and --length ≥ 2")
	}
	for _, n := range []int{o.Train, o.Val, o.Test} {
		if n < o.BatchSize || n%o.BatchSize != 0 {
			return fmt.Errorf("sine: set sizes %d/%d/%d must be positive multiples of --batch-size=%d", o.Train, o.Val, o.Test, o.BatchSize)
		}
	}
	if !(o.Rate > 0) {
		return fmt.Errorf("sine: --poisson-rate=%v must be > 0", o.Rate)
	}
	if _, err := modelList(o.Models); err != nil {
		return err
	}
	m := o.Model
	m.Encoder = strode.EncoderPaper
	return m.Validate()
}
