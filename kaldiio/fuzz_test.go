package kaldiio

import (
	"bytes"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/strode-asr/strode/internal/shareddata"
)

// Fuzz targets: every codec and the specifier parsers. Invariants: no
// panic; every error is an *Error naming a place and wrapping one of the
// package's sentinels (or io.ErrUnexpectedEOF); whatever decodes re-encodes
// and decodes again to the same value (binary) or to the same shape (text).
//
//	go test -run '^$' -fuzz FuzzMatrixCodec -fuzztime 5m -parallel 1 ./kaldiio

func addGoldenSeeds(f *testing.F, names ...string) {
	for _, n := range names {
		for _, dir := range append([]string{"testdata"}, shareddata.Candidates("kaldi-golden")...) {
			b, err := os.ReadFile(filepath.Join(dir, n))
			if err == nil {
				f.Add(b)
				break
			}
		}
	}
}

// objectSeeds turns archive files into single-object inputs: the bytes after
// the first "KEY " (the marker and the object).
func objectSeeds(f *testing.F, names ...string) {
	for _, n := range names {
		for _, dir := range append([]string{"testdata"}, shareddata.Candidates("kaldi-golden")...) {
			b, err := os.ReadFile(filepath.Join(dir, n))
			if err != nil {
				continue
			}
			if i := bytes.IndexByte(b, ' '); i >= 0 && !bytes.HasPrefix(b, []byte("\x00B")) {
				b = b[i+1:]
			}
			f.Add(b)
			break
		}
	}
}

func checkErr(t *testing.T, err error) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error without a place: %v", err)
	}
	if !errors.Is(err, ErrFormat) && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, ErrUnknownObject) && !errors.Is(err, ErrSpecifier) && !errors.Is(err, ErrCompress) {
		t.Fatalf("error wraps no sentinel: %v", err)
	}
}

// decode reads one object with its marker, as ReadObject does.
func decode[T any](data []byte, c Codec[T], v *T) (binary bool, err error) {
	r := NewReader(bytes.NewReader(data), "fuzz")
	r.SetSize(int64(len(data)))
	binary, err = r.ReadBinaryHeader()
	if err != nil {
		return
	}
	return binary, c.Read(r, binary, v)
}

func encode[T any](t *testing.T, c Codec[T], binary bool, v *T) []byte {
	var b bytes.Buffer
	w := NewWriter(&b)
	if binary {
		w.WriteBinaryHeader()
	}
	if err := c.Write(w, binary, v); err != nil {
		t.Fatalf("re-encoding a decoded value: %v", err)
	}
	w.Flush()
	return b.Bytes()
}

func sameBits32(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return false
		}
	}
	return true
}

