package am

import (
	"fmt"
	"math"
	"math/rand"

	"gorgonia.org/gorgonia"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/nn"
	"github.com/strode-asr/strode/acoustic/optim"
	"github.com/strode-asr/strode/acoustic/sru"
	"github.com/strode-asr/strode/features"
)

// Utterance is one utterance's input features (Rows × dim, row-major, after
// the feature pipeline) and, for training, its pdf-id per frame.
type Utterance struct {
	Key     string
	Rows    int
	Feats   []float32
	Targets []int32 // nil when unknown
	// Context, when not zero, says Feats are the frames before splicing
	// (Rows × the raw dimension) and how many frames of left and right
	// context the model's input takes: Batch.Load splices them as it fills
	// the minibatch (edges repeat the first and last frame, as Kaldi's
	// splice-feats), so a training set is held at its own size rather than
	// (1 + left + right) times it.
	Context [2]int

	// Training only, from a frozen teacher model (acoustic/trainer's
	// teachers): PriorIn is its encoder output per frame (Rows ×
	// Options.PriorInputDim), what a teacher prior reads instead of
	// x_{i+1}; Soft its posteriors (Rows × NumPdfs), the soft targets of
	// distillation (TrainTerms.Distill). nil when not used.
	PriorIn, Soft []float32
}

// Spliced returns u with its features spliced as Batch.Load splices them
// (u itself when they are).
func (u *Utterance) Spliced() (*Utterance, error) {
	if u.Context == [2]int{} {
		return u, nil
	}
	if u.Rows == 0 || len(u.Feats)%u.Rows != 0 {
		return nil, fmt.Errorf("am: utterance %s: %d values for %d frames", u.Key, len(u.Feats), u.Rows)
	}
	f, err := features.SpliceFrames(u.Feats, u.Rows, len(u.Feats)/u.Rows, u.Context[0], u.Context[1])
	if err != nil {
		return nil, fmt.Errorf("am: utterance %s: %w", u.Key, err)
	}
	v := *u
	v.Feats, v.Context = f, [2]int{}
	return &v, nil
}

// inputDim is the dimension of u's rows as the model sees them.
func (u *Utterance) inputDim() int {
	if u.Rows == 0 {
		return 0
	}
	return len(u.Feats) / u.Rows * (1 + u.Context[0] + u.Context[1])
}

// Mode says what a Batch graph computes.
type Mode int

const (
	Infer Mode = iota // logits (and t̃) only
	Eval              // + the loss terms
	Train             // + gradients, dropout
)

// Batch is a model's graph for up to B utterances of up to T frames, built
// once and run for every minibatch of that shape. Rows are time-major: row
// t·B + b is frame t of utterance b.
type Batch struct {
	T, B int
	Mode Mode

	Logits *autodiff.Node // N×P; nil where the output layer is fused with the loss (Output reads the logits then)
	Enc    *autodiff.Node // N×H encoder output e (what the output layer reads: odernn's decoder, dnn's last hidden layer)
	TTilde *autodiff.Node // N×1 t̃ (strode only)
	HTilde *autodiff.Node // N×S h̃ (strode only)
	Loss   *autodiff.Node // scalar (Eval, Train)
	CE     *autodiff.Node // scalar: mean cross-entropy per frame
	KL     *autodiff.Node // scalar: mean KL term (strode)
	LogP   *autodiff.Node // scalar: mean log N(h̃; μ, σ²) per dimension (strode)
	// Latency is mean t̃ over the frames, the look-ahead's price
	// (--head-variant=lookahead; nil otherwise).
	Latency *autodiff.Node

	model   *Model
	xent    *affineXent // the fused output layer and loss (Train, Eval in float32), or nil
	net     *nn.Net
	machine *autodiff.Machine
	params  []*optim.Param
	frames  int

	x, xnext, mask, maskw, target []float64
	soft                          []float64      // N×P teacher posteriors (distillation), or nil
	drops                         []*sru.Dropout // of every SRU stack (nil entries: none)
	lengths                       []int
	lead                          int // rows skipped by Output and Rows (target delay; set by Forwarder.Run)
}

// Build returns the graph for batches of b utterances of t frames.
func (m *Model) Build(t, b int, mode Mode) (*Batch, error) {
	return m.BuildWith(t, b, mode, TrainTerms{})
}

// BuildSmoothed is Build with label smoothing ε of the cross-entropy
// (xentOp): the targets (1−ε)·onehot + ε/P.
func (m *Model) BuildSmoothed(t, b int, mode Mode, smoothing float64) (*Batch, error) {
	return m.BuildWith(t, b, mode, TrainTerms{Smoothing: smoothing})
}

