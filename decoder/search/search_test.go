package search

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/strode-asr/strode/decoder"
	"github.com/strode-asr/strode/decoder/lattice"
	"github.com/strode-asr/strode/kaldiio"
)

// mini is ../shared/kaldi-mini, found from the package directory.
func mini(t testing.TB) string {
	dir := filepath.Join("..", "..", "..", "shared", "kaldi-mini")
	if _, err := os.Stat(filepath.Join(dir, "MANIFEST.md")); err != nil {
		t.Skip("../shared/kaldi-mini is absent: skipping the checks against Kaldi's decoding")
	}
	return dir
}

type utt struct {
	key string
	m   kaldiio.Matrix
}

type system struct {
	g     *Graph
	tm    *decoder.TransitionModel
	utts  []utt
	words *decoder.SymbolTable
}

func loadMini(t testing.TB) *system {
	dir := mini(t)
	fst, err := decoder.ReadFstFile(filepath.Join(dir, "exp/mono/graph/HCLG.fst"))
	if err != nil {
		t.Fatal(err)
	}
	g, err := NewGraph(fst)
	if err != nil {
		t.Fatal(err)
	}
	tm, err := decoder.ReadTransitionModel(filepath.Join(dir, "exp/mono/final.mdl"))
	if err != nil {
		t.Fatal(err)
	}
	sr, err := kaldiio.OpenSequentialReader("ark:"+filepath.Join(dir, "golden/test5_loglikes.ark"), kaldiio.MatrixCodec)
	if err != nil {
		t.Fatal(err)
	}
	defer sr.Close()
	s := &system{g: g, tm: tm}
	for sr.Next() {
		m := sr.Value()
		s.utts = append(s.utts, utt{sr.Key(), m})
	}
	if err := sr.Err(); err != nil {
		t.Fatal(err)
	}
	return s
}

func (s *system) decodable(t testing.TB, u utt, acwt float32) *MatrixMapped {
	d, err := NewMatrixMapped(u.m.Data, u.m.Rows, u.m.Cols, s.tm.TransitionIDToPdfArray(), s.tm.NumPdfs(), acwt)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func readLattices(t *testing.T, path string) map[string]*lattice.CompactLattice {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := lattice.NewArchiveReader(f, path)
	out := map[string]*lattice.CompactLattice{}
	for {
		e, err := r.Next()
		if err != nil {
			break
		}
		out[e.Key] = e.Compact
	}
	return out
}

func bestPath(t *testing.T, c *lattice.CompactLattice, lmwt float32) (ali, words []int32) {
	var b bytes.Buffer
	c.WriteBinary(&b)
	cc, _, err := lattice.ReadBinary(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	cc.Scale(lattice.LatticeScale(1, 1/lmwt))
	p, err := cc.ShortestPath()
	if err != nil {
		t.Fatal(err)
	}
	ali, words, _, err = p.LinearSequence()
	if err != nil {
		t.Fatal(err)
	}
	return
}

// latgen-faster-mapped with the options of kaldi-mini's golden run, then
// best paths compared with Kaldi's lattices at LM weights 7..17 (and the
// 1-best at the decoding acoustic scale).
func TestLatgenMatchesKaldi(t *testing.T) {
	s := loadMini(t)
	dir := mini(t)
	golden := readLattices(t, filepath.Join(dir, "golden/test5_lat_mapped.ark"))
	opts := DefaultOptions()
	opts.MaxActive, opts.Beam, opts.LatticeBeam = 7000, 13, 6
	const acwt = float32(0.083333)
	dec := NewLatticeDecoder(s.g, opts)
	for _, u := range s.utts {
		if err := dec.Decode(s.decodable(t, u, acwt), t.Logf); err != nil {
			t.Fatalf("%s: %v", u.key, err)
		}
		if !dec.ReachedFinal() {
			t.Errorf("%s: no final state", u.key)
		}
		raw, err := dec.RawLattice()
		if err != nil {
			t.Fatal(err)
		}
		clat, err := lattice.DeterminizePruned(raw, opts.LatticeBeam, lattice.DefaultDeterminizeOptions())
		if err != nil {
			t.Fatal(err)
		}
		clat.Scale([2][2]float64{{1, 0}, {0, 1 / float64(acwt)}})
		want := golden[u.key]
		if len(clat.States) != len(want.States) {
			t.Logf("%s: %d states, Kaldi %d", u.key, len(clat.States), len(want.States))
		}
		for _, lmwt := range []float32{1 / acwt, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17} {
			ga, gw := bestPath(t, clat, lmwt)
			wa, ww := bestPath(t, want, lmwt)
			if !slices.Equal(gw, ww) || !slices.Equal(ga, wa) {
				t.Errorf("%s lmwt %v: words %v, Kaldi %v (alignment equal: %v)", u.key, lmwt, gw, ww, slices.Equal(ga, wa))
			}
		}
	}
}
