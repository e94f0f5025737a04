package rotmnist

import (
	"bufio"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// IDX magic numbers: two zero bytes, the element type (0x08 = unsigned
// byte, the only type MNIST uses) and the number of dimensions.
const (
	MagicImages = 0x00000803 // unsigned bytes, 3 dimensions: count × rows × cols
	MagicLabels = 0x00000801 // unsigned bytes, 1 dimension: count
)

// maxItemBytes bounds one item (image) so that a corrupt header cannot ask
// for an absurd buffer; MNIST items are 784 bytes.
const maxItemBytes = 1 << 24

// Reader streams the items of an IDX file (gzip-compressed or raw; the two
// gzip magic bytes decide) one at a time, so a 47 MB file never needs a
// second copy in memory. Errors name the file and the byte offset in the
// (decompressed) IDX stream.
type Reader struct {
	name   string
	r      *bufio.Reader
	closer io.Closer // the gzip reader, or nil
	off    int64     // bytes of the IDX stream consumed
	magic  uint32
	dims   []int
	item   int // bytes per item: product of dims[1:]
	next   int // index of the next item
}

// NewReader reads the IDX header from r; name is used in error messages.
func NewReader(r io.Reader, name string) (*Reader, error) {
	br := bufio.NewReader(r)
	rd := &Reader{name: name, r: br}
	if head, err := br.Peek(2); err == nil && head[0] == 0x1f && head[1] == 0x8b {
		gz, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("%s: gzip header: %w", name, err)
		}
		rd.r, rd.closer = bufio.NewReader(gz), gz
	}
	var hdr [4]byte
	if err := rd.full(hdr[:], "magic number"); err != nil {
		return nil, err
	}
	rd.magic = binary.BigEndian.Uint32(hdr[:])
	if hdr[0] != 0 || hdr[1] != 0 {
		return nil, rd.errorf(0, "bad magic %#08x: an IDX file starts with two zero bytes", rd.magic)
	}
	if hdr[2] != 0x08 {
		return nil, rd.errorf(2, "element type %#02x not supported (only 0x08, unsigned byte)", hdr[2])
	}
	n := int(hdr[3])
	if n < 1 || n > 4 {
		return nil, rd.errorf(3, "%d dimensions: want 1 to 4", n)
	}
	rd.item = 1
	for i := 0; i < n; i++ {
		at := rd.off
		if err := rd.full(hdr[:], fmt.Sprintf("size of dimension %d", i)); err != nil {
			return nil, err
		}
		d := binary.BigEndian.Uint32(hdr[:])
		if d > 1<<31-1 {
			return nil, rd.errorf(at, "dimension %d has size %d", i, d)
		}
		rd.dims = append(rd.dims, int(d))
		if i > 0 {
			if d == 0 || rd.item > maxItemBytes/int(d) {
				return nil, rd.errorf(at, "item size %v is 0 or over %d bytes", rd.dims[1:], maxItemBytes)
			}
			rd.item *= int(d)
		}
	}
	return rd, nil
}

// Magic is the header's magic number (MagicImages, MagicLabels, …).
func (rd *Reader) Magic() uint32 { return rd.magic }

// Dims are the dimension sizes; Dims()[0] is the number of items.
func (rd *Reader) Dims() []int { return append([]int(nil), rd.dims...) }

// ItemSize is the number of bytes of one item (rows·cols for images, 1 for labels).
func (rd *Reader) ItemSize() int { return rd.item }

// Offset is the number of bytes of the IDX stream read so far.
func (rd *Reader) Offset() int64 { return rd.off }

// Next reads the next item into dst[:ItemSize()] (allocating when dst is
// too short) and returns it; after the last item it returns io.EOF.
func (rd *Reader) Next(dst []byte) ([]byte, error) {
	if rd.next >= rd.dims[0] {
		return nil, io.EOF
	}
	if cap(dst) < rd.item {
		dst = make([]byte, rd.item)
	}
	dst = dst[:rd.item]
	if err := rd.full(dst, fmt.Sprintf("item %d of %d", rd.next, rd.dims[0])); err != nil {
		return nil, err
	}
	rd.next++
	return dst, nil
}

// Close releases the gzip reader, if any (not the underlying reader).
func (rd *Reader) Close() error {
	if rd.closer != nil {
		return rd.closer.Close()
	}
	return nil
}

// end checks that the stream ends after the last item.
func (rd *Reader) end() error {
	if _, err := rd.r.ReadByte(); err == nil {
		return rd.errorf(rd.off, "trailing data after the %d items the header declares", rd.dims[0])
	} else if err != io.EOF {
		return rd.errorf(rd.off, "%w", err)
	}
	return nil
}

func (rd *Reader) full(b []byte, what string) error {
	n, err := io.ReadFull(rd.r, b)
	at := rd.off
	rd.off += int64(n)
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return rd.errorf(at, "truncated: %s needs %d bytes, %d left", what, len(b), n)
	}
	if err != nil {
		return rd.errorf(at, "reading %s: %w", what, err)
	}
	return nil
}

func (rd *Reader) errorf(off int64, format string, args ...any) error {
	return fmt.Errorf("%s: offset %d: %w", rd.name, off, fmt.Errorf(format, args...))
}

