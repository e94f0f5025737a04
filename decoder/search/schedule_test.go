package search

import (
	"bytes"
	"testing"
)

// Periodic pruning only frees memory, so our schedule (one pass per frame,
// every fourth interval) must give byte for byte the lattices of
// Kaldi's (every call as deep as changes propagate, passes repeated), at
// Kaldi's beams and (kaldi-mini) at narrower ones, determinized and raw;
// without -short also on utterances of the hand-built 5,000-word bigram
// graph.
func TestPruningScheduleKeepsLattices(t *testing.T) {
	type input struct {
		name   string
		g      *Graph
		dec    *MatrixMapped
		narrow bool // also decode at beam 8
	}
	var inputs []input
	s := loadMini(t)
	for _, u := range s.utts {
		inputs = append(inputs, input{u.key, s.g, s.decodable(t, u, 0.1), true})
	}
	if !testing.Short() {
		bb := buildDirectBigramBench(t, 2, 12, 6)
		for i, dec := range bb.decodables(t) {
			inputs = append(inputs, input{"bigram" + string(rune('0'+i)), bb.g, dec, false})
		}
	}
	for _, beam := range []float64{16, 8} {
		for _, det := range []bool{true, false} {
			opts := DefaultOptions()
			opts.Beam, opts.DeterminizeLattice = beam, det
			for _, in := range inputs {
				if beam != 16 && !in.narrow {
					continue
				}
				ours, kaldi := NewLatticeDecoder(in.g, opts), NewLatticeDecoder(in.g, opts)
				kaldi.kaldiPruning = true
				var out [2]bytes.Buffer
				for i, d := range []*LatticeDecoder{ours, kaldi} {
					res, err := d.DecodeUtterance(in.dec, 0.1, true, nil)
					if err != nil {
						t.Fatal(err)
					}
					if det {
						res.Compact.WriteBinary(&out[i])
					} else {
						res.Raw.WriteBinary(&out[i])
					}
				}
				if out[0].Len() == 0 || !bytes.Equal(out[0].Bytes(), out[1].Bytes()) {
					t.Errorf("%s, beam %v, determinized %v: lattices differ between the pruning schedules", in.name, beam, det)
				}
			}
		}
	}
}
