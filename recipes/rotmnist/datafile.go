package rotmnist

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"math"
	"os"

	"github.com/strode-asr/strode/internal/atomicfile"
)

// The dataset file: little-endian, in this order —
//
//	"ROTMNIST"  8 bytes, then uint32 version (1)
//	uint32 n, then n bytes: the DataOptions as JSON
//	int64 seed; uint32 frames, height, width
//	per set (train, val, test): uint32 videos; labels [videos]uint8;
//	    sources, x0, y0 [videos]int32; times, angles [videos·frames]float64;
//	    pixels [videos·frames·height·width]uint8
//	uint32 CRC-32 (IEEE) of every byte before it.
const (
	fileMagic   = "ROTMNIST"
	fileVersion = 1
)

// Save writes d to path atomically (a killed run leaves the old file or
// none, never half of one).
func (d *Dataset) Save(path string) error {
	return atomicfile.Write(path, func(w io.Writer) error { return d.Write(w) })
}

// Write encodes d in the dataset file format.
func (d *Dataset) Write(w io.Writer) error {
	opts, err := json.Marshal(d.Options)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	crc := crc32.NewIEEE()
	e := &encoder{w: io.MultiWriter(bw, crc)}
	e.raw([]byte(fileMagic))
	e.u32(fileVersion)
	e.u32(uint32(len(opts)))
	e.raw(opts)
	e.u64(uint64(d.Seed))
	e.u32(uint32(d.Train.Frames))
	e.u32(uint32(d.Train.Height))
	e.u32(uint32(d.Train.Width))
	splits, _ := d.Splits()
	for _, s := range splits {
		e.u32(uint32(s.Videos))
		e.raw(s.Labels)
		for _, a := range [][]int32{s.Sources, s.X0, s.Y0} {
			for _, v := range a {
				e.u32(uint32(v))
			}
		}
		for _, a := range [][]float64{s.Times, s.Angles} {
			for _, v := range a {
				e.u64(math.Float64bits(v))
			}
		}
		e.raw(s.Pixels)
	}
	if e.err != nil {
		return e.err
	}
	if err := binary.Write(bw, binary.LittleEndian, crc.Sum32()); err != nil {
		return err
	}
	return bw.Flush()
}

type encoder struct {
	w   io.Writer
	b   [8]byte
	err error
}

func (e *encoder) raw(p []byte) {
	if e.err == nil {
		_, e.err = e.w.Write(p)
	}
}
func (e *encoder) u32(v uint32) { binary.LittleEndian.PutUint32(e.b[:4], v); e.raw(e.b[:4]) }
func (e *encoder) u64(v uint64) { binary.LittleEndian.PutUint64(e.b[:], v); e.raw(e.b[:]) }

// Load reads and validates a dataset file; errors name path and offset.
func Load(path string) (*Dataset, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("rotmnist: %w", err)
	}
	defer f.Close()
	size := int64(-1)
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		size = fi.Size()
	}
	return read(f, path, size)
}

// Read decodes a dataset file from r; name is used in error messages. It
// allocates only as the data arrives, so a corrupt header cannot make it
// reserve more memory than the input holds.
func Read(r io.Reader, name string) (*Dataset, error) { return read(r, name, -1) }

