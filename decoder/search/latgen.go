package search

import (
	"errors"

	"github.com/strode-asr/strode/decoder/lattice"
)

// ErrNotFinal is returned by DecodeUtterance when no final state was reached
// and partial output was not allowed.
var ErrNotFinal = errors.New("no final state reached")

// Result is what latgen-faster writes for one utterance.
type Result struct {
	Words, Alignment []int32
	// BestWeight is the best path's (graph, acoustic) cost, acoustic scale
	// applied, as Kaldi's log line reports it.
	BestWeight lattice.Weight
	// Compact is the determinized lattice (DeterminizeLattice), Raw the
	// state-level one otherwise; both with acoustic costs divided by the
	// acoustic scale, as Kaldi writes them.
	Compact *lattice.CompactLattice
	Raw     *lattice.Lattice
	// Partial is set when no final state was reached.
	Partial bool
}

// LogLike is the utterance log-likelihood Kaldi reports: minus the best
// path's total cost.
func (r *Result) LogLike() float64 {
	return -(float64(r.BestWeight.Graph) + float64(r.BestWeight.Acoustic))
}

// DecodeUtterance is Kaldi's DecodeUtteranceLatticeFaster: decode, take the
// best path (words and alignment), get the raw lattice, connect it, and
// either determinize it at the lattice beam (DeterminizeLatticePruned) or
// keep it, then undo the acoustic scale. It returns ErrNoTokens when decoding
// failed and ErrNotFinal when no final state was reached and allowPartial is
// false.
func (d *LatticeDecoder) DecodeUtterance(dec Decodable, acousticScale float32, allowPartial bool, warn func(string, ...any)) (*Result, error) {
	if err := d.Decode(dec, warn); err != nil {
		return nil, err
	}
	return d.FinalResult(acousticScale, allowPartial)
}

// FinalResult is DecodeUtterance's output for the utterance just decoded
// (Decode, or FinalizeDecoding after online decoding): the best path, and
// the lattice as latgen-faster writes it. It returns ErrNotFinal when no
// final state was reached and allowPartial is false.
func (d *LatticeDecoder) FinalResult(acousticScale float32, allowPartial bool) (*Result, error) {
	res := &Result{}
	if !d.ReachedFinal() {
		if !allowPartial {
			return nil, ErrNotFinal
		}
		res.Partial = true
	}
	raw, err := d.RawLattice()
	if err != nil {
		return nil, err
	}
	if res.Alignment, res.Words, res.BestWeight, err = raw.ShortestPath(); err != nil {
		return nil, err
	}
	raw.Connect()
	unscale := [2][2]float64{{1, 0}, {0, 1}}
	if acousticScale != 0 {
		unscale[1][1] = 1 / float64(acousticScale)
	}
	if d.opts.DeterminizeLattice {
		dopts := lattice.DefaultDeterminizeOptions()
		dopts.Delta, dopts.MaxMem = float32(d.opts.Delta), int64(d.opts.MaxMem)
		if warn := d.warn; warn != nil {
			dopts.Warn = func(s string) { warn("%s", s) }
		}
		clat, err := lattice.DeterminizePruned(raw, d.opts.LatticeBeam, dopts)
		if err != nil {
			return nil, err
		}
		clat.Scale(unscale)
		res.Compact = clat
	} else {
		raw.Scale(unscale)
		res.Raw = raw
	}
	return res, nil
}
