package rotmnist

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strode-asr/strode/internal/shareddata"
)

// idxBytes builds an IDX file: magic, big-endian dims, data.
func idxBytes(magic uint32, dims []uint32, data []byte) []byte {
	var b bytes.Buffer
	binary.Write(&b, binary.BigEndian, magic)
	for _, d := range dims {
		binary.Write(&b, binary.BigEndian, d)
	}
	b.Write(data)
	return b.Bytes()
}

func gzipped(p []byte) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(p)
	zw.Close()
	return b.Bytes()
}

func seq(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i * 7)
	}
	return b
}

func TestReadImages(t *testing.T) {
	good := idxBytes(MagicImages, []uint32{3, 2, 4}, seq(24))
	cases := []struct {
		name string
		in   []byte
		err  string // substring of the error; "" for success
	}{
		{"raw", good, ""},
		{"gzip", gzipped(good), ""},
		{"empty set", idxBytes(MagicImages, []uint32{0, 2, 4}, nil), ""},
		{"empty file", nil, "offset 0: truncated: magic number"},
		{"labels magic", idxBytes(MagicLabels, []uint32{3}, seq(3)), "magic 0x00000801: want 0x00000803 (images)"},
		{"not idx", []byte("P5\n28 28\n255\n"), "offset 0: bad magic"},
		{"int32 elements", idxBytes(0x00000c03, []uint32{3, 2, 4}, seq(96)), "offset 2: element type 0x0c not supported"},
		{"no dims", idxBytes(0x00000800, nil, nil), "offset 3: 0 dimensions"},
		{"truncated dims", idxBytes(MagicImages, []uint32{3, 2}, nil), "offset 12: truncated: size of dimension 2"},
		{"zero rows", idxBytes(MagicImages, []uint32{3, 0, 4}, nil), "offset 8: item size"},
		{"huge item", idxBytes(MagicImages, []uint32{1, 1 << 16, 1 << 16}, nil), "offset 12: item size"},
		{"truncated image", good[:16+8+5], "offset 24: truncated: item 1 of 3 needs 8 bytes, 5 left"},
		{"truncated gzip image", gzipped(good[:16+8+5]), "offset 24: truncated: item 1 of 3"},
		{"trailing data", append(append([]byte{}, good...), 9), "offset 40: trailing data"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			im, err := ReadImages(bytes.NewReader(c.in), "x.idx")
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) || !strings.HasPrefix(err.Error(), "x.idx: ") {
					t.Fatalf("error %v, want x.idx: … %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if im.Rows != 2 || im.Cols != 4 || len(im.Pixels) != im.N*8 {
				t.Fatalf("got %d images of %dx%d, %d bytes", im.N, im.Rows, im.Cols, len(im.Pixels))
			}
			if im.N == 3 && !bytes.Equal(im.Image(2), seq(24)[16:]) {
				t.Fatalf("image 2 = %v", im.Image(2))
			}
		})
	}
}

func TestReadLabels(t *testing.T) {
	l, err := ReadLabels(bytes.NewReader(gzipped(idxBytes(MagicLabels, []uint32{4}, []byte{7, 2, 1, 0}))), "l")
	if err != nil || !bytes.Equal(l, []byte{7, 2, 1, 0}) {
		t.Fatalf("labels %v, %v", l, err)
	}
	if _, err := ReadLabels(bytes.NewReader(idxBytes(MagicLabels, []uint32{4}, []byte{7})), "l"); err == nil ||
		!strings.Contains(err.Error(), "l: offset 9: truncated: item 1 of 4") {
		t.Fatalf("error %v", err)
	}
}

// The Reader hands out one item at a time and counts offsets in the IDX stream.
func TestReaderStreams(t *testing.T) {
	rd, err := NewReader(bytes.NewReader(gzipped(idxBytes(MagicImages, []uint32{2, 1, 3}, seq(6)))), "s")
	if err != nil {
		t.Fatal(err)
	}
	if rd.Magic() != MagicImages || rd.ItemSize() != 3 || rd.Offset() != 16 || len(rd.Dims()) != 3 {
		t.Fatalf("header: magic %#x item %d offset %d dims %v", rd.Magic(), rd.ItemSize(), rd.Offset(), rd.Dims())
	}
	buf := make([]byte, 3)
	for i := 0; i < 2; i++ {
		got, err := rd.Next(buf)
		if err != nil || !bytes.Equal(got, seq(6)[3*i:3*i+3]) || &got[0] != &buf[0] {
			t.Fatalf("item %d: %v %v (buffer reused: %v)", i, got, err, err == nil && &got[0] == &buf[0])
		}
	}
	if _, err := rd.Next(buf); err != io.EOF || rd.Offset() != 22 {
		t.Fatalf("after the last item: %v at offset %d", err, rd.Offset())
	}
}