// Images is a set of equally sized 8-bit grey images, row-major, one after
// the other: image i is Pixels[i·Rows·Cols : (i+1)·Rows·Cols], pixel (y, x)
// at y·Cols + x, 0 = background, 255 = ink.
type Images struct {
	N, Rows, Cols int
	Pixels        []uint8
}

// Image returns image i (a view, not a copy).
func (im *Images) Image(i int) []uint8 {
	s := im.Rows * im.Cols
	return im.Pixels[i*s : (i+1)*s : (i+1)*s]
}

// ReadImages reads an IDX image file (magic 0x00000803).
func ReadImages(r io.Reader, name string) (*Images, error) {
	rd, err := NewReader(r, name)
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	if rd.magic != MagicImages {
		return nil, rd.errorf(0, "magic %#08x: want %#08x (images)", rd.magic, MagicImages)
	}
	im := &Images{N: rd.dims[0], Rows: rd.dims[1], Cols: rd.dims[2]}
	// Grow with the data actually read, never trusting the declared count.
	for {
		im.Pixels = append(im.Pixels, make([]byte, rd.item)...)
		tail := im.Pixels[len(im.Pixels)-rd.item:]
		if _, err := rd.Next(tail); err == io.EOF {
			im.Pixels = im.Pixels[:len(im.Pixels)-rd.item]
			if err := rd.end(); err != nil {
				return nil, err
			}
			return im, nil
		} else if err != nil {
			return nil, err
		}
	}
}

// ReadLabels reads an IDX label file (magic 0x00000801).
func ReadLabels(r io.Reader, name string) ([]uint8, error) {
	rd, err := NewReader(r, name)
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	if rd.magic != MagicLabels {
		return nil, rd.errorf(0, "magic %#08x: want %#08x (labels)", rd.magic, MagicLabels)
	}
	var labels []uint8
	var b [1]byte
	for {
		if _, err := rd.Next(b[:]); err == io.EOF {
			if err := rd.end(); err != nil {
				return nil, err
			}
			return labels, nil
		} else if err != nil {
			return nil, err
		}
		labels = append(labels, b[0])
	}
}

// MNIST holds the two MNIST sets: Train (60,000 digits) and Test (10,000).
type MNIST struct {
	Train, Test             *Images
	TrainLabels, TestLabels []uint8
}

// MNISTFiles are the four file names LoadMNIST looks for (each also
// accepted without the .gz suffix, uncompressed).
var MNISTFiles = [4]string{
	"train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz",
	"t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz",
}

// ErrNoMNIST is wrapped by LoadMNIST's error when a file is missing.
var ErrNoMNIST = errors.New("MNIST files not found")

// LoadMNIST reads the four MNIST files from dir. When one is missing the
// error says where to put them and where to download them.
func LoadMNIST(dir string) (*MNIST, error) {
	if dir == "" {
		return nil, fmt.Errorf("rotmnist: %w: no --mnist-dir given; %s", ErrNoMNIST, mnistHelp)
	}
	var m MNIST
	images := []**Images{&m.Train, nil, &m.Test, nil}
	labels := []*[]uint8{nil, &m.TrainLabels, nil, &m.TestLabels}
	for i, base := range MNISTFiles {
		path := filepath.Join(dir, base)
		f, err := os.Open(path)
		if errors.Is(err, os.ErrNotExist) {
			path = filepath.Join(dir, base[:len(base)-3])
			f, err = os.Open(path)
		}
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("rotmnist: %w: --mnist-dir %s has no %s (nor %s); %s",
				ErrNoMNIST, dir, base, base[:len(base)-3], mnistHelp)
		}
		if err != nil {
			return nil, fmt.Errorf("rotmnist: %w", err)
		}
		if images[i] != nil {
			*images[i], err = ReadImages(f, path)
		} else {
			*labels[i], err = ReadLabels(f, path)
		}
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("rotmnist: %w", err)
		}
	}
	for _, p := range []struct {
		im *Images
		l  []uint8
		s  string
	}{{m.Train, m.TrainLabels, "train"}, {m.Test, m.TestLabels, "t10k"}} {
		if p.im.N != len(p.l) || len(p.im.Pixels) != p.im.N*p.im.Rows*p.im.Cols {
			return nil, fmt.Errorf("rotmnist: %s: %d images (header %d) but %d labels", p.s, len(p.im.Pixels)/(p.im.Rows*p.im.Cols), p.im.N, len(p.l))
		}
		if p.im.N == 0 {
			return nil, fmt.Errorf("rotmnist: %s: no images", p.s)
		}
	}
	if m.Train.Rows != m.Test.Rows || m.Train.Cols != m.Test.Cols {
		return nil, fmt.Errorf("rotmnist: train images are %dx%d, t10k %dx%d", m.Train.Rows, m.Train.Cols, m.Test.Rows, m.Test.Cols)
	}
	return &m, nil
}

const mnistHelp = "put train-images-idx3-ubyte.gz, train-labels-idx1-ubyte.gz, t10k-images-idx3-ubyte.gz and " +
	"t10k-labels-idx1-ubyte.gz (gzip, or uncompressed without .gz) in one folder and pass it with --mnist-dir " +
	"(download: http://yann.lecun.com/exdb/mnist/ or a mirror such as https://ossci-datasets.s3.amazonaws.com/mnist/; " +
	"the project's copy is ../shared/data/mnist)"
