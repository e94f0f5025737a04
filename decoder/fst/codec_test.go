package fst

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/strode-asr/strode/kaldiio"
)

func readFstArchive(t *testing.T, rspec string) (keys []string, fsts []*VectorFst) {
	t.Helper()
	sr, err := kaldiio.OpenSequentialReader(rspec, Codec)
	if err != nil {
		t.Fatal(err)
	}
	defer sr.Close()
	for sr.Next() {
		v := sr.Value()
		keys = append(keys, sr.Key())
		fsts = append(fsts, v.Copy())
	}
	if err := sr.Err(); err != nil {
		t.Fatal(err)
	}
	return keys, fsts
}

// Kaldi's binary and text FST archives read to the same FSTs, and we write
// both forms byte-identically.
func TestFstArchives(t *testing.T) {
	kb, fb := readFstArchive(t, "ark:testdata/test5_graphs.fsts")
	kt, ft := readFstArchive(t, "ark:testdata/test5_graphs.txt")
	if len(kb) != 5 || len(kt) != 5 {
		t.Fatalf("%d binary and %d text entries, want 5", len(kb), len(kt))
	}
	for i := range kb {
		if kb[i] != kt[i] || !fb[i].ApproxEqual(ft[i], 1e-5) {
			t.Errorf("entry %d (%s/%s): binary and text archives differ", i, kb[i], kt[i])
		}
	}
	dir := t.TempDir()
	for _, tc := range []struct{ spec, golden string }{
		{"ark:" + filepath.Join(dir, "g.fsts"), "testdata/test5_graphs.fsts"},
		{"ark,t:" + filepath.Join(dir, "g.txt"), "testdata/test5_graphs.txt"},
	} {
		tw, err := kaldiio.OpenTableWriter(tc.spec, Codec)
		if err != nil {
			t.Fatal(err)
		}
		for i := range kb {
			if err := tw.Write(kb[i], *fb[i]); err != nil {
				t.Fatal(err)
			}
		}
		if err := tw.Close(); err != nil {
			t.Fatal(err)
		}
		got, _ := os.ReadFile(tc.spec[len("ark:"):])
		if tc.spec[3] == ',' {
			got, _ = os.ReadFile(tc.spec[len("ark,t:"):])
		}
		want, _ := os.ReadFile(tc.golden)
		if tc.spec[3] != ',' {
			// Binary: equal up to the header's properties word, which holds
			// what each writer knew about the FST.
			got, want = maskFstProperties(t, got), maskFstProperties(t, want)
		}
		if string(got) != string(want) {
			t.Errorf("%s differs from Kaldi's %s", tc.spec, tc.golden)
		}
	}
}

// maskFstProperties zeroes the properties word of every FST header in a
// binary archive.
func maskFstProperties(t *testing.T, ark []byte) []byte {
	t.Helper()
	b := bytes.Clone(ark)
	magic := binary.LittleEndian.AppendUint32(nil, fstMagic)
	for i := 0; ; {
		j := bytes.Index(b[i:], magic)
		if j < 0 {
			return b
		}
		at := i + j + 4
		for range 2 { // fst type, arc type
			n := int(binary.LittleEndian.Uint32(b[at:]))
			at += 4 + n
		}
		at += 8 // version, flags
		copy(b[at:at+8], make([]byte, 8))
		i = at + 8
	}
}

func FuzzCodec(f *testing.F) {
	for _, p := range []string{"testdata/test5_graphs.fsts", "testdata/test5_graphs.txt"} {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		// Skip the key: the codec sees the object.
		i := bytes.IndexByte(b, ' ')
		f.Add(b[i+1 : min(len(b), i+1+3000)])
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var v VectorFst
		if Codec.Read(kaldiio.NewReader(bytes.NewReader(data), "fuzz"), true, &v) != nil {
			return
		}
		if err := v.Validate(); err != nil {
			t.Fatalf("codec returned an invalid FST: %v", err)
		}
	})
}

func TestReadRx(t *testing.T) {
	want := mustReadFst(t, "testdata/L.fst")
	for _, rx := range []string{"testdata/L.fst", "cat testdata/L.fst |"} {
		f, err := ReadRx(rx)
		if err != nil {
			t.Fatalf("%s: %v", rx, err)
		}
		if !f.Equal(want) {
			t.Errorf("%s: differs", rx)
		}
	}
	if _, err := ReadRx("testdata/words.txt"); !errors.Is(err, ErrNotFst) {
		t.Errorf("text file as FST: %v", err)
	}
}
