package sine

import (
	"fmt"
	"io"
	"math"
	"math/rand"
	"strings"
	"time"

	"github.com/strode-asr/strode/acoustic/nn"
	"github.com/strode-asr/strode/acoustic/optim"
	"github.com/strode-asr/strode/acoustic/strode"
)

// Model names in the table and results.json.
const (
	ModelStrode  = "strode"
	ModelContext = "strode-context"
	ModelNODE    = "node"
	ModelIndex   = "index"
)

func modelList(s string) ([]string, error) {
	var out []string
	for _, v := range strings.Split(s, ",") {
		v = strings.TrimSpace(v)
		switch v {
		case ModelStrode, ModelContext, ModelNODE:
			out = append(out, v)
		case "":
		default:
			return nil, fmt.Errorf("sine: --models: unknown model %q (want strode, strode-context, node)", v)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("sine: --models is empty")
	}
	return out, nil
}

// Score is one model's test figures.
type Score struct {
	CS, GapR, MSE float64
	Inferred      [][]float64 // test-set inferred times
}

// Trained is a trained model with its timing figures.
type Trained struct {
	Model *strode.Sequential
	Score Score
	// EpochSeconds is the wall time per training epoch (without evaluation).
	EpochSeconds []float64
	// GraphNodes is the size of the training graph.
	GraphNodes int
}

// modelOptions are the strode options of the named model.
func modelOptions(o Options, name string) strode.SequentialOptions {
	m := o.Model
	m.Encoder = strode.EncoderPaper
	switch name {
	case ModelContext:
		m.Encoder = strode.EncoderContext
	case ModelNODE:
		m.UnitGaps = true
	}
	return m
}

func observations(values [][]float64, idx []int) [][][]float64 {
	out := make([][][]float64, len(idx))
	for k, s := range idx {
		seq := make([][]float64, len(values[s]))
		for i, v := range values[s] {
			seq[i] = []float64{v}
		}
		out[k] = seq
	}
	return out
}

// TrainModel trains one model on d with the given seed, drawing a progress
// bar per epoch on progress (nil: silent), and scores it on the test set.
// With o.Restarts > 1 a model that infers its gaps trains from o.Restarts
// initialisations (seed, then restartSeed(seed, r)) and keeps the one of
// the lowest validation MSE — a choice made without the true times. (Its
// optimum decides the timing: on sine, runs that end at a validation MSE
// near 0.02–0.03 reach gap r ≈ 0.7, runs near 0.06–0.1 stay at 0.4–0.55;
// the MSE after 5 of 20 epochs did not tell them apart reliably.)
func TrainModel(o Options, d Data, name string, seed int64, progress io.Writer) (*Trained, error) {
	k := o.Restarts
	if name == ModelNODE {
		k = 1
	}
	var best *trainer
	bestMSE := math.Inf(1)
	for r := 0; r < k; r++ {
		s := seed
		if r > 0 {
			s = restartSeed(seed, r)
		}
		t, err := newTrainer(o, d, name, s)
		if err != nil {
			return nil, err
		}
		for t.epoch < o.Epochs {
			if err := t.runEpoch(progress); err != nil {
				return nil, err
			}
		}
		if k == 1 {
			best = t
			break
		}
		val, err := evaluate(t.ev, d.Val)
		if err != nil {
			return nil, err
		}
		if progress != nil {
			fmt.Fprintf(progress, "%-14s seed %d start %d of %d (init seed %d): validation MSE %.4f\n", name, seed, r+1, k, s, val.MSE)
		}
		if val.MSE < bestMSE {
			best, bestMSE = t, val.MSE
		}
	}
	s, err := evaluate(best.ev, d.Test)
	if err != nil {
		return nil, err
	}
	best.res.Score = *s
	return best.res, nil
}

// restartSeed is the initialisation seed of start r > 0 of a model with
// the given seed: far from the seeds seed+1, seed+2, … of other runs.
func restartSeed(seed int64, r int) int64 { return seed + int64(r)*1000003 }

// trainer is one model in training: its graphs, optimiser, minibatch order
// and the epochs done.
type trainer struct {
	o      Options
	d      Data
	name   string
	seed   int64
	rng    *rand.Rand
	bt, ev *strode.Batch
	opt    *optim.Adam
	order  []int
	epoch  int
	res    *Trained
}

func newTrainer(o Options, d Data, name string, seed int64) (*trainer, error) {
	rng := rand.New(rand.NewSource(seed))
	m, err := strode.NewSequential(modelOptions(o, name), rng)
	if err != nil {
		return nil, err
	}
	bt, err := m.Build(o.BatchSize, o.Length, true)
	if err != nil {
		return nil, err
	}
	ev, err := m.Build(o.BatchSize, o.Length, false)
	if err != nil {
		return nil, err
	}
	t := &trainer{o: o, d: d, name: name, seed: seed, rng: rng, bt: bt, ev: ev, opt: optim.NewAdam(o.Adam),
		res: &Trained{Model: m, GraphNodes: bt.Net.NodeCount()}}
	t.order = make([]int, len(d.Train.Values))
	for i := range t.order {
		t.order[i] = i
	}
	return t, nil
}

// runEpoch trains one epoch and, with progress, reports it with the
// validation figures.
func (t *trainer) runEpoch(progress io.Writer) error {
	o, bt, name, seed := t.o, t.bt, t.name, t.seed
	t.epoch++
	epoch := t.epoch
	t.rng.Shuffle(len(t.order), func(i, j int) { t.order[i], t.order[j] = t.order[j], t.order[i] })
	nb := len(t.order) / o.BatchSize
	start := time.Now()
	var loss, mse, kl float64
	for b := 0; b < nb; b++ {
		idx := t.order[b*o.BatchSize : (b+1)*o.BatchSize]
		if err := bt.Set(observations(t.d.Train.Values, idx)); err != nil {
			return err
		}
		if err := bt.Run(); err != nil {
			return fmt.Errorf("sine: %s epoch %d batch %d: %w", name, epoch, b, err)
		}
		if err := optim.Check(bt.Params); err != nil {
			return fmt.Errorf("sine: %s epoch %d batch %d: %w", name, epoch, b, err)
		}
		t.opt.Step(bt.Params)
		for _, p := range bt.Params {
			if !p.InSignSet() { // the projection hook failed: never train on
				return fmt.Errorf("sine: %s epoch %d batch %d: %s left its sign set", name, epoch, b, p.Name)
			}
		}
		loss += nn.Scalar(bt.Loss)
		mse += nn.Scalar(bt.MSE)
		kl += nn.Scalar(bt.KL)
		if progress != nil && (b+1)*barWidth/nb != b*barWidth/nb {
			bar(progress, name, seed, epoch, o.Epochs, b+1, nb, loss/float64(b+1), mse/float64(b+1), kl/float64(b+1), "")
		}
	}
	t.res.EpochSeconds = append(t.res.EpochSeconds, time.Since(start).Seconds())
	if progress != nil {
		val, err := evaluate(t.ev, t.d.Val)
		if err != nil {
			return err
		}
		bar(progress, name, seed, epoch, o.Epochs, nb, nb, loss/float64(nb), mse/float64(nb), kl/float64(nb),
			fmt.Sprintf(" val mse %.4f cs %.3f gap r %.3f gaps %s %.1fs", val.MSE, val.CS, val.GapR, gapProfile(val.Inferred), t.res.EpochSeconds[epoch-1]))
		fmt.Fprintln(progress)
	}
	return nil
}

// evaluate runs the forward graph over a set and scores it.
func evaluate(ev *strode.Batch, set Set) (*Score, error) {
	var inferred [][]float64
	mse := 0.0
	nb := len(set.Values) / ev.B
	for b := 0; b < nb; b++ {
		idx := make([]int, ev.B)
		for i := range idx {
			idx[i] = b*ev.B + i
		}
		if err := ev.Set(observations(set.Values, idx)); err != nil {
			return nil, err
		}
		if err := ev.Run(); err != nil {
			return nil, err
		}
		mse += nn.Scalar(ev.MSE)
		inferred = append(inferred, ev.InferredTimes()...)
	}
	truth := set.Times[:len(inferred)]
	return &Score{CS: strode.CosineSimilarity(inferred, truth), GapR: strode.GapCorrelation(inferred, truth),
		MSE: mse / float64(nb), Inferred: inferred}, nil
}

// gapProfile is the mean inferred gap at each step 1 … n−1 over a set, as
// "g1/g2/… cv c" with c the mean over steps of the gaps' coefficient of
// variation within a step: it shows the time scale the model settled on and whether the
// boundary network's decreasing a(t) shrank the later gaps.
func gapProfile(times [][]float64) string {
	if len(times) == 0 || len(times[0]) < 2 {
		return "-"
	}
	n := len(times[0])
	var b strings.Builder
	// Spread of the gaps within each step, relative to the step's mean: 0
	// when the gaps do not depend on the data at all.
	cv := 0.0
	for i := 1; i < n; i++ {
		m, m2 := 0.0, 0.0
		for _, ts := range times {
			m += ts[i] - ts[i-1]
			m2 += (ts[i] - ts[i-1]) * (ts[i] - ts[i-1])
		}
		m /= float64(len(times))
		m2 /= float64(len(times))
		if m > 0 {
			cv += math.Sqrt(max(m2-m*m, 0)) / m / float64(n-1)
		}
		if i > 1 {
			b.WriteByte('/')
		}
		fmt.Fprintf(&b, "%.2g", m)
	}
	fmt.Fprintf(&b, " cv %.2f", cv)
	return b.String()
}

const barWidth = 20

// bar draws a one-line progress bar, overwritten in place with \r.
func bar(w io.Writer, name string, seed int64, epoch, epochs, done, total int, loss, mse, kl float64, tail string) {
	n := done * barWidth / total
	fmt.Fprintf(w, "\r%-14s seed %d epoch %2d/%d [%s%s] loss %.4f mse %.4f kl %.3f%s",
		name, seed, epoch, epochs, strings.Repeat("=", n), strings.Repeat(" ", barWidth-n), loss, mse, kl, tail)
}
