package search

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/strode-asr/strode/internal/shareddata"

	"github.com/strode-asr/strode/decoder/fst"
	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/decoder/lattice"
	"github.com/strode-asr/strode/kaldiio"
)

// mini is ../shared/kaldi-mini, found from the package directory.
func mini(t testing.TB) string {
	if d := os.Getenv("STRODE_KALDI_MINI"); d != "" {
		return d // e.g. a copy on a benchmark machine
	}
	return shareddata.Dir(t, "kaldi-mini")
}

type utt struct {
	key string
	m   kaldiio.Matrix
}

type system struct {
	g     *Graph
	tm    *hmm.TransitionModel
	utts  []utt
	words *fst.SymbolTable
}

func loadMini(t testing.TB) *system {
	dir := mini(t)
	fst, err := fst.ReadFile(filepath.Join(dir, "exp/mono/graph/HCLG.fst"))
	if err != nil {
		t.Fatal(err)
	}
	g, err := NewGraph(fst)
	if err != nil {
		t.Fatal(err)
	}
	tm, err := hmm.ReadTransitionModel(filepath.Join(dir, "exp/mono/final.mdl"))
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
	return bestPathWIP(t, c, lmwt, 0)
}

// bestPathWIP is lattice-scale --inv-acoustic-scale=lmwt | lattice-add-penalty
// --word-ins-penalty=wip | lattice-best-path, as score.sh runs it.
func bestPathWIP(t *testing.T, c *lattice.CompactLattice, lmwt, wip float32) (ali, words []int32) {
	var b bytes.Buffer
	c.WriteBinary(&b)
	cc, _, err := lattice.ReadBinary(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	cc.Scale(lattice.LatticeScale(1, 1/lmwt))
	cc.AddWordInsPenalty(wip)
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
		for _, wip := range []float32{0, 0.5, 1} {
			for _, lmwt := range []float32{1 / acwt, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17} {
				ga, gw := bestPathWIP(t, clat, lmwt, wip)
				wa, ww := bestPathWIP(t, want, lmwt, wip)
				if !slices.Equal(gw, ww) || !slices.Equal(ga, wa) {
					t.Errorf("%s lmwt %v wip %v: words %v, Kaldi %v (alignment equal: %v)", u.key, lmwt, wip, gw, ww, slices.Equal(ga, wa))
				}
			}
		}
	}
}

// decode-faster-mapped gives Kaldi's 1-best words and alignments, and so
// does the best path of latgen's raw lattice (Kaldi's GetBestPath).
func TestOneBestMatchesKaldi(t *testing.T) {
	s := loadMini(t)
	dir := mini(t)
	wantTra := readInts(t, filepath.Join(dir, "golden/test5_dfm.tra"))
	wantAli := readInts(t, filepath.Join(dir, "golden/test5_dfm.ali"))
	const acwt = float32(0.083333)
	fo := DefaultFasterOptions()
	fo.MaxActive, fo.Beam = 7000, 13
	fd := NewFasterDecoder(s.g, fo)
	lo := DefaultOptions()
	lo.MaxActive, lo.Beam, lo.LatticeBeam = 7000, 13, 6
	ld := NewLatticeDecoder(s.g, lo)
	for _, u := range s.utts {
		if err := fd.Decode(s.decodable(t, u, acwt)); err != nil {
			t.Fatal(err)
		}
		ali, words, _, err := fd.BestPath()
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(words, wantTra[u.key]) || !slices.Equal(ali, wantAli[u.key]) {
			t.Errorf("faster %s: words %v, Kaldi %v", u.key, words, wantTra[u.key])
		}
		res, err := ld.DecodeUtterance(s.decodable(t, u, acwt), acwt, false, t.Logf)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(res.Words, wantTra[u.key]) || !slices.Equal(res.Alignment, wantAli[u.key]) {
			t.Errorf("latgen %s: words %v, Kaldi %v", u.key, res.Words, wantTra[u.key])
		}
	}
}

func readInts(t *testing.T, path string) map[string][]int32 {
	sr, err := kaldiio.OpenSequentialReader("ark:"+path, kaldiio.IntVectorCodec)
	if err != nil {
		t.Fatal(err)
	}
	defer sr.Close()
	out := map[string][]int32{}
	for sr.Next() {
		out[sr.Key()] = append([]int32(nil), sr.Value()...)
	}
	if err := sr.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestBadInput(t *testing.T) {
	s := loadMini(t)
	u := s.utts[1]
	tids := s.tm.TransitionIDToPdfArray()
	np := s.tm.NumPdfs()
	if _, err := NewMatrixMapped(u.m.Data[:u.m.Cols*3], 3, u.m.Cols-1, tids, np, 0.1); err == nil {
		t.Error("wrong column count accepted")
	}
	bad := append([]float32(nil), u.m.Data...)
	bad[5*u.m.Cols+7] = float32(math.NaN())
	if _, err := NewMatrixMapped(bad, u.m.Rows, u.m.Cols, tids, np, 0.1); err == nil || !strings.Contains(err.Error(), "frame 5, pdf 7") {
		t.Errorf("NaN: %v", err)
	}
	// Two frames cannot reach a final state (a word takes at least three): partial output or ErrNotFinal.
	short, err := NewMatrixMapped(u.m.Data[:2*u.m.Cols], 2, u.m.Cols, tids, np, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	d := NewLatticeDecoder(s.g, DefaultOptions())
	if _, err := d.DecodeUtterance(short, 0.1, false, nil); !errors.Is(err, ErrNotFinal) {
		t.Errorf("short utterance without --allow-partial: %v", err)
	}
	res, err := d.DecodeUtterance(short, 0.1, true, nil)
	if err != nil || !res.Partial || res.Compact == nil || len(res.Alignment) != 2 {
		t.Errorf("partial: %+v %v", res, err)
	}
	// All pdfs impossible from frame 2 on: no surviving token.
	dead := append([]float32(nil), u.m.Data[:6*u.m.Cols]...)
	for i := 2 * u.m.Cols; i < len(dead); i++ {
		dead[i] = float32(math.Inf(-1))
	}
	dm, err := NewMatrixMapped(dead, 6, u.m.Cols, tids, np, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	var warned []string
	if _, err := d.DecodeUtterance(dm, 0.1, true, func(f string, a ...any) { warned = append(warned, fmt.Sprintf(f, a...)) }); !errors.Is(err, ErrNoTokens) {
		t.Errorf("dead utterance: %v", err)
	}
	if len(warned) == 0 || !strings.Contains(warned[0], "no surviving tokens") {
		t.Errorf("warnings %q", warned)
	}
	// The decoder recovers for the next utterance.
	if _, err := d.DecodeUtterance(s.decodable(t, u, 0.1), 0.1, false, nil); err != nil {
		t.Errorf("after a failure: %v", err)
	}
}

func BenchmarkLatgenMini(b *testing.B) {
	s := loadMini(b)
	opts := DefaultOptions()
	d := NewLatticeDecoder(s.g, opts)
	frames := 0
	for _, u := range s.utts {
		frames += u.m.Rows
	}
	decs := make([]*MatrixMapped, len(s.utts))
	for i, u := range s.utts {
		decs[i] = s.decodable(b, u, 0.1)
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		for _, dec := range decs {
			if _, err := d.DecodeUtterance(dec, 0.1, true, nil); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N)/(float64(frames)/100), "RTF")
	b.ReportMetric((cpuTime()-cpu0).Seconds()/float64(b.N)/(float64(frames)/100), "cpuRTF")
}
