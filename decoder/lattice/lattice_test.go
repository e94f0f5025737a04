package lattice

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/strode-asr/strode/kaldiio"
)

func readAll(t *testing.T, path string) []Entry {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := NewArchiveReader(f, path)
	var out []Entry
	for {
		e, err := r.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
}

// Binary and text archives read to the same lattices, and write back to the
// exact bytes Kaldi wrote.
func TestGoldenRoundTrip(t *testing.T) {
	bin := readAll(t, "testdata/test5_lat_mapped.ark")
	txt := readAll(t, "testdata/test5_lat_mapped.txt")
	if len(bin) != 5 || len(txt) != 5 {
		t.Fatalf("%d binary, %d text entries", len(bin), len(txt))
	}
	var wb, wt bytes.Buffer
	for i := range bin {
		if bin[i].Compact == nil || txt[i].Compact == nil || bin[i].Key != txt[i].Key {
			t.Fatalf("entry %d: %+v / %+v", i, bin[i], txt[i])
		}
		if err := WriteEntry(&wb, bin[i].Key, true, bin[i].Compact, nil); err != nil {
			t.Fatal(err)
		}
		if err := WriteEntry(&wt, bin[i].Key, false, bin[i].Compact, nil); err != nil {
			t.Fatal(err)
		}
	}
	wantB, _ := os.ReadFile("testdata/test5_lat_mapped.ark")
	wantT, _ := os.ReadFile("testdata/test5_lat_mapped.txt")
	if !bytes.Equal(wb.Bytes(), wantB) {
		t.Errorf("binary write differs from Kaldi's (%d vs %d bytes)", wb.Len(), len(wantB))
	}
	if wt.String() != string(wantT) {
		t.Errorf("text write differs from Kaldi's:\n%s", firstDiff(wt.String(), string(wantT)))
	}
}

func firstDiff(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(la), len(lb)) {
		if la[i] != lb[i] {
			return fmt.Sprintf("line %d:\n got %q\nwant %q", i+1, la[i], lb[i])
		}
	}
	return fmt.Sprintf("lengths %d vs %d lines", len(la), len(lb))
}

// intTable formats "key 1 2 3 \n" lines as Kaldi's text int-vector archives.
func intLine(key string, v []int32) string {
	var b strings.Builder
	b.WriteString(key + " ")
	for _, x := range v {
		fmt.Fprintf(&b, "%d ", x)
	}
	b.WriteString("\n")
	return b.String()
}

func TestGoldenBestPath(t *testing.T) {
	lats := readAll(t, "testdata/test5_lat_mapped.ark")
	var tra, ali, tra10 strings.Builder
	for _, e := range lats {
		c := e.Compact
		c.Scale(LatticeScale(1, 0.083333))
		bp, err := c.ShortestPath()
		if err != nil {
			t.Fatal(err)
		}
		a, w, _, err := bp.LinearSequence()
		if err != nil {
			t.Fatal(err)
		}
		tra.WriteString(intLine(e.Key, w))
		ali.WriteString(intLine(e.Key, a))
	}
	for _, e := range readAll(t, "testdata/test5_lat_mapped.ark") {
		c := e.Compact
		c.Scale(LatticeScale(1, float32(1.0/float32(10))))
		c.AddWordInsPenalty(0.5)
		bp, err := c.ShortestPath()
		if err != nil {
			t.Fatal(err)
		}
		_, w, _, _ := bp.LinearSequence()
		tra10.WriteString(intLine(e.Key, w))
	}
	for name, got := range map[string]string{"test5_1best.tra": tra.String(), "test5_1best.ali": ali.String(), "test5_lmwt10_wip0.5.tra": tra10.String()} {
		want, _ := os.ReadFile("testdata/" + name)
		if got != string(want) {
			t.Errorf("%s:\n%s", name, firstDiff(got, string(want)))
		}
	}
}