// read is Read knowing the input's size (or -1): then each array is
// checked against the bytes left and read in one piece.
func read(r io.Reader, name string, size int64) (*Dataset, error) {
	crc := crc32.NewIEEE()
	dec := &decoder{r: bufio.NewReaderSize(r, 64<<10), crc: crc, name: name, size: size}
	if string(dec.bytes(8, "magic")) != fileMagic && dec.err == nil {
		return nil, dec.errorf(0, "bad magic: not a rotmnist dataset file (want %q)", fileMagic)
	}
	if v := dec.u32("version"); v != fileVersion && dec.err == nil {
		return nil, dec.errorf(8, "version %d: this reader knows %d", v, fileVersion)
	}
	at := dec.off
	n := dec.u32("options length")
	if n > 1<<16 && dec.err == nil {
		return nil, dec.errorf(at, "options of %d bytes", n)
	}
	at = dec.off
	opts := dec.bytes(int(n), "options")
	d := &Dataset{}
	if dec.err != nil {
		return nil, dec.err
	}
	if err := json.Unmarshal(opts, &d.Options); err != nil {
		return nil, dec.errorf(at, "options: %w", err)
	}
	if err := d.Options.Validate(); err != nil {
		return nil, dec.errorf(at, "options: %w", err)
	}
	o := d.Options
	d.Seed = int64(dec.u64("seed"))
	at = dec.off
	frames, height, width := int(dec.u32("frames")), int(dec.u32("height")), int(dec.u32("width"))
	if dec.err == nil && (frames != o.VideoLength || height != o.CanvasSize || width != o.CanvasSize) {
		return nil, dec.errorf(at, "frames %d of %dx%d: the options say %d of %dx%d", frames, height, width, o.VideoLength, o.CanvasSize, o.CanvasSize)
	}
	splits, names := d.Splits()
	for k, s := range splits {
		at := dec.off
		v := int(dec.u32(names[k] + " videos"))
		if want := [3]int{o.NumTrain, o.NumVal, o.NumTest}[k]; v != want && dec.err == nil {
			return nil, dec.errorf(at, "%s set has %d videos: the options say %d", names[k], v, want)
		}
		*s = Split{Videos: v, Frames: frames, Height: height, Width: width}
		at = dec.off
		s.Labels = dec.bytes(v, names[k]+" labels")
		for i, l := range s.Labels {
			if int(l) >= o.NumDigits {
				return nil, dec.errorf(at+int64(i), "%s video %d: digit %d, but --num-digits=%d", names[k], i, l, o.NumDigits)
			}
		}
		s.Sources, s.X0, s.Y0 = dec.i32s(v, names[k]+" sources"), dec.i32s(v, names[k]+" x0"), dec.i32s(v, names[k]+" y0")
		at = dec.off
		s.Times, s.Angles = dec.f64s(v*frames, names[k]+" times"), dec.f64s(v*frames, names[k]+" angles")
		for i, t := range append(s.Times[:len(s.Times):len(s.Times)], s.Angles...) {
			if math.IsNaN(t) || math.IsInf(t, 0) {
				return nil, dec.errorf(at+8*int64(i), "%s: time or angle %v", names[k], t)
			}
		}
		s.Pixels = dec.bytes(v*frames*height*width, names[k]+" pixels")
		if dec.err != nil {
			return nil, dec.err
		}
	}
	at = dec.off
	sum := crc.Sum32()
	dec.crc = nil
	if got := dec.u32("checksum"); got != sum && dec.err == nil {
		return nil, dec.errorf(at, "checksum %#08x, content sums to %#08x: the file is corrupt", got, sum)
	}
	if dec.err != nil {
		return nil, dec.err
	}
	if _, err := dec.r.ReadByte(); err != io.EOF {
		return nil, dec.errorf(dec.off, "trailing data after the checksum")
	}
	return d, nil
}

type decoder struct {
	r    *bufio.Reader
	crc  hash.Hash32
	name string
	off  int64
	size int64 // bytes in the input, or -1 when unknown
	err  error // the first error; later reads return zeros
}

func (d *decoder) errorf(off int64, format string, args ...any) error {
	return fmt.Errorf("rotmnist: %s: offset %d: %w", d.name, off, fmt.Errorf(format, args...))
}

// bytes reads n bytes: at once when the input's size shows they are there,
// else in chunks of at most 1 MiB, growing with the data.
func (d *decoder) bytes(n int, what string) []byte {
	if d.err != nil {
		return nil
	}
	if d.size >= 0 && int64(n) > d.size-d.off {
		d.err = d.errorf(d.size, "truncated: %s needs %d bytes, the file ends after %d", what, n, d.size-d.off)
		return nil
	}
	chunk := 1 << 20
	if d.size >= 0 {
		chunk = max(n, 1)
	}
	out := make([]byte, 0, min(n, chunk))
	for len(out) < n {
		k := min(n-len(out), chunk)
		out = append(out, make([]byte, k)...)
		got, err := io.ReadFull(d.r, out[len(out)-k:])
		if err != nil {
			d.err = d.errorf(d.off+int64(len(out)-k+got), "truncated: %s needs %d bytes, the file ends after %d", what, n, len(out)-k+got)
			return nil
		}
	}
	if d.crc != nil {
		d.crc.Write(out)
	}
	d.off += int64(n)
	return out
}

func (d *decoder) u32(what string) uint32 {
	if b := d.bytes(4, what); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (d *decoder) u64(what string) uint64 {
	if b := d.bytes(8, what); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

func (d *decoder) i32s(n int, what string) []int32 {
	b := d.bytes(4*n, what)
	out := make([]int32, len(b)/4)
	for i := range out {
		out[i] = int32(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out
}

func (d *decoder) f64s(n int, what string) []float64 {
	b := d.bytes(8*n, what)
	out := make([]float64, len(b)/8)
	for i := range out {
		out[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return out
}
