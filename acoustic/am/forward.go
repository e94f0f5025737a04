package am

import (
	"flag"
	"fmt"
	"math"

	"github.com/strode-asr/strode/acoustic/nn"
)

// Forwarder runs a model on one utterance at a time, as nnet-forward does,
// keeping the graphs of the most recent (rounded-up) lengths.
type Forwarder struct {
	Model   *Model
	Quantum int // lengths are rounded up to a multiple of this (default 50)
	graphs  *GraphCache
}

// NewForwarder returns a forwarder for m.
func NewForwarder(m *Model) *Forwarder {
	return &Forwarder{Model: m, Quantum: 50, graphs: NewGraphCache(32)}
}

// Run evaluates the model on u and returns the graph after the run (valid
// until the next Run): Output(0, …) gives
// the logits, Rows(TTilde, 0) the boundaries, u.Rows rows each, frame
// t's row computed at frame t+TargetDelay (delay.go).
func (f *Forwarder) Run(u *Utterance) (*Batch, error) {
	if u.Rows == 0 {
		return nil, fmt.Errorf("am: utterance %s has no frames", u.Key)
	}
	if len(u.Feats)%u.Rows != 0 || u.inputDim() != f.Model.Opts.InputDim {
		return nil, fmt.Errorf("am: utterance %s: %d values for %d frames, the model takes dimension %d",
			u.Key, len(u.Feats), u.Rows, f.Model.Opts.InputDim)
	}
	delay := f.Model.Opts.TargetDelay
	u, err := delayed(u, delay)
	if err != nil {
		return nil, err
	}
	t := (u.Rows + f.Quantum - 1) / f.Quantum * f.Quantum
	g, err := f.graphs.Get(GraphKey{T: t, B: 1, Mode: Infer}, func() (*Batch, error) { return f.Model.Build(t, 1, Infer) })
	if err != nil {
		return nil, err
	}
	if err := g.Load([]*Utterance{u}, nil); err != nil {
		return nil, err
	}
	g.lead = delay // Output and Rows skip the first delay rows
	if err := g.Run(); err != nil {
		return nil, fmt.Errorf("am: utterance %s: %w", u.Key, err)
	}
	return g, nil
}

// Logits are the pre-softmax outputs (Rows × NumPdfs).
func (f *Forwarder) Logits(u *Utterance) ([]float64, error) {
	g, err := f.Run(u)
	if err != nil {
		return nil, err
	}
	return g.Output(0, nil), nil
}

// Close releases the graphs.
func (f *Forwarder) Close() { f.graphs.Close() }

// OutputOptions are nnet-forward's output options.
type OutputOptions struct {
	NoSoftmax bool // --no-softmax: the pre-softmax activations
	ApplyLog  bool // --apply-log: log-posteriors
}

// Register adds the options with nnet-forward's names.
func (o *OutputOptions) Register(fs *flag.FlagSet) {
	fs.BoolVar(&o.NoSoftmax, "no-softmax", o.NoSoftmax, "Removes the last component with Softmax, if found. The pre-softmax activations are the output of the network. Decoding them leads to the same lattices as if we had used 'log-posteriors'.")
	fs.BoolVar(&o.ApplyLog, "apply-log", o.ApplyLog, "Transform NN output by log()")
}

// Validate rejects --apply-log with --no-softmax, as nnet-forward does.
func (o OutputOptions) Validate() error {
	if o.NoSoftmax && o.ApplyLog {
		return fmt.Errorf("am: cannot use both --apply-log=true --no-softmax=true, use only one of the two")
	}
	return nil
}

// Apply turns logits (rows × p) into the requested output in dst: softmax
// probabilities by default, log-softmax with ApplyLog, the logits with
// NoSoftmax.
func (o OutputOptions) Apply(logits []float64, p int, dst []float32) []float32 {
	dst = append(dst[:0], make([]float32, len(logits))...)
	row := make([]float64, p)
	for r := 0; r < len(logits)/p; r++ {
		l := logits[r*p : (r+1)*p]
		d := dst[r*p : (r+1)*p]
		if o.NoSoftmax {
			for j, v := range l {
				d[j] = float32(v)
			}
			continue
		}
		nn.LogSoftmax(row, l)
		for j, v := range row {
			if o.ApplyLog {
				d[j] = float32(v)
			} else {
				d[j] = float32(math.Exp(v))
			}
		}
	}
	return dst
}
