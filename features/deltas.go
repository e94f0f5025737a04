package features

import (
	"flag"
	"fmt"
)

// DeltaFeaturesOptions are Kaldi's DeltaFeaturesOptions (add-deltas).
type DeltaFeaturesOptions struct {
	Order  int // --delta-order: order of delta computation
	Window int // --delta-window: parameter controlling window for delta computation (actual window size for each delta order is 1 + 2*delta-window-size)
}

// DefaultDeltaFeaturesOptions are Kaldi's defaults (order 2, window 2).
func DefaultDeltaFeaturesOptions() DeltaFeaturesOptions {
	return DeltaFeaturesOptions{Order: 2, Window: 2}
}

// Register adds the options to fs under Kaldi's names.
func (o *DeltaFeaturesOptions) Register(fs *flag.FlagSet) {
	fs.IntVar(&o.Order, "delta-order", o.Order, "Order of delta computation")
	fs.IntVar(&o.Window, "delta-window", o.Window, "Parameter controlling window for delta computation (actual window size for each delta order is 1 + 2*delta-window-size)")
}

// DeltaFeatures is Kaldi's DeltaFeatures: the order-i scales are the
// order-(i−1) scales convolved with j, j = −window … window, divided by Σj².
type DeltaFeatures struct {
	opts   DeltaFeaturesOptions
	scales [][]float32
}

// NewDeltaFeatures precomputes the scales.
func NewDeltaFeatures(o DeltaFeaturesOptions) (*DeltaFeatures, error) {
	if o.Order < 0 || o.Order >= 1000 || o.Window <= 0 || o.Window >= 1000 {
		return nil, fmt.Errorf("%w: --delta-order=%d must be in [0, 1000) and --delta-window=%d in [1, 1000)", ErrOptions, o.Order, o.Window)
	}
	s := make([][]float32, o.Order+1)
	s[0] = []float32{1}
	for i := 1; i <= o.Order; i++ {
		prev := s[i-1]
		w := o.Window
		prevOff := (len(prev) - 1) / 2
		curOff := prevOff + w
		cur := make([]float32, len(prev)+2*w)
		var normalizer float32
		for j := -w; j <= w; j++ {
			normalizer += float32(j * j)
			for k := -prevOff; k <= prevOff; k++ {
				cur[j+k+curOff] += float32(float32(j) * prev[k+prevOff])
			}
		}
		scale := float32(1 / float64(normalizer))
		for k := range cur {
			cur[k] *= scale
		}
		s[i] = cur
	}
	return &DeltaFeatures{opts: o, scales: s}, nil
}

// Compute returns the features with their deltas appended: rows ×
// dim·(order+1), frames beyond the edges replaced by the edge frames.
func (df *DeltaFeatures) Compute(feats []float32, rows, dim int) []float32 {
	outDim := dim * (df.opts.Order + 1)
	out := make([]float32, rows*outDim)
	for t := 0; t < rows; t++ {
		orow := out[t*outDim : (t+1)*outDim]
		for i, scales := range df.scales {
			dst := orow[i*dim : (i+1)*dim]
			maxOff := (len(scales) - 1) / 2
			for j := -maxOff; j <= maxOff; j++ {
				src := min(max(t+j, 0), rows-1)
				sc := scales[j+maxOff]
				if sc == 0 {
					continue
				}
				srow := feats[src*dim : (src+1)*dim]
				for d := range dst {
					dst[d] += float32(sc * srow[d])
				}
			}
		}
	}
	return out
}

// Bounds on splicing: Kaldi has none, but beyond them one utterance's
// output is gigabytes and the process dies out of memory instead of
// failing with a message.
const (
	maxSpliceContext = 1000
	maxSpliceValues  = 1 << 28
)

// SpliceFrames is Kaldi's SpliceFrames: each output row is the input rows
// t−left … t+right side by side (clamped at the edges), rows ×
// dim·(1+left+right).
func SpliceFrames(feats []float32, rows, dim, left, right int) ([]float32, error) {
	if rows == 0 || dim == 0 {
		return nil, fmt.Errorf("%w: SpliceFrames: empty input", ErrOptions)
	}
	if left < 0 || right < 0 || left > maxSpliceContext || right > maxSpliceContext {
		return nil, fmt.Errorf("%w: --left-context=%d and --right-context=%d must be in [0, %d]", ErrOptions, left, right, maxSpliceContext)
	}
	n := 1 + left + right
	if rows > maxSpliceValues/(dim*n) {
		return nil, fmt.Errorf("%w: splicing %d frames of dimension %d with %d frames of context would make %d values (more than %d)", ErrOptions, rows, dim, n, rows*dim*n, maxSpliceValues)
	}
	out := make([]float32, 0, rows*dim*n)
	for t := 0; t < rows; t++ {
		out = AppendSplicedRow(out, feats, rows, dim, t, left, right)
	}
	return out, nil
}

// AppendSplicedRow appends row t of SpliceFrames(feats, rows, dim, left,
// right) to dst: the input rows t−left … t+right, clamped at the edges
// (a frame-shuffled minibatch splices single frames of many utterances).
// The arguments are the caller's to check.
func AppendSplicedRow(dst, feats []float32, rows, dim, t, left, right int) []float32 {
	for j := -left; j <= right; j++ {
		src := min(max(t+j, 0), rows-1)
		dst = append(dst, feats[src*dim:(src+1)*dim]...)
	}
	return dst
}