func TestGoldenScalePenalty(t *testing.T) {
	var out bytes.Buffer
	for _, e := range readAll(t, "testdata/test5_lat_mapped.ark") {
		e.Compact.Scale(LatticeScale(2.0, 0.1))
		e.Compact.AddWordInsPenalty(1.5)
		WriteEntry(&out, e.Key, false, e.Compact, nil)
	}
	want, _ := os.ReadFile("testdata/test5_lat_scaled.txt")
	if out.String() != string(want) {
		t.Errorf("scaled lattice:\n%s", firstDiff(out.String(), string(want)))
	}
}

// Compact → Lattice → text → read back, and Lattice binary round trip.
func TestLatticeForm(t *testing.T) {
	e := readAll(t, "testdata/test5_lat_mapped.ark")[1]
	l := e.Compact.ToLattice()
	var tb, bb bytes.Buffer
	if err := WriteEntry(&tb, "k", false, nil, l); err != nil {
		t.Fatal(err)
	}
	if err := WriteEntry(&bb, "k", true, nil, l); err != nil {
		t.Fatal(err)
	}
	for _, buf := range []*bytes.Buffer{&tb, &bb} {
		r := NewArchiveReader(bytes.NewReader(buf.Bytes()), "mem")
		got, err := r.Next()
		if err != nil || got.Lattice == nil {
			t.Fatalf("read back: %v %+v", err, got)
		}
		var again bytes.Buffer
		WriteEntry(&again, "k", false, nil, got.Lattice)
		if again.String() != tb.String() {
			t.Errorf("round trip differs:\n%s", firstDiff(again.String(), tb.String()))
		}
	}
	if !strings.Contains(tb.String(), "\t0\n") {
		t.Errorf("expanded lattice should have word-less arcs:\n%s", tb.String())
	}
}

func TestBadArchives(t *testing.T) {
	good, _ := os.ReadFile("testdata/test5_lat_mapped.ark")
	for _, in := range [][]byte{
		good[:100], good[:30],
		[]byte("k \xd6\xfd\xb2\x7e\x01\x02"),
		[]byte("k \n0\t1\t2\t3\t4\t5\t6\n\n"),
		[]byte("k \n0\t1\tx\n\n"),
		[]byte("k \n0\t1\t2\t1,2,3_x\n\n"),
		[]byte("k \n-1\t2\t3\n\n"),
		[]byte("k"),
	} {
		r := NewArchiveReader(bytes.NewReader(in), "bad.ark")
		var err error
		for err == nil {
			_, err = r.Next()
		}
		if err == io.EOF {
			t.Errorf("%q: no error", in)
		} else if !strings.Contains(err.Error(), "bad.ark") {
			t.Errorf("%q: error does not name the file: %v", in, err)
		}
	}
}

func FuzzArchiveReader(f *testing.F) {
	good, _ := os.ReadFile("testdata/test5_lat_mapped.ark")
	f.Add(good[:600])
	txt, _ := os.ReadFile("testdata/test5_lat_mapped.txt")
	f.Add(txt[:800])
	f.Fuzz(func(t *testing.T, data []byte) {
		r := NewArchiveReader(bytes.NewReader(data), "fuzz")
		for i := 0; i < 100; i++ {
			e, err := r.Next()
			if err != nil {
				return
			}
			if e.Compact != nil {
				if bp, err := e.Compact.ShortestPath(); err == nil {
					bp.LinearSequence()
				}
				l := e.Compact.ToLattice()
				if len(l.States) < 64 {
					if d, err := DeterminizePruned(l, 10, DefaultDeterminizeOptions()); err == nil {
						if bp, err := d.ShortestPath(); err == nil {
							bp.LinearSequence()
						}
					}
				}
				var b bytes.Buffer
				e.Compact.WriteText(&b)
				e.Compact.WriteBinary(&b)
			} else {
				var b bytes.Buffer
				e.Lattice.WriteText(&b)
				e.Lattice.WriteBinary(&b)
			}
		}
	})
}

