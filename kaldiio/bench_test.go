package kaldiio

import (
	"bytes"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// randomMatrix returns a rows×cols matrix of fbank-like values (seeded).
func randomMatrix(rng *rand.Rand, rows, cols int) Matrix {
	m := NewMatrix(rows, cols)
	for i := range m.Data {
		m.Data[i] = float32(8 + 4*rng.NormFloat64())
	}
	return m
}

// writeArk writes n random matrices (rows varying around meanRows) to path
// with codec c, compressing with method when method > 0.
func writeArk(tb testing.TB, path string, n, meanRows, cols int, method CompressionMethod, seed int64) int64 {
	rng := rand.New(rand.NewSource(seed))
	spec := "ark:" + path
	var werr error
	if method > 0 {
		w, err := OpenTableWriter(spec, CompressedMatrixCodec)
		if err != nil {
			tb.Fatal(err)
		}
		for i := 0; i < n; i++ {
			m := randomMatrix(rng, meanRows/2+rng.Intn(meanRows), cols)
			c, err := Compress(&m, method)
			if err != nil {
				tb.Fatal(err)
			}
			w.Write("utt"+itoa(i), c)
		}
		werr = w.Close()
	} else {
		w, err := OpenTableWriter(spec, MatrixCodec)
		if err != nil {
			tb.Fatal(err)
		}
		for i := 0; i < n; i++ {
			w.Write("utt"+itoa(i), randomMatrix(rng, meanRows/2+rng.Intn(meanRows), cols))
		}
		werr = w.Close()
	}
	if werr != nil {
		tb.Fatal(werr)
	}
	st, err := os.Stat(path)
	if err != nil {
		tb.Fatal(err)
	}
	return st.Size()
}

var (
	bigArkOnce sync.Once
	bigArkPath string
	bigArkSize int64
	bigArkN    = 1100 // × ~600 rows × 40 cols × 4 bytes ≈ 106 MB
)

// bigArk is a ≥ 100 MB binary float archive in a temporary folder, made
// once per test binary.
func bigArk(b *testing.B) (string, int64) {
	bigArkOnce.Do(func() {
		dir, err := os.MkdirTemp("", "kaldiio-bench")
		if err != nil {
			b.Fatal(err)
		}
		bigArkPath = filepath.Join(dir, "big.ark")
		bigArkSize = writeArk(b, bigArkPath, bigArkN, 600, 40, 0, 1)
	})
	return bigArkPath, bigArkSize
}

// BenchmarkReadFloatArk streams a ≥ 100 MB float archive with the reuse
// API. MB/s is read throughput; allocs/op is per whole archive (divide by
// matrices/op for allocations per matrix).
func BenchmarkReadFloatArk(b *testing.B) {
	path, size := bigArk(b)
	b.SetBytes(size)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		r, err := OpenSequentialReader("ark:"+path, MatrixCodec)
		if err != nil {
			b.Fatal(err)
		}
		r.SetReuse(true)
		n := 0
		for r.Next() {
			n++
		}
		if err := r.Close(); err != nil || n != bigArkN {
			b.Fatal(n, err)
		}
	}
	b.ReportMetric(float64(bigArkN), "matrices/op")
}

// BenchmarkRawRead is the peer in the same process: the same file read
// with io.Copy into io.Discard (what `cat FILE > /dev/null` does).
func BenchmarkRawRead(b *testing.B) {
	path, size := bigArk(b)
	b.SetBytes(size)
	buf := make([]byte, 128<<10)
	for i := 0; i < b.N; i++ {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		io.CopyBuffer(io.Discard, struct{ io.Reader }{f}, buf)
		f.Close()
	}
}

func benchDecompress(b *testing.B, method CompressionMethod) {
	rng := rand.New(rand.NewSource(2))
	m := randomMatrix(rng, 1000, 40)
	c, err := Compress(&m, method)
	if err != nil {
		b.Fatal(err)
	}
	var out Matrix
	b.SetBytes(int64(4 * m.Rows * m.Cols)) // bytes of floats produced
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		c.DecompressTo(&out)
	}
}