// TrainTerms change the cross-entropy's targets of a training graph
// (xentOp): label smoothing ε gives (1−ε)·onehot + ε/P, distillation λ
// (1−λ)·that + λ·q with q a teacher's posteriors per frame
// (Utterance.Soft, which Load then requires). Zero values: the plain
// cross-entropy.
type TrainTerms struct {
	Smoothing float64 // --label-smoothing
	Distill   float64 // --distill-weight
}

// BuildWith is Build with the training terms tt.
func (m *Model) BuildWith(t, b int, mode Mode, tt TrainTerms) (*Batch, error) {
	if t < 1 || b < 1 {
		return nil, fmt.Errorf("am: batch %d×%d", t, b)
	}
	if tt.Distill < 0 || tt.Distill > 1 || tt.Smoothing < 0 || tt.Smoothing >= 1 {
		return nil, fmt.Errorf("am: distillation weight %g outside [0, 1] or label smoothing %g outside [0, 1)", tt.Distill, tt.Smoothing)
	}
	smoothing := tt.Smoothing
	o := m.Opts
	n := t * b
	net := nn.NewNet()
	bt := &Batch{T: t, B: b, Mode: mode, model: m, net: net}
	var xn, maskn *autodiff.Node
	xn, bt.x = net.Input("x", n, o.InputDim)
	maskn, bt.mask = net.Input("mask", n, 1)
	ly, err := m.arch.layers(net, xn, maskn, t, b, mode)
	if err != nil {
		return nil, err
	}
	bt.Enc, bt.TTilde, bt.HTilde, bt.drops = ly.enc, ly.ttilde, ly.htilde, ly.drops
	// The output layer is the largest product after the SRU's (H×P with
	// thousands of pdfs): float32 through internal/gemm as well.
	in := ly.enc
	if ly.outIn != nil {
		in = ly.outIn
	}
	outX := append([]*autodiff.Node{in}, ly.more...)
	outW := append([]*optim.Param{m.Out.W}, ly.moreW...)
	// Training and evaluation in float32 fuse the output layer with the
	// cross-entropy (affineXent): no float64 logits, no float64 gradient.
	fused := mode != Infer && sru.Float32Products
	if !fused {
		var err error
		if bt.Logits, err = sru.AffineSum(net, outX, outW, m.Out.B); err != nil {
			return nil, err
		}
	}
	if mode != Infer {
		var maskwn, targetn *autodiff.Node
		maskwn, bt.maskw = net.Input("maskw", n, 1)
		targetn, bt.target = net.Input("target", n, 1)
		data := []*autodiff.Node{targetn, maskwn}
		if tt.Distill != 0 {
			var softn *autodiff.Node
			softn, bt.soft = net.Input("soft", n, o.NumPdfs)
			data = append(data, softn)
		}
		var ce *autodiff.Node
		if fused {
			bt.xent = newAffineXent(smoothing, tt.Distill)
			in := make([]*autodiff.Node, 0, 2*len(outX)+4)
			for i, x := range outX {
				in = append(in, x, net.P(outW[i]))
			}
			ce = net.Fused("output+xent", bt.xent, append(append(in, net.P(m.Out.B)), data...)...)
			if err := net.Err(); err != nil {
				return nil, fmt.Errorf("am: cross-entropy: %w", err)
			}
		} else if ce, err = gorgonia.ApplyOp(xentOp{N: n, P: o.NumPdfs, Smooth: smoothing, Distill: tt.Distill},
			append([]*autodiff.Node{bt.Logits}, data...)...); err != nil {
			return nil, fmt.Errorf("am: cross-entropy: %w", err)
		}
		bt.CE = net.Sum(ce)
		loss := bt.CE
		if ly.loss != nil {
			if loss, err = ly.loss(net, bt, loss, maskwn); err != nil {
				return nil, err
			}
		}
		bt.Loss = loss
	}
	if err := net.Err(); err != nil {
		return nil, err
	}
	cost := bt.Loss
	var wrt []*autodiff.Node
	if mode == Train {
		bt.params, wrt = net.Bound()
	}
	if cost == nil {
		cost = bt.Logits
	}
	if bt.machine, err = net.Compile(cost, wrt); err != nil {
		return nil, err
	}
	return bt, nil
}

// Close releases the graph's machine.
func (bt *Batch) Close() error { return bt.machine.Close() }