func sameBits64(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

func FuzzMatrixCodec(f *testing.F) {
	objectSeeds(f, "mat.ark", "mat.txt.ark", "cmvn23.ark", "mat_cm.ark", "fbank23_cm3.ark", "fbank23_8k_cm.ark", "mat_single.bin", "mat_single.txt")
	f.Add([]byte("\x00BFM \x04\x00\x00\x00\x80\x04\x01\x00\x00\x00"))
	f.Add([]byte(" [ 1 2\n 3 4 ]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var m Matrix
		binary, err := decode(data, MatrixCodec, &m)
		if err != nil {
			checkErr(t, err)
			return
		}
		if len(m.Data) != m.Rows*m.Cols {
			t.Fatalf("%d values for %d x %d", len(m.Data), m.Rows, m.Cols)
		}
		var m2 Matrix
		if _, err := decode(encode(t, MatrixCodec, true, &m), MatrixCodec, &m2); err != nil {
			t.Fatalf("binary re-read: %v", err)
		}
		if m2.Rows != m.Rows || m2.Cols != m.Cols || !sameBits32(m.Data, m2.Data) {
			t.Fatal("binary round trip changed the matrix")
		}
		var m3 Matrix
		if _, err := decode(encode(t, MatrixCodec, false, &m), MatrixCodec, &m3); err != nil {
			t.Fatalf("text re-read: %v", err)
		}
		if m3.Rows != m.Rows || m3.Cols != m.Cols {
			t.Fatalf("text round trip changed the shape %dx%d -> %dx%d", m.Rows, m.Cols, m3.Rows, m3.Cols)
		}
		_ = binary
	})
}

func FuzzDoubleMatrixCodec(f *testing.F) {
	objectSeeds(f, "cmvn23.ark", "cmvn23.txt.ark", "mat.ark", "mat_cm.ark")
	f.Fuzz(func(t *testing.T, data []byte) {
		var m DoubleMatrix
		if _, err := decode(data, DoubleMatrixCodec, &m); err != nil {
			checkErr(t, err)
			return
		}
		var m2 DoubleMatrix
		if _, err := decode(encode(t, DoubleMatrixCodec, true, &m), DoubleMatrixCodec, &m2); err != nil {
			t.Fatalf("binary re-read: %v", err)
		}
		if m2.Rows != m.Rows || m2.Cols != m.Cols || !sameBits64(m.Data, m2.Data) {
			t.Fatal("binary round trip changed the matrix")
		}
		var m3 DoubleMatrix
		if _, err := decode(encode(t, DoubleMatrixCodec, false, &m), DoubleMatrixCodec, &m3); err != nil || m3.Rows != m.Rows || m3.Cols != m.Cols {
			t.Fatalf("text round trip: %v", err)
		}
	})
}

func FuzzVectorCodecs(f *testing.F) {
	objectSeeds(f, "vec.ark", "vec.txt.ark", "pdf_counts.vec", "pdf_counts.txt", "pdf_counts_asfloat.vec")
	f.Fuzz(func(t *testing.T, data []byte) {
		var v Vector
		if _, err := decode(data, VectorCodec, &v); err != nil {
			checkErr(t, err)
		} else {
			var v2 Vector
			if _, err := decode(encode(t, VectorCodec, true, &v), VectorCodec, &v2); err != nil || !sameBits32(v, v2) {
				t.Fatalf("float vector round trip: %v", err)
			}
			var v3 Vector
			if _, err := decode(encode(t, VectorCodec, false, &v), VectorCodec, &v3); err != nil || len(v3) != len(v) {
				t.Fatalf("float vector text round trip: %v", err)
			}
		}
		var d DoubleVector
		if _, err := decode(data, DoubleVectorCodec, &d); err != nil {
			checkErr(t, err)
		} else {
			var d2 DoubleVector
			if _, err := decode(encode(t, DoubleVectorCodec, true, &d), DoubleVectorCodec, &d2); err != nil || !sameBits64(d, d2) {
				t.Fatalf("double vector round trip: %v", err)
			}
		}
	})
}

func FuzzIntVectorCodec(f *testing.F) {
	objectSeeds(f, "ali.ark", "ali.txt.ark")
	f.Add([]byte("\x00B\x04\x03\x00\x00\x00\x01\x00\x00\x00\x02\x00\x00\x00\x03\x00\x00\x00"))
	f.Add([]byte("[ 1 2 3 ]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var v IntVector
		if binary, err := decode(data, IntVectorCodec, &v); err != nil {
			checkErr(t, err)
		} else {
			var v2 IntVector
			if _, err := decode(encode(t, IntVectorCodec, binary, &v), IntVectorCodec, &v2); err != nil || !equalInts(v, v2) {
				t.Fatalf("int vector round trip: %v %v %v", err, v, v2)
			}
		}
		// Kaldi's ReadIntegerVector layout (TransitionModel, trees).
		r := NewReader(bytes.NewReader(data), "fuzz")
		binary, err := r.ReadBinaryHeader()
		if err == nil {
			var iv []int32
			if iv, err = r.ReadIntVector(binary, nil); err == nil {
				var b bytes.Buffer
				w := NewWriter(&b)
				w.WriteIntVector(binary, iv)
				w.Flush()
				r2 := NewReader(&b, "again")
				if iv2, err := r2.ReadIntVector(binary, nil); err != nil || !equalInts(iv, iv2) {
					t.Fatalf("ReadIntVector round trip: %v", err)
				}
			}
		}
		if err != nil {
			checkErr(t, err)
		}
	})
}

func equalInts[S ~[]int32](a, b S) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func FuzzPosteriorCodec(f *testing.F) {
	f.Add([]byte("[ 1 0.5 7 0.5 ] [ ] [ 3 1 ] \n"))
	f.Add([]byte("\x00B\x04\x01\x00\x00\x00\x04\x01\x00\x00\x00\x04\x07\x00\x00\x00\x04\x00\x00\x80\x3f"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var p Posterior
		binary, err := decode(data, PosteriorCodec, &p)
		if err != nil {
			checkErr(t, err)
			return
		}
		var p2 Posterior
		if _, err := decode(encode(t, PosteriorCodec, true, &p), PosteriorCodec, &p2); err != nil || len(p2) != len(p) {
			t.Fatalf("posterior round trip: %v", err)
		}
		for i := range p {
			if len(p[i]) != len(p2[i]) {
				t.Fatal("posterior round trip changed a frame")
			}
			for j := range p[i] {
				if p[i][j].ID != p2[i][j].ID || math.Float32bits(p[i][j].Weight) != math.Float32bits(p2[i][j].Weight) {
					t.Fatal("posterior round trip changed an entry")
				}
			}
		}
		_ = binary
	})
}

func FuzzCompressedMatrix(f *testing.F) {
	objectSeeds(f, "mat_cm.ark", "fbank23_8k_cm.ark", "fbank23_cm3.ark", "fbank23_cm5.ark", "mat.ark")
	f.Fuzz(func(t *testing.T, data []byte) {
		var c CompressedMatrix
		if _, err := decode(data, CompressedMatrixCodec, &c); err != nil {
			checkErr(t, err)
			return
		}
		// Kept bytes copy exactly.
		enc := encode(t, CompressedMatrixCodec, true, &c)
		var c2 CompressedMatrix
		if _, err := decode(enc, CompressedMatrixCodec, &c2); err != nil {
			t.Fatalf("re-read: %v", err)
		}
		if !bytes.Equal(enc, encode(t, CompressedMatrixCodec, true, &c2)) {
			t.Fatal("compressed bytes changed on a copy")
		}
		// Decompress, and compress again with every method: no panic, and
		// what compresses decompresses to the same shape.
		var m Matrix
		c.DecompressTo(&m)
		if m.Rows*m.Cols > 1<<16 {
			return
		}
		for method := CompressionMethod(1); method <= 7; method++ {
			var c3 CompressedMatrix
			if err := c3.CompressFrom(&m, method); err != nil {
				if !errors.Is(err, ErrCompress) {
					t.Fatalf("compress error without ErrCompress: %v", err)
				}
				continue
			}
			var m3 Matrix
			c3.DecompressTo(&m3)
			if m3.Rows != m.Rows || m3.Cols != m.Cols {
				t.Fatalf("method %d changed the shape", method)
			}
		}
	})
}

func FuzzBasicCodecs(f *testing.F) {
	f.Add([]byte("\x00B\x04\x81\x00\x00\x00"))
	f.Add([]byte("129 \n"))
	f.Add([]byte("\x00B\x08\x00\x00\x00\x00\x00\x00\xf0\x3f"))
	f.Add([]byte("<TransitionModel> <Topology> T F 3 "))
	f.Add([]byte("-nan inf 1e-05\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var i int32
		if binary, err := decode(data, Int32Codec, &i); err != nil {
			checkErr(t, err)
		} else {
			var i2 int32
			if _, err := decode(encode(t, Int32Codec, binary, &i), Int32Codec, &i2); err != nil || i2 != i {
				t.Fatalf("int32 round trip: %v", err)
			}
		}
		var x float32
		if binary, err := decode(data, FloatCodec, &x); err != nil {
			checkErr(t, err)
		} else if binary {
			var x2 float32
			if _, err := decode(encode(t, FloatCodec, true, &x), FloatCodec, &x2); err != nil || math.Float32bits(x) != math.Float32bits(x2) {
				t.Fatalf("float round trip: %v", err)
			}
		}
		var d float64
		if _, err := decode(data, DoubleCodec, &d); err != nil {
			checkErr(t, err)
		}
		var tv TokenVector
		r := NewReader(bytes.NewReader(data), "fuzz")
		if err := TokenVectorCodec.Read(r, false, &tv); err != nil {
			checkErr(t, err)
		}
		// A sequence of tokens and basic values, as model readers use them.
		r = NewReader(bytes.NewReader(data), "fuzz")
		for k := 0; k < 8; k++ {
			var err error
			switch k % 4 {
			case 0:
				_, err = r.ReadToken(false)
			case 1:
				_, err = r.ReadBool(false)
			case 2:
				_, err = ReadBasicInt[uint16](r, k > 4)
			case 3:
				_, err = r.ReadFloat64(k > 4)
			}
			if err != nil {
				checkErr(t, err)
				break
			}
		}
	})
}

// FuzzArchive reads whole archives (any mix of objects, keys, text and
// binary) through the table layer, sequentially and by key.
func FuzzArchive(f *testing.F) {
	addGoldenSeeds(f, "mat.ark", "mat.txt.ark", "mat_cm.ark", "vec.ark", "ali.ark", "fbank23_8k_cm.ark")
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := OpenSequentialReader("ark:-", MatrixCodec, WithStdin(bytes.NewReader(data)))
		if err != nil {
			t.Fatal(err)
		}
		r.SetReuse(true)
		var keys []string
		for r.Next() {
			keys = append(keys, r.Key())
		}
		if err := r.Close(); err != nil {
			checkErr(t, err)
		}
		ra, err := OpenRandomAccessReader("ark:-", IntVectorCodec, WithStdin(bytes.NewReader(data)))
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range append(keys, "missing") {
			if _, err := ra.Value(k); err != nil && !errors.Is(err, ErrNotFound) {
				checkErr(t, err)
			}
		}
		ra.Close()
		p := NewReader(bytes.NewReader(data), "fuzz")
		var post Posterior
		if _, err := readKey(p); err == nil {
			if err := readObject(p, PosteriorCodec, false, &post); err != nil {
				checkErr(t, err)
			}
		}
	})
}