func TestLoadMNISTMissing(t *testing.T) {
	for _, dir := range []string{"", t.TempDir()} {
		_, err := LoadMNIST(dir)
		if !errors.Is(err, ErrNoMNIST) {
			t.Fatalf("dir %q: error %v does not wrap ErrNoMNIST", dir, err)
		}
		for _, want := range append(MNISTFiles[:], "--mnist-dir", "http://yann.lecun.com/exdb/mnist/") {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("dir %q: error %q does not mention %s", dir, err, want)
			}
		}
	}
}

// Uncompressed files (the names without .gz) are found too; a count
// mismatch between images and labels is an error.
func TestLoadMNISTUncompressed(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, b []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("train-images-idx3-ubyte", idxBytes(MagicImages, []uint32{2, 2, 2}, seq(8)))
	write("train-labels-idx1-ubyte.gz", gzipped(idxBytes(MagicLabels, []uint32{2}, []byte{1, 2})))
	write("t10k-images-idx3-ubyte", idxBytes(MagicImages, []uint32{1, 2, 2}, seq(4)))
	write("t10k-labels-idx1-ubyte", idxBytes(MagicLabels, []uint32{1}, []byte{3}))
	m, err := LoadMNIST(dir)
	if err != nil || m.Train.N != 2 || m.Test.N != 1 || m.TestLabels[0] != 3 {
		t.Fatalf("LoadMNIST: %+v, %v", m, err)
	}
	write("t10k-labels-idx1-ubyte", idxBytes(MagicLabels, []uint32{2}, []byte{3, 4}))
	if _, err := LoadMNIST(dir); err == nil || !strings.Contains(err.Error(), "t10k: 1 images (header 1) but 2 labels") {
		t.Fatalf("mismatch: %v", err)
	}
}

// The project's MNIST copy: counts, label histograms and pixel mean as its
// README states (checked against the official files' checksums there).
func TestRealMNIST(t *testing.T) {
	dir := shareddata.Full(t, "data/mnist")
	m, err := LoadMNIST(dir)
	if err != nil {
		t.Fatal(err)
	}
	if m.Train.N != 60000 || m.Test.N != 10000 || m.Train.Rows != 28 || m.Train.Cols != 28 {
		t.Fatalf("train %d, test %d, %dx%d", m.Train.N, m.Test.N, m.Train.Rows, m.Train.Cols)
	}
	hist := func(l []uint8) (h [10]int) {
		for _, v := range l {
			h[v]++
		}
		return
	}
	if h := hist(m.TrainLabels); h != [10]int{5923, 6742, 5958, 6131, 5842, 5421, 5918, 6265, 5851, 5949} {
		t.Errorf("train labels %v", h)
	}
	if h := hist(m.TestLabels); h != [10]int{980, 1135, 1032, 1010, 982, 892, 958, 1028, 974, 1009} {
		t.Errorf("test labels %v", h)
	}
	var sum float64
	for _, p := range m.Train.Pixels {
		sum += float64(p)
	}
	if mean := sum / float64(len(m.Train.Pixels)) / 255; math.Abs(mean-0.13066) > 5e-5 {
		t.Errorf("train pixel mean %.5f, want 0.13066", mean)
	}
}

func BenchmarkReadImagesGzip(b *testing.B) {
	in := gzipped(idxBytes(MagicImages, []uint32{1000, 28, 28}, seq(1000*784)))
	b.SetBytes(1000 * 784)
	for i := 0; i < b.N; i++ {
		if _, err := ReadImages(bytes.NewReader(in), "b"); err != nil {
			b.Fatal(err)
		}
	}
}
