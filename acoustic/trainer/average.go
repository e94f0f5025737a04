package trainer

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/strode-asr/strode/acoustic/am"
	"github.com/strode-asr/strode/acoustic/modelfile"
	"github.com/strode-asr/strode/acoustic/optim"
)

// Model averaging (nnet3-average's counterpart) for data-parallel training:
// N jobs start from the same model, each trains on its own shard, and the
// next iteration starts from the elementwise mean of their parameters.
//
// The optimizer state is averaged too. nnet3 trains with plain SGD (natural
// gradient, momentum within a job at most), so no optimizer state outlives
// a job there. Our jobs use Adam, whose second moments v set the step size
// of every parameter: a job that started from zero moments would take
// bias-corrected steps of size ≈ lr·sign(g) on its first minibatches of
// every iteration, whatever the gradients' scale. So each job's model file
// carries its Adam state (optim.adam.m.*, optim.adam.v.*, optim.adam.t, the
// names of strode train's checkpoints), and Average averages m and v
// elementwise like the parameters and takes the rounded mean of the step
// counts t. Each job's v estimates E[g²] on its shard; their mean estimates
// it on all the shards of the iteration, which is what the next iteration's
// jobs (on other shards) need. With one job, averaging is the identity, so
// training with N = 1 carries Adam's state through the iterations exactly
// as one long run does. SGD's momentum buffers (optim.sgd.u.*) are averaged
// the same way.
//
// The mean of models in a parameter's sign set (DESIGN.md §3: Φ's weights
// ≤ 0, the prior's ≥ 0) is in it too: the sets are convex.

// IterationStatsKey is the metadata key under which a job's model (and an
// average of such models) records its IterationStats.
const IterationStatsKey = "train_iter"

// adamStepTensor is the tensor holding Adam's step count t.
const adamStepTensor = "optim.adam.t"

// ErrIncompatible is wrapped by errors about models that cannot be averaged.
var ErrIncompatible = errors.New("models cannot be averaged")

// Average returns the elementwise mean of the models' parameters and of
// their optimizer state (see the comment above), with the first model's
// options, pipeline, history and metadata, and the jobs' IterationStats
// combined. names name the models in errors (len(names) == len(files)).
// Every model must have the same options, pipeline and tensors.
func Average(files []*am.File, names []string) (*am.File, error) {
	if len(files) == 0 {
		return nil, fmt.Errorf("trainer: average of no models")
	}
	if len(names) != len(files) {
		return nil, fmt.Errorf("trainer: %d names for %d models", len(names), len(files))
	}
	ref := files[0]
	for i, f := range files[1:] {
		if err := compatible(ref, f, names[0], names[i+1]); err != nil {
			return nil, err
		}
	}
	m, err := am.New(ref.Model.Opts, 0)
	if err != nil {
		return nil, err
	}
	for i, p := range m.Params.List {
		srcs := make([][]float64, len(files))
		for k, f := range files {
			srcs[k] = f.Model.Params.List[i].Data
		}
		mean(p.Data, srcs)
	}
	optim.ProjectSigns(m.Params.List) // a no-op but for rounding: the sign sets are convex
	out := &am.File{Model: m, Pipeline: ref.Pipeline, History: append([]am.Epoch(nil), ref.History...), Extra: map[string]string{}}
	for k, v := range ref.Extra {
		if k != IterationStatsKey {
			out.Extra[k] = v
		}
	}
	for i, t := range ref.Tensors {
		a := modelfile.Tensor{Name: t.Name, DType: modelfile.F64, Shape: append([]int(nil), t.Shape...), Data: make([]float64, len(t.Data))}
		srcs := make([][]float64, len(files))
		for k, f := range files {
			srcs[k] = f.Tensors[i].Data
		}
		mean(a.Data, srcs)
		if t.Name == adamStepTensor {
			for j := range a.Data {
				a.Data[j] = math.Round(a.Data[j])
			}
		}
		out.Tensors = append(out.Tensors, a)
	}
	if st, ok, err := combineStats(files, names); err != nil {
		return nil, err
	} else if ok {
		b, _ := json.Marshal(st)
		out.Extra[IterationStatsKey] = string(b)
	}
	return out, nil
}

// AverageFiles loads the model files at paths and averages them.
func AverageFiles(paths []string) (*am.File, error) {
	files := make([]*am.File, len(paths))
	for i, p := range paths {
		f, err := am.Load(p)
		if err != nil {
			return nil, err
		}
		files[i] = f
	}
	return Average(files, paths)
}