// The codecs through kaldiio's tables reproduce Kaldi's archives.
func TestCodecTables(t *testing.T) {
	sr, err := kaldiio.OpenSequentialReader("ark:testdata/test5_lat_mapped.ark", CompactLatticeCodec)
	if err != nil {
		t.Fatal(err)
	}
	defer sr.Close()
	var bin, txt bytes.Buffer
	bw, err := kaldiio.OpenTableWriter("ark:-", CompactLatticeCodec, kaldiio.WithStdout(&bin))
	if err != nil {
		t.Fatal(err)
	}
	tw, err := kaldiio.OpenTableWriter("ark,t:-", CompactLatticeCodec, kaldiio.WithStdout(&txt))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for sr.Next() {
		v := sr.Value()
		if err := bw.Write(sr.Key(), v); err != nil {
			t.Fatal(err)
		}
		if err := tw.Write(sr.Key(), v); err != nil {
			t.Fatal(err)
		}
		n++
	}
	if err := sr.Err(); err != nil || n != 5 {
		t.Fatalf("%d lattices, err %v", n, err)
	}
	bw.Close()
	tw.Close()
	wantB, _ := os.ReadFile("testdata/test5_lat_mapped.ark")
	wantT, _ := os.ReadFile("testdata/test5_lat_mapped.txt")
	if !bytes.Equal(bin.Bytes(), wantB) {
		t.Errorf("binary table differs from Kaldi's (%d vs %d bytes)", bin.Len(), len(wantB))
	}
	if txt.String() != string(wantT) {
		t.Errorf("text table differs:\n%s", firstDiff(txt.String(), string(wantT)))
	}
	// Text input through the Lattice codec expands compact lattices.
	lr, err := kaldiio.OpenSequentialReader("ark:testdata/test5_lat_mapped.txt", LatticeCodec)
	if err != nil {
		t.Fatal(err)
	}
	defer lr.Close()
	for lr.Next() {
		l := lr.Value()
		if _, _, _, err := l.ShortestPath(); err != nil {
			t.Errorf("%s: %v", lr.Key(), err)
		}
	}
	if err := lr.Err(); err != nil {
		t.Fatal(err)
	}
}

// The codec path through kaldiio's table reader never panics on arbitrary
// archive bytes.
func FuzzCompactLatticeTable(f *testing.F) {
	good, _ := os.ReadFile("testdata/test5_lat_mapped.ark")
	f.Add(good[:700])
	txt, _ := os.ReadFile("testdata/test5_lat_mapped.txt")
	f.Add(txt[:900])
	f.Fuzz(func(t *testing.T, data []byte) {
		sr, err := kaldiio.OpenSequentialReader("ark:-", CompactLatticeCodec, kaldiio.WithStdin(bytes.NewReader(data)))
		if err != nil {
			return
		}
		defer sr.Close()
		for i := 0; i < 50 && sr.Next(); i++ {
			v := sr.Value()
			v.Connect()
		}
	})
}

func TestHugeStateIDRefused(t *testing.T) {
	_, _, err := ReadText(bytes.NewReader([]byte("\n0\t268000000\t1\n\n")))
	if err == nil || !strings.Contains(err.Error(), "out of range") {
		t.Errorf("err %v", err)
	}
}

// A state-level lattice read as a CompactLattice has the same best paths.
func TestLatticeToCompact(t *testing.T) {
	for _, e := range readAll(t, "testdata/test5_lat_mapped.ark") {
		for _, lmwt := range []float32{7, 12, 17} {
			want := clone(e.Compact)
			want.Scale(LatticeScale(1, 1/lmwt))
			got := e.Compact.ToLattice().ToCompact()
			got.Scale(LatticeScale(1, 1/lmwt))
			pw, _ := want.ShortestPath()
			pg, err := got.ShortestPath()
			if err != nil {
				t.Fatal(err)
			}
			aw, ww, w1, _ := pw.LinearSequence()
			ag, wg, w2, _ := pg.LinearSequence()
			if !slices.Equal(aw, ag) || !slices.Equal(ww, wg) || math.Abs(float64(w1.Cost()-w2.Cost())) > 1e-3 {
				t.Errorf("%s lmwt %v: %v %v vs %v %v", e.Key, lmwt, wg, w2, ww, w1)
			}
		}
	}
}
