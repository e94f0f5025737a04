package trainer

import (
	"flag"
	"fmt"
	"math/rand"

	"github.com/strode-asr/strode/acoustic/am"
)

// MaskOptions configure SpecAugment-style masking of the training input
// (Park et al. 2019, without time warping): every utterance of every
// training minibatch gets FreqMasks bands of 0 … FreqWidth raw feature bins
// and TimeMasks spans of 0 … TimeWidth frames set to zero, which after mean
// normalisation is the feature mean. A frequency band covers the same raw
// bins at every splice position; a time span zeroes whole input rows.
// Widths and positions are drawn from the epoch's random source, so a
// seeded run (and its --resume) stays reproducible. Zero counts: off.
type MaskOptions struct {
	FreqMasks, FreqWidth int
	TimeMasks, TimeWidth int
}

// Register adds the options to fs.
func (o *MaskOptions) Register(fs *flag.FlagSet) {
	fs.IntVar(&o.FreqMasks, "freq-masks", o.FreqMasks, "SpecAugment: frequency bands masked per training utterance (0: none)")
	fs.IntVar(&o.FreqWidth, "freq-mask-width", o.FreqWidth, "SpecAugment: maximum width of a frequency band, in raw feature bins")
	fs.IntVar(&o.TimeMasks, "time-masks", o.TimeMasks, "SpecAugment: time spans masked per training utterance (0: none)")
	fs.IntVar(&o.TimeWidth, "time-mask-width", o.TimeWidth, "SpecAugment: maximum length of a time span, in frames")
}

func (o MaskOptions) validate() error {
	if o.FreqMasks < 0 || o.FreqWidth < 0 || o.TimeMasks < 0 || o.TimeWidth < 0 {
		return fmt.Errorf("trainer: SpecAugment counts and widths must be ≥ 0: %+v", o)
	}
	return nil
}

func (o MaskOptions) on() bool {
	return (o.FreqMasks > 0 && o.FreqWidth > 0) || (o.TimeMasks > 0 && o.TimeWidth > 0)
}

// Masked returns copies of utts with masks drawn from rng; the originals
// are not modified. rawDim is the feature dimension before splicing.
func (o MaskOptions) Masked(utts []*am.Utterance, rawDim int, rng *rand.Rand) []*am.Utterance {
	if !o.on() {
		return utts
	}
	out := make([]*am.Utterance, len(utts))
	for i, u := range utts {
		// Unspliced features are spliced into the copy: a time span zeroes
		// whole input rows, not the frames other rows see as context.
		c := *u
		if s, err := u.Spliced(); err == nil && s != u {
			c = *s
		} else {
			c.Feats = append([]float32(nil), u.Feats...)
		}
		dim := len(c.Feats) / max(1, c.Rows)
		for k := 0; k < o.FreqMasks && o.FreqWidth > 0 && rawDim > 0; k++ {
			w := rng.Intn(o.FreqWidth + 1)
			f0 := rng.Intn(max(1, rawDim-w+1))
			for r := 0; r < c.Rows; r++ {
				row := c.Feats[r*dim : (r+1)*dim]
				for s := 0; s+rawDim <= dim; s += rawDim {
					clear(row[s+f0 : s+min(f0+w, rawDim)])
				}
			}
		}
		for k := 0; k < o.TimeMasks && o.TimeWidth > 0; k++ {
			w := min(rng.Intn(o.TimeWidth+1), c.Rows)
			t0 := rng.Intn(c.Rows - w + 1)
			clear(c.Feats[t0*dim : (t0+w)*dim])
		}
		out[i] = &c
	}
	return out
}