// Decompression of a 1000×40 matrix; MB/s counts the float32 output.
func BenchmarkDecompressCM(b *testing.B)  { benchDecompress(b, SpeechFeature) }
func BenchmarkDecompressCM2(b *testing.B) { benchDecompress(b, TwoByteAuto) }
func BenchmarkDecompressCM3(b *testing.B) { benchDecompress(b, OneByteAuto) }

func BenchmarkCompressCM(b *testing.B) {
	rng := rand.New(rand.NewSource(3))
	m := randomMatrix(rng, 1000, 40)
	var c CompressedMatrix
	b.SetBytes(int64(4 * m.Rows * m.Cols))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		c.CompressFrom(&m, SpeechFeature)
	}
}

// BenchmarkReadCompressedArk streams a CM archive (read + decompress).
func BenchmarkReadCompressedArk(b *testing.B) {
	dir := b.TempDir()
	path := filepath.Join(dir, "cm.ark")
	writeArk(b, path, 200, 600, 40, SpeechFeature, 4)
	b.ReportAllocs()
	var floats int64
	r, _ := OpenSequentialReader("ark:"+path, MatrixCodec)
	for r.Next() {
		floats += int64(len(r.Value().Data))
	}
	r.Close()
	b.SetBytes(4 * floats)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, err := OpenSequentialReader("ark:"+path, MatrixCodec)
		if err != nil {
			b.Fatal(err)
		}
		r.SetReuse(true)
		for r.Next() {
		}
		if err := r.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWriteFloatArk writes matrices to a buffer (binary).
func BenchmarkWriteFloatArk(b *testing.B) {
	rng := rand.New(rand.NewSource(5))
	m := randomMatrix(rng, 600, 40)
	var buf bytes.Buffer
	w := NewWriter(&buf)
	b.SetBytes(int64(4 * m.Rows * m.Cols))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		buf.Reset()
		MatrixCodec.Write(w, true, &m)
		w.Flush()
	}
}

// With SetReuse, streaming allocates nothing per matrix: float, double,
// compressed (CM, CM2, CM3) archives and scripts pointing into them.
func TestReuseZeroAllocsPerMatrix(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name   string
		method CompressionMethod
	}{{"FM", 0}, {"CM", SpeechFeature}, {"CM2", TwoByteAuto}, {"CM3", OneByteAuto}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.name+".ark")
			scp := filepath.Join(dir, tc.name+".scp")
			// Equal sizes, so buffers need not grow after the first entry.
			rng := rand.New(rand.NewSource(6))
			w, err := OpenTableWriter("ark,scp:"+path+","+scp, CompressedMatrixCodec)
			if err != nil {
				t.Fatal(err)
			}
			fw, _ := OpenTableWriter("ark:"+path+".fm", MatrixCodec)
			for i := 0; i < 400; i++ {
				m := randomMatrix(rng, 50, 13)
				c, _ := Compress(&m, max(tc.method, SpeechFeature))
				w.Write("u"+itoa(i), c)
				fw.Write("u"+itoa(i), m)
			}
			w.Close()
			fw.Close()
			specs := []string{"ark:" + path, "scp:" + scp}
			if tc.method == 0 {
				specs = []string{"ark:" + path + ".fm"}
			}
			for _, spec := range specs {
				r, err := OpenSequentialReader(spec, MatrixCodec)
				if err != nil {
					t.Fatal(err)
				}
				r.SetReuse(true)
				for i := 0; i < 10; i++ {
					r.Next()
				}
				allocs := testing.AllocsPerRun(300, func() {
					if !r.Next() {
						t.Fatal("archive ended early", r.Err())
					}
				})
				r.Close()
				if allocs != 0 {
					t.Errorf("%s: %v allocations per matrix", spec, allocs)
				}
			}
		})
	}
}
