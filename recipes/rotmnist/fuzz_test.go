package rotmnist

import (
	"bytes"
	"io"
	"testing"
)

// FuzzReadIDX: any bytes give images or an error naming the file, never a
// panic; what is returned is consistent with its header.
func FuzzReadIDX(f *testing.F) {
	img := idxBytes(MagicImages, []uint32{3, 2, 4}, seq(24))
	f.Add(img)
	f.Add(gzipped(img))
	f.Add(idxBytes(MagicLabels, []uint32{4}, []byte{1, 2, 3, 4}))
	f.Add(img[:20])
	f.Add([]byte{0x1f, 0x8b, 0, 0})
	f.Fuzz(func(t *testing.T, in []byte) {
		im, err := ReadImages(bytes.NewReader(in), "fuzz")
		if err != nil {
			if len(err.Error()) < 6 || err.Error()[:6] != "fuzz: " {
				t.Fatalf("error %q does not name the file", err)
			}
		} else if len(im.Pixels) != im.N*im.Rows*im.Cols {
			t.Fatalf("%d images of %dx%d in %d bytes", im.N, im.Rows, im.Cols, len(im.Pixels))
		}
		if l, err := ReadLabels(bytes.NewReader(in), "fuzz"); err == nil && len(l) > len(in) {
			t.Fatalf("%d labels from %d bytes", len(l), len(in))
		}
		if rd, err := NewReader(bytes.NewReader(in), "fuzz"); err == nil {
			for {
				if _, err := rd.Next(nil); err != nil {
					if err != io.EOF && rd.Offset() > int64(len(in))*1100 {
						t.Fatalf("offset %d past any decompressed size", rd.Offset())
					}
					break
				}
			}
		}
	})
}

// FuzzReadDataset: a mutated dataset file loads or errors, never panics;
// what loads writes back to the same bytes.
func FuzzReadDataset(f *testing.F) {
	o := DefaultDataOptions()
	o.NumTrain, o.NumVal, o.NumTest, o.VideoLength, o.CanvasSize = 2, 1, 1, 2, 8
	o.PositionMean, o.PositionStd = -10, 0
	d, err := Generate(o, synthMNIST(1), 1)
	if err != nil {
		f.Fatal(err)
	}
	var b bytes.Buffer
	d.Write(&b)
	f.Add(b.Bytes())
	f.Add(b.Bytes()[:100])
	f.Fuzz(func(t *testing.T, in []byte) {
		d, err := Read(bytes.NewReader(in), "fuzz")
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := d.Write(&out); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out.Bytes(), in) {
			t.Fatal("a file that loads does not write back to the same bytes")
		}
	})
}