// Load fills the inputs with up to B utterances of at most T frames; rng
// draws the dropout masks (Train only). Targets are required unless the
// mode is Infer.
func (bt *Batch) Load(utts []*Utterance, rng *rand.Rand) error {
	o := bt.model.Opts
	d := o.InputDim
	if len(utts) > bt.B {
		return fmt.Errorf("am: %d utterances for a batch of %d", len(utts), bt.B)
	}
	clear(bt.x)
	clear(bt.mask)
	bt.frames = 0
	bt.lead = 0
	bt.lengths = bt.lengths[:0]
	for b, u := range utts {
		if u.Rows > bt.T {
			return fmt.Errorf("am: utterance %s has %d frames, batch holds %d", u.Key, u.Rows, bt.T)
		}
		n := 1 + u.Context[0] + u.Context[1] // frames per input row
		if len(u.Feats)*n != u.Rows*d || d%n != 0 {
			return fmt.Errorf("am: utterance %s: %d values for %d frames of dimension %d", u.Key, len(u.Feats), u.Rows, d/n)
		}
		if bt.Mode != Infer && len(u.Targets) != u.Rows {
			return fmt.Errorf("am: utterance %s: %d targets for %d frames", u.Key, len(u.Targets), u.Rows)
		}
		raw := d / n
		for t := 0; t < u.Rows; t++ {
			r := t*bt.B + b
			row := bt.x[r*d : (r+1)*d]
			for j := 0; j < n; j++ { // n = 1: the row as it is
				src := min(max(t+j-u.Context[0], 0), u.Rows-1)
				f := u.Feats[src*raw : (src+1)*raw]
				dst := row[j*raw : (j+1)*raw]
				for k, v := range f {
					dst[k] = float64(v)
				}
			}
			bt.mask[r] = 1
		}
		bt.frames += u.Rows
		bt.lengths = append(bt.lengths, u.Rows)
	}
	if bt.Mode == Infer {
		return nil
	}
	clear(bt.maskw)
	clear(bt.target)
	w := 0.0
	if bt.frames > 0 {
		w = 1 / float64(bt.frames)
	}
	for b, u := range utts {
		for t := 0; t < u.Rows; t++ {
			r := t*bt.B + b
			y := u.Targets[t]
			if y < 0 || int(y) >= o.NumPdfs {
				return fmt.Errorf("am: utterance %s frame %d: pdf-id %d outside [0, %d)", u.Key, t, y, o.NumPdfs)
			}
			bt.target[r] = float64(y)
			bt.maskw[r] = w
		}
	}
	if bt.xnext != nil && o.PriorInput == PriorTeacher {
		if err := fillRows(bt.xnext, utts, bt.B, o.PriorInputDim, func(u *Utterance) []float32 { return u.PriorIn },
			"teacher encodings (the model's prior reads a teacher's: train it with --prior-teacher)"); err != nil {
			return err
		}
	} else if bt.xnext != nil {
		clear(bt.xnext)
		for b, u := range utts {
			for t := 0; t < u.Rows; t++ {
				src := min(t+1, u.Rows-1) // the last frame uses its own features
				r := t*bt.B + b
				copy(bt.xnext[r*d:(r+1)*d], bt.x[(src*bt.B+b)*d:(src*bt.B+b+1)*d])
			}
		}
	}
	if bt.soft != nil {
		if err := fillRows(bt.soft, utts, bt.B, o.NumPdfs, func(u *Utterance) []float32 { return u.Soft },
			"teacher posteriors (distillation needs --distill-teacher)"); err != nil {
			return err
		}
	}
	for _, d := range bt.drops {
		d.Fill(rng)
	}
	return nil
}

// fillRows copies each utterance's rows of width c from of(u) (Rows × c)
// into dst (time-major N×c, zero on padded rows); what names them in the
// error for an utterance without them.
func fillRows(dst []float64, utts []*Utterance, nb, c int, of func(*Utterance) []float32, what string) error {
	clear(dst)
	for b, u := range utts {
		v := of(u)
		if len(v) != u.Rows*c {
			return fmt.Errorf("am: utterance %s: %d values of %s for %d frames of %d", u.Key, len(v), what, u.Rows, c)
		}
		for t := 0; t < u.Rows; t++ {
			row := dst[(t*nb+b)*c : (t*nb+b+1)*c]
			for j, x := range v[t*c : (t+1)*c] {
				row[j] = float64(x)
			}
		}
	}
	return nil
}

// Run evaluates the loaded batch; in Train mode every parameter's Grad then
// holds d loss / d parameter.
func (bt *Batch) Run() error {
	if err := bt.machine.Run(); err != nil {
		return err
	}
	for i, p := range bt.params {
		copy(p.Grad, bt.machine.Grad(i))
	}
	return nil
}