// FuzzSpecifiers covers rspecifiers, wspecifiers, scp lines and ranges.
func FuzzSpecifiers(f *testing.F) {
	for _, s := range []string{"ark:-", "scp,p:a.scp", "ark,scp,t:a.ark,a.scp", "ark,s,cs:gunzip -c x |", "ark:| gzip", "ark:foo.ark:123",
		"utt1 foo.ark:123[0:9,3:5]", "utt2 cat x |", "0:9,3:5", ":,:", "1:2"} {
		f.Add(s, 10, 6)
	}
	f.Fuzz(func(t *testing.T, s string, rows, cols int) {
		if rs, err := ParseRspecifier(s); err != nil {
			checkErr(t, err)
		} else if rs.Kind != Archive && rs.Kind != Script {
			t.Fatalf("kind %d", rs.Kind)
		}
		if ws, err := ParseWspecifier(s); err != nil {
			checkErr(t, err)
		} else if ws.Kind == ArchiveAndScript && (ws.ArkPath == "" && ws.ScpPath == "") {
			t.Fatal("empty paths")
		}
		if e, err := ParseScpLine(s); err == nil {
			if e.Key == "" || e.Rx == "" {
				t.Fatalf("empty key or path: %+v", e)
			}
		} else if !errors.Is(err, ErrSpecifier) {
			t.Fatalf("scp error without ErrSpecifier: %v", err)
		}
		rows, cols = rows%100000, cols%100000
		if rows < 1 || cols < 1 {
			return
		}
		if rg, err := ParseMatrixRange(s, rows, cols); err == nil {
			if rg.R0 < 0 || rg.R1 >= rows || rg.R0 > rg.R1 || rg.C0 < 0 || rg.C1 >= cols || rg.C0 > rg.C1 {
				t.Fatalf("range %+v outside %dx%d", rg, rows, cols)
			}
		} else if !errors.Is(err, ErrFormat) {
			t.Fatalf("range error without ErrFormat: %v", err)
		}
	})
}