// mean sets dst to the mean of srcs as srcs[0] + Σ_k (srcs[k] − srcs[0])/K:
// exactly srcs[0] when the models agree (averaging copies of a model is the
// identity, bit for bit), and accurate when they differ a little, as jobs
// that started from one model do.
func mean(dst []float64, srcs [][]float64) {
	k := float64(len(srcs))
	base := srcs[0]
	for j := range dst {
		var d float64
		for _, s := range srcs[1:] {
			d += s[j] - base[j]
		}
		dst[j] = base[j] + d/k
	}
}

// compatible checks that f can be averaged with ref.
func compatible(ref, f *am.File, refName, name string) error {
	if a, b := ref.Model.Opts.JSON(), f.Model.Opts.JSON(); a != b {
		return fmt.Errorf("trainer: %w: %s has model options %s, %s has %s", ErrIncompatible, name, b, refName, a)
	}
	if a, b := ref.Pipeline.JSON(), f.Pipeline.JSON(); a != b {
		return fmt.Errorf("trainer: %w: %s has feature pipeline %s, %s has %s", ErrIncompatible, name, b, refName, a)
	}
	if len(ref.Tensors) != len(f.Tensors) {
		return fmt.Errorf("trainer: %w: %s has %d optimizer-state tensors, %s has %d (different optimizers?)", ErrIncompatible, name, len(f.Tensors), refName, len(ref.Tensors))
	}
	for i, t := range ref.Tensors {
		u := f.Tensors[i]
		if u.Name != t.Name || len(u.Data) != len(t.Data) || fmt.Sprint(u.Shape) != fmt.Sprint(t.Shape) {
			return fmt.Errorf("trainer: %w: tensor %d is %s %v in %s but %s %v in %s", ErrIncompatible, i, u.Name, u.Shape, name, t.Name, t.Shape, refName)
		}
	}
	return nil
}

// IterationStats is what one job of an iteration of data-parallel training
// did (RunIteration), or, combined by Average, what all of them did.
type IterationStats struct {
	Iter         int     `json:"iter"`
	Jobs         int     `json:"jobs"`          // 1 for a job's model; the number of models averaged
	Job          int     `json:"job,omitempty"` // the job (1-based) of a job's model
	Minibatches  int     `json:"minibatches"`   // summed over the jobs
	Frames       int     `json:"frames"`        // summed over the jobs
	LearningRate float64 `json:"learning_rate"` // each job's rate
	TrainCE      float64 `json:"train_ce"`      // per frame, over the minibatches as they were trained
	TrainAcc     float64 `json:"train_acc"`
	Seconds      float64 `json:"seconds"` // the slowest job's
}

// IterationStatsOf returns the IterationStats recorded in f (ok false when
// there are none).
func IterationStatsOf(f *am.File) (st IterationStats, ok bool, err error) {
	s, ok := f.Extra[IterationStatsKey]
	if !ok {
		return st, false, nil
	}
	if err := json.Unmarshal([]byte(s), &st); err != nil {
		return st, false, fmt.Errorf("trainer: metadata %s: %w", IterationStatsKey, err)
	}
	return st, true, nil
}

// combineStats sums the jobs' statistics (frame-weighted CE and accuracy);
// ok is false when no model has any.
func combineStats(files []*am.File, names []string) (IterationStats, bool, error) {
	var out IterationStats
	var ce, correct float64
	found := false
	for i, f := range files {
		st, ok, err := IterationStatsOf(f)
		if err != nil {
			return out, false, fmt.Errorf("%s: %w", names[i], err)
		}
		if !ok {
			continue
		}
		found = true
		out.Iter, out.LearningRate = st.Iter, st.LearningRate
		out.Jobs += max(st.Jobs, 1)
		out.Minibatches += st.Minibatches
		out.Frames += st.Frames
		ce += st.TrainCE * float64(st.Frames)
		correct += st.TrainAcc * float64(st.Frames)
		out.Seconds = math.Max(out.Seconds, st.Seconds)
	}
	if out.Frames > 0 {
		out.TrainCE, out.TrainAcc = ce/float64(out.Frames), correct/float64(out.Frames)
	}
	return out, found, nil
}

// WithoutOptimizerState returns a copy of f without the optimizer state and
// the iteration statistics: the model as forward and decoding use it.
func WithoutOptimizerState(f *am.File) *am.File {
	g := *f
	g.Tensors = nil
	g.Extra = map[string]string{}
	for k, v := range f.Extra {
		if k != IterationStatsKey {
			g.Extra[k] = v
		}
	}
	return &g
}