// Params are the parameters whose gradients a Train batch computes.
func (bt *Batch) Params() []*optim.Param { return bt.params }

// Frames is the number of real frames loaded.
func (bt *Batch) Frames() int { return bt.frames }

// Scalar is the value of a scalar node after a run (0 for nil).
func Scalar(n *autodiff.Node) float64 { return nn.Scalar(n) }

// Stats are summed frame statistics.
type Stats struct {
	Frames  int
	CE      float64 // summed cross-entropy (nats)
	Correct int     // frames whose arg-max logit is the target
	KL      float64 // summed KL term
	LogP    float64 // summed mean-per-dimension Gaussian log-density

	// t̃ over the real frames (strode): sum, sum of squares, extremes.
	TTSum, TTSq, TTMin, TTMax float64
}

// Add accumulates s2 into s.
func (s *Stats) Add(s2 Stats) {
	s.Frames += s2.Frames
	s.CE += s2.CE
	s.Correct += s2.Correct
	s.KL += s2.KL
	s.LogP += s2.LogP
	if s2.TTSum != 0 || s2.TTSq != 0 {
		if s.TTSum == 0 && s.TTSq == 0 {
			s.TTMin, s.TTMax = s2.TTMin, s2.TTMax
		}
		s.TTMin, s.TTMax = math.Min(s.TTMin, s2.TTMin), math.Max(s.TTMax, s2.TTMax)
	}
	s.TTSum += s2.TTSum
	s.TTSq += s2.TTSq
}

// TTilde is the mean and standard deviation of t̃ per frame (0, 0 for sru).
func (s Stats) TTilde() (mean, std float64) {
	n := math.Max(1, float64(s.Frames))
	mean = s.TTSum / n
	return mean, math.Sqrt(math.Max(0, s.TTSq/n-mean*mean))
}

// MeanCE and Accuracy are per frame.
func (s Stats) MeanCE() float64 { return s.CE / math.Max(1, float64(s.Frames)) }

// Accuracy is the fraction of frames classified right.
func (s Stats) Accuracy() float64 { return float64(s.Correct) / math.Max(1, float64(s.Frames)) }

// Stats are the statistics of the last Eval/Train run.
func (bt *Batch) Stats() Stats {
	s := Stats{Frames: bt.frames}
	f := float64(bt.frames)
	s.CE = Scalar(bt.CE) * f
	s.KL = Scalar(bt.KL) * f
	s.LogP = Scalar(bt.LogP) * f
	if bt.TTilde != nil {
		tt := autodiff.Value(bt.TTilde)
		s.TTMin, s.TTMax = math.Inf(1), math.Inf(-1)
		for b, l := range bt.lengths {
			for t := 0; t < l; t++ {
				v := tt[t*bt.B+b]
				s.TTSum += v
				s.TTSq += v * v
				s.TTMin, s.TTMax = math.Min(s.TTMin, v), math.Max(s.TTMax, v)
			}
		}
	}
	p := bt.model.Opts.NumPdfs
	for b, l := range bt.lengths {
		for t := 0; t < l; t++ {
			r := t*bt.B + b
			best := 0
			if bt.xent != nil {
				best = int(bt.xent.best[r])
			} else {
				row := autodiff.Value(bt.Logits)[r*p : (r+1)*p]
				for j, v := range row {
					if v > row[best] {
						best = j
					}
				}
			}
			if float64(best) == bt.target[r] {
				s.Correct++
			}
		}
	}
	return s
}

// Output copies utterance b's logits (Rows × P) into dst and returns it.
func (bt *Batch) Output(b int, dst []float64) []float64 {
	if bt.xent != nil {
		return rowsOf(bt, bt.xent.Logits32(), b, dst)
	}
	return bt.rows(bt.Logits, b, dst)
}

func (bt *Batch) rows(n *autodiff.Node, b int, dst []float64) []float64 {
	return rowsOf(bt, autodiff.Value(n), b, dst)
}

// rowsOf copies utterance b's rows of the N×C matrix v into dst.
func rowsOf[T float32 | float64](bt *Batch, v []T, b int, dst []float64) []float64 {
	c := len(v) / (bt.T * bt.B)
	l := bt.lengths[b] - bt.lead
	dst = append(dst[:0], make([]float64, l*c)...)
	for t := 0; t < l; t++ {
		r := (t+bt.lead)*bt.B + b
		for j, x := range v[r*c : (r+1)*c] {
			dst[t*c+j] = float64(x)
		}
	}
	return dst
}

// Rows copies utterance b's rows of any N×C node after a run.
func (bt *Batch) Rows(n *autodiff.Node, b int) []float64 { return bt.rows(n, b, nil) }
