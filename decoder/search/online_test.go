package search

import (
	"bytes"
	"errors"
	"slices"
	"testing"
)

// growing is a Decodable whose frames arrive over time, as an online
// acoustic model produces them.
type growing struct {
	all   *MatrixMapped
	ready int
}

func (g *growing) NumFrames() int                    { return g.ready }
func (g *growing) LogLikes(frame int, dst []float32) { g.all.LogLikes(frame, dst) }

// Decoding kaldi-mini's utterances chunk by chunk (InitDecoding,
// AdvanceDecoding as frames arrive, FinalizeDecoding, FinalResult) gives
// DecodeUtterance's lattice byte for byte and its best path, for chunks of
// 1, 7 and 18 frames and with AdvanceDecoding capped at 5 frames a call;
// asking for partial results and the final relative cost between chunks
// changes nothing, and the partial best path is the best path of the raw
// lattice so far (Kaldi's GetBestPath without final probabilities).
func TestOnlineDecodingMatchesDecode(t *testing.T) {
	s := loadMini(t)
	opts := DefaultOptions()
	opts.MaxActive, opts.Beam, opts.LatticeBeam = 7000, 13, 6
	opts.PruneInterval = 5 // periodic pruning inside the chunks
	const acwt = float32(0.083333)
	dec := NewLatticeDecoder(s.g, opts)
	for _, u := range s.utts {
		want, err := dec.DecodeUtterance(s.decodable(t, u, acwt), acwt, true, nil)
		if err != nil {
			t.Fatal(err)
		}
		var wantLat bytes.Buffer
		want.Compact.WriteBinary(&wantLat)
		wantRel := dec.FinalRelativeCost()
		chunks := []int{1, 7, 18}
		if testing.Short() {
			chunks = chunks[1:] // 1 runs the raw-lattice check at every frame
		}
		for _, chunk := range chunks {
			for _, capped := range []bool{false, true} {
				g := &growing{all: s.decodable(t, u, acwt)}
				dec.InitDecoding()
				for g.ready < g.all.Rows {
					g.ready = min(g.all.Rows, g.ready+chunk)
					maxFrames := 0
					if capped {
						maxFrames = 5
					}
					for dec.NumFramesDecoded() < g.ready {
						if err := dec.AdvanceDecoding(g, maxFrames, nil); err != nil {
							t.Fatal(err)
						}
					}
					ali, words, err := dec.PartialBestPath()
					if err != nil {
						t.Fatal(err)
					}
					if len(ali) != dec.NumFramesDecoded() {
						t.Fatalf("%s: partial alignment of %d frames after %d", u.key, len(ali), dec.NumFramesDecoded())
					}
					raw, err := dec.RawLattice()
					if err != nil {
						t.Fatal(err)
					}
					rali, rwords, _, err := raw.ShortestPath()
					if err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(words, rwords) || !slices.Equal(ali, rali) {
						t.Fatalf("%s after %d frames: partial words %v, raw lattice's %v (alignments equal: %v)", u.key, g.ready, words, rwords, slices.Equal(ali, rali))
					}
					if c := dec.FinalRelativeCost(); c < 0 {
						t.Fatalf("%s: final relative cost %v", u.key, c)
					}
				}
				if err := dec.FinalizeDecoding(nil); err != nil {
					t.Fatal(err)
				}
				got, err := dec.FinalResult(acwt, true)
				if err != nil {
					t.Fatal(err)
				}
				var gotLat bytes.Buffer
				got.Compact.WriteBinary(&gotLat)
				if !bytes.Equal(gotLat.Bytes(), wantLat.Bytes()) || !slices.Equal(got.Words, want.Words) || !slices.Equal(got.Alignment, want.Alignment) {
					t.Errorf("%s, chunks of %d (capped %v): lattice or best path differs from DecodeUtterance's", u.key, chunk, capped)
				}
				if dec.FinalRelativeCost() != wantRel {
					t.Errorf("%s: final relative cost after finalizing differs", u.key)
				}
				if _, _, err := dec.PartialBestPath(); !errors.Is(err, ErrFinalized) {
					t.Errorf("PartialBestPath after FinalizeDecoding: %v", err)
				}
				if err := dec.AdvanceDecoding(g, 0, nil); !errors.Is(err, ErrFinalized) {
					t.Errorf("AdvanceDecoding after FinalizeDecoding: %v", err)
				}
			}
		}
	}
}

// The partial best path at the end of an utterance, before finalizing, is
// the 1-best of the lattice without final costs; on kaldi-mini, where
// every utterance ends in a final state through silence, it is the
// 1-best.
func TestPartialBestPathAtTheEnd(t *testing.T) {
	s := loadMini(t)
	opts := DefaultOptions()
	opts.MaxActive, opts.Beam, opts.LatticeBeam = 7000, 13, 6
	const acwt = float32(0.083333)
	dec := NewLatticeDecoder(s.g, opts)
	for _, u := range s.utts {
		d := s.decodable(t, u, acwt)
		dec.InitDecoding()
		if err := dec.AdvanceDecoding(d, 0, nil); err != nil {
			t.Fatal(err)
		}
		_, words, err := dec.PartialBestPath()
		if err != nil {
			t.Fatal(err)
		}
		if c := dec.FinalRelativeCost(); c < 0 || c == inf32 {
			t.Errorf("%s: final relative cost %v at the end of the utterance (a final state is reached)", u.key, c)
		}
		dec.FinalizeDecoding(nil)
		res, err := dec.FinalResult(acwt, false)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(words, res.Words) {
			t.Errorf("%s: partial %v, final %v", u.key, words, res.Words)
		}
	}
}
